"""Replaying SAN on a plain ``chess.Board`` faster than ``Board.push_san`` (pure).

``push_sans`` plays a game's moves as ``push_san`` plays them, stops where it stops and
gives back the error it raises. What a SAN says on its own is read once per distinct SAN;
a move of a pawn, knight, bishop, rook, queen or king that is no castling, promotion or en
passant is found from its reach and made on plain integers (the bitboards python-chess
keeps) without ``Board.push``: the one legal origin is the candidate after whose move the
king is not attacked. Everything else (the first move, castling, promotions, en passant,
every failure) is given to ``push_san`` itself, the position written back to the board
first. ``core.replay`` uses it.
"""

from __future__ import annotations

import chess

#: What a SAN says on its own, whatever the position: the target square, the promotion,
#: the origin squares its file/rank letters allow, and the piece type (a pawn's capture
#: without a file letter may only come from the target's file). ``None``: a SAN
#: python-chess reads another way (castling, null moves, fully given origins, anything
#: its grammar refuses), which ``push_san`` then reads itself.
_SanShape = tuple[int, int | None, int, int] | None
_SAN_SHAPES: dict[str, _SanShape] = {}
#: At most this many SANs are remembered (real games use a few thousand; damaged ones can
#: bring any text).
_SAN_SHAPES_MAX = 50_000
_CASTLES = frozenset(("O-O", "O-O+", "O-O#", "0-0", "0-0+", "0-0#"))
_CASTLES |= {f"O-O-O{end}" for end in ("", "+", "#")} | {f"0-0-0{end}" for end in ("", "+", "#")}

_SQUARES = chess.BB_SQUARES
_RANK_ATTACKS, _RANK_MASKS = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE_ATTACKS, _FILE_MASKS = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_DIAG_ATTACKS, _DIAG_MASKS = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_KNIGHT_ATTACKS, _KING_ATTACKS = chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_PAWN, _KNIGHT, _BISHOP, _ROOK, _KING = chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, 6
#: Piece types in the order a captured piece is looked for.
_CAPTURED = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)

#: A position as the fast path holds it: the piece bitboards by piece type (index 0
#: unused), the occupancy by colour (black, white, as python-chess), the side to move,
#: the castling rights, the en passant square, the half-move clock, the move number and
#: the promoted pieces.
_Position = tuple[list[int], list[int], bool, int, int | None, int, int, int]


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
    return to_square, promotion, from_mask, chess.PAWN


def _reach(piece: int, to: int, turn: bool, ours: int, theirs: int, ep: int | None) -> int:
    """The squares from which a ``piece`` of the side to move could move to ``to`` (its
    pseudo-legal reach, read backwards: a knight or slider on ``s`` reaches ``t`` exactly
    when one on ``t`` reaches ``s``; a pawn captures on ``t`` from where the other side's
    pawn on ``t`` would capture, and steps from behind it, two squares on a first double
    step over an empty square). 0 where the fast path does not decide: a target of our
    own (python-chess's castling encoding, or illegal), a pawn reaching the last rank (a
    promotion, or a pawn move missing its promotion) or en passant."""
    target = _SQUARES[to]
    if target & ours:
        return 0
    occupied = ours | theirs
    if piece == _PAWN:
        if target & chess.BB_BACKRANKS or (to == ep and not target & theirs):
            return 0
        if target & theirs:
            return _PAWN_ATTACKS[not turn][to]
        behind = to - 8 if turn else to + 8
        reach = _SQUARES[behind]
        if target & (chess.BB_RANK_4 if turn else chess.BB_RANK_5) and not reach & occupied:
            return _SQUARES[behind - 8 if turn else behind + 8]
        return reach
    if piece == _KNIGHT:
        return _KNIGHT_ATTACKS[to]
    if piece == _KING:
        return _KING_ATTACKS[to]
    reach = 0
    if piece != _ROOK:
        reach = _DIAG_ATTACKS[to][_DIAG_MASKS[to] & occupied]
    if piece != _BISHOP:
        reach |= _RANK_ATTACKS[to][_RANK_MASKS[to] & occupied]
        reach |= _FILE_ATTACKS[to][_FILE_MASKS[to] & occupied]
    return reach


def _legal_origin(
    pieces: list[int], ours: int, theirs: int, turn: bool, candidates: int, to: int, king: bool
) -> int:
    """The one square of ``candidates`` (as a bitboard) whose move to ``to`` leaves the
    side to move's king unattacked (the king itself when ``king``), as python-chess's legal
    move generator decides for such a move; 0 when none or more than one does, or the side
    to move has not exactly one king (python-chess then decides)."""
    kings = pieces[_KING] & ours
    if not kings or kings & (kings - 1):
        return 0
    target = _SQUARES[to]
    them = theirs & ~target  # a piece taken on ``to`` attacks nothing any more
    rooks = (pieces[chess.ROOK] | pieces[chess.QUEEN]) & them
    bishops = (pieces[chess.BISHOP] | pieces[chess.QUEEN]) & them
    leapers = (pieces[_KNIGHT], pieces[_PAWN], pieces[_KING])
    occupied = ours | theirs
    found = 0
    while candidates:
        origin = candidates & -candidates
        candidates ^= origin
        after = occupied ^ origin | target
        square = to if king else kings.bit_length() - 1
        if (
            (
                _RANK_ATTACKS[square][_RANK_MASKS[square] & after]
                | _FILE_ATTACKS[square][_FILE_MASKS[square] & after]
            )
            & rooks
            or _DIAG_ATTACKS[square][_DIAG_MASKS[square] & after] & bishops
            or (
                _KNIGHT_ATTACKS[square] & leapers[0]
                | _PAWN_ATTACKS[turn][square] & leapers[1]
                | _KING_ATTACKS[square] & leapers[2]
            )
            & them
        ):
            continue  # the king would be attacked
        if found:
            return 0  # ambiguous: push_san raises it
        found = origin
    return found


