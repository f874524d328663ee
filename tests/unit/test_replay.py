"""Replay: real games replay valid, damaged copies are caught at the right ply, and a
random legal game made by python-chess replays to the FEN python-chess reached."""

from __future__ import annotations

import dataclasses
import json

import chess
import chess.variant
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lichess_elo.core.games import Game, Side
from lichess_elo.core.replay import replay_game
from lichess_elo.sources.lichess.parse import parse_game, parse_ndjson
from lichess_elo.sources.pgn import read_pgn
from tests import helpers

LICHESS = helpers.DATA / "lichess"


def _real_games() -> list[Game]:
    games: list[Game] = []
    for name in (
        "games-user-export-onboard247-2023-01-02.ndjson",
        "games-api-examples-production.ndjson",
        "games-user-export-thibault-lastfen.ndjson",
    ):
        games += parse_ndjson((LICHESS / name).read_text().splitlines())
    for name in ("game-export-ai-opponent-qVChCOTc.json", "game-export-threecheck-1vdsvmxp.json"):
        games.append(parse_game(json.loads((LICHESS / name).read_text())))
    games += read_pgn((LICHESS / "game-export-q7ZvsdUF.pgn").read_text())
    return games


REAL = _real_games()
BY_ID = {g.id: g for g in REAL}


def test_the_real_data_holds_the_variants_the_issue_names() -> None:
    # 221 + 14 + 3 NDJSON lines, the AI game, the threeCheck game and the PGN copy of
    # q7ZvsdUF (same id as a production line, kept twice on purpose).
    assert len(REAL) == 221 + 14 + 3 + 1 + 1 + 1
    variants = {g.variant for g in REAL}
    assert {"standard", "chess960", "threeCheck", "fromPosition"} <= variants


@pytest.mark.parametrize("game", REAL, ids=[f"{g.id}-{g.variant}" for g in REAL])
def test_every_real_game_replays_valid(game: Game) -> None:
    facts = replay_game(game)
    assert facts.valid, facts.error
    assert facts.error is None and facts.error_ply is None and facts.bad_move is None
    assert facts.plies == len(game.moves)
    # The status claims about the final position hold (mate/stalemate/variantEnd).
    assert facts.status_agrees in (None, True)


def test_real_claims_are_checked_not_skipped() -> None:
    facts = [replay_game(g) for g in REAL]
    # The onboard247 history alone has mates and two stalemates (its README), and
    # 1vdsvmxp is a threeCheck variantEnd: each is checked against the final position.
    claims = [f for f, g in zip(facts, REAL, strict=True) if g.status == "mate"]
    assert claims and all(f.checkmate and f.status_agrees for f in claims)
    stalemates = [f for f, g in zip(facts, REAL, strict=True) if g.status == "stalemate"]
    assert len(stalemates) == 2 and all(f.stalemate for f in stalemates)
    assert replay_game(BY_ID["1vdsvmxp"]).variant_end


def test_a_real_mate_is_recognised() -> None:
    # SzBydaBZ ends 17. Qe6# (README of the data: status mate, white wins): the replay finds
    # checkmate, not stalemate, and so agrees with Lichess's status.
    facts = replay_game(BY_ID["SzBydaBZ"])
    assert facts.checkmate and not facts.stalemate and facts.status_agrees is True
    assert facts.plies == 17


def _damaged(game: Game, **changes: object) -> Game:
    return dataclasses.replace(game, **changes)  # type: ignore[arg-type]


# SzBydaBZ: d4 d5 c4 dxc4 e3 b5 a4 bxa4 Bxc4 Bd7 Qf3 Bc6 Bxf7+ Kd7 Qf5+ Kd6 Qe6# (status mate)
MATE = BY_ID["SzBydaBZ"]


