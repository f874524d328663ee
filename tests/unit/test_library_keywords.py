"""A mistyped keyword to any public call raises the library's ``UnknownKeyword`` naming the
keyword, the keywords the call takes and the closest one, not Python's
bare ``TypeError``: every callable of ``lichess_elo.__all__``, with seeded typos."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any

import pytest

import lichess_elo
from lichess_elo.core.club.options import ClubOptions
from lichess_elo.core.words import closest
from lichess_elo.errors import BadArgument, UnknownKeyword, WrongType

#: Records built, and functions called, once a game on the hot path (parsing, ingest): a
#: wrapper would cost every game a call. Python's own ``TypeError`` names the keyword.
HOT = frozenset({"Clock", "Game", "Side", "PerfStats", "UserInfo", "speed_of"})
#: An interface, never built itself.
INTERFACES = frozenset({"GameSource"})
#: Old names kept for one release: the callable is checked under its new name.
ALIASES = frozenset({"Source"})  # LichessSettings
#: Typos drawn for each checked callable.
TYPOS_EACH = 3


def _callables() -> dict[str, Callable[..., Any]]:
    found = {}
    for name in lichess_elo.__all__:
        value = getattr(lichess_elo, name)
        if callable(value) and not inspect.ismodule(value):
            found[name] = value
    return found


def _keywords(value: Callable[..., Any]) -> list[str]:
    """The names a call takes by keyword."""
    func = value.__init__ if isinstance(value, type) else value  # type: ignore[misc]
    params = list(inspect.signature(func).parameters.values())[isinstance(value, type) :]
    takes = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in params if p.kind in takes]


def _typo(word: str, rng: random.Random) -> str:
    """One slip of the keyboard: a capital, a letter dropped, doubled or swapped."""
    kind = rng.randrange(4)
    i = rng.randrange(len(word))
    if kind == 0 or len(word) < 3:
        return word[:i] + word[i].upper() + word[i + 1 :] if word[i].isalpha() else word + "s"
    if kind == 1:
        return word[:i] + word[i + 1 :]
    if kind == 2:
        return word[:i] + word[i] * 2 + word[i + 1 :]
    i = min(i, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def _cases() -> list[tuple[str, str, str]]:
    """(public name, the keyword meant, the typo), seeded: the same cases every run."""
    rng = random.Random(21)
    cases = []
    for name, value in sorted(_callables().items()):
        if name in HOT | INTERFACES | ALIASES:
            continue
        keywords = _keywords(value)
        for _ in range(TYPOS_EACH):
            meant = rng.choice(keywords)
            typo = _typo(meant, rng)
            while typo in keywords:
                typo = _typo(meant, rng)
            cases.append((name, meant, typo))
    return cases


CASES = _cases()


def test_the_walk_covers_every_public_callable_but_the_hot_ones() -> None:
    # 34 public callables: 20 classes (ChessComGames the 20th), 13 functions and the old
    # name Source (an alias of LichessSettings); less the 6 hot ones, the GameSource
    # interface and the alias, 26 are checked, 3 typos each
    assert len(_callables()) == 34
    assert len(CASES) == 26 * TYPOS_EACH


@pytest.mark.parametrize(("name", "meant", "typo"), CASES)
def test_a_mistyped_keyword_names_the_call_its_keywords_and_the_closest(
    name: str, meant: str, typo: str
) -> None:
    value = _callables()[name]
    with pytest.raises(UnknownKeyword) as caught:
        value(**{typo: None})
    error = caught.value
    assert isinstance(error, BadArgument) and isinstance(error, TypeError)
    assert error.field == typo and error.call == name
    assert error.accepted == tuple(_keywords(value))
    assert meant in closest(typo, error.accepted)
    assert str(error).startswith(f"{name}() takes no keyword {typo!r} (did you mean ")


def test_club_options_capital_k() -> None:
    with pytest.raises(UnknownKeyword) as caught:
        ClubOptions(K=40)  # type: ignore[call-arg]
    message = str(caught.value)
    assert message.startswith("ClubOptions() takes no keyword 'K' (did you mean 'k'?); it takes k,")


def test_a_known_keyword_s_own_error_passes_through() -> None:
    # the keyword is right, its value the wrong type: the record's own check answers
    with pytest.raises(WrongType) as caught:
        ClubOptions(cap="yes")  # type: ignore[arg-type]
    assert not isinstance(caught.value, UnknownKeyword) and caught.value.field == "cap"
    # a positional argument too many is Python's TypeError, untouched
    with pytest.raises(TypeError) as extra:
        lichess_elo.parse_score("1", "score", "more")  # type: ignore[call-arg]
    assert not isinstance(extra.value, UnknownKeyword)


@pytest.mark.parametrize("name", sorted(HOT))
def test_the_hot_records_keep_python_s_error(name: str) -> None:
    with pytest.raises(TypeError, match="Initial"):
        _callables()[name](Initial=1)


def test_again_without_names_the_input_only_at_the_command_line() -> None:
    from lichess_elo.errors import AgainWithout

    exc = AgainWithout("perf", "the blitz lists are old", "rate every perf again")
    # the library's words: the input by its logical name, no option
    assert exc.describe() == "the blitz lists are old; rate every perf again (without perf)"
    assert "--" not in str(exc)
    # the command line's: the option for it
    assert exc.describe({"perf": "--perf"}).endswith("(without --perf)")
    assert exc.exit_code == 2
