"""``db months`` output: what a database holds, as the one table style, CSV or JSON."""

from __future__ import annotations

from pathlib import Path

from lichess_elo.core.population.rows import Holdings
from lichess_elo.core.population.schema import PERFS, month_label
from lichess_elo.output.common import write_csv
from lichess_elo.output.tables import Column, Table


def _perfs(held: Holdings) -> list[str]:
    seen = {p for m in held.months for p in (*m.by_perf, *m.listed)}
    return [p for p in PERFS if p in seen]


def months_table(held: Holdings, db: Path) -> Table:
    """The months with games stored by perf, unusable games and the players rated."""
    perfs = _perfs(held)
    columns = [Column("month", "left"), Column("games"), Column("unusable", short="unus.")]
    columns += [Column(p, short=p[:5]) for p in perfs]
    columns.append(Column("players rated", "left", fold=1))
    rows = [
        [month_label(m.month), f"{m.games:,}", f"{m.rejected:,}",
         *(f"{m.by_perf.get(p, 0):,}" for p in perfs),
         ", ".join(f"{p} {n:,}" for p, n in m.listed.items()) or "-"]
        for m in held.months
    ]  # fmt: skip
    games = sum(m.games for m in held.months)
    if held.months:
        span = f"{month_label(held.months[0].month)} to {month_label(held.months[-1].month)}"
        title = f"{db}: {len(held.months)} month(s), {span}, {games:,} games stored"
    else:
        title = f"{db}: no months yet"
    notes = [] if held.rated else ["not rated yet: lichess-elo db rate builds the lists"]
    return Table(columns, rows, title=title, notes=notes)


def months_csv(held: Holdings) -> str:
    """``db months`` as CSV: one row per month, games by perf and players rated by perf."""
    perfs = _perfs(held)
    rows = [
        {"month": month_label(m.month), "games": m.games, "unusable": m.rejected,
         **{p: m.by_perf.get(p, 0) for p in perfs},
         **{f"rated_{p}": m.listed.get(p, 0) for p in perfs}}
        for m in held.months
    ]  # fmt: skip
    fields = ("month", "games", "unusable", *perfs, *(f"rated_{p}" for p in perfs))
    return write_csv(rows, fields)