def test_an_illegal_move_is_caught_at_its_ply() -> None:
    # Ply 5 is white's 3rd move e3; "e5" cannot be played there (no white pawn reaches e5).
    moves = list(MATE.moves)
    moves[4] = "e5"
    facts = replay_game(_damaged(MATE, moves=tuple(moves)))
    assert not facts.valid
    assert (facts.error_ply, facts.bad_move, facts.plies) == (5, "e5", 4)
    assert facts.error is not None and facts.error.startswith("illegal move")
    assert facts.status_agrees is None  # no claim checked on a broken move list


def test_an_unparsable_move_is_caught_at_its_ply() -> None:
    moves = list(MATE.moves)
    moves[9] = "Zz9"  # ply 10 (black's 5th move Bd7) replaced by something that is not SAN
    facts = replay_game(_damaged(MATE, moves=tuple(moves)))
    assert (facts.valid, facts.error_ply, facts.bad_move) == (False, 10, "Zz9")
    assert facts.error is not None and facts.error.startswith("unparsable move")


def test_an_ambiguous_move_is_caught_at_its_ply() -> None:
    # After 1. d4 d5 2. Nf3 e6 both white knights (b1, f3) reach the empty d2: "Nd2" at
    # ply 5 is ambiguous (SAN needs Nbd2 or Nfd2).
    game = _damaged(MATE, moves=("d4", "d5", "Nf3", "e6", "Nd2"), status="resign")
    facts = replay_game(game)
    assert (facts.valid, facts.error_ply, facts.bad_move) == (False, 5, "Nd2")
    assert facts.error is not None and facts.error.startswith("ambiguous move")


def test_a_move_after_mate_is_illegal() -> None:
    facts = replay_game(_damaged(MATE, moves=(*MATE.moves, "Kc5")))
    assert (facts.valid, facts.error_ply) == (False, 18)


def test_a_truncated_move_list_disagrees_with_status_mate() -> None:
    # Without 17. Qe6# every move is legal, but the position after ply 16 is not mate while
    # Lichess says "mate": invalid, and the missing ply 17 is where it went wrong.
    facts = replay_game(_damaged(MATE, moves=MATE.moves[:16]))
    assert not facts.valid
    assert facts.status_agrees is False
    assert (facts.plies, facts.error_ply, facts.bad_move) == (16, 17, None)
    assert facts.error is not None and "status mate" in facts.error


def test_a_broken_fen_is_caught_before_the_first_move() -> None:
    chess960 = next(g for g in REAL if g.variant == "chess960")
    assert chess960.initial_fen is not None
    broken = chess960.initial_fen.replace("/8/8/8/8/", "/8/8/8/")  # 7 ranks
    facts = replay_game(_damaged(chess960, initial_fen=broken))
    assert (facts.valid, facts.error_ply, facts.plies, facts.final_fen) == (False, 0, 0, None)
    assert facts.error is not None and "broken FEN" in facts.error


def test_a_position_without_kings_is_caught() -> None:
    game = _damaged(MATE, variant="fromPosition", initial_fen="8/8/8/8/8/8/8/8 w - - 0 1")
    facts = replay_game(game)
    assert (facts.valid, facts.error_ply) == (False, 0)


def test_an_unknown_variant_is_invalid_not_a_crash() -> None:
    facts = replay_game(_damaged(MATE, variant="fairyChess"))
    assert (facts.valid, facts.error_ply) == (False, 0)
    assert facts.error == "unknown variant 'fairyChess'"


def test_chess960_needs_the_chess960_rules() -> None:
    # onboard247's chess960 games replay valid above with chess960=True. Read with the
    # standard rules, their FEN's castling rights "KQkq" name no rook on a/h beside a king on
    # e1/e8, so the position is impossible; without the FEN there is no start at all.
    for game in (g for g in REAL if g.variant == "chess960"):
        as_standard = replay_game(_damaged(game, variant="fromPosition"))
        assert (as_standard.valid, as_standard.error_ply) == (False, 0)
        assert not replay_game(_damaged(game, initial_fen=None)).valid


