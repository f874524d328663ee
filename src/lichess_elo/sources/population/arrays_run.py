"""``db rate`` on one machine, the default engine: DuckDB stores the games and the lists and
hands each month's games over as Arrow columns; the month's FIDE step runs over numpy arrays
(``core/population/arrays_step.py``) and so do the Glicko-1 and Stephenson tracks
(``core/population/arrays_rivals.py``), from the same expressions the SQL engines render.

Memory is bounded by the month, not the history: the lists are arrays indexed by player key
(about 100 bytes a key with the tracks), and a month is read in chunks of ``CHUNK_ROWS``
games (a larger month is read twice: once for its newcomers' seeds, once to rate it). The
new rows go to ``lists_build`` and ``rivals_build``, which replace ``lists`` and ``rivals``
in one transaction at the end (``duck.swap_lists``, ``rivals_run.swap``): a run stopped
anywhere leaves the old ones whole. The rows are written by two more threads (``_Writer``,
one a table) while the next month is rated.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from lichess_elo.core.population import rulebook_sql
from lichess_elo.core.population.arrays_rivals import RivalMonth, RivalState, rivals_month
from lichess_elo.core.population.arrays_step import (
    CHUNK_COLUMNS,
    NO_RATING,
    Chunk,
    Ints,
    ListState,
    MonthRows,
    MonthStep,
)
from lichess_elo.core.population.list_rules import ListRules
from lichess_elo.core.population.rivals_sql import rivals_columns
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import (
    LISTS_COLUMNS,
    STANDARD_CHAPTER_PERFS,
    month_label,
)
from lichess_elo.core.population.stages import Opponents
from lichess_elo.errors import MonthUnratable, TooLarge
from lichess_elo.sources.population import duck, ids, rivals_run

Floats = npt.NDArray[np.float64]
#: Games read from DuckDB at once: a month with more is rated in chunks of this many.
CHUNK_ROWS = 2_000_000
#: Bytes a player key costs: the list (5 x 8 + 2), the two tracks (2 x 2 x 8 + 8), the
#: scratch of the grouping (2 x 8) and the perf and name of the key (about 30).
BYTES_PER_KEY = 42 + 40 + 16 + 30
#: Bytes a game of a chunk costs while it is rated: its columns (about 60), both sides'
#: columns (2 x 70) and the tracks' sides (2 x 24).
BYTES_PER_GAME = 60 + 140 + 48


def memory_needed(keys: int, month_games: int) -> int:
    """What the arrays of a run take at most, in bytes: the keys' state and the largest
    chunk of a month."""
    return keys * BYTES_PER_KEY + min(month_games, CHUNK_ROWS) * BYTES_PER_GAME


#: What the whole run aims at (the arrays, DuckDB's buffers, Python and its temporaries):
#: the issue's 2 GB at 10 M games and 2 M players.
RUN_MEMORY = 2 * 2**30
#: Python and the libraries, beside the arrays and their temporaries.
OVERHEAD = 256 * 2**20


def duckdb_memory(needed: int) -> int:
    """DuckDB's share while it reads the months and writes the rows: what ``RUN_MEMORY``
    leaves beside the arrays (``needed``, twice: a month's temporaries grow with the
    players as the arrays do) and ``OVERHEAD``, at least 500 MiB and at most 1.5 GiB (more
    buffers write faster: at 500k players 1.5 GiB took 9.3-9.7 s where 500 MiB took
    10.3-10.4 s; at 2 M players 0.9 GiB made the peak 2.2 GB, 500 MiB 1.77 GB)."""
    return max(500 * 2**20, min(1536 * 2**20, RUN_MEMORY - 2 * needed - OVERHEAD))


def memory_available() -> int | None:
    """The memory this machine can give the run now: the system's ``MemAvailable``, or less
    where the process's control group (a container) has a limit; ``None`` where the system
    does not say (not Linux)."""
    found: list[int] = []
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text(encoding="ascii").strip()
        if limit != "max":
            used = Path("/sys/fs/cgroup/memory.current").read_text(encoding="ascii")
            found.append(int(limit) - int(used))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


def _month_sql(perfs: Sequence[str], per_event: bool) -> str:
    standard = rulebook_sql.game_chapter_sql("chapter", "perf")
    event = ", event" if per_event else ""
    return f"""
    SELECT white_id AS white, black_id AS black, score, ord,
           {standard} = 'standard' AS standard, white_elo, black_elo,
           white_elo + COALESCE(white_diff, 0) AS white_after,
           black_elo + COALESCE(black_diff, 0) AS black_after{event}
    FROM games WHERE month = ? AND perf IN ({", ".join(repr(p) for p in perfs)})"""


class _Writer:
    """Appends the months' rows to the build tables through a second connection, in a
    thread, while the next month is rated (DuckDB writes without holding the GIL, so the
    writing takes the other core). At most ``QUEUED`` months wait; ``close`` waits for
    them and raises what a write raised."""

    QUEUED = 1

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.cursor = con.cursor()
        self.queue: queue.Queue[tuple[str, pa.Table] | None] = queue.Queue(self.QUEUED)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="rows-writer", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while (item := self.queue.get()) is not None:
            if self.error is None:
                try:
                    self.cursor.from_arrow(item[1]).insert_into(item[0])
                except BaseException as exc:  # handed to the main thread
                    self.error = exc

    def put(self, table_name: str, rows: pa.Table) -> None:
        """Queue ``rows`` for ``table_name`` (waits while ``QUEUED`` months wait)."""
        if self.error is not None:
            raise self.error
        self.queue.put((table_name, rows))

    def close(self) -> None:
        """Wait for every queued write; raise the first error one met."""
        self.queue.put(None)
        self.thread.join()
        self.cursor.close()
        if self.error is not None:
            raise self.error


class _Events:
    """A number for each event name, the same in every chunk of a run (-1: none)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def numbered(self, column: pa.ChunkedArray | pa.Array) -> np.ndarray[Any, Any]:
        encoded = column.dictionary_encode()
        chunks = encoded.chunks if isinstance(encoded, pa.ChunkedArray) else [encoded]
        out = []
        for chunk in chunks:
            names = chunk.dictionary.to_pylist()
            numbers = np.array(
                [self.numbers.setdefault(name, len(self.numbers)) for name in names] + [-1],
                dtype=np.int64,
            )
            codes = chunk.indices.fill_null(len(names)).to_numpy(zero_copy_only=False)
            out.append(numbers[codes])
        return np.concatenate(out) if out else np.empty(0, np.int64)


