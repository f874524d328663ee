"""Replaying SAN on a plain ``chess.Board`` faster than ``Board.push_san`` (pure).

``push_sans`` does what ``push_san`` does for every move, and raises what it raises: what a
SAN says on its own is read once per distinct SAN, and a pawn's, knight's, bishop's, rook's
or queen's move is found from its reach and the pins instead of python-chess's generic
legal-move generator; everything else (castling, promotions, en passant, a king's move, a
position in check, every failure) is left to ``push_san`` itself. ``core.replay`` uses it.
"""

from __future__ import annotations

import chess

#: What a SAN says on its own, whatever the position: the target square, the promotion,
#: the origin squares its file/rank letters allow, and the piece (0: a pawn, whose
#: capture without a file letter may only come from the target's file). ``None``: a SAN
#: python-chess reads another way (castling, null moves, fully given origins, anything
#: its grammar refuses), which ``push_san`` then reads itself.
_SanShape = tuple[int, int | None, int, int] | None
_SAN_SHAPES: dict[str, _SanShape] = {}
#: At most this many SANs are remembered (real games use a few thousand; damaged ones can
#: bring any text).
_SAN_SHAPES_MAX = 50_000
_CASTLES = frozenset(("O-O", "O-O+", "O-O#", "0-0", "0-0+", "0-0#"))
_CASTLES |= {f"O-O-O{end}" for end in ("", "+", "#")} | {f"0-0-0{end}" for end in ("", "+", "#")}


def _san_shape(san: str) -> _SanShape:
    """The position-free part of python-chess's ``Board.parse_san`` (chess 1.11), read once
    per distinct SAN: the same grammar, the same masks."""
    if san in _CASTLES:
        return None
    match = chess.SAN_REGEX.match(san)
    if not match:
        return None
    piece, file_, rank, target, promo = match.groups()
    if not piece and file_ and rank:  # "e2e4": python-chess's find_move path
        return None
    to_square = chess.SQUARE_NAMES.index(target)
    promotion = chess.PIECE_SYMBOLS.index(promo[-1].lower()) if promo else None
    from_mask = chess.BB_ALL
    if file_:
        from_mask &= chess.BB_FILES[chess.FILE_NAMES.index(file_)]
    if rank:
        from_mask &= chess.BB_RANKS[int(rank) - 1]
    if piece:
        return to_square, promotion, from_mask, chess.PIECE_SYMBOLS.index(piece.lower())
    if not file_:
        from_mask &= chess.BB_FILES[chess.square_file(to_square)]
    return to_square, promotion, from_mask, 0


def _fast_move(board: chess.Board, piece: int, sources: int, to_square: int) -> chess.Move | None:
    """The one legal move of a pawn (0), knight, bishop, rook or queen from ``sources``
    (that piece's squares the SAN allows) to ``to_square``, found as python-chess's legal
    move generator finds it, without its generic loops; ``None`` when this shortcut does
    not decide (the side to move is in check, no king, a promotion or en passant, no legal
    move or more than one): the caller then takes python-chess's own path.

    A knight or slider on ``s`` reaches ``t`` exactly when one on ``t`` reaches ``s`` on
    the same board, and a pawn captures on ``t`` from where the other side's pawn on ``t``
    would capture; so the candidates are ``sources`` within that reach of ``to_square``
    (for a pawn's step, the square behind it, or the one behind that for a first double
    step over an empty square). A candidate is legal unless it is pinned and leaves the
    pin's line (``Board._is_safe`` for a move that is neither the king's nor en passant).
    """
    turn = board.turn
    ours = board.occupied_co[turn]
    target = chess.BB_SQUARES[to_square]
    king_mask = board.kings & ours
    if not king_mask or ours & target:
        return None
    king = chess.msb(king_mask)
    if board.attackers_mask(not turn, king):
        return None  # in check: python-chess's evasions
    occupied = board.occupied
    if not piece:  # a pawn
        sources &= ours
        if target & chess.BB_BACKRANKS:
            return None  # a promotion (or a pawn move missing its promotion)
        if target & occupied:  # an enemy piece: a capture
            reach = chess.BB_PAWN_ATTACKS[not turn][to_square]
        elif to_square == board.ep_square:
            return None
        else:  # a step
            behind = to_square - 8 if turn == chess.WHITE else to_square + 8
            reach = chess.BB_SQUARES[behind]
            double = chess.BB_RANK_4 if turn == chess.WHITE else chess.BB_RANK_5
            if target & double and not reach & occupied:
                reach = chess.BB_SQUARES[behind - 8 if turn == chess.WHITE else behind + 8]
    elif piece == chess.KNIGHT:
        reach = chess.BB_KNIGHT_ATTACKS[to_square]
    else:
        reach = 0
        if piece != chess.ROOK:
            reach = chess.BB_DIAG_ATTACKS[to_square][chess.BB_DIAG_MASKS[to_square] & occupied]
        if piece != chess.BISHOP:
            rank = chess.BB_RANK_ATTACKS[to_square][chess.BB_RANK_MASKS[to_square] & occupied]
            file_ = chess.BB_FILE_ATTACKS[to_square][chess.BB_FILE_MASKS[to_square] & occupied]
            reach |= rank | file_
    candidates = sources & reach
    if not candidates:
        return None
    blockers = board._slider_blockers(king)
    king_bb = chess.BB_SQUARES[king]
    found = None
    for square in chess.scan_reversed(candidates):
        if not blockers & chess.BB_SQUARES[square] or chess.ray(square, to_square) & king_bb:
            if found is not None:
                return None  # ambiguous
            found = square
    return None if found is None else chess.Move(found, to_square)


def push_sans(board: chess.Board, moves: tuple[str, ...]) -> None:
    """``board.push_san`` for every move, with what each SAN says on its own read once per
    SAN, and a pawn's, knight's, bishop's, rook's or queen's move found by ``_fast_move``.
    Only for a plain ``chess.Board``; any move this path does not take, or finds illegal or
    ambiguous, is given to ``push_san`` itself, which then does or raises exactly what it
    always does. ``_fast_move`` uses python-chess's ``Board._slider_blockers`` (chess 1.11;
    the property tests in tests/unit/test_replay.py compare this path with ``push_san``)."""
    shapes = _SAN_SHAPES
    legal = board.generate_legal_moves
    push = board.push
    push_san = board.push_san
    squares = chess.BB_SQUARES
    for san in moves:
        try:
            shape = shapes[san]
        except KeyError:  # a SAN not seen before in this process
            shape = _san_shape(san)
            if len(shapes) < _SAN_SHAPES_MAX:
                shapes[san] = shape
        if shape is None:
            push_san(san)
            continue
        to_square, promotion, from_mask, piece = shape
        turn = board.turn
        to_mask = squares[to_square] & ~board.occupied_co[turn]
        if piece:
            from_mask &= board.pieces_mask(piece, turn)
        else:
            from_mask &= board.pawns
        if piece != chess.KING and promotion is None:
            move = _fast_move(board, piece, from_mask, to_square)
            if move is not None:
                push(move)
                continue
        found = None
        for move in legal(from_mask, to_mask):
            if move.promotion != promotion:
                continue
            if found is not None:  # ambiguous: push_san raises it
                found = None
                break
            found = move
        if found is None:
            push_san(san)  # illegal or ambiguous: raises as push_san does
        else:
            push(found)
