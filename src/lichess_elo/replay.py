"""Replay games with python-chess: validate the moves and keep what they say.

``replay_game`` and ``endings`` are pure. ``replay_all`` is an edge: it keeps the facts in
a SQLite cache (``<cache_dir>/replay.sqlite``, keyed by game id and ``REPLAY_VERSION``)
and replays large uncached histories in a process pool.

A game is ``valid`` when every move is legal from its start position *and* Lichess's
status agrees with the final position where it makes a claim (``mate`` <-> checkmate,
``stalemate`` <-> stalemate, ``variantEnd`` <-> the variant's own end). A truncated move
list is therefore caught too. Bad data never raises: it gives ``valid=False``, a reason
and the ply (1-based; 0 for a broken start position or an unknown variant).
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Literal

import chess
import chess.variant

from lichess_elo.errors import BadInput
from lichess_elo.games import PERFS, Color, Game, dedupe_sorted

#: Bump when the facts or their derivation change: every cached replay is then redone.
REPLAY_VERSION = 1

Ending = Literal[
    "lost_on_time_ahead",
    "won_on_time_behind",
    "resigned_not_behind",
    "won_by_timeout",
    "lost_by_timeout",
    "decided_quickly",
]

#: Material values of pawn, knight, bishop, rook and queen (kings count nothing).
PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
#: Ahead or behind by at least this many points counts for the time-loss endings.
MATERIAL_MARGIN = 3
#: A decisive game with at most this many plies was "decided quickly".
QUICK_PLIES = 10
#: Replay in a process pool only above this many uncached games.
POOL_THRESHOLD = 2000

_BOARDS: dict[str, type[chess.Board]] = {
    "standard": chess.Board,
    "fromPosition": chess.Board,
    "chess960": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "atomic": chess.variant.AtomicBoard,
    "antichess": chess.variant.AntichessBoard,
    "horde": chess.variant.HordeBoard,
    "kingOfTheHill": chess.variant.KingOfTheHillBoard,
    "threeCheck": chess.variant.ThreeCheckBoard,
    "racingKings": chess.variant.RacingKingsBoard,
}


@dataclass(frozen=True, slots=True)
class ReplayFacts:
    """What the replay of one game found.

    Attributes:
        game_id: The Lichess game id.
        valid: Every move legal and the status consistent with the final position.
        plies: Moves replayed successfully (all of them when valid).
        error: Why the game is invalid, one line; ``None`` when valid.
        error_ply: 1-based ply of the first bad move (0: bad start position or variant;
            plies + 1: the move list ends before the position the status claims).
        bad_move: The SAN that failed, when a move failed.
        final_fen: FEN after the last good move (``None`` when the start failed).
        checkmate: The final position is checkmate.
        stalemate: The final position is stalemate.
        insufficient_material: Neither side can mate (python-chess's rule for the variant).
        variant_end: The variant's own end is reached (three checks, king on the hill...).
        material_white: White's material, 1/3/3/5/9 (crazyhouse: board plus pocket).
        material_black: Black's material, likewise.
        status_agrees: Lichess's status agrees with the final position; ``None`` when the
            status makes no claim about it (resign, outoftime, draw...).
    """

    game_id: str
    valid: bool
    plies: int
    error: str | None
    error_ply: int | None
    bad_move: str | None
    final_fen: str | None
    checkmate: bool
    stalemate: bool
    insufficient_material: bool
    variant_end: bool
    material_white: int
    material_black: int
    status_agrees: bool | None

    def material(self, color: Color) -> int:
        """Material balance from ``color``'s side: own minus opponent's points."""
        diff = self.material_white - self.material_black
        return diff if color == "white" else -diff


def _material(board: chess.Board, side: chess.Color) -> int:
    own = board.occupied_co[side]
    total = (
        (board.pawns & own).bit_count()
        + 3 * ((board.knights | board.bishops) & own).bit_count()
        + 5 * (board.rooks & own).bit_count()
        + 9 * (board.queens & own).bit_count()
    )
    if isinstance(board, chess.variant.CrazyhouseBoard):
        pocket = board.pockets[side]
        total += sum(value * pocket.count(piece) for piece, value in PIECE_VALUES.items())
    return total


def _setup_failure(game_id: str, reason: str) -> ReplayFacts:
    return ReplayFacts(
        game_id, False, 0, reason, 0, None, None, False, False, False, False, 0, 0, None
    )


def _start_board(variant: str, fen: str | None) -> chess.Board | str:
    """The start position, or a reason why there is none."""
    board_class = _BOARDS.get(variant)
    if board_class is None:
        return f"unknown variant {variant!r}"
    chess960 = variant == "chess960"
    if not fen or fen == "startpos":
        if variant == "fromPosition":
            return "fromPosition game without an initial FEN"
        if chess960:
            return "chess960 game without an initial FEN"
        return board_class(chess960=False)
    try:
        board = board_class(fen, chess960=chess960)
    except ValueError as exc:
        return f"broken FEN {fen!r}: {exc}"
    if not board.is_valid():
        return f"impossible position in FEN {fen!r}"
    return board


def _status_agrees(status: str, checkmate: bool, stalemate: bool, variant_end: bool) -> bool | None:
    if status == "mate":
        return checkmate
    if status == "stalemate":
        return stalemate
    if status == "variantEnd":
        return variant_end
    return None


def replay_game(game: Game) -> ReplayFacts:
    """Replay one game's SAN moves from its start position and record the facts.

    Never raises on bad data: an unknown variant, a broken FEN, or an illegal, ambiguous
    or unparsable move gives ``valid=False`` with the reason and the ply.
    """
    return _replay((game.id, game.variant, game.initial_fen, game.status, game.moves))


#: What a replay needs of a game: id, variant, initial FEN, status, moves. Plain tuples
#: are what the process pool sends to its workers (a third of the cost of pickling Games).
_Job = tuple[str, str, str | None, str, tuple[str, ...]]


def _replay(job: _Job) -> ReplayFacts:
    game_id, variant, initial_fen, status, moves = job
    start = _start_board(variant, initial_fen)
    if isinstance(start, str):
        return _setup_failure(game_id, start)
    board = start
    push_san = board.push_san
    error: str | None = None
    bad_move: str | None = None
    try:
        for san in moves:
            push_san(san)
    except ValueError as exc:
        bad_move = san
        if isinstance(exc, chess.AmbiguousMoveError):
            kind = "ambiguous"
        elif isinstance(exc, chess.IllegalMoveError):
            kind = "illegal"
        else:
            kind = "unparsable"
        error = f"{kind} move {san!r} at ply {len(board.move_stack) + 1}"
    plies = len(board.move_stack)
    error_ply = plies + 1 if error else None
    variant_end = board.is_variant_end()
    checkmate = not variant_end and board.is_checkmate()
    stalemate = not variant_end and not checkmate and board.is_stalemate()
    if isinstance(board, chess.variant.AntichessBoard) and stalemate:
        variant_end = True  # the stalemated side wins antichess: Lichess's variantEnd
    agrees = None if error else _status_agrees(status, checkmate, stalemate, variant_end)
    if agrees is False:
        claimed = {"mate": "checkmate", "stalemate": "stalemate"}.get(status, "variant end")
        error = f"status {status} but the moves end at ply {plies} without {claimed}"
        error_ply = plies + 1
    return ReplayFacts(
        game_id=game_id,
        valid=error is None,
        plies=plies,
        error=error,
        error_ply=error_ply,
        bad_move=bad_move,
        final_fen=board.fen(),
        checkmate=checkmate,
        stalemate=stalemate,
        insufficient_material=board.is_insufficient_material(),
        variant_end=variant_end,
        material_white=_material(board, chess.WHITE),
        material_black=_material(board, chess.BLACK),
        status_agrees=agrees,
    )


def endings(game: Game, color: Color, facts: ReplayFacts) -> tuple[Ending, ...]:
    """How the game ended, from ``color``'s side: the facts the rating ignored.

    - ``lost_on_time_ahead``: lost on time (``outoftime``) while ahead by >= 3 points;
    - ``won_on_time_behind``: won on time while behind by >= 3 points;
    - ``resigned_not_behind``: resigned while level or ahead in material;
    - ``won_by_timeout`` / ``lost_by_timeout``: the opponent / the player left the game
      (Lichess status ``timeout``: the other side claimed the win);
    - ``decided_quickly``: a decisive result within 10 plies.

    Material and ply counts are only trusted when the replay is valid.
    """
    found: list[Ending] = []
    winner = game.winner
    won = winner == color
    lost = winner is not None and not won
    status = game.status
    if facts.valid:
        material = facts.material(color)
        if status == "outoftime" and lost and material >= MATERIAL_MARGIN:
            found.append("lost_on_time_ahead")
        if status == "outoftime" and won and material <= -MATERIAL_MARGIN:
            found.append("won_on_time_behind")
        if status == "resign" and lost and material >= 0:
            found.append("resigned_not_behind")
    if status == "timeout" and won:
        found.append("won_by_timeout")
    if status == "timeout" and lost:
        found.append("lost_by_timeout")
    if facts.valid and winner is not None and game.finished and facts.plies <= QUICK_PLIES:
        found.append("decided_quickly")
    return tuple(found)


# --- the cache and the pool (edges) -------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS replay (
    game_id TEXT NOT NULL,
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
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID
"""
_COLUMNS = (
    "game_id, valid, plies, error, error_ply, bad_move, final_fen, flags, "
    "material_white, material_black, status_agrees"
)
_BATCH = 500

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


def _from_row(r: Row) -> ReplayFacts:
    flags = r[7]
    return ReplayFacts(
        game_id=r[0],
        valid=bool(r[1]),
        plies=r[2],
        error=r[3],
        error_ply=r[4],
        bad_move=r[5],
        final_fen=r[6],
        checkmate=bool(flags & 1),
        stalemate=bool(flags & 2),
        insufficient_material=bool(flags & 4),
        variant_end=bool(flags & 8),
        material_white=r[8],
        material_black=r[9],
        status_agrees=None if r[10] is None else bool(r[10]),
    )


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30)
    try:
        # A cache: WAL without an fsync per commit; a crash can only cost a replay again.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(_SCHEMA)
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _open_cache(cache_dir: Path) -> sqlite3.Connection:
    cache_dir.mkdir(parents=True, exist_ok=True)
    path = cache_dir / "replay.sqlite"
    try:
        return _connect(path)
    except sqlite3.DatabaseError:  # not a database (damaged): start it again
        for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            stale.unlink(missing_ok=True)
        return _connect(path)


