"""The typed rows and results of the ``db`` commands: what the runners (``sources/population``)
return, the use cases (``app/db.py``) pass on and ``output/db*.py`` prints. Plain data, no I/O.

A row of a list or of a player keeps the shape of its JSON object (a ``TypedDict``, keys in
the order printed); every other result is a frozen dataclass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from lichess_elo.core.frames import data_frame
from lichess_elo.core.population.dialect import RateEngine
from lichess_elo.core.population.list_rules import ListRules
from lichess_elo.core.population.schema import month_label
from lichess_elo.core.population.scorecard import MonthScore

#: Called with (index of the file, games read in it, bytes consumed, file size).
FileProgress = Callable[[int, int, int, int], None]


# --- ingest ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MonthIngested:
    """What one month holds after the ingest."""

    month: int
    games: int
    rejected: dict[str, int]


@dataclass(frozen=True)
class IngestResult:
    """The files read, what each month they covered now holds, and the files skipped
    because the database already held them in full (an earlier run read them)."""

    files: tuple[Path, ...]
    months: tuple[MonthIngested, ...]
    unplaced: int
    seconds: float
    skipped: tuple[Path, ...] = ()

    @property
    def games(self) -> int:
        """Games stored."""
        return sum(m.games for m in self.months)

    @property
    def rejected(self) -> dict[str, int]:
        """Unusable games by reason, over all months (plus those with no month)."""
        out: dict[str, int] = {}
        for m in self.months:
            for reason, n in m.rejected.items():
                out[reason] = out.get(reason, 0) + n
        if self.unplaced:
            out["malformed"] = out.get("malformed", 0) + self.unplaced
        return out


# --- rate -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RateResult:
    """What ``rate`` built, and under which rules (one record per perf)."""

    engine: RateEngine
    perfs: tuple[str, ...]
    months: tuple[str, ...]
    games: int
    players: dict[str, int]
    seconds: float
    #: Sides of games of the perfs that no list rates (the 600/2600 rule of the editions
    #: that have it), counted once per side.
    left_out: int = 0
    rules: tuple[ListRules, ...] = ()


# --- list and player ------------------------------------------------------------------------


class ListRow(TypedDict):
    """One player of a published list (``db list``)."""

    name: str
    rating: int
    games_before: int
    k: int
    lichess_rating: int | None


class PlayerRow(TypedDict):
    """One month of a player's list in one perf (``db player``): the list at its start and
    what the month's rated games did to it (``points`` and ``expected`` in points)."""

    perf: str
    name: str
    month: str
    rating: int
    games_before: int
    k: int
    lichess_rating: int | None
    games: int
    points: float
    expected: float
    k_used: int
    change: int
    next_rating: int
    edition: str | None


#: The columns of ``RatingList.to_dict``/``to_frame``, in order.
LIST_COLUMNS = ("perf", "month", *ListRow.__annotations__)
#: The columns of ``PlayerRows.to_dict``/``to_frame``, in order.
PLAYER_COLUMNS = tuple(PlayerRow.__annotations__)


@dataclass(frozen=True)
class RatingList:
    """One published list: players sorted by rating (highest first), then name."""

    perf: str
    month: str
    players: list[ListRow] = field(default_factory=list)
    rules: ListRules | None = None

    def document(self) -> dict[str, Any]:
        """The JSON document of ``db list``."""
        return {
            "perf": self.perf,
            "month": self.month,
            "rules": self.rules.document() if self.rules else None,
            "players": self.players,
        }

    def to_dict(self) -> list[dict[str, Any]]:
        """One plain dict a player (``LIST_COLUMNS``): the list's perf and month, then the
        row of ``db list``."""
        return [{"perf": self.perf, "month": self.month, **row} for row in self.players]

    def to_frame(self) -> Any:
        """``to_dict()`` as a ``pandas.DataFrame`` (pandas imported here, not by the
        package).

        Raises:
            PackageMissing: pandas is not installed.
        """
        return data_frame(self.to_dict(), LIST_COLUMNS)


@dataclass(frozen=True)
class PlayerRows:
    """A player's monthly rows (list rating, games, score, expected, K used, change)."""

    name: str
    rows: list[PlayerRow]
    rules: tuple[ListRules, ...] = ()

    def document(self) -> dict[str, Any]:
        """The JSON document of ``db player``."""
        return {
            "name": self.name,
            "rules": [r.document() for r in self.rules],
            "rows": self.rows,
        }

    def to_dict(self) -> list[dict[str, Any]]:
        """One plain dict a month and perf (``PLAYER_COLUMNS``): the rows of ``db
        player``, ``expected`` the sum of the month's expected scores (in points)."""
        return [dict(row) for row in self.rows]

    def to_frame(self) -> Any:
        """``to_dict()`` as a ``pandas.DataFrame`` (pandas imported here, not by the
        package).

        Raises:
            PackageMissing: pandas is not installed.
        """
        return data_frame(self.to_dict(), PLAYER_COLUMNS)


# --- compare --------------------------------------------------------------------------------


@dataclass(frozen=True)
class BandRow:
    """Players of one Lichess-rating band on one list, and their Elo - Lichess."""

    perf: str
    month: int
    band: int
    players: int
    mean: float
    median: float


@dataclass(frozen=True)
class Differ:
    """A player on the last list whose FIDE-rules rating is far from the Lichess one."""

    perf: str
    name: str
    rating: int
    lichess_rating: int
    games_before: int

    @property
    def difference(self) -> int:
        """Elo - Lichess."""
        return self.rating - self.lichess_rating


@dataclass(frozen=True)
class CompareResult:
    """Everything ``db compare`` shows."""

    perfs: tuple[str, ...]
    bands: list[BandRow]
    scores: list[MonthScore]
    differs: list[Differ]
    min_games: int = 0
    #: By perf: players of the last list with a Lichess rating but under ``min_games``.
    few_games: dict[str, int] = field(default_factory=dict)


# --- months ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class HeldMonth:
    """One month of the database: games stored by perf, unusable games, and the players
    ``db rate`` rated in the month (by perf; those with games of that perf in the month)."""

    month: int
    games: int
    rejected: int
    by_perf: dict[str, int] = field(default_factory=dict)
    listed: dict[str, int] = field(default_factory=dict)

    def document(self) -> dict[str, Any]:
        """This month as JSON."""
        return {
            "month": month_label(self.month),
            "games": self.games,
            "unusable": self.rejected,
            "games_by_perf": self.by_perf,
            "players_rated": self.listed,
        }


@dataclass(frozen=True)
class Holdings:
    """Every month the database holds, oldest first, and whether ``db rate`` has run."""

    months: list[HeldMonth]
    rated: bool

    def document(self) -> dict[str, Any]:
        """The JSON document of ``db months``."""
        return {"rated": self.rated, "months": [m.document() for m in self.months]}
