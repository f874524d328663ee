"""Replay games with python-chess: validate the moves and keep what they say (pure).

``replay_game`` and ``endings`` are pure; ``ReplayFacts``, ``endings`` and
``REPLAY_VERSION`` live in ``replay_facts`` (free of python-chess) and are re-exported
here. ``replay_cache.replay_all`` is the edge that keeps the facts in a SQLite cache (keyed
by game id, game content and ``REPLAY_VERSION``) and replays large uncached histories in a
process pool.

A game is ``valid`` when every move is legal from its start position *and* Lichess's
status agrees with the final position where it makes a claim (``mate`` <-> checkmate,
``stalemate`` <-> stalemate, ``variantEnd`` <-> the variant's own end). A truncated move
list is therefore caught too. Bad data never raises: it gives ``valid=False``, a reason
and the ply (1-based; 0 for a broken start position or an unknown variant).
"""

from __future__ import annotations

import chess
import chess.variant

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.fast_san import push_sans
from lichess_elo.core.games import Game
from lichess_elo.core.replay_facts import MATERIAL_MARGIN as MATERIAL_MARGIN
from lichess_elo.core.replay_facts import QUICK_PLIES as QUICK_PLIES
from lichess_elo.core.replay_facts import REPLAY_VERSION as REPLAY_VERSION
from lichess_elo.core.replay_facts import Ending as Ending
from lichess_elo.core.replay_facts import ReplayFacts, stalemate_status
from lichess_elo.core.replay_facts import endings as endings

#: Material values of pawn, knight, bishop, rook and queen (kings count nothing).
PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}

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


@keywords_checked
def replay_game(game: Game) -> ReplayFacts:
    """Replay one game's SAN moves from its start position and record the facts.

    Never raises on bad data: an unknown variant, a broken FEN, or an illegal, ambiguous
    or unparsable move gives ``valid=False`` with the reason and the ply.
    """
    return replay_job((game.id, game.variant, game.initial_fen, game.status, game.moves))


def play_moves(board: chess.Board, moves: tuple[str, ...]) -> tuple[int, ValueError | None]:
    """Push ``moves`` until the first ``push_san`` refuses: how many were pushed, and its
    error (``None`` when all were). A plain board takes the fast path (``push_sans``)."""
    if type(board) is chess.Board:
        return push_sans(board, moves)
    push_san = board.push_san
    try:
        for san in moves:
            push_san(san)
    except ValueError as exc:
        return len(board.move_stack), exc
    return len(board.move_stack), None


#: What a replay needs of a game: id, variant, initial FEN, status, moves. Plain tuples
#: are what the process pool sends to its workers (a third of the cost of pickling Games).
ReplayJob = tuple[str, str, str | None, str, tuple[str, ...]]


def replay_job(job: ReplayJob, final_fen: bool = True) -> ReplayFacts:
    """``replay_game`` for a ``ReplayJob`` tuple (what the process pool's workers run);
    without ``final_fen`` the facts hold no FEN (``final_fen=None``), which saves making it."""
    game_id, variant, initial_fen, status, moves = job
    start = _start_board(variant, initial_fen)
    if isinstance(start, str):
        return _setup_failure(game_id, start)
    board = start
    error: str | None = None
    bad_move: str | None = None
    plies, failure = play_moves(board, moves)
    if failure is not None:
        bad_move = moves[plies]  # the move that failed
        if isinstance(failure, chess.AmbiguousMoveError):
            kind = "ambiguous"
        elif isinstance(failure, chess.IllegalMoveError):
            kind = "illegal"
        else:
            kind = "unparsable"
        error = f"{kind} move {bad_move!r} at ply {plies + 1}"
    error_ply = plies + 1 if error else None
    variant_end = board.is_variant_end()
    checkmate = not variant_end and board.is_checkmate()
    stalemate = not variant_end and not checkmate and board.is_stalemate()
    if stalemate and stalemate_status(board.uci_variant) == "variantEnd":
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
        final_fen=board.fen() if final_fen else None,
        checkmate=checkmate,
        stalemate=stalemate,
        insufficient_material=board.is_insufficient_material(),
        variant_end=variant_end,
        material_white=_material(board, chess.WHITE),
        material_black=_material(board, chess.BLACK),
        status_agrees=agrees,
    )
