"""Shared test helpers (not fixtures): paths of the bundled data and small game builders.

Test modules import from here, never from one another.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from lichess_elo.core.games import Game, Side

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent
#: The OnBoard247 export (221 real games, 2023-01-25 .. 2023-02-19, see tests/data/lichess).
ONBOARD_FILE = "games-user-export-onboard247-2023-01-02.ndjson"
#: Creation time given to OnBoard247 on the fake server (the real one is not in the data).
ONBOARD_CREATED = datetime(2023, 1, 24, tzinfo=UTC)
#: The report tests' player.
ME = "Hero"


def game(
    gid: str,
    when: datetime,
    rating: int,
    diff: int | None,
    opponent: int | None,
    score: float,
    *,
    perf: str = "blitz",
    rated: bool = True,
    status: str | None = None,
    color: str = "white",
    title: str | None = None,
    ai: int | None = None,
    provisional: bool = False,
) -> Game:
    """A game of Hero; ``score`` is Hero's (1, 0.5, 0)."""
    me = Side(user_id="hero", name=ME, rating=rating, rating_diff=diff, provisional=provisional)
    opp = Side(
        user_id=None if ai else "opp",
        name=None if ai else "Opp",
        title=title,
        rating=opponent,
        rating_diff=None if diff is None else -diff,
        ai_level=ai,
    )
    other = "black" if color == "white" else "white"
    winner = None if score == 0.5 else (color if score == 1 else other)
    white, black = (me, opp) if color == "white" else (opp, me)
    return Game(
        id=gid,
        rated=rated,
        variant="standard",
        speed=perf,
        perf=perf,
        created_at=when,
        status=status or ("draw" if score == 0.5 else "resign"),
        white=white,
        black=black,
        winner=winner,  # type: ignore[arg-type]
    )


def day(month: int, d: int, hour: int = 12) -> datetime:
    """Noon (or ``hour``) UTC on ``d`` ``month`` 2023."""
    return datetime(2023, month, d, hour, tzinfo=UTC)
