"""Ingest dumps into the DuckDB file: check the headers in SQL, one transaction a file.

1. Each file is read in one transaction. Each batch of raw headers is parsed and checked
   by one SQL statement, which gives every unusable game its reason (``schema.REASONS``);
   the usable games are appended to ``games`` at once (DuckDB writes full row groups to
   the file as they fill, so memory stays bounded whatever the size), each with its
   players' integer ids (``ids.py``: the batch's new (name, perf) pairs are added to
   ``player_ids`` first), and the rest are counted. Which games are rated, which are AI
   games and what the ``Termination`` means follow ``core/lichess_pgn.py`` (its SQL
   forms), so a monthly dump and a user's own export are read alike. The perf comes from
   the ``Event`` where it names one (``Rated Blitz game``, ``rated blitz game``, ``Rapid
   swiss https://...``) or, failing that (an event's name), from ``TimeControl`` through
   the project's ``speed_of``.
2. A month this run has not written yet is replaced: its games, reject counts, ``months``
   row and the ledger rows of the files that filled it are deleted when its first game
   arrives. A month an earlier file of the run filled gets this file's games added. Lists
   built before are dropped in the same transaction (they no longer match the games).
3. When the file ends, its reject counts, ``months`` rows and its row in the ledger
   (``ledger.py``) are written, and the transaction commits.

An interrupted run (Ctrl-C, kill) keeps every file finished before it and nothing of the
file it was reading (its transaction is rolled back, or never committed); the rerun skips
the files the ledger holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pyarrow as pa

from lichess_elo.core.fide.kinds import fide_chapter
from lichess_elo.core.games import parse_time_control, speed_of
from lichess_elo.core.population.rows import FileProgress, MonthIngested
from lichess_elo.core.population.schema import HEADERS, REASONS
from lichess_elo.sources.dump import arrow as dump_arrow
from lichess_elo.sources.dump.parse import PLIES
from lichess_elo.sources.population import ids, ledger
from lichess_elo.sources.population.headers import check_lichess_pgn, read_parquet
from lichess_elo.sources.population.ingest_sql import (
    EVENTS_DDL,
    classify_sql,
    new_events_sql,
)
from lichess_elo.sources.population.pair_index import PairIndex
from lichess_elo.sources.transactions import rollback_quietly


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


def _chapter(tc: str | None) -> str | None:
    """FIDE's chapter of a ``TimeControl`` tag by the Laws of Chess, Appendix A
    (``fide_chapter``: ``standard`` from 60 minutes, else ``rapid-blitz``; ``-``, no clock:
    ``standard``), ``None`` when the tag is not one."""
    if tc is None:
        return None
    try:
        return fide_chapter(parse_time_control(tc))
    except ValueError:
        return None


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
    """The ``TimeControl`` and ``Event`` values already in ``_speeds`` and ``_events``, and
    the index of ``player_ids``' pairs (loaded by the first file, ``None`` until then)."""

    tcs: set[str] = field(default_factory=set)
    events: set[str] = field(default_factory=set)
    pairs: PairIndex | None = None


def ingest_files(
    con: duckdb.DuckDBPyConnection, files: Sequence[Path], progress: FileProgress | None
) -> FilesIngested:
    """Read and commit ``files`` one at a time; a file the ledger holds is skipped (its
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
        tally = read_file(con, path, key, progress, file_no, seq0, known, claimed)
        months.update((m, _month_ingested(con, m)) for m in tally.months)
        read.append(path)
        unplaced += tally.unplaced
        seq0 += tally.games
    ordered = tuple(months[m] for m in sorted(months))
    return FilesIngested(tuple(read), tuple(skipped), ordered, unplaced)


def prepare(con: duckdb.DuckDBPyConnection) -> Seen:
    """Start an ingest: the ledger's table and the tables of the time controls and events
    seen (none yet: the ``Seen`` to give ``read_file``)."""
    con.execute(ledger.INGESTED_DDL)
    con.execute("CREATE OR REPLACE TEMP TABLE _speeds (tc VARCHAR, speed VARCHAR, chapter VARCHAR)")
    con.execute(EVENTS_DDL)
    return Seen()


@dataclass
class Tally:
    """What one file's checked games came to: the games read, how many had each month
    (``None``: no readable date) and each reason, the games that belong to no month, and
    the next player id (``player_ids``' row count as the file's games add to it)."""

    games: int = 0
    per_month: Counter[int | None] = field(default_factory=Counter)
    rejects: Counter[tuple[int | None, str]] = field(default_factory=Counter)
    unplaced: int = 0
    next_id: int = 0

    @property
    def months(self) -> list[int]:
        """The months the file's games fill, in order."""
        return sorted(m for m in self.per_month if m is not None)


