"""``fide.calculate``: the library function behind ``lichess-elo calc``.

Expected numbers come from FIDE table 8.1.2 (PD) and 8.1.1 (dp) as printed in
``notes/fide-rules.md``; the derivation is written beside each number.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from lichess_elo.cli.calc import NAMES as CALC_NAMES
from lichess_elo.cli.errors import OPTION_NAMES
from lichess_elo.core import fide
from lichess_elo.core.fide import GameResult
from lichess_elo.errors import BadInput

D = Decimal
YEAR = 2026

SEED_A = [GameResult(1400, D(1)), GameResult(1600, D("0.5")), GameResult(1550, D(0))]
F_N01 = [
    GameResult(1902, D("0.5")),
    GameResult(1877, D("0.5")),
    GameResult(1884, D(1)),
    GameResult(2012, D(0)),
    GameResult(1832, D(1)),
]


def _period(result: fide.CalcResult) -> fide.PeriodResult:
    assert result.period is not None and result.initial is None
    return result.period


def test_seed_example_with_k_20() -> None:
    result = fide.calculate(1500, SEED_A, k=20, year=YEAR)
    period = _period(result)
    # D +100 -> H .64; D -100 -> L .36; D -50 -> L .43 (table 8.1.2)
    assert [g.expected for g in period.games] == [D("0.64"), D("0.36"), D("0.43")]
    # 20 x (1 - .64) = +7.2; 20 x (.5 - .36) = +2.8; 20 x (0 - .43) = -8.6
    assert [g.change for g in period.games] == [D("7.2"), D("2.8"), D("-8.6")]
    # total 20 x (1.5 - 1.43) = +1.4 -> rounded once +1 -> 1501
    assert (period.change, period.rounded_change, period.new_rating) == (D("1.4"), 1, 1501)
    assert result.new_rating == 1501
    # K given: no game count involved, nothing assumed
    assert (result.k_rule, result.games_before, result.games_assumed) == ("given", None, False)
    # Rp = (1400 + 1600 + 1550) / 3 = 1516.67 + dp(.50) 0 -> 1517
    assert result.performance == period.performance == 1517


def test_games_12_gives_k_40_new() -> None:
    games = [GameResult(1000, D(1)), GameResult(2900, D("0.5")), GameResult(1450, D(0))]
    result = fide.calculate(1500, games, games_before=12, year=YEAR)
    period = _period(result)
    # 12 < 30 rated games, rating below 2400, no birth year -> K 40 "new" (8.3.3)
    assert (period.k, result.k_rule, result.games_before) == (40, "new", 12)
    assert not result.games_assumed  # the count was given
    # D +500 capped +400 -> .92 -> 40 x .08 = +3.2; D -1400 capped -400 -> .08 ->
    # 40 x (.5 - .08) = +16.8; D +50 -> .57 -> 40 x -.57 = -22.8
    assert [g.capped for g in period.games] == [True, True, False]
    assert [g.change for g in period.games] == [D("3.2"), D("16.8"), D("-22.8")]
    # total 40 x (1.5 - 1.57) = -2.8 -> -3 -> 1497; Rp = 5350 / 3 = 1783.33 + dp(.50) 0
    assert (period.change, period.new_rating, result.performance) == (D("-2.8"), 1497, 1783)


def test_18_games_at_k_40_hit_the_700_rule() -> None:
    games = [GameResult(1600, D(1))] * 18
    period = _period(fide.calculate(1500, games, k=40, year=YEAR))
    # 18 x 40 = 720 > 700 -> largest K with 18 K <= 700: 700 // 18 = 38 (38 x 18 = 684)
    assert (period.k, period.k_requested, period.k_limited) == (38, 40, True)
    # D -100 -> L .36: 38 x (1 - .36) = 24.32 a game; 18 x 24.32 = 437.76 -> 438 -> 1938
    assert {g.change for g in period.games} == {D("24.32")}
    assert (period.change, period.rounded_change, period.new_rating) == (D("437.76"), 438, 1938)


def test_without_k_or_games_30_are_assumed() -> None:
    result = fide.calculate(1500, [GameResult(1400, D(1))], year=YEAR)
    # no count -> 30 assumed -> not "fewer than 30" -> K 20 "standard", and it is said so
    assert (_period(result).k, result.k_rule) == (20, "standard")
    assert (result.games_before, result.games_assumed) == (30, True)
    # 20 x (1 - .64) = 7.2 -> 1507
    assert result.new_rating == 1507


def test_assumed_count_does_not_matter_for_k_10_or_a_junior() -> None:
    # 2400 -> K 10 whatever the count: nothing was really assumed
    top = fide.calculate(2400, [GameResult(2300, D(1))], year=YEAR)
    assert (_period(top).k, top.k_rule, top.games_assumed) == (10, "2400", False)
    # 10 x (1 - .64) = 3.6 -> 2404
    assert top.new_rating == 2404
    # born YEAR - 15, rating below 2300 -> K 40 "junior", even with 100 games
    junior = fide.calculate(
        2000, [GameResult(1900, D(1))], games_before=100, birth_year=YEAR - 15, year=YEAR
    )
    assert (_period(junior).k, junior.k_rule) == (40, "junior")
    # 40 x (1 - .64) = 14.4 -> 2014
    assert junior.new_rating == 2014


def test_formula_and_no_cap_pass_through() -> None:
    result = fide.calculate(1500, [GameResult(1000, D(1))], k=20, method="formula", cap=False)
    period = _period(result)
    assert (period.method, period.cap) == ("formula", False)
    # D 500 uncapped: PD = 1/(1+10^(-1.25)) = .9468 -> 20 x .0532 = 1.06 -> +1
    game = period.games[0]
    assert (game.difference, game.capped) == (500, False)
    assert float(game.change) == pytest.approx(20 * (1 - 1 / (1 + 10**-1.25)))
    assert period.new_rating == 1501


def test_unrated_initial_rating() -> None:
    result = fide.calculate(None, F_N01, unrated=True)
    assert result.period is None and result.initial is not None
    # Ra = (9507 + 2 x 1800) / 7 = 1872.43; p = (3 + 1) / 7 = .57 -> dp +50 -> 1922.43 -> 1922
    assert (result.initial.dp, result.initial.rating, result.new_rating) == (50, 1922, 1922)
    assert (result.k_rule, result.games_before, result.games_assumed) == (None, None, False)
    # real games only: Ra 9507 / 5 = 1901.4, p 3/5 = .60 -> dp +72 -> 1973.4 -> 1973
    assert result.performance == 1973


@pytest.mark.parametrize(
    ("rating", "games", "kwargs", "message"),
    [
        (None, SEED_A, {}, "missing RATING: give the player's rating"),
        (5000, SEED_A, {}, "RATING 5000 is outside 0..4000"),
        (-5, SEED_A, {}, "RATING -5 is outside 0..4000"),
        (1500, [], {}, "missing OPP:SCORE: give at least one game"),
        (1500, SEED_A, {"k": 20, "games_before": 3}, "--games does not apply with --k (K is"),
        (1500, SEED_A, {"k": 20, "birth_year": 2010}, "--born does not apply with --k (K is"),
        (1500, SEED_A, {"k": 0}, "--k 0 is outside 1..700"),
        (1500, SEED_A, {"k": 701}, "--k 701 is outside 1..700"),
        (1500, SEED_A, {"games_before": -3}, "--games -3 is outside 0..100000"),
        (1500, SEED_A, {"birth_year": 3000, "year": YEAR}, f"--born 3000 is outside 1900..{YEAR}"),
        (1500, SEED_A, {"birth_year": 1899, "year": YEAR}, f"--born 1899 is outside 1900..{YEAR}"),
        (1500, SEED_A, {"birth_year": 2010}, "the year of the list is needed with a birth year"),
        (None, F_N01, {"unrated": True, "k": 20}, "--k does not apply with --unrated"),
        (None, F_N01, {"unrated": True, "games_before": 3}, "--games does not apply with --unr"),
        (None, F_N01, {"unrated": True, "birth_year": 2010}, "--born does not apply with --unr"),
        (None, F_N01, {"unrated": True, "method": "formula"}, "--formula does not apply with"),
        (None, F_N01, {"unrated": True, "cap": False}, "--no-cap does not apply with --unrated"),
        (1500, F_N01, {"unrated": True}, "RATING does not apply with --unrated"),
        (None, [], {"unrated": True}, "missing OPP:SCORE: an initial rating needs at least 5"),
        (None, SEED_A, {"unrated": True}, "at least 5 games against rated opponents, got 3"),
    ],
)
def test_bad_input(
    rating: int | None, games: list[GameResult], kwargs: dict[str, Any], message: str
) -> None:
    # The library names its inputs by logical names (``k``, ``games_before``...); the
    # command line words the same structured error with calc's own option names.
    with pytest.raises(BadInput) as info:
        fide.calculate(rating, games, **kwargs)
    assert message in info.value.describe({**OPTION_NAMES, **CALC_NAMES})
    assert "--" not in str(info.value)  # the library itself speaks no option name
