"""``db rate``'s second part: the Glicko-1 and Stephenson tracks of every player
(``rivals_sql``), one month after another, on DuckDB (on Spark: ``rivals_spark``), stored
in the DuckDB file's ``rivals`` table (read by ``db compare``).

The tracks replace the perfs' rows of ``rivals`` in one transaction at the end; a run
stopped before it leaves the old rows, and ``db compare`` then leaves out (and counts) the
games whose players have no row for the month.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from lichess_elo.core.population.dialect import DUCKDB
from lichess_elo.core.population.rivals_sql import (
    rivals_advance_sql,
    rivals_columns,
    rivals_ddl,
    rivals_initial_sql,
    rivals_listed_sql,
    rivals_step_sql,
)
from lichess_elo.sources.transactions import rollback_quietly

#: Where a run writes the new rows before they replace the perfs' rows of ``rivals``.
BUILD = "rivals_build"


def game_months(con: duckdb.DuckDBPyConnection, perfs: Sequence[str]) -> list[int]:
    """The months (YYYYMM) with games of ``perfs``, in order: the only ones that move a
    track (a month without games changes nothing; the next one's step 1 counts it)."""
    rows = con.execute(
        "SELECT DISTINCT month FROM games WHERE perf IN (SELECT UNNEST(?)) ORDER BY month",
        [list(perfs)],
    ).fetchall()
    return [int(r[0]) for r in rows]


def build_table(con: duckdb.DuckDBPyConnection) -> None:
    """An empty ``rivals_build`` for a run's new rows."""
    con.execute(f"DROP TABLE IF EXISTS {BUILD}")
    con.execute(rivals_ddl().replace("IF NOT EXISTS rivals", BUILD))


def swap(con: duckdb.DuckDBPyConnection, perfs: Sequence[str]) -> None:
    """``rivals_build`` plus the other perfs' rows of ``rivals`` becomes ``rivals``, in one
    transaction (renamed, not copied: only the other perfs' rows are)."""
    cols = ", ".join(rivals_columns())
    con.execute("BEGIN")
    try:
        con.execute(rivals_ddl())
        con.execute(
            f"INSERT INTO {BUILD} ({cols}) SELECT {cols} FROM rivals "
            "WHERE perf NOT IN (SELECT UNNEST(?))",
            [list(perfs)],
        )
        con.execute("DROP TABLE rivals")
        con.execute(f"ALTER TABLE {BUILD} RENAME TO rivals")
        con.execute("COMMIT")
    except BaseException:
        rollback_quietly(lambda: con.execute("ROLLBACK"))
        raise


def rate_duckdb(con: duckdb.DuckDBPyConnection, perfs: Sequence[str], source: str) -> list[int]:
    """Rebuild the perfs' tracks in-process from their games ``source``, with the
    ``names`` and ``players`` tables ``duck.rate`` made of them; return the months with
    games."""
    months = game_months(con, perfs)
    build_table(con)
    try:
        con.execute(f"CREATE OR REPLACE TEMP TABLE rcur AS {rivals_initial_sql()}")
        for month in months:
            con.execute("DROP TABLE IF EXISTS rstep")
            con.execute(f"CREATE TEMP TABLE rstep AS {rivals_step_sql(DUCKDB, month, source)}")
            con.execute(
                f"INSERT INTO {BUILD} ({', '.join(rivals_columns())}) {rivals_listed_sql(DUCKDB)}"
            )
            con.execute(f"CREATE OR REPLACE TEMP TABLE rcur AS {rivals_advance_sql()}")
        swap(con, perfs)
    finally:
        for name in ("rcur", "rstep"):
            con.execute(f"DROP TABLE IF EXISTS temp.{name}")
        con.execute(f"DROP TABLE IF EXISTS {BUILD}")
    return months
