"""Chess.com's games as records (core.chesscom): the result codes, the pools and perfs, a
month read whole or in part, and the observed change of each rated game, on the real
recorded month of FabianoCaruana (tests/data/chesscom) worked out by hand."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from lichess_elo.core.chesscom import (
    DRAW_CODES,
    LOSS_CODES,
    GameFault,
    MonthFault,
    observed_changes,
    outcome_of,
    parse_game,
    parse_month,
    perf_of,
    pool_key,
)
from tests.fake_chesscom import recorded_games, written_game

CARUANA = "FabianoCaruana"
#: 2020-05-20 00:00 UTC and 2020-06-01 00:00 UTC as epoch seconds.
MAY_20 = int(datetime(2020, 5, 20, tzinfo=UTC).timestamp())
JUNE_2 = int(datetime(2020, 6, 2, tzinfo=UTC).timestamp())


def _month(games: list[dict[str, Any]]) -> bytes:
    return json.dumps({"games": games}).encode()


# --- results -------------------------------------------------------------------------


def test_the_documented_codes() -> None:
    # The PubAPI documentation's list (shared/reference/chesscom/README.md).
    assert {
        "agreed", "repetition", "stalemate", "insufficient", "50move", "timevsinsufficient"
    } == DRAW_CODES  # fmt: skip
    assert {
        "checkmated", "resigned", "timeout", "lose", "abandoned", "kingofthehill",
        "threecheck", "bughousepartnerlose",
    } == LOSS_CODES  # fmt: skip
    assert outcome_of("win") == "win"
    assert {outcome_of(c) for c in DRAW_CODES} == {"draw"}
    assert {outcome_of(c) for c in LOSS_CODES} == {"loss"}
    assert outcome_of("draw") is None  # not a documented code


def test_recorded_results_read_as_scores() -> None:
    games = {g.url.rsplit("/", 1)[1]: g for g in map(parse_game, recorded_games())}
    # white "win" / black "checkmated"; both "insufficient"; both "repetition";
    # white "resigned" / black "win"; white "timeout" / black "win"
    assert games["4814018950"].white_score == 1.0
    assert games["4823334699"].white_score == 0.5
    assert games["4827368408"].white_score == 0.5
    assert games["4860634174"].white_score == 0.0
    assert games["4861126831"].white_score == 0.0


def test_an_unknown_code_is_a_fault_of_that_game_never_a_draw() -> None:
    base = recorded_games()[3]  # a draw by "insufficient" on both sides
    game = written_game(base, white={"result": "drawnbyagreement"})
    with pytest.raises(GameFault) as caught:
        parse_game(game)
    message = str(caught.value)
    assert base["url"] in message
    assert "'drawnbyagreement'" in message


def test_results_that_disagree_are_a_fault() -> None:
    base = recorded_games()[0]  # white "win", black "checkmated"
    with pytest.raises(GameFault, match="disagree"):
        parse_game(written_game(base, black={"result": "win"}))
    with pytest.raises(GameFault, match="disagree"):
        parse_game(written_game(base, black={"result": "agreed"}))


# --- the record ----------------------------------------------------------------------


def test_the_record_of_a_recorded_game() -> None:
    game = parse_game(recorded_games()[9])
    assert game.url == "https://www.chess.com/game/live/4860634174"
    # end_time 1589567984 = 2020-05-15 18:39:44 UTC
    assert game.end_time == datetime(2020, 5, 15, 18, 39, 44, tzinfo=UTC)
    assert (game.rated, game.rules, game.time_class, game.time_control) == (
        True, "chess", "blitz", "180+2"
    )  # fmt: skip
    assert (game.white.username, game.white.rating_after, game.white.result) == (
        CARUANA, 3047, "resigned"
    )  # fmt: skip
    assert (game.black.username, game.black.rating_after, game.black.result) == (
        "lachesisQ", 3084, "win"
    )  # fmt: skip
    assert game.pgn.startswith('[Event "Live Chess"]')
    assert game.initial_setup == ""
    assert game.start_time is None  # live games carry no start_time
    assert game.color_of("fabianocaruana") == "white"
    assert game.color_of("someone") is None


@pytest.mark.parametrize(
    ("change", "found"),
    [
        ({"pgn": None}, "no pgn"),
        ({"white": {"rating": "3047"}}, "white rating '3047' is not a whole number"),
        ({"black": {"rating": 3084.5}}, "black rating 3084.5 is not a whole number"),
        ({"rated": "yes"}, "rated 'yes'"),
        ({"end_time": "1589567984"}, "end_time"),
        ({"rules": "chess1000"}, "unknown rules 'chess1000'"),
    ],
)
def test_a_game_that_cannot_be_read_is_named(change: dict[str, Any], found: str) -> None:
    base = recorded_games()[9]
    with pytest.raises(GameFault) as caught:
        parse_game(written_game(base, **change))
    assert base["url"] in str(caught.value)
    assert found in str(caught.value)


# --- a month -------------------------------------------------------------------------


def test_a_month_that_is_not_an_archive() -> None:
    with pytest.raises(MonthFault, match="not JSON"):
        parse_month(b'{"games": [', 2020, 5)
    with pytest.raises(MonthFault, match="no games list"):
        parse_month(b'{"archives": []}', 2020, 5)


def test_a_month_keeps_its_whole_games_and_names_the_others() -> None:
    games = recorded_games()
    bad_pgn = written_game(games[1], pgn=None)
    other_month = written_game(games[2], end_time=JUNE_2)
    other_player = written_game(games[4], white={"username": "x"}, black={"username": "y"})
    body = _month([games[0], bad_pgn, other_month, other_player, *games[5:]])
    read = parse_month(body, 2020, 5, "fabianocaruana")
    # 17 recorded games, of which 1, 2 and 4 were changed and game 3 left out of the body:
    # 13 whole games kept (0 and 5..16), 3 named
    assert len(read.games) == 13
    assert len(read.faults) == 3
    for line, game in zip(read.faults, (games[1], games[2], games[4]), strict=True):
        assert line.startswith(f"{game['url']}: ")
    assert "no pgn" in read.faults[0]
    assert "ended 2020-06-02 00:00:00 UTC, not in 2020-05" in read.faults[1]
    assert "not a game of fabianocaruana" in read.faults[2]


# --- pools and perfs -----------------------------------------------------------------


def test_pools_are_rules_and_time_class() -> None:
    assert pool_key("chess", "blitz") == "chess_blitz"
    assert pool_key("chess960", "daily") == "chess960_daily"


@pytest.mark.parametrize(
    ("rules", "time_class", "time_control", "perf"),
    [
        # Lichess's speed of initial + 40 x increment (limits 180, 480, 1500 s):
        ("chess", "rapid", "1500+10", "classical"),  # 1500 + 400 = 1900 >= 1500
        ("chess", "blitz", "180+2", "blitz"),  # 180 + 80 = 260 < 480
        ("chess", "blitz", "180", "blitz"),  # 180 < 480
        ("chess", "bullet", "60", "bullet"),  # 60 < 180
        ("chess", "rapid", "600", "rapid"),  # 480 <= 600 < 1500
        ("chess", "daily", "1/259200", "correspondence"),  # one move in 3 days
        ("chess960", "blitz", "180", "chess960"),
        ("chess960", "daily", "1/86400", "chess960"),  # a variant whatever its clock
        ("kingofthehill", "blitz", "300", "kingOfTheHill"),
        ("threecheck", "bullet", "60", "threeCheck"),
        ("crazyhouse", "blitz", "180+2", "crazyhouse"),
        ("bughouse", "blitz", "180", None),  # no Lichess perf
    ],
)
def test_perfs_as_lichess_names_them(
    rules: str, time_class: str, time_control: str, perf: str | None
) -> None:
    assert perf_of(rules, time_class, time_control) == perf


# --- the observed change -------------------------------------------------------------


def test_the_recorded_month_observed_changes_by_hand() -> None:
    track = observed_changes(map(parse_game, recorded_games()), "fabianocaruana")
    assert len(track) == 17
    # The 9 unrated rapid games (1500+10) all show 2773 and make no change.
    unrated = track[:9]
    assert {(t.pool, t.rating_after, t.change, t.rating_before) for t in unrated} == {
        ("chess_rapid", 2773, None, None)
    }
    blitz = track[9:]
    assert {t.pool for t in blitz} == {"chess_blitz"}  # 180+2 and 180: both "blitz"
    # Caruana's post-game ratings in the 8 rated blitz games, by end_time (read from the
    # cassette): 3047, 3030, 3033, 3052, 3062, 3040, 3027, 3016.
    assert [t.rating_after for t in blitz] == [3047, 3030, 3033, 3052, 3062, 3040, 3027, 3016]
    assert [t.change for t in blitz] == [
        None,  # the first rated blitz game of the import: no change
        -17,  # 3030 - 3047 (a loss, resigned)
        +3,  # 3033 - 3030 (a draw, agreed)
        +19,  # 3052 - 3033 (a win)
        +10,  # 3062 - 3052 (a win)
        -22,  # 3040 - 3062 (a loss on time)
        -13,  # 3027 - 3040 (a loss, resigned)
        -11,  # 3016 - 3027 (a loss, resigned)
    ]
    # The opponent before the game, estimated as their post-game rating + Caruana's change:
    # lachesisQ 3091 - 17 = 3074; 3090 + 3 = 3093; 3081 + 19 = 3100; LyonBeast 2905 + 10
    # = 2915; 2918 - 22 = 2896; Grischuk 3098 - 13 = 3085; 3104 - 11 = 3093.
    assert [t.opponent_before for t in blitz] == [
        None, 3074, 3093, 3100, 2915, 2896, 3085, 3093
    ]  # fmt: skip
    assert [t.opponent_before_estimated for t in blitz] == [False] + [True] * 7


def test_a_month_not_read_breaks_the_chain() -> None:
    games = recorded_games()
    # The same player's rated blitz games written into April and June 2020 (copies of the
    # recorded games 9 and 10, post-game ratings 3047 then 3030), May not read.
    april = written_game(games[9], end_time=int(datetime(2020, 4, 30, tzinfo=UTC).timestamp()))
    june = written_game(games[10], end_time=JUNE_2)
    parsed = [parse_game(april), parse_game(june)]
    gap = observed_changes(parsed, CARUANA, months_read=[(2020, 4), (2020, 6)])
    assert [t.change for t in gap] == [None, None]  # May may hold games: no change
    whole = observed_changes(parsed, CARUANA, months_read=[(2020, 4), (2020, 5), (2020, 6)])
    assert [t.change for t in whole] == [None, 3030 - 3047]


def test_unrated_games_between_change_nothing() -> None:
    games = recorded_games()
    # rated 3047, an unrated blitz game showing 9999 (made up), rated 3030: the change of
    # the second rated game is still 3030 - 3047, the unrated game's none.
    unrated = written_game(games[9], rated=False, end_time=MAY_20 - 1, url="u:1")
    unrated["white"]["rating"] = 9999
    rated = written_game(games[10], end_time=MAY_20)
    track = observed_changes(map(parse_game, [games[9], unrated, rated]), CARUANA)
    assert [t.change for t in track] == [None, None, -17]
    assert track[1].rating_after == 9999


def test_other_players_games_are_left_out() -> None:
    games = recorded_games()
    other = written_game(games[9], white={"username": "x"})
    assert observed_changes([parse_game(other)], CARUANA) == []