def _read_cached(conn: sqlite3.Connection, ids: Sequence[str]) -> dict[str, ReplayFacts]:
    found: dict[str, ReplayFacts] = {}
    for start in range(0, len(ids), _BATCH):
        chunk = ids[start : start + _BATCH]
        marks = ",".join("?" * len(chunk))
        query = f"SELECT {_COLUMNS} FROM replay WHERE version = ? AND game_id IN ({marks})"
        for row in conn.execute(query, (REPLAY_VERSION, *chunk)):
            found[row[0]] = _from_row(row)
    return found


def _write_cached(conn: sqlite3.Connection, facts: Sequence[ReplayFacts]) -> None:
    with conn:
        conn.executemany(
            "INSERT OR REPLACE INTO replay (game_id, version, valid, plies, error, error_ply, "
            "bad_move, final_fen, flags, material_white, material_black, status_agrees) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(r[0], REPLAY_VERSION, *r[1:]) for r in map(_to_row, facts)],
        )


def _replay_many(
    games: Sequence[Game], workers: int, progress: Callable[[int, int], None] | None
) -> Iterator[ReplayFacts]:
    total = len(games)
    if workers > 1 and total > POOL_THRESHOLD:
        chunk = max(50, min(1000, total // (workers * 8)))
        jobs = [(g.id, g.variant, g.initial_fen, g.status, g.moves) for g in games]
        # The platform's default start method: fork on Linux (the workers only replay, so
        # a progress-bar thread in the parent is harmless), spawn elsewhere.
        with multiprocessing.get_context().Pool(workers) as pool:
            for done, facts in enumerate(pool.imap(_replay, jobs, chunksize=chunk), 1):
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
) -> dict[str, ReplayFacts]:
    """Replay every game, reusing cached facts; the result is keyed by game id.

    Args:
        games: The games (each id once; a repeated id is replayed once).
        cache_dir: Folder of ``replay.sqlite``; ``None`` replays without a cache.
        workers: Processes to use; ``None`` means the machine's cores. A pool is only
            started for more than ``POOL_THRESHOLD`` uncached games.
        progress: Called with (replayed so far, to replay) while uncached games replay.
    """
    unique = list({game.id: game for game in games}.values())
    conn = None
    cached: dict[str, ReplayFacts] = {}
    if cache_dir is not None:
        try:
            conn = _open_cache(cache_dir)
            cached = _read_cached(conn, [g.id for g in unique])
        except (sqlite3.Error, OSError):
            conn = None  # an unusable cache only costs time: replay everything
    todo = [g for g in unique if g.id not in cached]
    count = workers if workers is not None else (os.cpu_count() or 1)
    fresh = list(_replay_many(todo, max(1, count), progress))
    if conn is not None:
        try:
            if fresh:
                _write_cached(conn, fresh)
        except (sqlite3.Error, OSError):
            pass  # a read-only or full disk: the facts are still right, only not kept
        finally:
            conn.close()
    cached.update((f.game_id, f) for f in fresh)
    return {g.id: cached[g.id] for g in unique}


# --- the games listing ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListedGame:
    """One row of ``lichess-elo games``: the game, the user's colour and what the replay found."""

    game: Game
    color: Color
    facts: ReplayFacts
    ended: tuple[Ending, ...]


def check_perfs(perfs: Sequence[str]) -> tuple[str, ...]:
    """The perfs asked for, each checked against ``PERFS``.

    Raises:
        BadInput: an unknown perf, with the list of valid ones.
    """
    for perf in perfs:
        if perf not in PERFS:
            raise BadInput(f"unknown perf {perf!r}; valid perfs: {', '.join(PERFS)}")
    return tuple(perfs)


def _midnight(day: date | None) -> datetime | None:
    return None if day is None else datetime.combine(day, datetime.min.time(), UTC)


def list_games(
    user: str,
    games: Sequence[Game],
    *,
    cache_dir: Path | None,
    perfs: Sequence[str] = (),
    rated: bool | None = None,
    since: date | None = None,
    until: date | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> list[ListedGame]:
    """Select ``user``'s games, replay them (through the cache) and derive the endings.

    Args:
        user: The player (name or id, any case); games without them are left out with a
            warning (a PGN file may hold other players' games).
        games: The games, any order; the listing comes back oldest first.
        cache_dir: Folder of the replay cache, ``None`` for none.
        perfs: Keep only these perfs (empty: all).
        rated: ``True`` rated only, ``False`` casual only, ``None`` both.
        since: Keep games created on or after this day (UTC).
        until: Keep games created before this day (UTC).
        workers: Processes for a large replay (``None``: the machine's cores).
        progress: Called with (replayed, to replay) while uncached games replay.
        on_warning: Called with one-line messages about games left out.

    Raises:
        BadInput: an unknown perf.
    """
    wanted = set(check_perfs(perfs))
    low, high = _midnight(since), _midnight(until)
    chosen: list[tuple[Game, Color]] = []
    strangers = 0
    for game in dedupe_sorted(games):
        color = game.color_of(user)
        if color is None:
            strangers += 1
            continue
        if wanted and game.perf not in wanted:
            continue
        if rated is not None and game.rated != rated:
            continue
        if (low is not None and game.created_at < low) or (
            high is not None and game.created_at >= high
        ):
            continue
        chosen.append((game, color))
    if strangers and on_warning is not None:
        on_warning(f"{strangers} game(s) without {user} left out")
    facts = replay_all(
        [g for g, _ in chosen], cache_dir=cache_dir, workers=workers, progress=progress
    )
    return [
        ListedGame(game, color, facts[game.id], endings(game, color, facts[game.id]))
        for game, color in chosen
    ]
