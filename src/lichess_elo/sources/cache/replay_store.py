"""The replay cache's SQLite file (an edge module): open it, read facts, write rows.

Facts are kept in ``<cache_dir>/replay.sqlite``, keyed by the game id, the game's
*content* (``content_key``: variant, start position, status and moves) and
``replay.REPLAY_VERSION`` (read at call time, so a new version replays everything). Two
games with the same id and different moves (two PGN files, an edited export) never share a
replay: the second one misses the cache and is replayed afresh. A row replayed without its
final FEN (a report shows none) holds NULL there, and a reader that wants the FEN takes
such a row for a miss. ``replay_cache`` replays and calls these.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from lichess_elo.core import replay_facts as replay
from lichess_elo.core.replay_facts import ReplayFacts
from lichess_elo.sources.cache.replay_months import SCHEMA as BATCH_SCHEMA
from lichess_elo.sources.cache.sqlite import (
    connect,
    is_busy,
    lock_timeout,
    open_restarting,
    refuse_dangling,
)

if TYPE_CHECKING:
    from pathlib import Path

    from lichess_elo.core.games import Game
    from lichess_elo.core.replay import ReplayJob

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
#: Ids looked up in one statement (SQLite limits a statement's parameters).
_LOOKUP = 500
#: Read the whole table when it holds at most this many rows per wanted game.
_SCAN_FACTOR = 3

#: One game's facts as stored: ``_COLUMNS`` then the content key (what a read returns and
#: what a write takes; the pool's workers make these).
Row = tuple[
    str, int, int, str | None, int | None, str | None, str | None, int, int, int, int | None, str
]


def to_row(f: ReplayFacts, content: str) -> Row:
    """The stored row of ``f`` for a game of content key ``content``."""
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
        content,
    )


def from_row(r: Sequence[Any], game_id: str) -> ReplayFacts:
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
    refuse_dangling(path)
    # One ``ReplayRun`` at a time uses the connection, but not always from the thread that
    # opened it (``finish`` may run in another one): allowed, as for the read-only file.
    conn = sqlite3.connect(path, timeout=lock_timeout(), check_same_thread=False)
    try:
        # A cache: WAL without an fsync per commit; a crash can only cost a replay again.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(_SCHEMA)
        conn.execute(BATCH_SCHEMA)  # the month blobs (``replay_months``)
        legacy = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'replay'"
        if conn.execute(legacy).fetchone():  # keyed by id only: never read again
            conn.execute("DROP TABLE replay")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def open_cache(cache_dir: Path, read_only: bool = False) -> sqlite3.Connection:
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


def warn_unusable(
    cache_dir: Path, exc: sqlite3.Error | OSError, on_warning: Callable[[str], None] | None
) -> None:
    """Tell ``on_warning``, in one line, why the cache at ``cache_dir`` cannot be used."""
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


def content_of(variant: str, initial_fen: str | None, status: str, moves: Sequence[str]) -> str:
    """``content_key`` from the fields themselves (what a pool worker holds of a game)."""
    return content_of_text(variant, initial_fen, status, " ".join(moves))


def content_of_text(variant: str, initial_fen: str | None, status: str, moves: str) -> str:
    """``content_of`` with the moves already joined by single spaces."""
    text = "\x1f".join((variant, initial_fen or "", status, moves))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def content_key(game: Game) -> str:
    """What the replay facts depend on, hashed: variant, start position, status, moves.

    The status is part of it because the facts say whether it agrees with the final
    position. 32 hex digits of SHA-256: a collision between two games is not a concern.
    """
    return content_of(game.variant, game.initial_fen, game.status, game.moves)


def holds_rows(conn: sqlite3.Connection) -> bool:
    """Whether the cache holds any facts of the current ``REPLAY_VERSION``."""
    query = f"SELECT 1 FROM {_TABLE} WHERE version = ? LIMIT 1"
    return conn.execute(query, (replay.REPLAY_VERSION,)).fetchone() is not None


def table_rows(conn: sqlite3.Connection) -> int:
    """How many rows the cache holds (every version): what ``read_cached`` weighs a scan by."""
    (rows,) = conn.execute(f"SELECT count(*) FROM {_TABLE}").fetchone()
    return int(rows)


def read_cached(
    conn: sqlite3.Connection,
    games: Sequence[Game],
    final_fen: bool = True,
    rows: int | None = None,
) -> dict[str, ReplayFacts]:
    """The cached facts of ``games`` whose id *and* content match, by game id.

    When the table holds not many more rows than are wanted (one player's cache, the usual
    case), it is read in one pass, which costs a third of looking every id up; otherwise
    the ids are looked up in batches. A game's content key is only made when a row with
    its id comes back, and its facts share the game's id string (a report holds them all).
    With ``final_fen``, a row stored without its FEN (replayed for a report) is a miss.
    ``rows`` is ``table_rows`` when the caller knows it (a caller reading a month at a time
    counts once).
    """
    by_id = {game.id: game for game in games}
    if not by_id:
        return {}
    found: dict[str, ReplayFacts] = {}
    columns = _COLUMNS if final_fen else _COLUMNS.replace("final_fen", "NULL")
    select = f"SELECT {columns}, content FROM {_TABLE} WHERE version = ?"
    if rows is None:
        rows = table_rows(conn)
    if rows <= _SCAN_FACTOR * len(by_id):
        queries: list[tuple[str, tuple[object, ...]]] = [(select, (replay.REPLAY_VERSION,))]
    else:
        ids = list(by_id)
        queries = []  # batches: SQLite limits the number of parameters of a statement
        for start in range(0, len(ids), _LOOKUP):
            chunk = ids[start : start + _LOOKUP]
            marks = ",".join("?" * len(chunk))
            queries.append((f"{select} AND game_id IN ({marks})", (replay.REPLAY_VERSION, *chunk)))
    for query, args in queries:
        for row in conn.execute(query, args):
            game = by_id.get(row[0])
            # the same id with other moves is another game
            if game is None or content_key(game) != row[11]:
                continue
            if final_fen and row[6] is None and row[4] != 0:  # replayed without its FEN
                continue
            found[game.id] = from_row(row, game.id)
    return found


def write_rows(conn: sqlite3.Connection, rows: Sequence[Row]) -> None:
    """Store ``rows`` in one transaction (a row of the same game, content and version is
    replaced)."""
    with conn:
        conn.executemany(
            f"INSERT OR REPLACE INTO {_TABLE} ({_COLUMNS}, content, version) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {int(replay.REPLAY_VERSION)})",
            rows,
        )


#: A ``ReplayJob`` as sent to a worker: the moves may come as one text joined by single
#: spaces (one string to pickle instead of one a move: a fifth of the cost).
SentJob = tuple[str, str, str | None, str, "tuple[str, ...] | str"]


def sent_job(game: Game) -> SentJob:
    """What a worker is sent of ``game``: its moves joined, when that text splits back to
    the very moves (none holds a space), else the moves as they are."""
    moves = game.moves
    text = " ".join(moves)
    if moves and text.count(" ") == len(moves) - 1:
        return (game.id, game.variant, game.initial_fen, game.status, text)
    return (game.id, game.variant, game.initial_fen, game.status, moves)


def replay_rows(jobs: Sequence[ReplayJob | SentJob], final_fen: bool) -> list[Row]:
    """Replay ``jobs`` (what a pool worker runs): the rows to store, content keys made."""
    from lichess_elo.core.replay import replay_job  # python-chess: only when games replay

    rows: list[Row] = []
    for game_id, variant, fen, status, moves in jobs:
        if isinstance(moves, str):  # joined by ``sent_job``
            content = content_of_text(variant, fen, status, moves)
            moves = tuple(moves.split(" "))
        else:
            content = content_of(variant, fen, status, moves)
        rows.append(to_row(replay_job((game_id, variant, fen, status, moves), final_fen), content))
    return rows
