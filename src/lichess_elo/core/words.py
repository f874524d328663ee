"""The one implementation of the small wording rules shared by the core's messages and output."""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games`` (``many`` for an irregular plural)."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"


#: Letters that NFKD does not take apart into a base letter and a mark (Polish ł, Danish
#: ø, Croatian đ, ...), folded by hand.
_UNDECOMPOSED = str.maketrans(
    {"ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ħ": "h", "Ħ": "h",
     "ı": "i", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th"}
)  # fmt: skip


def fold(text: str) -> str:
    """``text`` as people type it: case, accents and spacing folded (``Zielińska``,
    ``zielinska`` and ``ZIELINSKA`` all give ``zielinska``; ``Łukasz`` gives ``lukasz``)."""
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text.translate(_UNDECOMPOSED))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def match_folded(value: str, choices: Sequence[str]) -> list[str]:
    """The ``choices`` that ``value`` names: the exact one if there is one, else every one
    equal to it once folded (``fold``); several means it is ambiguous, none unknown."""
    if value in choices:
        return [value]
    key = fold(value)
    return [c for c in choices if fold(c) == key]


def closest(value: str, choices: Sequence[str], n: int = 3) -> list[str]:
    """Up to ``n`` of ``choices`` closest to ``value`` once both are folded (difflib's
    ratio of at least 0.6), closest first: the "did you mean" of a mistyped name."""
    import difflib

    keys: dict[str, str] = {}
    for choice in choices:
        keys.setdefault(fold(choice), choice)
    return [keys[k] for k in difflib.get_close_matches(fold(value), list(keys), n, 0.6)]


def did_you_mean(value: str, choices: Sequence[str]) -> str:
    """``"did you mean 'a' or 'b'?"`` for the choices closest to ``value``, or ``""``."""
    near = [repr(c) for c in closest(value, choices)]
    if not near:
        return ""
    names = near[0] if len(near) == 1 else f"{', '.join(near[:-1])} or {near[-1]}"
    return f"did you mean {names}?"
