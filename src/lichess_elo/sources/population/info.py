"""``db months``: what a database holds, month by month: the games stored per perf, the
games left unusable, and (once ``db rate`` has run) the players it rated in the month."""

from __future__ import annotations

from pathlib import Path

from lichess_elo.core.population.rows import HeldMonth, Holdings
from lichess_elo.core.population.schema import PERFS
from lichess_elo.sources.population import duck


def holdings(db: Path) -> Holdings:
    """The months of the database ``db`` with their games by perf and players rated.

    Raises:
        DatabaseMissing: no such database (or no games table in it).
    """
    con = duck.connect(db, read_only=True)
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