def _columns(
    table: pa.Table, events: _Events | None, month: int, keys: int
) -> dict[str, np.ndarray[Any, Any]]:
    """A chunk's numpy columns (``arrays_step.CHUNK_COLUMNS``, and the events' numbers).

    Raises:
        MonthUnratable: a game without a player's id, or with an id ``player_ids`` does
            not hold (a database changed by hand, or damaged).
    """
    for side in ("white", "black"):
        column = table.column(side)
        if column.null_count:
            raise MonthUnratable(
                month_label(month), f"{column.null_count:,} games without a {side} player id"
            )
        if not len(column):
            continue
        low, high = pc.min(column).as_py(), pc.max(column).as_py()
        if low < 0 or high >= keys:
            found = low if low < 0 else high
            raise MonthUnratable(
                month_label(month),
                f"a {side} player id ({found:,}) that player_ids does not hold "
                f"(its ids are 0 to {keys - 1:,})",
            )
    out = {c: table.column(c).to_numpy() for c in CHUNK_COLUMNS}
    if events is not None:
        out["event"] = events.numbered(table.column("event"))
    return out


def _chunks(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    month: int,
    events: _Events | None,
    size: int,
    keys: int,
) -> Iterator[dict[str, np.ndarray[Any, Any]]]:
    """The month's games, ``size`` at a time, as numpy columns (the result is read to its
    end before the caller's next statement)."""
    reader = con.sql(sql, params=[month]).to_arrow_reader(min(size, CHUNK_ROWS))
    held: list[pa.RecordBatch] = []
    rows = 0
    for batch in reader:
        held.append(batch)
        rows += batch.num_rows
        if rows >= size:
            yield _columns(pa.Table.from_batches(held), events, month, keys)
            held, rows = [], 0
    if held:
        yield _columns(pa.Table.from_batches(held), events, month, keys)


