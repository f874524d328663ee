"""DuckDB: the file database and the stages run in-process, month after month."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb

from lichess_elo.core.population import stages
from lichess_elo.core.population.dialect import DUCKDB
from lichess_elo.core.population.list_rules import ListRules
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import (
    GAMES_CHAPTER_DDL,
    GAMES_DDL,
    GAMES_EVENT_DDL,
    GAMES_IDS_DDL,
    LISTS_COLUMNS,
    MONTHS_DDL,
    PLAYER_IDS_DDL,
    REJECTS_DDL,
    month_range,
    next_month,
)
from lichess_elo.core.population.stages import Opponents
from lichess_elo.errors import DatabaseMissing, NotRated
from lichess_elo.sources.population import list_rules_store, rivals_run
from lichess_elo.sources.population.duck_faults import check_file, open_waiting
from lichess_elo.sources.transactions import rollback_quietly

#: Memory DuckDB may use in ``db rate`` before spilling to ``<db>.tmp`` (keeps the process
#: under 1 GB).
MEMORY_LIMIT = "500MB"
#: The same for ``db ingest``, lower: Python holds its decompression buffers and batches
#: beside. (A file's games, appended in its one transaction, go to the file as their row
#: groups fill.)
INGEST_MEMORY_LIMIT = "250MB"
LISTS_DDL = """
CREATE TABLE lists (perf VARCHAR, name VARCHAR, month INTEGER, rating INTEGER,
    games_before BIGINT, k INTEGER, peak INTEGER, lichess_rating INTEGER, games BIGINT,
    points BIGINT, expected BIGINT, k_used INTEGER, change BIGINT, next_rating BIGINT,
    next_games_before BIGINT, next_peak INTEGER, next_lichess INTEGER, edition VARCHAR)"""


def connect(
    path: Path, *, create: bool = False, read_only: bool = False
) -> duckdb.DuckDBPyConnection:
    """Open the database file (made with ``create``) with the tables in place.

    ``create`` is the ingest's mode: DuckDB then keeps within ``INGEST_MEMORY_LIMIT`` and
    spills the rest to ``<db>.tmp``, so memory stays flat whatever the size of the dumps.
    ``read_only`` (the commands that only read) opens it beside other readers, and a
    file the user may only read. A file that is not a DuckDB database is refused before
    DuckDB reads it, extensions are never installed or loaded, and another run's lock is
    waited for as long as the SQLite cache's (``duck_faults``).

    Raises:
        DatabaseMissing: the file does not exist and ``create`` is false (or, read-only,
            holds no games table).
        NotADatabase, DatabaseFault, BadInput: see ``duck_faults.check_file``.
    """
    if not create and not path.is_file():
        raise DatabaseMissing(path)
    check_file(path)
    con = open_waiting(path, read_only=read_only)
    if read_only:
        if not con.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_name = 'games'"
        ).fetchall():
            con.close()
            raise DatabaseMissing(path)
        return con
    if create:
        con.execute(f"SET memory_limit = '{INGEST_MEMORY_LIMIT}'")
    for ddl in (GAMES_DDL, GAMES_EVENT_DDL, GAMES_CHAPTER_DDL, *GAMES_IDS_DDL, PLAYER_IDS_DDL):
        con.execute(ddl)
    for ddl in (REJECTS_DDL, MONTHS_DDL):
        con.execute(ddl)
    return con


def load_pd_table(con: duckdb.DuckDBPyConnection) -> None:
    """Table 8.1.2 as the temp table ``pd_table`` (d, pd_high, pd_low in hundredths)."""
    con.execute(
        "CREATE OR REPLACE TEMP TABLE pd_table (d INTEGER, pd_high INTEGER, pd_low INTEGER)"
    )
    con.executemany("INSERT INTO pd_table VALUES (?, ?, ?)", list(stages.pd_rows()))


def game_months(con: duckdb.DuckDBPyConnection, perfs: Sequence[str]) -> list[int]:
    """Every month from the first to the last with games of ``perfs``, plus the one after."""
    row = con.execute(
        "SELECT MIN(month), MAX(month) FROM games WHERE perf IN (SELECT UNNEST(?))",
        [list(perfs)],
    ).fetchone()
    if row is None or row[0] is None:
        return []
    return month_range(int(row[0]), next_month(int(row[1])))


def games_by_month(con: duckdb.DuckDBPyConnection, perfs: Sequence[str]) -> dict[int, int]:
    """How many games of ``perfs`` each month holds (months without games left out)."""
    found = con.execute(
        "SELECT month, COUNT(*) FROM games WHERE perf IN (SELECT UNNEST(?)) GROUP BY month",
        [list(perfs)],
    ).fetchall()
    return {int(m): int(n) for m, n in found}


def rate(
    con: duckdb.DuckDBPyConnection,
    perfs: Sequence[str],
    plan: Sequence[MonthRules],
    records: Sequence[ListRules],
    *,
    opponents: Opponents = "list",
    on_month: Callable[[int], None] | None = None,
) -> list[int]:
    """Rebuild the lists of ``perfs``, one month of ``plan`` after another (its rules);
    return the months processed. ``records`` replace the perfs' rules records.

    The months' rows go to ``lists_build``, which replaces ``lists`` in one transaction at
    the end: an interrupted run leaves the old lists whole. The months themselves run
    outside that transaction, so each replaced temp table is freed at once; DuckDB keeps
    within ``MEMORY_LIMIT`` (spilling to ``<db>.tmp`` if it must), so memory does not grow
    with the players or the months. Then the perfs' Glicko-1 and Stephenson tracks
    (``rivals_run.rate_duckdb``), from the same ``names`` and ``players``.
    """
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    # No statement here needs its rows in order (the readers sort); unordered, DuckDB
    # writes the temp tables and the lists from both threads at once.
    con.execute("SET preserve_insertion_order = false")
    load_pd_table(con)
    con.execute(
        "CREATE OR REPLACE TEMP VIEW games_p AS SELECT * FROM games WHERE perf IN "
        f"({', '.join(repr(p) for p in perfs)})"
    )
    con.execute(f"DROP TABLE IF EXISTS {BUILD}")
    con.execute(LISTS_DDL.replace("TABLE lists", f"TABLE {BUILD}"))
    try:
        for name, query in (
            ("names", stages.names_sql(DUCKDB, "games_p")),
            ("players", stages.players_sql()),
            ("cur", stages.INITIAL),
        ):
            _temp(con, name, query)
        for rules in plan:
            _run_month(con, rules, opponents)
            if on_month:
                on_month(rules.month)
        swap_lists(con, perfs, records)
        for name in ("cur", "step"):
            con.execute(f"DROP TABLE IF EXISTS temp.{name}")
        rivals_run.rate_duckdb(con, perfs, "games_p")
    finally:
        for name in ("names", "players", "cur", "step"):
            con.execute(f"DROP TABLE IF EXISTS temp.{name}")
        con.execute(f"DROP TABLE IF EXISTS {BUILD}")
        con.execute("RESET preserve_insertion_order")
    return [rules.month for rules in plan]


#: Where ``rate`` writes the new lists before they replace ``lists``.
BUILD = "lists_build"


def _temp(con: duckdb.DuckDBPyConnection, name: str, query: str) -> None:
    con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {query}")


def _run_month(con: duckdb.DuckDBPyConnection, rules: MonthRules, opponents: Opponents) -> None:
    if rules.compressions:
        _temp(con, "cur", stages.compress_sql(DUCKDB, rules))
    con.execute("DROP TABLE IF EXISTS step")  # last month's, so both are never held at once
    _temp(con, "step", stages.step_sql(DUCKDB, rules, "games_p", opponents=opponents))
    con.execute(f"INSERT INTO {BUILD} ({', '.join(LISTS_COLUMNS)}) {stages.listed_sql(DUCKDB)}")
    _temp(con, "cur", stages.ADVANCE)


def swap_lists(
    con: duckdb.DuckDBPyConnection, perfs: Sequence[str], records: Sequence[ListRules]
) -> None:
    """``lists_build`` plus the rows of the other perfs becomes ``lists``, and ``records``
    replace the perfs' rules records, in one transaction."""
    con.execute("BEGIN")
    try:
        if has_lists(con):
            if kept_perfs(con, perfs):
                cols = ", ".join(LISTS_COLUMNS)
                con.execute(
                    f"INSERT INTO {BUILD} ({cols}) SELECT {cols} FROM lists "
                    "WHERE perf NOT IN (SELECT UNNEST(?))",
                    [list(perfs)],
                )
            con.execute("DROP TABLE lists")
        con.execute(f"ALTER TABLE {BUILD} RENAME TO lists")
        list_rules_store.store(con, records)
        con.execute("COMMIT")
    except BaseException:
        rollback_quietly(lambda: con.execute("ROLLBACK"))
        raise


def kept_perfs(con: duckdb.DuckDBPyConnection, perfs: Sequence[str]) -> list[str]:
    """The perfs with stored lists other than ``perfs`` (kept by a run of ``perfs``)."""
    if not has_lists(con):
        return []
    found = con.execute(
        "SELECT DISTINCT perf FROM lists WHERE perf NOT IN (SELECT UNNEST(?)) ORDER BY 1",
        [list(perfs)],
    ).fetchall()
    return [str(r[0]) for r in found]


def has_lists(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``db rate`` has built lists in this database."""
    row = con.execute(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'lists'"
    ).fetchone()
    return row is not None and row[0] > 0


def require_lists(con: duckdb.DuckDBPyConnection) -> None:
    """Raise ``NotRated`` unless lists exist."""
    if not has_lists(con):
        raise NotRated("the database has no lists yet (or new games since): rate it first")


def rows(
    con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = ()
) -> list[dict[str, Any]]:
    """The result of ``sql`` as a list of dicts."""
    cursor = con.execute(sql, list(params))
    names = [d[0] for d in cursor.description or ()]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
