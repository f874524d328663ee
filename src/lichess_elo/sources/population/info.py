"""``db months``: what a database holds, month by month: the games stored per perf, the
games left unusable, and (once ``db rate`` has run) the players it rated in the month."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lichess_elo.core.population.schema import PERFS, month_label
from lichess_elo.sources.population import duck
from lichess_elo.sources.population.duck_faults import named_faults


@dataclass(frozen=True)
class MonthsSettings:
    """``db months``: the database to describe."""

    db: Path


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


@named_faults
def holdings(settings: MonthsSettings) -> Holdings:
    """The months of ``settings.db`` with their games by perf and players rated.

    Raises:
        DatabaseMissing: no such database (or no games table in it).
    """
    con = duck.connect(settings.db, read_only=True)
    try:
        totals = con.execute("SELECT month, games, rejected FROM months ORDER BY month").fetchall()
        by_perf: dict[int, dict[str, int]] = {}
        for month, perf, n in con.execute(
            "SELECT month, perf, COUNT(*) FROM games GROUP BY month, perf"
        ).fetchall():
            by_perf.setdefault(int(month), {})[str(perf)] = int(n)
        rated = duck.has_lists(con)
        listed: dict[int, dict[str, int]] = {}
        if rated:
            for month, perf, n in con.execute(
                "SELECT month, perf, COUNT(*) FROM lists GROUP BY month, perf"
            ).fetchall():
                listed.setdefault(int(month), {})[str(perf)] = int(n)
    finally:
        con.close()
    months = sorted({int(m) for m, _, _ in totals} | set(listed))
    total = {int(m): (int(g), int(r)) for m, g, r in totals}
    order = {p: i for i, p in enumerate(PERFS)}
    return Holdings(
        [
            HeldMonth(
                month,
                *total.get(month, (0, 0)),
                by_perf=dict(sorted(by_perf.get(month, {}).items(), key=lambda x: order[x[0]])),
                listed=dict(sorted(listed.get(month, {}).items(), key=lambda x: order[x[0]])),
            )
            for month in months
        ],
        rated,
    )
