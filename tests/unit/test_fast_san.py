"""``core.fast_san.push_sans`` against python-chess's ``push_san``, move by move, on real
games' positions.

A seeded differential test with a fixed count of cases: positions drawn from real Lichess
games (the PGN files of tests/data/lichess/real, copies of shared/reference/lichess/real,
and the OnBoard247 export), every position where a real game castles, promotes or takes en
passant, and at each every pseudo-legal move written as SAN several ways (with and without
its check sign, capture sign or origin; a pinned piece's move, a king walking into check,
an origin left out where two pieces reach the square, a promotion without its piece). The
fast path must play what ``push_san`` plays, refuse what it refuses with the same error,
and leave the very same board: every bitboard, the castling rights, the en passant
square, the clocks.
"""

from __future__ import annotations

import random

import chess
import pytest

from lichess_elo.core.fast_san import push_sans
from lichess_elo.core.games import Game
from lichess_elo.sources.lichess.parse import parse_ndjson
from lichess_elo.sources.pgn import read_pgn
from tests import helpers

#: Positions drawn at random (seeded), and positions drawn among those where the real game
#: castles, promotes or takes en passant next.
POSITIONS = 40
SPECIAL = 20
SEED = 26


def _games() -> list[Game]:
    real = helpers.DATA / "lichess" / "real"
    games = [g for path in sorted(real.glob("*.pgn")) for g in read_pgn(path.read_text())]
    games += parse_ndjson((helpers.DATA / "lichess" / helpers.ONBOARD_FILE).read_text().split("\n"))
    return [g for g in games if g.variant == "standard" and len(g.moves) >= 2]


GAMES = _games()


def _state(board: chess.Board) -> tuple[object, ...]:
    """Everything a ``chess.Board`` position holds, raw (no cleaning; its FEN follows)."""
    pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens)
    return (
        *pieces,
        board.kings,
        tuple(board.occupied_co),
        board.occupied,
        board.promoted,
        board.turn,
        board.castling_rights,
        board.ep_square,
        board.halfmove_clock,
        board.fullmove_number,
    )


def _positions() -> list[tuple[chess.Board, str]]:
    """(the board one ply before, the real move played there): ``POSITIONS`` drawn, then
    ``SPECIAL`` drawn among those after which the real game castles, promotes or takes en
    passant."""
    every: list[tuple[chess.Board, str, bool]] = []
    for game in GAMES:
        board = chess.Board()
        for before, after in zip(game.moves, game.moves[1:], strict=False):
            prior = board.copy(stack=False)
            board.push_san(before)
            move = board.parse_san(after)
            special = board.is_castling(move) or board.is_en_passant(move) or move.promotion
            every.append((prior, before, bool(special)))
    draw = random.Random(SEED)
    drawn = draw.sample(range(len(every)), POSITIONS)
    special = draw.sample([i for i, (_, _, is_special) in enumerate(every) if is_special], SPECIAL)
    return [every[i][:2] for i in [*drawn, *special]]


def _texts(board: chess.Board) -> list[str]:
    """SAN-like texts of every pseudo-legal move of ``board``, legal or not."""
    texts = {"O-O", "O-O-O", "O-O+", "0-0-0"}
    for move in board.generate_pseudo_legal_moves():
        piece = board.piece_type_at(move.from_square)
        letter = "" if piece == chess.PAWN else chess.piece_symbol(piece or 1).upper()
        frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
        promo = f"={chess.piece_symbol(move.promotion).upper()}" if move.promotion else ""
        if board.is_legal(move):
            san = board.san(move)
            texts |= {san, san.rstrip("+#"), san.replace("x", "")}
        texts |= {f"{letter}{to}{promo}", f"{letter}{frm[0]}{to}{promo}", f"{frm}{to}{promo}"}
        texts |= {f"{letter}{frm[1]}{to}", f"{letter}x{to}", f"{frm[0]}x{to}", f"{to}=Q"}
        if letter:
            texts.add(f"{letter}{frm}{to}")
    return sorted(texts)


def _push_san(board: chess.Board, moves: tuple[str, ...]) -> tuple[int, str]:
    try:
        for san in moves:
            board.push_san(san)
    except ValueError as exc:
        return len(board.move_stack), type(exc).__name__
    return len(moves), ""


def test_the_real_positions_are_the_ones_counted() -> None:
    # The thibault export has 49 games with moves (one is the abandoned OGhtagqF), the
    # dump 1, OnBoard247 216 standard ones of its 221 (5 are chess960).
    assert len(GAMES) == 49 + 1 + 216
    assert len(_positions()) == POSITIONS + SPECIAL


def test_the_fast_path_plays_each_move_as_push_san_on_real_positions() -> None:
    cases = 0
    for prior, played in _positions():
        board = prior.copy(stack=False)
        board.push_san(played)
        for text in _texts(board):
            expected_board = prior.copy(stack=False)
            expected = _push_san(expected_board, (played, text))
            board = prior.copy(stack=False)
            count, error = push_sans(board, (played, text))
            assert (count, "" if error is None else type(error).__name__) == expected, text
            assert _state(board) == _state(expected_board), (prior.fen(), played, text)
            cases += 1
    assert cases > 20 * POSITIONS


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_a_whole_real_game_ends_on_the_board_push_san_leaves(game: Game) -> None:
    expected = chess.Board()
    assert _push_san(expected, game.moves) == (len(game.moves), "")
    board = chess.Board()
    assert push_sans(board, game.moves) == (len(game.moves), None)
    assert _state(board) == _state(expected)