def test_material_counts_1_3_3_5_9() -> None:
    # White: Q R B N P = 9+5+3+3+1 = 21; black: R R P P = 5+5+1+1 = 12.
    fen = "r3k2r/pp6/8/8/8/8/P7/1NB1KQR1 w - - 0 1"
    game = _damaged(MATE, variant="fromPosition", initial_fen=fen, moves=(), status="draw")
    facts = replay_game(game)
    assert (facts.material_white, facts.material_black) == (21, 12)
    assert facts.material("white") == 9 and facts.material("black") == -9


def test_insufficient_material_and_stalemate() -> None:
    # K+B v K after Bxe... : the final position K B vs K is insufficient (FIDE 9.6 / 6.9).
    game = _damaged(
        MATE,
        variant="fromPosition",
        initial_fen="4k3/8/8/8/8/8/3n4/2B1K3 w - - 0 1",
        moves=("Bxd2",),
        status="draw",
        winner=None,
    )
    facts = replay_game(game)
    assert facts.valid and facts.insufficient_material and not facts.stalemate
    # Black king a8, white queen b6 after Qb6: black to move has no legal move, no check.
    stale = _damaged(
        MATE,
        variant="fromPosition",
        initial_fen="k7/8/8/1Q6/8/8/8/4K3 w - - 0 1",
        moves=("Qb6",),
        status="stalemate",
        winner=None,
    )
    facts = replay_game(stale)
    assert facts.valid and facts.stalemate and facts.status_agrees is True


# --- property: random legal games ---------------------------------------------------------

VARIANT_BOARDS: dict[str, type[chess.Board]] = {
    "standard": chess.Board,
    "chess960": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "atomic": chess.variant.AtomicBoard,
    "antichess": chess.variant.AntichessBoard,
    "horde": chess.variant.HordeBoard,
    "kingOfTheHill": chess.variant.KingOfTheHillBoard,
    "threeCheck": chess.variant.ThreeCheckBoard,
    "racingKings": chess.variant.RacingKingsBoard,
}


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANT_BOARDS)),
    position=st.integers(0, 959),
    picks=st.lists(st.integers(0, 10**6), max_size=120),
)
def test_a_random_legal_game_replays_to_python_chess_fen(
    variant: str, position: int, picks: list[int]
) -> None:
    if variant == "chess960":
        board = chess.Board.from_chess960_pos(position)
        initial_fen: str | None = board.fen()
    else:
        board = VARIANT_BOARDS[variant]()
        initial_fen = None
    sans: list[str] = []
    for pick in picks:
        moves = list(board.legal_moves)
        if not moves or board.is_variant_end():
            break
        move = moves[pick % len(moves)]
        sans.append(board.san(move))
        board.push(move)
    game = Game(
        id="prop0001",
        rated=True,
        variant=variant,
        speed="blitz",
        perf=variant,
        created_at=MATE.created_at,
        status="resign",
        white=Side(),
        black=Side(),
        moves=tuple(sans),
        initial_fen=initial_fen,
    )
    facts = replay_game(game)
    assert facts.valid, facts.error
    assert facts.plies == len(sans)
    assert facts.final_fen == board.fen()


SAN_ALPHABET = "KQRBNPabcdefgh12345678xO-+#=@"


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from([*sorted(VARIANT_BOARDS), "fromPosition", "nope"]),
    fen=st.one_of(
        st.none(),
        st.text(alphabet="kqrbnpKQRBNP12345678/ wb-", max_size=60),
        st.sampled_from(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]),
    ),
    moves=st.lists(st.text(alphabet=SAN_ALPHABET, min_size=0, max_size=7), max_size=8),
    status=st.sampled_from(["mate", "stalemate", "variantEnd", "resign", "draw"]),
)
def test_garbage_never_crashes(
    variant: str, fen: str | None, moves: list[str], status: str
) -> None:
    # Whatever the variant, FEN and move text, the replay answers instead of raising; and
    # an invalid answer always carries a reason and a ply.
    game = dataclasses.replace(
        MATE, variant=variant, initial_fen=fen, moves=("e4", *moves), status=status
    )
    facts = replay_game(game)
    if not facts.valid:
        assert facts.error and facts.error_ply is not None
    assert 0 <= facts.plies <= len(game.moves)


