"""Ingest dumps into the DuckDB file: stage the headers, check them in SQL, commit by file.

1. Each batch of raw headers is parsed and checked by one SQL statement, which gives every
   unusable game its reason (``schema.REASONS``), and appended to the temporary table
   ``_stage`` (DuckDB spills it to ``<db>.tmp`` beyond its memory limit, so memory stays
   bounded whatever the size). Which games are rated, which are AI games and what the
   ``Termination`` means follow ``core/lichess_pgn.py`` (its SQL forms), so a monthly dump
   and a user's own export are read alike. The perf comes from the ``Event`` where it
   names one (``Rated Blitz game``, ``rated blitz game``, ``Rapid swiss https://...``) or,
   failing that (an event's name), from ``TimeControl`` through the project's ``speed_of``.
2. Once a file is read, its months are written in one transaction with its row in the
   ledger (``ledger.py``): a month this run has not written yet is replaced (its games,
   reject counts and ``months`` row deleted and inserted together), a month an earlier
   file of the run filled gets this file's games added. Lists built before are dropped in
   the same transaction (they no longer match the games).

An interrupted run (Ctrl-C, kill) keeps every file finished before it, leaves no staging
behind (the tables are temporary) and no file half written; the rerun skips the files the
ledger holds (issue 22).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from lichess_elo.core.games import parse_time_control, speed_of
from lichess_elo.core.population.rows import FileProgress, MonthIngested
from lichess_elo.core.population.schema import HEADERS, REASONS
from lichess_elo.sources import dump_arrow
from lichess_elo.sources.population import ledger
from lichess_elo.sources.population.headers import check_lichess_pgn, read_parquet
from lichess_elo.sources.population.ingest_sql import (
    EVENTS_DDL,
    STAGE_DDL,
    classify_sql,
    new_events_sql,
)


@dataclass(frozen=True)
class FilesIngested:
    """One run's files: those read, those skipped (held in full), the months they filled
    and the games with no month."""

    read: tuple[Path, ...]
    skipped: tuple[Path, ...]
    months: tuple[MonthIngested, ...]
    unplaced: int


def dump_kind(path: Path) -> str:
    """``"pgn.zst"``, ``"pgn"`` or ``"parquet"`` from the file name, else ``""``."""
    name = path.name.lower()
    for kind in ("pgn.zst", "pgn", "parquet"):
        if name.endswith("." + kind):
            return kind
    return ""


def check_file(path: Path) -> None:
    """Refuse a PGN file Lichess did not write (``headers.check_lichess_pgn``), by name.

    Raises:
        NotLichessPgn: it holds no game, or no game with a Lichess ``Site``.
        DumpUnreadable: a ``.pgn.zst`` that is not zstd.
    """
    kind = dump_kind(path)
    if kind in ("pgn", "pgn.zst"):
        check_lichess_pgn(path, compressed=kind == "pgn.zst")


def _speed(tc: str | None) -> str | None:
    """The Lichess speed of a ``TimeControl`` tag (``300+3``, ``-``), ``None`` when it is not
    one; the tag is read by the one ``TimeControl`` reader, ``parse_time_control``."""
    if tc is None:
        return None
    try:
        return speed_of(parse_time_control(tc))
    except ValueError:
        return None


#: Games checked by one SQL statement: many of the reader's batches at once (each
#: statement's rows cost less the more there are: checking 1 M games took 1.37-2.01 CPU-s
#: in statements of 131,072 against 1.62-1.89 of 65,536, alternate runs), but not so many
#: that the last one, checked once the file is read, takes long (262,144: 1.23-1.81 CPU-s,
#: but 0.26-0.38 s for the last statement against 0.10-0.16).
STAGE_ROWS = 131_072
#: DuckDB's threads while it checks the batches: the reader's threads (decompression and
#: the header scan) keep the other core busy, and a second DuckDB thread only adds CPU
#: (1M games: 2.25 CPU-s on two threads, 1.63 on one, in about the same time).
STAGE_THREADS = 1


@dataclass
class Seen:
    """The ``TimeControl`` and ``Event`` values already in ``_speeds`` and ``_events``."""

    tcs: set[str] = field(default_factory=set)
    events: set[str] = field(default_factory=set)


def ingest_files(
    con: duckdb.DuckDBPyConnection, files: Sequence[Path], progress: FileProgress | None
) -> FilesIngested:
    """Stage and commit ``files`` one at a time; a file the ledger holds is skipped (its
    months count as this run's, so a later file of the same month adds to them)."""
    read: list[Path] = []
    skipped: list[Path] = []
    months: dict[int, MonthIngested] = {}
    claimed: set[int] = set()
    unplaced = seq0 = 0
    known = prepare(con)
    for file_no, path in enumerate(files):
        key = ledger.file_key(path)
        held = ledger.finished(con, key)
        if held is not None:  # read in full by an earlier run
            skipped.append(path)
            claimed |= held.months
            seq0 += held.games_read  # the game order is that of one whole run
            continue
        count = stage(con, [path], progress, first=file_no, seq0=seq0, known=known)
        done, lost = commit_file(con, key, count, claimed)
        months.update((m.month, m) for m in done)
        read.append(path)
        unplaced += lost
        seq0 += count
    ordered = tuple(months[m] for m in sorted(months))
    return FilesIngested(tuple(read), tuple(skipped), ordered, unplaced)


def prepare(con: duckdb.DuckDBPyConnection) -> Seen:
    """Start an ingest: the ledger's table and the tables of the time controls and events
    seen (none yet: the ``Seen`` to give ``stage``)."""
    con.execute(ledger.INGESTED_DDL)
    con.execute("CREATE OR REPLACE TEMP TABLE _speeds (tc VARCHAR, speed VARCHAR)")
    con.execute(EVENTS_DDL)
    return Seen()


def stage(
    con: duckdb.DuckDBPyConnection,
    paths: Sequence[Path],
    progress: FileProgress | None,
    *,
    first: int = 0,
    seq0: int = 0,
    known: Seen | None = None,
) -> int:
    """Check the headers of every file as they arrive and put them in ``_stage`` (the files
    are numbered from ``first``, their games from ``seq0``); the number of games read."""
    con.execute(STAGE_DDL)
    known = Seen() if known is None else known
    start = seq0
    with _threads(con, STAGE_THREADS):
        for file_no, path in enumerate(paths, first):
            seq0 += _stage_file(con, path, progress, file_no, seq0, known)
    return seq0 - start


@contextmanager
def _threads(con: duckdb.DuckDBPyConnection, threads: int) -> Iterator[None]:
    """Run with DuckDB on ``threads`` threads, then as before."""
    row = con.execute("SELECT current_setting('threads')").fetchone()
    con.execute(f"SET threads = {threads}")
    try:
        yield
    finally:
        con.execute(f"SET threads = {int(row[0]) if row else threads}")


def _stage_file(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    progress: FileProgress | None,
    file_no: int,
    seq0: int,
    known: Seen,
) -> int:
    """Check the headers of one file into ``_stage``; the number of games read."""
    size = path.stat().st_size

    def on_progress(games: int, done: int) -> None:
        if progress:
            progress(file_no, games, done, size)

    on_progress(0, 0)  # the file starts: its games/s count from now
    count = 0
    held: list[pa.RecordBatch] = []
    for batch in _batches(path, dump_kind(path), on_progress):
        held.append(batch)
        count += batch.num_rows
        if sum(b.num_rows for b in held) >= STAGE_ROWS:
            _check(con, pa.Table.from_batches(held), file_no, seq0, known)
            held = []
    if held:
        _check(con, pa.Table.from_batches(held), file_no, seq0, known)
    return count


def _check(
    con: duckdb.DuckDBPyConnection, table: pa.Table, file_no: int, seq0: int, known: Seen
) -> None:
    """Check ``table``'s raw headers into ``_stage``, after adding the time controls and
    events not seen before to ``_speeds`` and ``_events``."""
    tcs = {tc for tc in pc.unique(table.column("TimeControl")).to_pylist() if tc}
    if tcs - known.tcs:
        rows = [(tc, _speed(tc)) for tc in sorted(tcs - known.tcs)]
        con.executemany("INSERT INTO _speeds VALUES (?, ?)", rows)
        known.tcs |= tcs
    events = {ev for ev in pc.unique(table.column("Event")).to_pylist() if ev is not None}
    if events - known.events:
        con.execute(new_events_sql(), [sorted(events - known.events)])
        known.events |= events
    con.register("_batch", table)
    con.execute(classify_sql(file_no, seq0))
    con.unregister("_batch")


def _batches(
    path: Path, kind: str, progress: Callable[[int, int], None]
) -> Iterator[pa.RecordBatch]:
    """The raw header batches of ``path``: PGN by ``sources/dump_arrow.py``, else Parquet."""
    if kind == "pgn.zst":
        return dump_arrow.read_pgn_zst(path, HEADERS, progress=progress)
    if kind == "pgn":
        return dump_arrow.read_pgn_plain(path, HEADERS, progress=progress)
    return read_parquet(path, progress=progress)


def commit_file(
    con: duckdb.DuckDBPyConnection,
    key: ledger.FileKey,
    games_read: int,
    claimed: set[int],
) -> tuple[list[MonthIngested], int]:
    """Write the staged games of one file, and its ledger row, in one transaction.

    A month in ``claimed`` (filled by an earlier file of this run) gets the games added;
    any other month is replaced. Games without a readable date count in the file's most
    common month. Returns the months and the number of games that belong to no month (a
    file whose dates are all malformed); those are counted, not stored. ``claimed``
    gains the file's months.
    """
    con.execute(
        """UPDATE _stage SET month = f.m FROM (
               SELECT file_no, mode(month) AS m FROM _stage WHERE month IS NOT NULL
               GROUP BY file_no) f
           WHERE _stage.month IS NULL AND _stage.file_no = f.file_no"""
    )
    months = [
        int(r[0])
        for r in con.execute(
            "SELECT DISTINCT month FROM _stage WHERE month IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
    name = Path(key.path).name
    con.execute("BEGIN")
    try:
        con.execute("DROP TABLE IF EXISTS lists")
        replaced = [m for m in months if m not in claimed]
        ledger.forget_months(con, replaced)
        for month in replaced:
            for table in ("games", "rejects", "months"):
                con.execute(f"DELETE FROM {table} WHERE month = ?", [month])
        for month in months:
            _add_month(con, month, name)
        ledger.record(con, key, games_read, months)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    claimed.update(months)
    done = [_month_ingested(con, month) for month in months]
    row = con.execute("SELECT COUNT(*) FROM _stage WHERE month IS NULL").fetchone()
    con.execute("DROP TABLE IF EXISTS _stage")
    return done, int(row[0]) if row else 0


def _add_month(con: duckdb.DuckDBPyConnection, month: int, name: str) -> None:
    """Add the staged games of ``month`` to what it holds (in the caller's transaction)."""
    con.execute(
        """INSERT INTO games SELECT month, perf, white, black, we, be, wd, bd, score, ord,
           event FROM _stage WHERE month = ? AND reason IS NULL""",
        [month],
    )
    merged = con.execute(
        """SELECT reason, SUM(games) FROM (
               SELECT reason, games FROM rejects WHERE month = ?
               UNION ALL SELECT reason, COUNT(*) FROM _stage
               WHERE month = ? AND reason IS NOT NULL GROUP BY reason)
           GROUP BY reason""",
        [month, month],
    ).fetchall()
    con.execute("DELETE FROM rejects WHERE month = ?", [month])
    if merged:
        con.executemany(
            "INSERT INTO rejects VALUES (?, ?, ?)", [(month, r, int(n)) for r, n in merged]
        )
    before = con.execute(
        "SELECT games, rejected, sources FROM months WHERE month = ?", [month]
    ).fetchone()
    games, rejected, sources = before if before is not None else (0, 0, "")
    con.execute("DELETE FROM months WHERE month = ?", [month])
    con.execute(
        """INSERT INTO months SELECT ?, ? + COUNT(*) FILTER (WHERE reason IS NULL),
               ? + COUNT(*) FILTER (WHERE reason IS NOT NULL), ? FROM _stage WHERE month = ?""",
        [month, games, rejected, f"{sources}, {name}" if sources else name, month],
    )


def _month_ingested(con: duckdb.DuckDBPyConnection, month: int) -> MonthIngested:
    """What ``month`` holds now."""
    counts = dict(
        con.execute(
            "SELECT reason, games FROM rejects WHERE month = ? ORDER BY reason", [month]
        ).fetchall()
    )
    row = con.execute("SELECT games FROM months WHERE month = ?", [month]).fetchone()
    return MonthIngested(
        month,
        int(row[0]) if row else 0,
        {r: int(counts[r]) for r in REASONS if r in counts},
    )
