"""The replay cache and the process pool (an edge module): ``replay_all``.

Facts are kept in SQLite (``<cache_dir>/replay.sqlite``), keyed by the game id, the
game's *content* (``content_key``: variant, start position, status and moves) and
``replay.REPLAY_VERSION`` (read at call time, so a new version replays everything). Two
games with the same id and different moves (two PGN files, an edited export) never share a
replay: the second one misses the cache and is replayed afresh. Large uncached histories are
replayed in a process pool. The replay itself is ``core/replay.py``.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from lichess_elo.core import replay
from lichess_elo.core.replay import ReplayFacts, replay_game, replay_job
from lichess_elo.sources.sqlite_open import (
    connect,
    is_busy,
    lock_timeout,
    open_restarting,
    read_only_file,
)

if TYPE_CHECKING:
    from pathlib import Path

    from lichess_elo.core.games import Game

#: Replay in a process pool only above this many uncached games.
POOL_THRESHOLD = 2000

#: The table of facts; the older ``replay`` table (keyed by id only) is dropped on sight.
_TABLE = "replay_facts"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {_TABLE} (
    game_id TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL,
    valid INTEGER NOT NULL,
    plies INTEGER NOT NULL,
    error TEXT,
    error_ply INTEGER,
    bad_move TEXT,
    final_fen TEXT,
    flags INTEGER NOT NULL,
    material_white INTEGER NOT NULL,
    material_black INTEGER NOT NULL,
    status_agrees INTEGER,
    PRIMARY KEY (game_id, content, version)
) WITHOUT ROWID
"""
_COLUMNS = (
    "game_id, valid, plies, error, error_ply, bad_move, final_fen, flags, "
    "material_white, material_black, status_agrees"
)
_BATCH = 500
#: Read the whole table when it holds at most this many rows per wanted game.
_SCAN_FACTOR = 3

Row = tuple[
    str, int, int, str | None, int | None, str | None, str | None, int, int, int, int | None
]


def _to_row(f: ReplayFacts) -> Row:
    flags = f.checkmate | f.stalemate << 1 | f.insufficient_material << 2 | f.variant_end << 3
    agrees = None if f.status_agrees is None else int(f.status_agrees)
    return (
        f.game_id,
        int(f.valid),
        f.plies,
        f.error,
        f.error_ply,
        f.bad_move,
        f.final_fen,
        flags,
        f.material_white,
        f.material_black,
        agrees,
    )


def _from_row(r: Sequence[Any], game_id: str) -> ReplayFacts:
    """The facts of a row of ``_COLUMNS`` (anything after them is ignored) for ``game_id``
    (the row's own id, as the caller's string)."""
    flags = r[7]
    return ReplayFacts(  # positional, in field order: a third faster than by keyword
        game_id,
        bool(r[1]),  # valid
        r[2],  # plies
        r[3],  # error
        r[4],  # error_ply
        r[5],  # bad_move
        r[6],  # final_fen
        bool(flags & 1),  # checkmate
        bool(flags & 2),  # stalemate
        bool(flags & 4),  # insufficient_material
        bool(flags & 8),  # variant_end
        r[8],  # material_white
        r[9],  # material_black
        None if r[10] is None else bool(r[10]),  # status_agrees
    )


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=lock_timeout())
    try:
        # A cache: WAL without an fsync per commit; a crash can only cost a replay again.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(_SCHEMA)
        legacy = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'replay'"
        if conn.execute(legacy).fetchone():  # keyed by id only: never read again
            conn.execute("DROP TABLE replay")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _open_cache(cache_dir: Path, read_only: bool = False) -> sqlite3.Connection:
    """Open (or create) the cache; a damaged file is started again; ``read_only``
    opens an existing file unchanged.

    Raises:
        sqlite3.Error: the cache cannot be used (locked by another run, I/O error, full
            disk...); the file is left as it is.
        OSError: the folder cannot be made.
    """
    path = cache_dir / "replay.sqlite"
    if read_only:
        return connect(path, timeout=lock_timeout(), read_only=True)
    cache_dir.mkdir(parents=True, exist_ok=True)
    return open_restarting(path, _connect)


