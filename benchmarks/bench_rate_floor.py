"""The floor of ``db rate`` on DuckDB (diagnosis): the least SQL a monthly rating
can be, timed on the same generated databases as ``bench_db.py``.

``db rate`` must rate month after month: each month's ratings start from the last one's.
This script times what no formulation of that in DuckDB SQL can skip, with none of the
rules: the players' integer ids (one ``GROUP BY`` of the names), each game side's ids once
(so the months need no string join), and for every month one join of its sides to the list,
one ``GROUP BY`` of the players and the list carried to the next month. No K factor, no
table 8.1.2, no 400-point rule, no lists or tracks written, and no Glicko-1 or Stephenson
track (``db rate`` runs a second month-by-month pass for those).

If this floor takes longer than 10 s for 10 M games, ``db rate`` cannot reach 1 M games/s
on this machine however its SQL is written. It is in-process timing of DuckDB's own work,
a floor for the whole command, not a figure of it.

Run ``python benchmarks/bench_rate_floor.py --data DIR`` (the ``--data`` folder of
``bench_db.py``: its ``rate-<games>-<players>.duckdb`` files are used, or made).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import duckdb
from bench_common import machine
from bench_db import synthetic

from lichess_elo.core.population import stages
from lichess_elo.core.population.dialect import DUCKDB


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def floor(db: Path) -> list[tuple[str, float, float]]:
    """(step, wall s, CPU s) of the floor on ``db``, and the total."""
    con = duckdb.connect(str(db), read_only=True)
    con.execute("SET memory_limit = '500MB'")
    con.execute("SET preserve_insertion_order = false")
    out: list[tuple[str, float, float]] = []
    start, cpu0 = time.perf_counter(), _cpu()

    def timed(label: str, *sql: str) -> None:
        t, c = time.perf_counter(), _cpu()
        for q in sql:
            con.execute(q)
        out.append((label, time.perf_counter() - t, _cpu() - c))

    timed(
        "names: integer ids",
        f"CREATE TEMP TABLE names AS {stages.names_sql(DUCKDB, 'games')}",
        f"CREATE TEMP TABLE players AS {stages.players_sql()}",
        f"CREATE TEMP TABLE cur AS {stages.INITIAL}",
    )
    white, black = stages.perf_key("w.id", "g.perf"), stages.perf_key("b.id", "g.perf")
    timed(
        "game sides' ids, once",
        f"""CREATE TEMP TABLE sides AS
        SELECT g.month, {white} AS pid, {black} AS opp, g.score AS s
        FROM games g JOIN names w ON w.name = g.white JOIN names b ON b.name = g.black
        UNION ALL
        SELECT g.month, {black}, {white}, 100 - g.score
        FROM games g JOIN names w ON w.name = g.white JOIN names b ON b.name = g.black""",
    )
    months = [
        int(r[0]) for r in con.execute("SELECT DISTINCT month FROM sides ORDER BY 1").fetchall()
    ]
    steps = []
    for m in months:
        steps += [
            f"""CREATE OR REPLACE TEMP TABLE step AS
            SELECT s.pid, COUNT(*) AS n, SUM(s.s) AS p, SUM(a.rating - b.rating) AS e
            FROM sides s JOIN cur a ON a.pid = s.pid JOIN cur b ON b.pid = s.opp
            WHERE s.month = {m} GROUP BY s.pid""",
            """CREATE OR REPLACE TEMP TABLE cur AS
            SELECT c.pid, c.perf, COALESCE(c.rating + s.e // 1000, c.rating) AS rating,
                   c.games_before, c.peak, c.lichess_rating
            FROM cur c LEFT JOIN step s ON s.pid = c.pid""",
        ]
    timed(f"{len(months)} months: join, group, carry", *steps)
    out.append(("floor in all", time.perf_counter() - start, _cpu() - cpu0))
    con.close()
    return out


def main() -> None:
    """Time the floor at each player count on 10 M generated games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--players", default="51111,150000,500000")
    parser.add_argument("--data", type=Path, required=True, help="bench_db.py's --data folder")
    args = parser.parse_args()
    args.data.mkdir(parents=True, exist_ok=True)
    print(machine())
    for players in (int(p) for p in args.players.split(",")):
        db = args.data / f"rate-{args.games}-{players}.duckdb"
        n = synthetic(db, args.games, players)
        print(f"\n{n:,} games, {players:,} players        wall s   CPU s")
        steps = floor(db)
        for label, wall, cpu in steps:
            print(f"  {label:36s} {wall:6.2f}  {cpu:6.2f}")
        total = steps[-1][1]
        verdict = "slower than" if total > n / 1e6 else "within"
        print(f"  the floor alone: {n / total / 1e6:.2f} M games/s, {verdict} 1 M games/s")


if __name__ == "__main__":
    main()
