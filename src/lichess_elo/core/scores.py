"""The one parser of a game score or result, in every accepted spelling.

Pure code, no I/O: every command (``calc``, ``glicko``, ``club``) reads scores and results
through ``parse_score`` and ``parse_result``. Re-exported by ``core.games``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.errors import BadInput, Malformed

_ONE, _HALF, _ZERO = Decimal(1), Decimal("0.5"), Decimal(0)
#: Every accepted spelling of a score from one player's side (or a result from White's,
#: or player A's, side), lower case and without spaces.
_SCORES: Mapping[str, Decimal] = {
    "1": _ONE, "1.0": _ONE, "w": _ONE, "win": _ONE, "1-0": _ONE, "1:0": _ONE,
    "0.5": _HALF, ".5": _HALF, "½": _HALF, "1/2": _HALF, "d": _HALF, "draw": _HALF, "=": _HALF,
    "½-½": _HALF, "1/2-1/2": _HALF, "0.5-0.5": _HALF, "½:½": _HALF,
    "0": _ZERO, "0.0": _ZERO, "l": _ZERO, "loss": _ZERO, "0-1": _ZERO, "0:1": _ZERO,
}  # fmt: skip
#: What the score parser accepts, for messages.
SCORE_SPELLINGS = "1, 0.5, 0, ½, 1/2, w, d, l, =, 1-0, 1:0, ½-½, 1/2-1/2, 0-1 or 0:1"
#: Forfeits, from White's (player A's) side: recorded, never rated (FIDE rating
#: regulations: a game won by forfeit is not rated).
_FORFEITS: Mapping[str, Decimal] = {
    "+:-": _ONE, "+-": _ONE, "+/-": _ONE, "1f-0f": _ONE,
    "-:+": _ZERO, "-+": _ZERO, "-/+": _ZERO, "0f-1f": _ZERO,
}  # fmt: skip
#: What the result parser accepts (a score or a forfeit), for messages.
RESULT_SPELLINGS = f"{SCORE_SPELLINGS}, or a forfeit +:- or -:+"


@keywords_checked
def parse_score(text: str, field: str = "score") -> Decimal:
    """Parse a score (``1``, ``0.5``, ``½``, ``w``/``d``/``l``...) or a result (``1-0``...).

    A result is read from White's (or the first-named player's) side. Case and spaces do
    not matter.

    Raises:
        Malformed: anything else, naming ``field``.
    """
    key = text.strip().lower().replace(" ", "")
    if key in _SCORES:
        return _SCORES[key]
    if key in _FORFEITS:
        raise BadInput("a forfeit is recorded, never rated", field=field, value=text.strip())
    raise Malformed(field, text.strip(), SCORE_SPELLINGS, f"a {field}")


def parse_result(text: str, field: str = "result") -> tuple[Decimal, bool]:
    """A game result from White's (player A's) side: ``(score, forfeit)``.

    Every spelling of ``parse_score``, plus the forfeits ``+:-`` and ``-:+`` (also ``+-``,
    ``-+``, ``+/-``, ``-/+``), which come back with ``forfeit`` true: the result stands,
    the game is never rated.

    Raises:
        Malformed: anything else, naming ``field`` and every accepted spelling.
    """
    key = text.strip().lower().replace(" ", "")
    if key in _FORFEITS:
        return _FORFEITS[key], True
    if key in _SCORES:
        return _SCORES[key], False
    raise Malformed(field, text.strip(), RESULT_SPELLINGS, f"a {field}")