def _unusable(
    cache_dir: Path, exc: sqlite3.Error | OSError, on_warning: Callable[[str], None] | None
) -> None:
    if on_warning is None:
        return
    if isinstance(exc, sqlite3.Error) and is_busy(exc):
        on_warning(
            f"the replay cache {cache_dir / 'replay.sqlite'} is in use by another run; "
            "replay results are not kept this time"
        )
        return
    if cache_dir.exists() and not cache_dir.is_dir():
        why = f"{cache_dir} is a file, not a folder"
    elif isinstance(exc, OSError):
        why = f"{exc.strerror or type(exc).__name__}"
    else:
        why = str(exc)
    on_warning(f"the replay cache cannot be used ({why}); replay results are not kept")


def content_key(game: Game) -> str:
    """What the replay facts depend on, hashed: variant, start position, status, moves.

    The status is part of it because the facts say whether it agrees with the final
    position. 32 hex digits of SHA-256: a collision between two games is not a concern.
    """
    text = "\x1f".join((game.variant, game.initial_fen or "", game.status, " ".join(game.moves)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _read_cached(
    conn: sqlite3.Connection, games: Sequence[Game], final_fen: bool = True
) -> dict[str, ReplayFacts]:
    """The cached facts of ``games`` whose id *and* content match, by game id.

    When the table holds not many more rows than are wanted (one player's cache, the usual
    case), it is read in one pass, which costs a third of looking every id up; otherwise
    the ids are looked up in batches. A game's content key is only made when a row with
    its id comes back, and its facts share the game's id string (a report holds them all).
    """
    by_id = {game.id: game for game in games}
    if not by_id:
        return {}
    found: dict[str, ReplayFacts] = {}
    columns = _COLUMNS if final_fen else _COLUMNS.replace("final_fen", "NULL")
    select = f"SELECT {columns}, content FROM {_TABLE} WHERE version = ?"
    (rows,) = conn.execute(f"SELECT count(*) FROM {_TABLE}").fetchone()
    if rows <= _SCAN_FACTOR * len(by_id):
        queries: list[tuple[str, tuple[object, ...]]] = [(select, (replay.REPLAY_VERSION,))]
    else:
        ids = list(by_id)
        queries = []  # batches: SQLite limits the number of parameters of a statement
        for start in range(0, len(ids), _BATCH):
            chunk = ids[start : start + _BATCH]
            marks = ",".join("?" * len(chunk))
            queries.append((f"{select} AND game_id IN ({marks})", (replay.REPLAY_VERSION, *chunk)))
    for query, args in queries:
        for row in conn.execute(query, args):
            game = by_id.get(row[0])
            # the same id with other moves is another game
            if game is not None and content_key(game) == row[11]:
                found[game.id] = _from_row(row, game.id)
    return found


def _write_cached(
    conn: sqlite3.Connection, facts: Sequence[ReplayFacts], contents: dict[str, str]
) -> None:
    with conn:
        conn.executemany(
            f"INSERT OR REPLACE INTO {_TABLE} (game_id, content, version, valid, plies, error, "
            "error_ply, bad_move, final_fen, flags, material_white, material_black, "
            "status_agrees) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(r[0], contents[r[0]], replay.REPLAY_VERSION, *r[1:]) for r in map(_to_row, facts)],
        )


def _ignore_interrupts() -> None:
    """Pool initializer: a worker ignores SIGINT (Ctrl-C reaches the whole process group),
    so only the parent handles it: one message, no traceback per worker. The parent
    terminates the pool on its way out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _replay_many(
    games: Sequence[Game], workers: int, progress: Callable[[int, int], None] | None
) -> Iterator[ReplayFacts]:
    total = len(games)
    if progress is not None and total:
        progress(0, total)  # the bar shows its total before the first game is done
    if workers > 1 and total > POOL_THRESHOLD:
        chunk = max(50, min(1000, total // (workers * 8)))
        jobs = [(g.id, g.variant, g.initial_fen, g.status, g.moves) for g in games]
        # The platform's default start method: fork on Linux (the workers only replay, so
        # a progress-bar thread in the parent is harmless), spawn elsewhere.
        with multiprocessing.get_context().Pool(workers, _ignore_interrupts) as pool:
            for done, facts in enumerate(pool.imap(replay_job, jobs, chunksize=chunk), 1):
                if progress is not None and (done % chunk == 0 or done == total):
                    progress(done, total)
                yield facts
        return
    for done, game in enumerate(games, 1):
        yield replay_game(game)
        if progress is not None and (done % 500 == 0 or done == total):
            progress(done, total)


def replay_all(
    games: Sequence[Game],
    *,
    cache_dir: Path | None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
    final_fen: bool = True,
) -> dict[str, ReplayFacts]:
    """Replay every game, reusing cached facts; the result is keyed by game id.

    Args:
        games: The games (each id once; a repeated id is replayed once).
        cache_dir: Folder of ``replay.sqlite``; ``None`` replays without a cache.
        workers: Processes to use; ``None`` means the machine's cores. A pool is only
            started for more than ``POOL_THRESHOLD`` uncached games.
        progress: Called with (replayed so far, to replay) while uncached games replay.
        on_warning: Told, in one line, when the cache cannot be used (a file in the way,
            a read-only or full disk): the facts are still right, only not kept.
        final_fen: Read each cached game's final FEN; without it (a report, which shows
            none) the facts read from the cache have ``final_fen=None``, a string less a
            game held (games replayed now keep theirs).
    """
    unique = list({game.id: game for game in games}.values())
    conn = None
    cached: dict[str, ReplayFacts] = {}
    read_only = cache_dir is not None and read_only_file(cache_dir / "replay.sqlite")
    if cache_dir is not None:
        try:
            conn = _open_cache(cache_dir, read_only)
            cached = _read_cached(conn, unique, final_fen)
        except (sqlite3.Error, OSError) as exc:
            if conn is not None:
                conn.close()
            conn = None  # an unusable cache only costs time: replay everything
            _unusable(cache_dir, exc, on_warning)
    todo = [g for g in unique if g.id not in cached]
    if read_only and conn is not None:  # the facts were read; new ones cannot be kept
        conn.close()
        conn = None
        if todo and on_warning is not None:
            on_warning(
                f"the replay cache {cache_dir} is read-only; {len(todo)} new replay "
                "results are not kept"
            )
    contents = {g.id: content_key(g) for g in todo}
    count = workers if workers is not None else (os.cpu_count() or 1)
    # Each batch is written in its own transaction as soon as it is replayed, so a hard
    # crash keeps every finished batch; the unfinished batch is written on the way out,
    # also when the run is interrupted (Ctrl-C), so no finished replay is lost.
    batch: list[ReplayFacts] = []
    try:
        for facts in _replay_many(todo, max(1, count), progress):
            cached[facts.game_id] = facts
            if conn is not None:
                batch.append(facts)
                if len(batch) >= _BATCH:
                    conn = _write_or_drop(conn, batch, contents, cache_dir, on_warning)
                    batch = []
    finally:
        if conn is not None and batch:
            conn = _write_or_drop(conn, batch, contents, cache_dir, on_warning)
        if conn is not None:
            conn.close()
    return {g.id: cached[g.id] for g in unique}


def _write_or_drop(
    conn: sqlite3.Connection,
    facts: Sequence[ReplayFacts],
    contents: dict[str, str],
    cache_dir: Path | None,
    on_warning: Callable[[str], None] | None,
) -> sqlite3.Connection | None:
    """Write ``facts``; on failure (a read-only or full disk) warn once, close the cache
    and return ``None`` so the rest replays without it."""
    try:
        _write_cached(conn, facts, contents)
    except (sqlite3.Error, OSError) as exc:
        conn.close()
        if cache_dir is not None:
            _unusable(cache_dir, exc, on_warning)
        return None
    return conn
