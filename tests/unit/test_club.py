"""The club ladder's core (club.py): the issue's must-hold examples and the rules.

Expected numbers are derived by hand in the comments. Logistic values used below:
  E(+200) = 1/(1+10^(-0.5)) = 1/(1+0.316228) = 0.759747;  E(-200) = 0.240253
  E(0) = 0.5.  FIDE table 8.1.2: D 198-206 -> .76 / .24, D 0-3 -> .50.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from lichess_elo.core.club.player import find_player, next_target, player_view, recent_change
from lichess_elo.core.club.rating import (
    ClubGame,
    ClubPlayer,
    Rules,
    counts,
    expected,
    months_between,
    rate_club,
    time_control_speed,
)
from lichess_elo.errors import BadInput

D = Decimal
DAY = date(2026, 3, 7)
SEED_PLAYERS = [
    ClubPlayer("Ania", 1200),
    ClubPlayer("Bartek", 1400),
    ClubPlayer("Celina", 1200),
    ClubPlayer("Dawid", 1000),
]
SEED_GAMES = [
    ClubGame("Ania", "Bartek", D(1), DAY, "Seed"),
    ClubGame("Celina", "Ania", D("0.5"), DAY, "Seed"),
    ClubGame("Ania", "Dawid", D(1), DAY, "Seed"),
]


def _ratings(players: list[ClubPlayer], games: list[ClubGame], rules: Rules) -> dict[str, int]:
    return {s.name: s.shown for s in rate_club(players, games, rules).standings}


@pytest.mark.parametrize("method", ["formula", "fide-table"])
def test_seed_tournament_ania_1240(method: str) -> None:
    # One event, K 40, ratings frozen at the start. Ania 1200:
    #   formula: sum E = 0.240253 + 0.5 + 0.759747 = 1.5 exactly (E(d) + E(-d) = 1)
    #   table:   sum E = .24 + .50 + .76 = 1.50
    #   new = 1200 + 40 x (2.5 - 1.5) = 1240
    rules = Rules(k=40, method=method)  # type: ignore[arg-type]
    result = rate_club(SEED_PLAYERS, SEED_GAMES, rules)
    ania = find_player(result, "ania")
    assert ania.rating == 1240
    assert ania.shown == 1240
    assert ania.change == 40
    assert ania.games == 3


@pytest.mark.parametrize("method", ["formula", "fide-table"])
@pytest.mark.parametrize("update", ["event", "month", "game"])
@pytest.mark.parametrize(("score", "change"), [("1", 30), ("0.5", 10), ("0", -10)])
def test_per_game_examples_1200_vs_1400(method: str, update: str, score: str, change: int) -> None:
    # K 40, 1200 vs 1400: E = 0.240253 (formula) or .24 (table).
    #   win  40 x (1 - 0.24)   = +30.39 / +30.4 -> +30
    #   draw 40 x (0.5 - 0.24) = +10.39 / +10.4 -> +10
    #   loss 40 x (0 - 0.24)   =  -9.61 /  -9.6 -> -10
    rules = Rules(k=40, method=method, update=update)  # type: ignore[arg-type]
    game = ClubGame("Ania", "Bartek", D(score), DAY)
    result = rate_club(SEED_PLAYERS[:2], [game], rules)
    ania = find_player(result, "Ania")
    assert ania.change == change
    assert ania.shown == 1200 + change


@pytest.mark.parametrize("method", ["formula", "fide-table"])
def test_equal_ratings_win_is_plus_20(method: str) -> None:
    # K 40, equal ratings: E = 0.5, win -> 40 x 0.5 = +20, the loser -20.
    rules = Rules(k=40, method=method)  # type: ignore[arg-type]
    game = ClubGame("Ania", "Celina", D(1), DAY)
    ratings = _ratings([SEED_PLAYERS[0], SEED_PLAYERS[2]], [game], rules)
    assert ratings == {"Ania": 1220, "Celina": 1180}


def test_round_at_each_update_differs_from_full_precision() -> None:
    # Game mode, K 40, Ania 1200 beats Bartek 1400 twice.
    #   update rounding: game 1 +30.39 -> +30 (1230); Bartek -30 (1370).
    #     game 2: D = -140, E = 1/(1+10^(140/400)) = 0.308764, 40 x 0.691236 = 27.65 -> +28
    #     -> 1258
    #   full precision: 1230.389877 vs 1369.610123, D = -139.220246,
    #     E = 1/(1+10^(139.220246/400)) = 0.309723, 40 x 0.690277 = 27.611 -> 1258.00097:
    #     shown 1258 as well, but the unrounded rating differs.
    games = [
        ClubGame("Ania", "Bartek", D(1), DAY, round=(1,)),
        ClubGame("Bartek", "Ania", D(0), DAY, round=(2,)),
    ]
    upd = rate_club(SEED_PLAYERS[:2], games, Rules(k=40, update="game", rounding="update"))
    assert find_player(upd, "Ania").rating == 1258
    assert find_player(upd, "Bartek").rating == 1342
    full = rate_club(SEED_PLAYERS[:2], games, Rules(k=40, update="game"))
    ania = find_player(full, "Ania").rating
    assert D("1258.0009") < ania < D("1258.0010")


def test_formula_uses_unrounded_ratings() -> None:
    # E(1230.39 vs 1369.61): D = -139.22 -> 1/(1+10^(139.22/400)) = 1/(1+2.228692)
    # = 0.309723 (a whole-point D of -139 would give 0.309994)
    rules = Rules()
    e = expected(D("1230.39"), D("1369.61"), rules)
    assert abs(e - D("0.309723")) < D("0.000001")
    # the table rounds both ratings: 1230 vs 1370, D = -140 -> row 138-145 -> .31
    assert expected(D("1230.39"), D("1369.61"), Rules(method="fide-table")) == D("0.31")


def test_cap_default_off_for_formula_on_for_table() -> None:
    # D = 1500 - 1000 = 500: formula uncapped 1/(1+10^(-1.25)) = 1/1.056234 = 0.946760;
    # table with the 400 cap -> .92 (row 392-411); formula capped at 400 -> 0.909091.
    assert abs(expected(D(1500), D(1000), Rules()) - D("0.946760")) < D("0.000001")
    assert expected(D(1500), D(1000), Rules(method="fide-table")) == D("0.92")
    capped = expected(D(1500), D(1000), Rules(cap=True))
    assert abs(capped - D("0.909091")) < D("0.000001")


def test_k_precedence_provisional_and_return() -> None:
    # Kid group K 40; provisional K 30 for 2 games does not lower it; an adult whose
    # rating the players file marks ? (a newcomer) gets the provisional 30 over the
    # default 20 for their first 2 games, then 20.
    players = [
        ClubPlayer("Kid", 1000, group="children", provisional=True),
        ClubPlayer("Adult", 1000, provisional=True),
    ]
    rules = Rules(k=20, k_groups={"children": 40}, provisional_k=30, provisional_games=2)
    games = [
        ClubGame("Kid", "Adult", D(1), date(2026, 1, 10), "E1"),
        ClubGame("Kid", "Adult", D(1), date(2026, 1, 17), "E2"),
        ClubGame("Kid", "Adult", D(1), date(2026, 1, 24), "E3"),
    ]
    result = rate_club(players, games, rules)
    assert [e.k for e in find_player(result, "Kid").history] == [40, 40, 40]
    assert [e.k for e in find_player(result, "Adult").history] == [30, 30, 20]
    # return K: back after more than 6 months (2026-01-24 -> 2026-09-01 is 7 months)
    back = ClubGame("Kid", "Adult", D(0), date(2026, 9, 1), "E4")
    later = ClubGame("Kid", "Adult", D(0), date(2026, 9, 8), "E5")
    rules2 = Rules(k=20, return_k=50, return_months=6, return_games=1)
    result2 = rate_club([ClubPlayer("Kid", 1000, group="children"), ClubPlayer("Adult", 1000)],
                        [*games, back, later], rules2)  # fmt: skip
    assert [e.k for e in find_player(result2, "Adult").history] == [20, 20, 20, 50, 20]


def test_months_between() -> None:
    assert months_between(date(2026, 1, 24), date(2026, 7, 24)) == 6
    assert months_between(date(2026, 1, 24), date(2026, 7, 23)) == 5


def test_count_and_exclude_rules() -> None:
    # 15+10 -> 15 x 60 + 40 x 10 = 1300 s: rapid; 3+2 -> 260 s: blitz.
    assert time_control_speed("15+10") == "rapid"
    assert time_control_speed("3+2") == "blitz"
    rules = Rules(count_time_controls=("rapid",), exclude_events=("*handicap*",))
    assert counts(ClubGame("A", "B", D(1), DAY, "Club", time_control="15+10"), rules)
    assert not counts(ClubGame("A", "B", D(1), DAY, "Club", time_control="3+2"), rules)
    assert not counts(ClubGame("A", "B", D(1), DAY, "Coach Handicap", time_control="15+10"), rules)
    assert not counts(ClubGame("A", "B", D(1), DAY, "Club"), rules)  # unknown time control
    only_club = Rules(count_events=("club*",))
    assert counts(ClubGame("A", "B", D(1), DAY, "Club Cup"), only_club)
    assert not counts(ClubGame("A", "B", D(1), DAY, "Open"), only_club)


def test_start_rules_groups_players_and_fide() -> None:
    players = [
        ClubPlayer("Beg", None, group="beginner"),
        ClubPlayer("Own", None, start=1111),
        ClubPlayer("Rated", 1500),
    ]
    rules = Rules(start=1000, start_groups={"beginner": 800}, newcomers=True)
    result = rate_club(players, [], rules)
    assert {s.name: s.shown for s in result.standings} == {"Beg": 800, "Own": 1111, "Rated": 1500}


def test_fide_start_rates_after_five_games() -> None:
    # Newcomer N (start "fide") plays five rated 1500s: 3 wins, 1 draw, 1 loss = 3.5.
    # FIDE 8.2: add two draws vs 1800: Ra = (5 x 1500 + 2 x 1800) / 7 = 1585.71,
    # p = (3.5 + 1) / 7 = 0.642857 -> .64 -> dp 102 -> 1687.71 -> 1688.
    # The rated players' games against the unrated newcomer do not change them.
    players = [ClubPlayer(f"R{i}", 1500) for i in range(5)] + [ClubPlayer("N")]
    scores = ["1", "1", "1", "0.5", "0"]
    games = [
        ClubGame("N", f"R{i}", D(s), date(2026, 2, 1 + i), "Rapid") for i, s in enumerate(scores)
    ]
    result = rate_club(players, games[:4], Rules(start="fide"))
    assert result.unrated == ("N",)
    result = rate_club(players, games, Rules(start="fide"))
    n = find_player(result, "N")
    assert n.shown == 1688
    assert n.games == 5
    assert {s.shown for s in result.standings if s.name != "N"} == {1500}


def test_recent_change_and_target() -> None:
    # Ania: 1200 -> 1240 on 2026-03-07 (seed event), then a +20 win on 2026-07-04 (equal
    # ratings, K 40) -> 1260. Over the 3 months up to 2026-07-04 (since 2026-04-04): +20.
    games = [
        *SEED_GAMES,
        ClubGame("Ania", "Zoe", D(1), date(2026, 7, 4), "Summer"),
    ]
    players = [*SEED_PLAYERS, ClubPlayer("Zoe", 1240)]
    result = rate_club(players, games, Rules(k=40, target_step=50, term_end=date(2026, 12, 18)))
    ania = find_player(result, "Ania")
    assert ania.shown == 1260
    assert recent_change(ania, date(2026, 7, 4), 3) == 20
    assert recent_change(ania, date(2026, 7, 4), 6) == 60
    target = next_target(ania, result.rules)
    # K 40 against an equal: +20 a win; 50 points -> ceil(50 / 20) = 3 wins.
    assert (target.rating, target.wins_needed, target.by) == (1310, 3, date(2026, 12, 18))
    # the page puts the same three together; the latest game (2026-07-04) ends the window
    view = player_view(result, "ania")
    assert (view.standing.name, view.recent, view.months, view.target) == ("Ania", 20, 3, target)
    with pytest.raises(BadInput) as unknown:
        player_view(result, "Nobody")
    assert (unknown.value.field, unknown.value.value) == ("player", "'Nobody'")


def test_awards_progress_by_month_and_most_games() -> None:
    result = rate_club(SEED_PLAYERS, SEED_GAMES, Rules(k=40))
    assert [(a.period, a.name, a.change) for a in result.progress] == [("2026-03", "Ania", 40)]
    assert result.most_games[0].name == "Ania"
    assert result.most_games[0].games == 3


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (ClubGame("Ania", "Zenon", D(1), DAY, where="g.csv:3"), "g.csv:3: field black: player"),
        (ClubGame("Ania", " ania ", D(1), DAY, where="g.csv:4"), "has a single player"),
    ],
)
def test_bad_games(game: ClubGame, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        rate_club(SEED_PLAYERS, [game], Rules())


def test_duplicate_game_named_with_both_places() -> None:
    first = ClubGame("Ania", "Bartek", D(1), DAY, "Cup", round=(1,), where="a.csv:2")
    again = ClubGame("ania", "Bartek", D(0), DAY, "cup", round=(1,), where="b.pgn:10")
    with pytest.raises(BadInput, match=r"b.pgn:10: field white: duplicated game \(same as a.csv:2"):
        rate_club(SEED_PLAYERS, [first, again], Rules())
    rematch = ClubGame("Ania", "Bartek", D(0), DAY, "Cup", round=(2,))
    assert len(rate_club(SEED_PLAYERS, [first, rematch], Rules()).events) == 1


def test_newcomers_without_roster_start_at_default() -> None:
    result = rate_club([], [ClubGame("X", "Y", D(1), DAY)], Rules(k=20, start=1000))
    assert {s.name: s.shown for s in result.standings} == {"X": 1010, "Y": 990}
    assert result.events[0].name == "2026-03-07"  # no event: the date names it
