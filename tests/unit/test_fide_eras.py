"""The engine under each dated edition: a worked example per rule and per era.

Every expected number is derived by hand in the comments from table 8.1.2 (the rows are
quoted) and the K of the edition; the regulation text is quoted in ``test_fide_rules.py``
and ``docs/rules.md``.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from lichess_elo.core import fide
from lichess_elo.core.fide import GameResult, calculate, rate_period
from lichess_elo.core.fide import editions as fide_rules
from lichess_elo.errors import BadInput, Conflict, OutOfRange

WIN, DRAW, LOSS = Decimal(1), Decimal("0.5"), Decimal(0)


def test_2013_game_uses_the_pre_2014_k_values() -> None:
    # 2013, standard: an established player (30+ games) rated 2000 beats a 2100.
    # D = -100, row 99-106 -> L .36; K 15 (before 1 July 2014): 15 x .64 = 9.6 -> +10.
    result = calculate(
        2000, [GameResult(2100, WIN)], games_before=30, rules="standard", as_of=date(2013, 5, 1)
    )
    assert result.period is not None and result.edition.key == "standard-2012-07"
    assert (result.k_rule, result.period.k) == ("standard", 15)
    assert result.period.change == Decimal("9.60") and result.new_rating == 2010
    # the same game under today's rules: K 20 x .64 = 12.8 -> +13
    assert calculate(2000, [GameResult(2100, WIN)], games_before=30).new_rating == 2013
    # a new player in 2013: K 30; 1800 beats 1800: 30 x (1 - .50) = +15
    new = calculate(1800, [GameResult(1800, WIN)], games_before=10, as_of=date(2013, 5, 1))
    assert (new.k_rule, new.new_rating) == ("new", 1815)


def test_2023_event_gets_the_400_rule_once() -> None:
    # The rapid event of [CCUP] (2022 text, once per event), rated 2023 with the player's
    # K 20 as published:
    # 1063 W: D 937 -> 400 (the only upgrade), .92 -> +.08
    # 1299 W: D 701, row 620-735 .99 -> +.01; 1413 W: D 587, row 560-619 .98 -> +.02
    # 1872 D: D 128, row 122-129 .67 -> -.17;  1851 L: D 149, row 146-153 .70 -> -.70
    # 1427 W: D 573 .98 -> +.02;               1682 W: D 318, row 316-328 .87 -> +.13
    # sum -0.61; 20 x -0.61 = -12.2 -> -12, as FIDE published it.
    games = [
        GameResult(o, s, event="arena:abc")
        for o, s in [
            (1063, WIN), (1299, WIN), (1413, WIN), (1872, DRAW),
            (1851, LOSS), (1427, WIN), (1682, WIN),
        ]
    ]  # fmt: skip
    edition = fide_rules.in_force("rapid-blitz", date(2023, 3, 1))
    period = rate_period(2000, games, k=20, edition=edition)
    assert [g.capped for g in period.games] == [True] + [False] * 6
    assert period.change == Decimal("-12.20") and period.rounded_change == -12
    # 2021 (every game capped): the four wins vs < 1600 each .92 -> +.08:
    # 4 x .08 - .17 - .70 + .13 = -0.42; 20 x -0.42 = -8.4 -> -8
    before = fide_rules.in_force("rapid-blitz", date(2021, 6, 1))
    assert rate_period(2000, games, k=20, edition=before).change == Decimal("-8.40")
    # two events in one period: each gets its own upgrade. 1063 and 1299 both capped:
    # .08 + .08 + .02 - .17 - .70 + .02 + .13 = -0.54 -> -10.8 -> -11
    split = [GameResult(g.opponent, g.score, event="x" if i else "y") for i, g in enumerate(games)]
    assert rate_period(2000, split, k=20, edition=edition).rounded_change == -11


def test_junior_who_reached_2300_is_not_k_40_again() -> None:
    # calc 2250 2250:1 --born 2010 (list year 2026), 40 games: junior -> K 40: 40 x .5 = +20
    game = [GameResult(2250, WIN)]
    junior = calculate(2250, game, birth_year=2010, year=2026, games_before=40)
    assert (junior.k_rule, junior.new_rating) == ("junior", 2270)
    # ... but rated 2350 last year: "as long as their rating remains under 2300" -> K 20,
    # 20 x .5 = +10
    was_2350 = calculate(2250, game, birth_year=2010, year=2026, games_before=40, peak=2350)
    assert (was_2350.k_rule, was_2350.new_rating) == ("standard", 2260)
    # a peak of 2400: K 10 for good, +5
    was_2400 = calculate(2250, game, games_before=40, peak=2400)
    assert (was_2400.k_rule, was_2400.new_rating) == ("2400", 2255)


def test_600_2600_game_is_not_rated_in_rapid_blitz_since_december_2024() -> None:
    # January 2025, rapid-blitz: 2650 vs 2050 is 600 apart with 2650 > 2600: not rated.
    # The draw vs 2600: D 50, row 47-53 -> .57; K 10 (2650 >= 2400): 10 x -.07 = -0.7 -> -1
    games = [GameResult(2050, WIN), GameResult(2600, DRAW)]
    blitz = calculate(2650, games, games_before=100, rules="rapid-blitz", as_of=date(2025, 1, 10))
    assert blitz.period is not None
    assert [g.not_rated for g in blitz.period.games] == ["600/2600", None]
    assert blitz.period.games[0].change == 0 and blitz.period.rated_games == 1
    assert blitz.period.change == Decimal("-0.70") and blitz.new_rating == 2649
    # the standard chapter rates it (January 2025: no 2650 exemption yet): D 600 -> 400,
    # .92 -> +.08; with the draw +.01 -> 10 x .01 = 0.1 -> 0
    standard = calculate(2650, games, games_before=100, rules="standard", as_of=date(2025, 1, 10))
    assert standard.period is not None and standard.period.change == Decimal("0.10")
    # November 2024, before the amendment: rated in rapid-blitz too, same as standard
    november = calculate(
        2650, games, games_before=100, rules="rapid-blitz", as_of=date(2024, 11, 1)
    )
    assert november.period is not None and november.period.change == Decimal("0.10")


def test_600_2600_games_do_not_count_for_the_700_rule() -> None:
    # 36 games at K 20 would give K 19 (20 x 36 = 720 > 700); 2 of them are not rated,
    # so n = 34 and K stays 20 (680 <= 700). 2300 vs 2300 draws: 0 each; the 2 vs 2950
    # (650 apart, 2950 > 2600) are left out.
    games = [GameResult(2300, DRAW)] * 34 + [GameResult(2950, LOSS)] * 2
    edition = fide_rules.in_force("rapid-blitz", date(2025, 6, 1))
    period = rate_period(2300, games, k=20, edition=edition)
    assert (period.k, period.rated_games, period.rounded_change) == (20, 34, 0)


def test_rapid_blitz_k_20_for_everyone_before_october_2022() -> None:
    # September 2022 blitz, a new player: K 20 for all -> 20 x .5 = +10 [RB22: until 30 Sep
    # 2022]; 2023 and today (the standard K text from 1 Oct 2022): K 40 -> 40 x .5 = +20
    game = [GameResult(1500, WIN)]
    old = calculate(1500, game, games_before=0, rules="rapid-blitz", as_of=date(2022, 9, 30))
    assert (old.k_rule, old.new_rating) == ("flat", 1510)
    new = calculate(1500, game, games_before=0, rules="rapid-blitz", as_of=date(2023, 6, 1))
    assert (new.k_rule, new.new_rating) == ("new", 1520)
    assert calculate(1500, game, games_before=0, rules="rapid-blitz").new_rating == 1520


def test_2650_exemption_by_date_and_chapter() -> None:
    # 2813 beats 1787: D 1026. From 1 Oct 2025 (standard): uncapped, > 735 -> 1.00, +0.
    # Before, or in rapid-blitz (November 2024, before the 600/2600 rule): capped, .92 ->
    # K 10 x .08 = 0.8 -> +1. In rapid-blitz today the game is not rated at all
    # (1026 apart, 2813 > 2600): +0.
    game = [GameResult(1787, WIN)]
    new = calculate(2813, game, games_before=100, rules="standard", as_of=date(2025, 10, 1))
    old = calculate(2813, game, games_before=100, rules="standard", as_of=date(2025, 9, 30))
    blitz = calculate(2813, game, games_before=100, rules="rapid-blitz", as_of=date(2024, 11, 1))
    today = calculate(2813, game, games_before=100, rules="rapid-blitz")
    assert (new.new_rating, old.new_rating, blitz.new_rating) == (2813, 2814, 2814)
    assert blitz.period is not None and blitz.period.games[0].capped
    assert today.period is not None and today.period.games[0].not_rated == "600/2600"


def test_peak_is_checked() -> None:
    game = [GameResult(1500, WIN)]
    with pytest.raises(BadInput, match="peak rating 1400 is below the rating 1500") as low:
        calculate(1500, game, peak=1400)
    assert low.value.field == "peak"
    with pytest.raises(OutOfRange, match=r"peak rating 4100 is outside 0\.\.4000"):
        calculate(1500, game, peak=4100)
    with pytest.raises(Conflict) as given_k:
        calculate(1500, game, peak=1600, k=20)
    assert given_k.value.fields == ("peak", "k")
    with pytest.raises(Conflict) as unrated:
        calculate(None, game * 5, peak=1600, unrated=True)
    assert unrated.value.fields == ("peak", "unrated")


def test_default_edition_is_todays_standard() -> None:
    assert fide.CURRENT_STANDARD is fide_rules.in_force("standard", date(2100, 1, 1))
    assert calculate(1500, [GameResult(1500, WIN)]).edition is fide.CURRENT_STANDARD


def test_2010_newcomer_k_is_25_and_30_from_july_2011() -> None:
    # F2009: "The change of K as decided in Dresden was not confirmed by the PB. The K
    # values stay as they are" -> 25 for a new player until July 2011 [HB73]; 30 from
    # July 2011 [PR2011, HB161]. A new 1800 beats an 1800: PD .50, K x .5.
    game = [GameResult(1800, WIN)]
    y2010 = calculate(1800, game, games_before=10, rules="standard", as_of=date(2010, 5, 1))
    assert (y2010.edition.key, y2010.k_rule) == ("standard-2009-07", "new")
    assert y2010.period is not None and y2010.period.change == Decimal("12.50")
    assert y2010.new_rating == 1813  # 12.5 rounds away from zero
    y2011 = calculate(1800, game, games_before=10, rules="standard", as_of=date(2011, 7, 1))
    assert y2011.new_rating == 1815  # 30 x .5
    # 2009 text: K 10 "once a player's published rating has reached 2400, and he has also
    # completed events with a total of at least 30 games" [HB73]: a 2450 newcomer keeps 25
    top = calculate(2450, game, games_before=10, rules="standard", as_of=date(2010, 5, 1))
    assert (top.k_rule, top.period.k if top.period else None) == ("new", 25)
    later = calculate(2450, game, games_before=10, rules="standard", as_of=date(2011, 7, 1))
    assert later.k_rule == "2400"


def test_rules_as_of_before_the_first_edition_is_refused_with_the_range() -> None:
    with pytest.raises(
        BadInput, match=r"rules date 2009-06-30 is before .*standard from 2009-07-01"
    ):
        calculate(1800, [GameResult(1800, WIN)], rules="standard", as_of=date(2009, 6, 30))
    with pytest.raises(BadInput, match=r"rapid-blitz from 2012-01-01"):
        calculate(1800, [GameResult(1800, WIN)], rules="rapid-blitz", as_of=date(2011, 12, 31))


def _initial(opponent: int, wins: int, games: int, day: date | None) -> fide.InitialRating:
    results = [GameResult(opponent, WIN if i < wins else LOSS) for i in range(games)]
    result = calculate(None, results, unrated=True, as_of=day)
    assert result.initial is not None
    return result.initial


@pytest.mark.parametrize(
    ("opponent", "wins", "games", "rating"),
    [
        # FIDE's own initial-rating calculator, which still applies the 2022 rule [FIDECALC]:
        (2000, 3, 5, 2020),  # F-I01 "Calculation: 2020=2000+20": 1 half point over 50 %
        (2000, 2, 5, 1928),  # F-I02 "1928=2000+(-72)": p .40 -> dp -72 (table 8.1.1)
        (2100, 5, 5, 2200),  # F-I04 "2200=2100+100": 5 half points over 50 % x 20
        (2400, 3, 5, 2420),  # F-I05 "2420=2400+20": no 2200 maximum before 2024
        (1600, 1, 5, 1360),  # F-I06 "1360=1600+(-240)": p .20 -> dp -240
        (1800, 4, 7, 1820),  # F-I08 "1820=1800+20": 4 of 7 is 1 half point over 3.5
    ],
)
def test_initial_rating_under_the_2022_rule(
    opponent: int, wins: int, games: int, rating: int
) -> None:
    # H22 8.2.3: "If they score more than 50%, then Ru = Ra + 20 for each half point scored
    # over 50%. If they score less than 50%, then Ru = Ra + dp."
    initial = _initial(opponent, wins, games, date(2023, 6, 1))
    assert (initial.edition.key, initial.method) == ("standard-2022-01", "half-points")
    assert initial.rating == rating and initial.publishable  # the floor was 1000


def test_initial_rating_rule_follows_the_date() -> None:
    # The 2024 rule on F-N01 (FIDE's published first rating 1922): opponents 1902 (1/2),
    # 1877 (1/2), 1884 (1), 2012 (0), 1832 (1) plus two draws against 1800: Ra = 13107 / 7
    # = 1872.43, p = 4/7 -> .57 -> dp 50 -> 1922. The 2022 rule on the same games: Ra =
    # 9507 / 5 = 1901.4, 3 of 5 is 1 half point over 50 % -> +20 -> 1921.4 -> 1921 (the
    # "Rp" FIDE printed beside it).
    results = [
        GameResult(1902, DRAW), GameResult(1877, DRAW), GameResult(1884, WIN),
        GameResult(2012, LOSS), GameResult(1832, WIN),
    ]  # fmt: skip
    now = calculate(None, results, unrated=True)
    then = calculate(None, results, unrated=True, as_of=date(2024, 2, 29))
    assert now.new_rating == 1922 and then.new_rating == 1921
    # Rapid & Blitz takes the standard chapter's rule of the day
    blitz = calculate(None, results, unrated=True, rules="rapid-blitz", as_of=date(2023, 1, 1))
    assert blitz.new_rating == 1921


def test_initial_rating_in_2010_is_ra_plus_12_5_a_half_point_from_9_games() -> None:
    # F2009: "the value of 0.5 point in a new player's rating calculation will stay as 12.5
    # (half of the highest K value)"; 9 games against rated opponents [HB73, OLD09 9.14].
    # 6 of 9 against 2000: 3 half points over 4.5 -> 2000 + 37.5 = 2037.5 -> 2038.
    assert _initial(2000, 6, 9, date(2010, 5, 1)).rating == 2038
    with pytest.raises(BadInput, match="at least 9 games"):
        _initial(2000, 4, 5, date(2010, 5, 1))
    # 1 July 2011 to June 2014: half of K 30 = 15 a half point (inferred, no text found):
    # 2000 + 45 = 2045
    assert _initial(2000, 6, 9, date(2012, 5, 1)).rating == 2045


def test_floor_of_the_initial_rating_by_date() -> None:
    # 1 of 5 against 1300: p .20 -> dp -240 -> 1060 under the 2022 rule: at least the floor
    # 1000 then [CV2011], published. The 2024 rule (floor 1400 [H24 7.1.4]): Ra = (6500 +
    # 3600) / 7 = 1442.86, p = 2/7 = .29 -> dp -158 -> 1284.86 -> 1285, not published.
    old = _initial(1300, 1, 5, date(2023, 6, 1))
    assert (old.rating, old.publishable) == (1060, True)
    new = _initial(1300, 1, 5, None)
    assert (new.rating, new.publishable) == (1285, False)