def _sides(chunks: Sequence[Chunk]) -> tuple[Ints, Floats, Floats]:
    """The tracks' sides of the chunks: each side's key, the opponent's Lichess rating before
    the game and the side's score."""
    pid: list[Ints] = []
    opp: list[Floats] = []
    score: list[Floats] = []
    for chunk in chunks:
        pid += [chunk["white"].astype(np.int64), chunk["black"].astype(np.int64)]
        opp += [chunk["black_elo"].astype(np.float64), chunk["white_elo"].astype(np.float64)]
        s = chunk["score"].astype(np.float64) / 100
        score += [s, 1 - s]
    return np.concatenate(pid), np.concatenate(opp), np.concatenate(score)


def _rated_month(
    con: duckdb.DuckDBPyConnection,
    step: MonthStep,
    sql: str,
    games: int,
    events: _Events | None,
    rivals: RivalState,
    pool: ThreadPoolExecutor,
    chunk_rows: int,
    on_chunk: Callable[[int], None] | None,
) -> dict[str, npt.NDArray[Any]]:
    """Seed, rate and finish one month of ``games`` games; the tracks' rows of the month.

    A month of at most ``chunk_rows`` games is read once, and its tracks run in ``pool``
    beside the FIDE step (numpy works without the GIL: two cores); a larger month is read
    twice, in chunks, its tracks' sums gathered chunk by chunk (``RivalMonth``)."""
    month = step.rules.month
    if not games:
        return {}
    if games <= chunk_rows:
        table = con.sql(sql, params=[month]).to_arrow_table()
        whole = _columns(table, events, month, len(step.state.rating))
        step.seed(whole)
        entered = step.enter()
        rivals.enter(entered, step.state.rating[entered].astype(np.float64))
        pending = pool.submit(rivals_month, rivals, month, *_sides([whole]))
        step.add(whole)
        return pending.result()
    # Each chunk is read twice (seeds, then ratings): each read moves the bar by half.
    for chunk in _chunks(con, sql, month, events, chunk_rows, len(step.state.rating)):
        step.seed(chunk)
        if on_chunk is not None:
            on_chunk(len(chunk["ord"]) // 2)
    entered = step.enter()
    rivals.enter(entered, step.state.rating[entered].astype(np.float64))
    tracks = RivalMonth(rivals, month)
    for chunk in _chunks(con, sql, month, events, chunk_rows, len(step.state.rating)):
        adding = pool.submit(tracks.add, *_sides([chunk]))  # beside the FIDE step
        step.add(chunk)
        adding.result()
        if on_chunk is not None:
            on_chunk(len(chunk["ord"]) - len(chunk["ord"]) // 2)
    return tracks.finish()


def rate(
    con: duckdb.DuckDBPyConnection,
    perfs: Sequence[str],
    plan: Sequence[MonthRules],
    records: Sequence[ListRules],
    *,
    opponents: Opponents = "list",
    on_month: Callable[[int], None] | None = None,
    on_chunk: Callable[[int], None] | None = None,
    memory: int | None = None,
    chunk_rows: int = CHUNK_ROWS,
) -> list[int]:
    """Rebuild the lists and tracks of ``perfs``, one month of ``plan`` after another;
    return the months processed (as ``duck.rate``, which runs the same months in SQL).

    Raises:
        TooLarge: the arrays would take more than ``memory`` bytes (default: the memory
            available, ``memory_available``), found before any work.

    ``chunk_rows``: the most games of a month held at once (a month with more is read in
    chunks; the lists do not depend on it); ``on_chunk`` is told the games of each chunk of
    such a month as it is read, half at each of its two reads.
    """
    ids.ensure_ids(con)
    perf_of, name_of = ids.names_by_id(con)
    perf_of = perf_of.dictionary_encode()  # six perfs: a row's perf is an index, not a string
    keys = len(name_of)
    per_month = duck.games_by_month(con, perfs)
    needed = memory_needed(keys, max(per_month.values(), default=0))
    available = memory if memory is not None else memory_available()
    if available is not None and needed > available:
        raise TooLarge(needed, available, keys, given=memory is not None)
    standard = np.asarray(
        pc.is_in(perf_of, value_set=pa.array(sorted(STANDARD_CHAPTER_PERFS))).to_numpy(
            zero_copy_only=False
        ),
        dtype=np.bool_,
    )
    state = ListState.empty(standard)
    rivals = RivalState.empty(keys)
    events = _Events()
    con.execute("SET preserve_insertion_order = false")
    con.execute(f"SET memory_limit = '{duckdb_memory(needed) // 2**20}MB'")
    con.execute(f"DROP TABLE IF EXISTS {duck.BUILD}")
    con.execute(duck.LISTS_DDL.replace("TABLE lists", f"TABLE {duck.BUILD}"))
    rivals_run.build_table(con)
    # One writer a table: the lists' rows and the tracks' rows are written side by side.
    writers = (_Writer(con), _Writer(con))
    pool = ThreadPoolExecutor(1, thread_name_prefix="tracks")
    try:
        for rules in plan:
            step = MonthStep(state, rules, opponents)
            per_event = step.per_event
            sql = _month_sql(perfs, per_event)
            games = int(per_month.get(rules.month, 0))
            tracks = _rated_month(
                con,
                step,
                sql,
                games,
                events if per_event else None,
                rivals,
                pool,
                chunk_rows,
                on_chunk,
            )
            _write(writers, step.finish(), tracks, rules, perf_of, name_of)
            if on_month:
                on_month(rules.month)
        for writer in writers:
            writer.close()
        duck.swap_lists(con, perfs, records)
        rivals_run.swap(con, perfs)
    finally:
        pool.shutdown(cancel_futures=True)
        for writer in writers:
            if writer.thread.is_alive():  # the run is ending on another error already
                with contextlib.suppress(Exception):
                    writer.close()
        con.execute(f"DROP TABLE IF EXISTS {duck.BUILD}")
        con.execute(f"DROP TABLE IF EXISTS {rivals_run.BUILD}")
        con.execute("RESET preserve_insertion_order")
    return [rules.month for rules in plan]


def _write(
    writers: tuple[_Writer, _Writer],
    rows: MonthRows,
    tracks: dict[str, np.ndarray[Any, Any]],
    rules: MonthRules,
    perf_of: pa.Array,
    name_of: pa.Array,
) -> None:
    """Queue the month's list rows and track rows for their build tables (``writers``: the
    lists' and the tracks')."""
    month = rules.month
    if rows.columns:
        c = rows.columns
        pid = pa.array(c["pid"])
        table: dict[str, Any] = {"perf": perf_of.take(pid), "name": name_of.take(pid),
                                 "month": np.full(len(c["pid"]), month, np.int32)}  # fmt: skip
        # The edition: one of the month's two keys, as a dictionary (no string per row).
        for column in LISTS_COLUMNS[3:-1]:
            values = c[column]
            if column in ("lichess_rating", "next_lichess"):
                table[column] = pa.array(values, mask=values == NO_RATING)
            else:
                table[column] = values
        table["edition"] = pa.DictionaryArray.from_arrays(
            pa.array(c["standard_main"].astype(np.int8)),
            pa.array([rules.rapid_blitz.key, rules.standard.key]),
        )
        writers[0].put(duck.BUILD, pa.table(table))
    if tracks:
        pid = pa.array(tracks["pid"])
        cols = rivals_columns()
        out: dict[str, Any] = {"perf": perf_of.take(pid), "name": name_of.take(pid),
                               "month": np.full(len(tracks["pid"]), month, np.int32),
                               "games": tracks["games"]}  # fmt: skip
        for column in cols[4:]:
            out[column] = tracks[column]
        writers[1].put(rivals_run.BUILD, pa.table(out))