# --- the SAN fast path (core.fast_san.push_sans) against python-chess's push_san ------


def _push_san_facts(moves: tuple[str, ...], fen: str | None = None) -> tuple[int, str, str]:
    """What python-chess itself makes of ``moves``: plies pushed, the error class of the
    first failure ("" for none) and the final FEN."""
    board = chess.Board(fen) if fen else chess.Board()
    try:
        for san in moves:
            board.push_san(san)
    except ValueError as exc:
        return len(board.move_stack), type(exc).__name__, board.fen()
    return len(board.move_stack), "", board.fen()


def _standard(moves: tuple[str, ...], fen: str | None = None) -> Game:
    variant = "fromPosition" if fen else "standard"
    return _damaged(MATE, moves=moves, status="resign", variant=variant, initial_fen=fen)


@pytest.mark.parametrize(
    ("moves", "fen", "plies", "kind"),
    [
        # Over-specified SAN python-chess accepts: a knight with file and rank, a pawn
        # capture written with its rank too, long algebraic "e2e4" (its find_move path),
        # "0-0" castling with zeros, a missing "x", a check sign where there is no check.
        (("Ng1f3", "e5", "e4", "Nc6", "Bc4", "Nf6", "0-0"), None, 7, ""),
        (("e2e4", "d7d5", "e4d5", "Qxd5"), None, 4, ""),
        (("e4", "d5", "e4xd5", "Qd5+"), None, 4, ""),
        # "exd5" needs the file: "xd5" reads as a d-pawn's move to d5 (illegal), "e4-d5"
        # is no SAN at all.
        (("e4", "d5", "xd5"), None, 2, "IllegalMoveError"),
        (("e4", "d5", "e4-d5x"), None, 2, "InvalidMoveError"),
        # a pawn capture without its file letter is refused ("d5" then means a push).
        (("e4", "d5", "d5"), None, 2, "IllegalMoveError"),
        # promotion: with and without "=", and without the piece (illegal for python-chess).
        (("b8=Q",), "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 1, ""),
        (("b8N",), "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 1, ""),
        (("b8",), "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 0, "IllegalMoveError"),
        # Two rooks (a1, h1; the king is on e2) reach d1: "Rd1" is ambiguous, "Rad1" not.
        (("Rd1",), "4k3/8/8/8/8/8/4K3/R6R w - - 0 1", 0, "AmbiguousMoveError"),
        (("Rad1",), "4k3/8/8/8/8/8/4K3/R6R w - - 0 1", 1, ""),
        # a pinned knight (e2, pinned by the e8 rook against e1) may not move.
        (("Nc3",), "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", 0, "IllegalMoveError"),
        # Knights on b1 and e4 both reach d2, but e4 is pinned (rook e8, king e1): "Nd2"
        # is b1's, unambiguous.
        (("Nd2",), "4r1k1/8/8/8/4N3/8/8/1N2K3 w - - 0 1", 1, ""),
        # In check from the b4 bishop, knights b1 and f3 can both block on d2: ambiguous;
        # "Nbd2" is legal; "Nc3" (blocks too) is legal; "Ng5" leaves the king in check.
        (("Nd2",), "4k3/8/8/8/1b6/5N2/8/1N2K3 w - - 0 1", 0, "AmbiguousMoveError"),
        (("Nbd2",), "4k3/8/8/8/1b6/5N2/8/1N2K3 w - - 0 1", 1, ""),
        (("Nc3",), "4k3/8/8/8/1b6/5N2/8/1N2K3 w - - 0 1", 1, ""),
        (("Ng5",), "4k3/8/8/8/1b6/5N2/8/1N2K3 w - - 0 1", 0, "IllegalMoveError"),
        # A rook may not jump: a1 to a8 past a pawn on a4 is illegal; a queen along a
        # diagonal and a file; "Qd1=Q" (a promotion sign on a queen move) is illegal.
        (("Ra8",), "4k3/8/8/8/P7/8/8/R3K3 w - - 0 1", 0, "IllegalMoveError"),
        (("Qh8", "Kd7", "Qh1"), "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", 3, ""),
        (("Qd1=Q",), "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", 0, "IllegalMoveError"),
        # Pawns: a double step over an occupied square is illegal (the b1 knight went to
        # c3, "c4" then needs c3 empty); a pawn pinned on the d-file (rook d8, king d1)
        # may step but not capture; "e8" without a promotion piece is illegal.
        (("Nc3", "e6", "c4"), None, 2, "IllegalMoveError"),
        (("d4",), "3rk3/8/8/8/4p3/3P4/8/3K4 w - - 0 1", 1, ""),
        (("dxe4",), "3rk3/8/8/8/4p3/3P4/8/3K4 w - - 0 1", 0, "IllegalMoveError"),
        (("d4", "Kf8", "d5"), "3rk3/8/8/8/8/8/3P4/3K4 w - - 0 1", 3, ""),
        (("e8",), "k7/4P3/8/8/8/8/8/4K3 w - - 0 1", 0, "IllegalMoveError"),
        # en passant, and a null move "--" (python-chess pushes it).
        (("e4", "a6", "e5", "d5", "exd6"), None, 5, ""),
        (("e4", "--", "d4"), None, 3, ""),
    ],
)
def test_the_san_fast_path_reads_as_python_chess_reads(
    moves: tuple[str, ...], fen: str | None, plies: int, kind: str
) -> None:
    # plies and kind by hand (the comments); the FEN is python-chess's own after the moves.
    assert _push_san_facts(moves, fen)[:2] == (plies, kind)  # python-chess agrees with us
    facts = replay_game(_standard(moves, fen))
    assert facts.plies == plies and facts.valid == (kind == "")
    expected_kind = {"AmbiguousMoveError": "ambiguous", "IllegalMoveError": "illegal"}
    if kind:
        assert facts.error is not None
        assert facts.error.startswith(f"{expected_kind.get(kind, 'unparsable')} move")
        assert facts.bad_move == moves[plies] and facts.error_ply == plies + 1
    assert facts.final_fen == _push_san_facts(moves, fen)[2]


@settings(max_examples=80, deadline=None)
@given(
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=60),
    damage=st.lists(
        st.tuples(st.integers(0, 59), st.text(alphabet=SAN_ALPHABET, min_size=1, max_size=6)),
        max_size=3,
    ),
)
def test_the_san_fast_path_matches_push_san_on_damaged_games(
    picks: list[int], damage: list[tuple[int, str]]
) -> None:
    # A random legal game with a few moves replaced by random SAN-like text: the replay
    # stops where python-chess's push_san stops, for the same reason, on the same FEN.
    board = chess.Board()
    sans: list[str] = []
    for pick in picks:
        legal = list(board.legal_moves)
        if not legal:
            break
        move = legal[pick % len(legal)]
        sans.append(board.san(move))
        board.push(move)
    for at, text in damage:
        if at < len(sans):
            sans[at] = text
    moves = tuple(sans)
    plies, kind, fen = _push_san_facts(moves)
    facts = replay_game(_standard(moves))
    assert facts.plies == plies
    assert facts.final_fen == fen
    if kind:
        words = {"AmbiguousMoveError": "ambiguous", "IllegalMoveError": "illegal"}
        assert facts.error is not None
        assert facts.error.startswith(f"{words.get(kind, 'unparsable')} move")