def _load(board: chess.Board) -> _Position:
    """The board's position as the fast path holds it."""
    pieces = [0, board.pawns, board.knights, board.bishops, board.rooks, board.queens]
    pieces.append(board.kings)
    return (
        pieces,
        list(board.occupied_co),
        board.turn,
        board.castling_rights,
        board.ep_square,
        board.halfmove_clock,
        board.fullmove_number,
        board.promoted,
    )


def _store(board: chess.Board, position: _Position) -> None:
    """Write ``position`` to ``board`` (what ``Board.push`` would have left there)."""
    pieces, occupancy, board.turn, board.castling_rights = position[:4]
    board.ep_square, board.halfmove_clock, board.fullmove_number, board.promoted = position[4:]
    board.pawns, board.knights, board.bishops = pieces[1:4]
    board.rooks, board.queens, board.kings = pieces[4:]
    board.occupied_co = occupancy
    board.occupied = occupancy[0] | occupancy[1]


def _shape(san: str) -> _SanShape:
    """``_san_shape`` of ``san``, remembered."""
    if san in _SAN_SHAPES:
        return _SAN_SHAPES[san]
    shape = _san_shape(san)
    if len(_SAN_SHAPES) < _SAN_SHAPES_MAX:
        _SAN_SHAPES[san] = shape
    return shape


def push_sans(board: chess.Board, moves: tuple[str, ...]) -> tuple[int, ValueError | None]:
    """Play ``moves`` on ``board`` as ``board.push_san`` would, one after the other, until
    the first it refuses: how many were played, and the error ``push_san`` raised for the
    next (``None`` when all were played). The board is left in the position after them.

    Only for a plain ``chess.Board`` (chess 1.11). The board's move stack holds only the
    moves ``push_san`` played itself (the first, and those the fast path leaves to it):
    count the plies from the result, and do not ``pop``. The castling rights follow
    ``Board.push``: the first push cleans them, each move then clears its two squares (a
    king's move its side's rank). tests/unit/test_fast_san.py compares every step with
    ``Board.push_san`` on real games' positions, tests/unit/test_replay.py whole random
    and damaged games."""
    if not moves:
        return 0, None
    try:
        board.push_san(moves[0])  # python-chess's own first push (it cleans the rights)
    except ValueError as exc:
        return 0, exc
    pieces, occupancy, turn, rights, ep, clock, number, promoted = _load(board)
    played = 1
    for san in moves[1:]:
        shape = _SAN_SHAPES.get(san) or _shape(san)
        origin = 0
        if shape is not None and shape[1] is None:
            to, _, from_mask, piece = shape
            ours, theirs = occupancy[turn], occupancy[not turn]
            candidates = pieces[piece] & ours & from_mask
            candidates &= _reach(piece, to, turn, ours, theirs, ep)
            if candidates:
                origin = _legal_origin(pieces, ours, theirs, turn, candidates, to, piece == _KING)
        if not origin:  # python-chess's own push_san: moves it handles, every error
            _store(board, (pieces, occupancy, turn, rights, ep, clock, number, promoted))
            try:
                board.push_san(san)
            except ValueError as exc:
                return played, exc
            pieces, occupancy, turn, rights, ep, clock, number, promoted = _load(board)
            played += 1
            continue
        target = _SQUARES[to]
        move = origin | target
        clock += 1
        if target & theirs:  # a capture
            for taken in _CAPTURED:
                if pieces[taken] & target:
                    pieces[taken] ^= target
                    break
            occupancy[not turn] = theirs ^ target
            clock = 0
        pieces[piece] ^= move
        occupancy[turn] = ours ^ move
        was_promoted = promoted & origin
        if promoted:  # a promoted piece stays one where it goes; a taken one is gone
            promoted = promoted & ~move | (target if was_promoted else 0)
        if rights:
            rights &= ~move
            if piece == _KING and not was_promoted:
                rights &= ~(chess.BB_RANK_1 if turn else chess.BB_RANK_8)
        ep = None
        if piece == _PAWN:
            clock = 0
            if move & chess.BB_RANK_2 and move & chess.BB_RANK_4:
                ep = to - 8
            elif move & chess.BB_RANK_7 and move & chess.BB_RANK_5:
                ep = to + 8
        if not turn:
            number += 1
        turn = not turn
        played += 1
    _store(board, (pieces, occupancy, turn, rights, ep, clock, number, promoted))
    return played, None
