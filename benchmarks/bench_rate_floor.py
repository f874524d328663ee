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

Since ``db ingest`` writes the players' ids with the games (``white_id``, ``black_id``),
``floor(db, stored_ids=True)`` times the floor that starts from them: each player's seed
(one ``GROUP BY`` of the ids), the sides from the stored ids, the same monthly loop; no
string is read.

Run ``python benchmarks/bench_rate_floor.py --data DIR`` (the ``--data`` folder of
``bench_db.py``: its ``rate-<games>-<players>.duckdb`` files are used, or made), or
``python benchmarks/bench_rate_floor.py --db FILE [--stored-ids]`` on one database made by
``db ingest`` (``bench_db.py --dumps`` runs it so, as a whole command).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import duckdb

from lichess_elo.core.population import stages
from lichess_elo.core.population.dialect import DUCKDB


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def floor(db: Path, stored_ids: bool = False) -> list[tuple[str, float, float]]:
    """(step, wall s, CPU s) of the floor on ``db``, and the total; ``stored_ids``: from the
    ids ``db ingest`` stored with the games, not from the names."""
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

    if stored_ids:
        timed(
            "seeds by the stored ids",
            """CREATE TEMP TABLE cur AS
            SELECT id AS pid, min_by(elo, (month, ord)) AS rating,
                   CAST(0 AS BIGINT) AS games_before
            FROM (SELECT white_id AS id, white_elo AS elo, month, ord FROM games
                  UNION ALL SELECT black_id, black_elo, month, ord FROM games)
            GROUP BY id""",
        )
        timed(
            "game sides from the stored ids",
            """CREATE TEMP TABLE sides AS
            SELECT month, white_id AS pid, black_id AS opp, score AS s FROM games
            UNION ALL SELECT month, black_id, white_id, 100 - score FROM games""",
        )
        carry = """CREATE OR REPLACE TEMP TABLE cur AS
            SELECT c.pid, COALESCE(c.rating + s.e // 1000, c.rating) AS rating,
                   c.games_before + COALESCE(s.n, 0) AS games_before
            FROM cur c LEFT JOIN step s ON s.pid = c.pid"""
    else:
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
        carry = """CREATE OR REPLACE TEMP TABLE cur AS
            SELECT c.pid, c.perf, COALESCE(c.rating + s.e // 1000, c.rating) AS rating,
                   c.games_before, c.peak, c.lichess_rating
            FROM cur c LEFT JOIN step s ON s.pid = c.pid"""
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
            carry,
        ]
    timed(f"{len(months)} months: join, group, carry", *steps)
    out.append(("floor in all", time.perf_counter() - start, _cpu() - cpu0))
    con.close()
    return out


def _print(steps: list[tuple[str, float, float]], n: int) -> None:
    for label, wall, cpu in steps:
        print(f"  {label:36s} {wall:6.2f}  {cpu:6.2f}")
    total = steps[-1][1]
    verdict = "slower than" if total > n / 1e6 else "within"
    print(f"  the floor alone: {n / total / 1e6:.2f} M games/s, {verdict} 1 M games/s")


def main() -> None:
    """Time the floor at each player count on 10 M generated games (or on one ``--db``)."""
    from bench_common import machine
    from bench_db import synthetic

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--players", default="51111,150000,500000")
    parser.add_argument("--data", type=Path, help="bench_db.py's --data folder")
    parser.add_argument("--db", type=Path, help="one database made by db ingest: its floor")
    parser.add_argument(
        "--stored-ids", action="store_true", help="the floor from the ids db ingest stored"
    )
    args = parser.parse_args()
    if args.db is not None:  # one database, no heading (bench_db.py --dumps times it whole)
        con = duckdb.connect(str(args.db), read_only=True)
        row = con.execute("SELECT COUNT(*) FROM games").fetchone()
        con.close()
        print(f"{row[0] if row else 0:,} games        wall s   CPU s")
        _print(floor(args.db, args.stored_ids), int(row[0]) if row else 0)
        return
    if args.data is None:
        parser.error("--data DIR or --db FILE is needed")
    args.data.mkdir(parents=True, exist_ok=True)
    print(machine())
    for players in (int(p) for p in args.players.split(",")):
        db = args.data / f"rate-{args.games}-{players}.duckdb"
        n = synthetic(db, args.games, players)
        print(f"\n{n:,} games, {players:,} players        wall s   CPU s")
        _print(floor(db, args.stored_ids), n)


if __name__ == "__main__":
    main()