def read_file(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    key: ledger.FileKey,
    progress: FileProgress | None,
    file_no: int,
    seq0: int,
    known: Seen,
    claimed: set[int],
) -> Tally:
    """Check the games of one file (numbered from ``seq0``) into ``games`` and commit them
    with its months' counts and its ledger row, in one transaction.

    A month in ``claimed`` (filled by an earlier file of this run) gets the games added;
    any other month is emptied the first time one of its games arrives (its games, reject
    counts, ``months`` row and the ledger rows of the files that filled it), so it is
    replaced. ``claimed`` gains the file's months once it commits; on any error or an
    interrupt nothing of the file stays (and ``known`` forgets what it learnt: its pair
    index is dropped, to be loaded again from ``player_ids`` as it was).
    """
    before = Seen(set(known.tcs), set(known.events))
    tally = Tally()
    con.execute("BEGIN")
    try:
        con.execute("DROP TABLE IF EXISTS lists")  # they no longer match the games
        tally.next_id = ids.id_count(con)
        if known.pairs is None or known.pairs.size != tally.next_id:
            known.pairs = PairIndex.load(con)
        with _threads(con, STAGE_THREADS):
            _read_batches(con, path, progress, file_no, seq0, known, claimed, tally)
        _finish_file(con, key, tally, Path(key.path).name)
        con.execute("COMMIT")
    except BaseException:
        known.tcs, known.events = before.tcs, before.events
        known.pairs = None  # it may hold pairs of the file: the next file loads it again
        # DuckDB has ended it itself when a write failed in it (a full disk).
        rollback_quietly(lambda: con.execute("ROLLBACK"))
        raise
    claimed.update(tally.months)
    return tally


@contextmanager
def _threads(con: duckdb.DuckDBPyConnection, threads: int) -> Iterator[None]:
    """Run with DuckDB on ``threads`` threads, then as before."""
    row = con.execute("SELECT current_setting('threads')").fetchone()
    con.execute(f"SET threads = {threads}")
    try:
        yield
    finally:
        con.execute(f"SET threads = {int(row[0]) if row else threads}")


def _read_batches(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    progress: FileProgress | None,
    file_no: int,
    seq0: int,
    known: Seen,
    claimed: set[int],
    tally: Tally,
) -> None:
    """Check the headers of one file, ``STAGE_ROWS`` games a statement, into ``tally``."""
    size = path.stat().st_size

    def on_progress(games: int, done: int) -> None:
        if progress:
            progress(file_no, games, done, size)

    on_progress(0, 0)  # the file starts: its games/s count from now
    held: list[pa.RecordBatch] = []
    rows = 0
    for batch in _batches(path, dump_kind(path), on_progress):
        held.append(batch)
        rows += batch.num_rows
        if rows >= STAGE_ROWS:
            _check(con, pa.Table.from_batches(held), seq0, known, claimed, tally)
            held, rows = [], 0
    if held:
        _check(con, pa.Table.from_batches(held), seq0, known, claimed, tally)


def _check(
    con: duckdb.DuckDBPyConnection,
    table: pa.Table,
    seq0: int,
    known: Seen,
    claimed: set[int],
    tally: Tally,
) -> None:
    """Check ``table``'s raw headers (of the file whose games are numbered from ``seq0``):
    the usable games go to ``games``, the rest are counted in ``tally``. The time controls
    and events not seen before are added to ``_speeds`` and ``_events`` first, and a month
    not seen before is opened. A table without plies (a Parquet mirror's) has them NULL:
    not known, so no game of it is ``unplayed``."""
    if PLIES not in table.schema.names:
        table = table.append_column(PLIES, pa.nulls(table.num_rows, pa.int8()))
    raw = con.from_arrow(table)
    distinct = "SELECT list(DISTINCT TimeControl), list(DISTINCT Event) FROM _batch"
    ((tc_list, event_list),) = _select(raw, "_batch", distinct).fetchall()
    tcs = {tc for tc in tc_list if tc}
    if tcs - known.tcs:
        rows = [(tc, _speed(tc), _chapter(tc)) for tc in sorted(tcs - known.tcs)]
        con.executemany("INSERT INTO _speeds VALUES (?, ?, ?)", rows)
        known.tcs |= tcs
    events = {ev for ev in event_list if ev is not None}
    if events - known.events:
        con.execute(new_events_sql(), [sorted(events - known.events)])
        known.events |= events
    # Arrow tables are read through relations, not ``register``: a table registered and
    # unregistered inside a transaction stays referenced until it commits (a whole file).
    checked = con.from_arrow(_select(raw, "_batch", classify_sql(seq0)).to_arrow_table())
    counts = _select(
        checked, "_checked", "SELECT month, reason, COUNT(*) FROM _checked GROUP BY ALL"
    ).fetchall()
    seen = set(tally.per_month)
    for month in sorted({m for m, _, _ in counts if m is not None and m not in seen}):
        _open_month(con, int(month), claimed)
    assert known.pairs is not None  # read_file loads it
    pair_ids, added = ids.batch_ids(con, checked, tally.next_id, known.pairs)
    tally.next_id += added
    ids.games_with_ids(con, checked, pair_ids).query(
        "_usable",
        """INSERT INTO games (month, perf, white, black, white_elo, black_elo, white_diff,
               black_diff, score, ord, event, chapter, white_id, black_id)
           SELECT month, perf, white, black, we, be, wd, bd, score, ord, event, chapter,
               white_id, black_id FROM _usable""",
    )
    for month, reason, n in counts:
        tally.per_month[month] += n
        if reason is not None:
            tally.rejects[month, reason] += n
    tally.games += table.num_rows


