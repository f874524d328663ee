"""How a game ended, from each player's side, on crafted games (derivations beside them).

Definitions: lost on time while ahead by >= 3 points (1/3/3/5/9), won on time
while behind by >= 3, resigned while not behind, won/lost by the opponent leaving
(status ``timeout``), decided (a winner) within 10 plies.
"""

from __future__ import annotations

from datetime import UTC, datetime

from lichess_elo.core.games import Color, Game, Side
from lichess_elo.core.replay import endings, replay_game

# Kings shuffle for 12 plies (e1-d2-d1, d8-d7-d8) and back: the material never changes,
# and 12 > 10 plies keeps "decided_quickly" out of the way.
SHUFFLE = ("Kd2", "Kd7", "Kd1", "Kd8") * 3
# Bare kings: level material (0 v 0).
LEVEL = "3k4/8/8/8/8/8/8/4K3 w - - 0 1"


def _game(
    status: str,
    winner: Color | None,
    moves: tuple[str, ...] = SHUFFLE,
    fen: str | None = LEVEL,
) -> Game:
    return Game(
        id="crafted1",
        rated=True,
        variant="fromPosition" if fen else "standard",
        speed="blitz",
        perf="blitz",
        created_at=datetime(2024, 1, 1, tzinfo=UTC),
        status=status,
        white=Side(user_id="w", name="W"),
        black=Side(user_id="b", name="B"),
        winner=winner,
        moves=moves,
        initial_fen=fen,
    )


def _both(game: Game) -> tuple[tuple[str, ...], tuple[str, ...]]:
    facts = replay_game(game)
    assert facts.valid, facts.error
    return endings(game, "white", facts), endings(game, "black", facts)


# White: king + queen a1 (9), black: king alone (0) -> white is 9 points ahead.
QUEEN_UP = "3k4/8/8/8/8/8/8/Q3K3 w - - 0 1"


def test_lost_on_time_ahead_and_won_on_time_behind() -> None:
    # White, a queen up (+9 >= 3), runs out of time; black wins on time 9 points behind.
    white, black = _both(_game("outoftime", "black", fen=QUEEN_UP))
    assert white == ("lost_on_time_ahead",)
    assert black == ("won_on_time_behind",)


def test_the_three_point_margin_is_inclusive() -> None:
    # White R+P = 5+1 = 6, black N = 3: white is exactly 3 ahead -> counts.
    three = "3k4/8/8/3n4/8/8/P7/R3K3 w - - 0 1"
    assert _both(_game("outoftime", "black", SHUFFLE, three))[0] == ("lost_on_time_ahead",)
    # White R = 5, black N = 3: 2 ahead -> not enough; black 2 behind -> not enough either.
    two = "3k4/8/8/3n4/8/8/8/R3K3 w - - 0 1"
    assert _both(_game("outoftime", "black", SHUFFLE, two)) == ((), ())


def test_winning_on_time_while_ahead_is_no_ending() -> None:
    # White a queen up wins on time: nothing the rating missed.
    assert _both(_game("outoftime", "white", fen=QUEEN_UP)) == ((), ())


def test_resigned_while_not_behind() -> None:
    # 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5: 12 plies, no capture,
    # material 39 v 39 (8 + 2*3 + 2*3 + 2*5 + 9 each); white resigns -> level, not behind.
    ruy = ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5")
    white, black = _both(_game("resign", "black", ruy, fen=None))
    assert white == ("resigned_not_behind",)
    assert black == ()


def test_resigning_while_behind_is_no_ending() -> None:
    # White (9 ahead) wins by black's resignation: black was 9 behind -> a normal resignation.
    assert _both(_game("resign", "white", fen=QUEEN_UP)) == ((), ())


def test_timeout_means_the_opponent_left() -> None:
    # Lichess status "timeout": the opponent left and the winner claimed the game.
    white, black = _both(_game("timeout", "white"))
    assert white == ("won_by_timeout",)
    assert black == ("lost_by_timeout",)


def test_decided_within_ten_plies() -> None:
    # Fool's mate 1. f3 e5 2. g4 Qh4#: 4 plies <= 10, black wins.
    fools = ("f3", "e5", "g4", "Qh4#")
    white, black = _both(_game("mate", "black", fools, fen=None))
    assert white == ("decided_quickly",) and black == ("decided_quickly",)
    # Exactly 10 plies, white resigns (level material): both "resigned_not_behind" (white)
    # and "decided_quickly".
    ten = SHUFFLE[:10]
    assert _both(_game("resign", "black", ten))[0] == ("resigned_not_behind", "decided_quickly")
    # 11 plies is not quick; a draw within 10 plies is not "decided".
    eleven = SHUFFLE[:11]
    assert _both(_game("resign", "black", eleven))[0] == ("resigned_not_behind",)
    assert _both(_game("draw", None, SHUFFLE[:4])) == ((), ())


def test_a_game_lost_on_time_before_any_move_is_quick() -> None:
    # Like the real wVI5NKlo (outoftime, no moves, black wins): 0 plies, decided.
    white, black = _both(_game("outoftime", "black", ()))
    assert white == ("decided_quickly",) and black == ("decided_quickly",)


def test_an_invalid_replay_gives_no_material_or_ply_endings() -> None:
    # The move list breaks at ply 1 (a king on e1 cannot reach e3 in one move): the
    # material at the break says nothing about the real game.
    game = _game("outoftime", "black", ("Ke3",), QUEEN_UP)
    facts = replay_game(game)
    assert not facts.valid
    assert endings(game, "white", facts) == ()
    left = _game("timeout", "black", ("Ke3",), QUEEN_UP)
    # The opponent leaving is the status itself, not a position fact: still reported.
    assert endings(left, "black", replay_game(left)) == ("won_by_timeout",)