def _select(rel: duckdb.DuckDBPyRelation, name: str, sql: str) -> duckdb.DuckDBPyRelation:
    """The result of the SELECT ``sql``, with ``rel`` as the table ``name``."""
    out = rel.query(name, sql)
    if out is None:  # only a statement that is not a query gives none
        raise ValueError(f"not a query: {sql[:40]}")
    return out


def _open_month(con: duckdb.DuckDBPyConnection, month: int, claimed: set[int]) -> None:
    """The first games of ``month`` in this file: empty it unless an earlier file of the
    run filled it (in the file's transaction)."""
    if month in claimed:
        return
    ledger.forget_months(con, [month])
    for table in ("games", "rejects", "months"):
        con.execute(f"DELETE FROM {table} WHERE month = ?", [month])


def _finish_file(
    con: duckdb.DuckDBPyConnection, key: ledger.FileKey, tally: Tally, name: str
) -> None:
    """The file's reject counts, ``months`` rows and ledger row (in its transaction).

    Games without a readable date count in the file's most common month (the earliest of
    equals); with no month at all (every date malformed) they are counted in
    ``tally.unplaced``, not stored.
    """
    undated = tally.per_month.pop(None, 0)
    lost = {r: n for (m, r), n in tally.rejects.items() if m is None}
    if undated and tally.months:
        common = max(tally.months, key=lambda m: tally.per_month[m])
        tally.per_month[common] += undated
        for reason, n in lost.items():
            tally.rejects[common, reason] += n
    else:
        tally.unplaced = undated
    for month in tally.months:
        _add_month(con, month, tally, name)
    ledger.record(con, key, tally.games, tally.months)


def _add_month(con: duckdb.DuckDBPyConnection, month: int, tally: Tally, name: str) -> None:
    """Add the file's counts of ``month`` to what it holds (in the file's transaction)."""
    mine = {r: n for (m, r), n in tally.rejects.items() if m == month}
    held = dict(
        con.execute("SELECT reason, games FROM rejects WHERE month = ?", [month]).fetchall()
    )
    merged = {r: int(held.get(r, 0)) + mine.get(r, 0) for r in sorted(set(held) | set(mine))}
    con.execute("DELETE FROM rejects WHERE month = ?", [month])
    if merged:
        con.executemany(
            "INSERT INTO rejects VALUES (?, ?, ?)", [(month, r, n) for r, n in merged.items()]
        )
    before = con.execute(
        "SELECT games, rejected, sources FROM months WHERE month = ?", [month]
    ).fetchone()
    games, rejected, sources = before if before is not None else (0, 0, "")
    refused = sum(mine.values())
    con.execute("DELETE FROM months WHERE month = ?", [month])
    con.execute(
        "INSERT INTO months VALUES (?, ?, ?, ?)",
        [
            month,
            int(games) + tally.per_month[month] - refused,
            int(rejected) + refused,
            f"{sources}, {name}" if sources else name,
        ],
    )


def _batches(
    path: Path, kind: str, progress: Callable[[int, int], None]
) -> Iterator[pa.RecordBatch]:
    """The raw header batches of ``path``: PGN by ``sources/dump/arrow.py``, else Parquet."""
    if kind == "pgn.zst":
        return dump_arrow.read_pgn_zst(path, HEADERS, progress=progress)
    if kind == "pgn":
        return dump_arrow.read_pgn_plain(path, HEADERS, progress=progress)
    return read_parquet(path, progress=progress)


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
