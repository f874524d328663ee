"""FIDE Elo engine against the regulations and the shared reference vectors.

Every expected number comes from FIDE table 8.1.2 / 8.1.1 as printed in
``notes/fide-rules.md`` (sections 2-4), from FIDE's published outputs recorded in
``tests/data/fide/test_vectors.json``, or from scalachess's EloTest (notes 5.3). The
derivation is written beside each number.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from lichess_elo.core import fide
from lichess_elo.core.fide import GameResult
from lichess_elo.errors import BadInput

D = Decimal


def _vectors(data_dir: Path) -> dict[str, Any]:
    return json.loads((data_dir / "fide" / "test_vectors.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _one_game(own: int, opponent: int, score: str, k: int, **kw: Any) -> fide.PeriodResult:
    return fide.rate_period(own, [GameResult(opponent, D(score))], k=k, **kw)


# --- FIDE calculator cases (test_vectors.json "calculator_single_game") -----------------

# id: (PD under the current rule, derivation of the change under the current rule)
CALCULATOR_DERIVATIONS = {
    "F-C01": (D("0.50"), "D=0, row 0-3 -> .50; 10 x (1 - .50) = 5.0"),
    "F-C03": (D("0.51"), "D=4, row 4-10 H -> .51; 10 x .49 = 4.9"),
    "F-C05": (D("0.52"), "D=11, row 11-17 H -> .52; 10 x .48 = 4.8"),
    "F-C07": (D("0.77"), "D=207, row 207-215 H -> .77; 10 x .23 = 2.3"),
    "F-C09": (D("0.92"), "D=392, row 392-411 H -> .92; 10 x .08 = 0.8"),
    "F-C11": (D("0.49"), "D=-4, row 4-10 L -> .49; 10 x (0 - .49) = -4.9"),
    "F-C13": (D("0.11"), "D=-345, row 345-357 L -> .11; 10 x -.11 = -1.1"),
    "F-C15": (D("0.92"), "D=500, own 2649 < 2650 -> capped 400 -> .92; 10 x .08 = 0.8"),
    "F-C17": (D("0.96"), "D=500, own 2700 >= 2650 uncapped, row 485-517 -> .96; 10 x .04 = 0.4"),
    "F-C19": (D("0.08"), "D=-500, own 2100 -> capped -400, L .08; 20 x -.08 = -1.6"),
    "F-C21": (D("1.00"), "D=800, own 2700 uncapped, > 735 -> 1.00; 10 x (0 - 1) = -10.0"),
    "F-C23": (D("0.63"), "D=92, row 92-98 H -> .63; 15 x .37 = 5.55"),
}


def test_every_calculator_vector_has_a_derivation(data_dir: Path) -> None:
    ids = {c["id"] for c in _vectors(data_dir)["calculator_single_game"]["cases"]}
    assert ids == set(CALCULATOR_DERIVATIONS)


@pytest.mark.parametrize("case_id", sorted(CALCULATOR_DERIVATIONS))
def test_calculator_vector_current_rule(data_dir: Path, case_id: str) -> None:
    case = next(
        c for c in _vectors(data_dir)["calculator_single_game"]["cases"] if c["id"] == case_id
    )
    pd, _derivation = CALCULATOR_DERIVATIONS[case_id]
    result = _one_game(case["own"], case["opponent"], str(case["score"]), case["K"])
    assert result.games[0].expected == pd
    assert result.change == D(str(case["expected_change_current_rule"]))


@pytest.mark.parametrize("case_id", sorted(CALCULATOR_DERIVATIONS))
def test_calculator_vector_plain_cap(data_dir: Path, case_id: str) -> None:
    """The FIDE calculator caps everyone (pre-October-2025): emulate with a clamped D.

    F-C17: D=500 clamped to 400 -> .92 -> 10 x .08 = 0.8; F-C21: D=800 clamped to 400 ->
    .92 -> 10 x -.92 = -9.2; the others equal the current rule.
    """
    case = next(
        c for c in _vectors(data_dir)["calculator_single_game"]["cases"] if c["id"] == case_id
    )
    own, diff = case["own"], case["own"] - case["opponent"]
    clamped_opponent = own - max(-400, min(400, diff))
    result = _one_game(own, clamped_opponent, str(case["score"]), case["K"], cap=False)
    assert result.change == D(str(case["expected_change_plain_cap"]))
    assert result.change == D(str(case["calculator_change"]))


# --- seed examples (test_vectors.json "seed_examples", notes 5.4) -----------------------

SEED_DERIVATIONS = {
    "a": "20 x [(1-.64) + (.5-.36) + (0-.43)] = 20 x .07 = 1.4 -> +1 -> 1501",
    "b-win": "1500 vs 1000: D 500 capped 400 -> .92; 20 x .08 = 1.6 -> +2",
    "b-loss": "20 x (0 - .92) = -18.4 -> -18",
    "c-win": "D=-200, row 198-206 L -> .24; 40 x .76 = 30.4 -> 30",
    "c-draw": "40 x (.5 - .24) = 10.4 -> 10",
    "c-loss": "40 x -.24 = -9.6 -> -10",
    "d": "40 x [(1-.24) + (.5-.50) + (1-.76)] = 40 x 1.00 = 40 -> 1240",
}


@pytest.mark.parametrize("seed_id", sorted(SEED_DERIVATIONS))
def test_seed_example(data_dir: Path, seed_id: str) -> None:
    seed = next(s for s in _vectors(data_dir)["seed_examples"] if s["id"] == seed_id)
    games = [GameResult(g["opponent"], D(str(g["score"]))) for g in seed["games"]]
    result = fide.rate_period(seed["own"], games, k=seed["K"])
    assert [g.expected for g in result.games] == [D(str(g["pd_table"])) for g in seed["games"]]
    assert result.change == D(str(seed["K_times_sum"]))
    assert result.rounded_change == seed["rounded_change"]
    assert result.new_rating == seed["own"] + seed["rounded_change"]


def test_seed_a_per_game_changes() -> None:
    # 20 x (1 - .64) = 7.2; 20 x (.5 - .36) = 2.8; 20 x (0 - .43) = -8.6
    games = [GameResult(1400, D(1)), GameResult(1600, D("0.5")), GameResult(1550, D(0))]
    result = fide.rate_period(1500, games, k=20)
    assert [g.change for g in result.games] == [D("7.2"), D("2.8"), D("-8.6")]
    assert [g.difference for g in result.games] == [100, -100, -50]
    assert result.new_rating == 1501
    # Rp: Ra = (1400+1600+1550)/3 = 1516.67, p = 1.5/3 = .50 -> dp 0 -> 1517
    assert result.performance == 1517


def test_seed_a_with_the_formula() -> None:
    # notes 5.4: logistic .6401/.3599/.4285 -> +7.20, +2.80, -8.57; total 1.43 -> 1501
    games = [GameResult(1400, D(1)), GameResult(1600, D("0.5")), GameResult(1550, D(0))]
    result = fide.rate_period(1500, games, k=20, method="formula")
    hundredths = [g.change.quantize(D("0.01")) for g in result.games]
    assert hundredths == [D("7.20"), D("2.80"), D("-8.57")]
    assert result.change.quantize(D("0.01")) == D("1.43")
    assert result.new_rating == 1501


def test_seed_b_formula_values() -> None:
    # notes 5.4 (b): capped .9091 -> +1.82; uncapped .9468 -> +1.06 / -18.94
    capped = _one_game(1500, 1000, "1", 20, method="formula")
    assert capped.change.quantize(D("0.01")) == D("1.82")
    uncapped_win = _one_game(1500, 1000, "1", 20, method="formula", cap=False)
    uncapped_loss = _one_game(1500, 1000, "0", 20, method="formula", cap=False)
    assert uncapped_win.change.quantize(D("0.01")) == D("1.06")
    assert uncapped_loss.change.quantize(D("0.01")) == D("-18.94")


def test_seed_e_700_rule(data_dir: Path) -> None:
    seed = next(s for s in _vectors(data_dir)["seed_examples"] if s["id"] == "e")
    for case in seed["cases"]:  # e.g. floor(700/20) = 35, floor(700/40) = 17, 20 x 35 = 700 ok
        assert fide.limit_k(case["K"], case["n"]) == case["K_used"], case


def test_seed_f_difference_400() -> None:
    # table row 392-411 -> .92; 1/(1+10^-1) = 10/11 = .9091
    assert fide.expected_score(2000, 1600) == D("0.92")
    formula = fide.expected_score(2000, 1600, method="formula")
    assert abs(formula - D(10) / D(11)) < D("1e-25")
    assert formula.quantize(D("0.0001")) == D("0.9091")


# --- rounding (8.3.4) ---------------------------------------------------------------------


def test_rounding_edge_cases(data_dir: Path) -> None:
    for case in _vectors(data_dir)["rounding_edge_cases"]["cases"]:
        # 2.5 -> 3, -2.5 -> -3 (away from zero), 2.49 -> 2
        assert fide.round_half_away(D(str(case["x"]))) == case["rounded"], case


def test_rounding_is_not_bankers() -> None:
    assert round(D("-2.5")) == -2  # what Python's round() does: wrong for FIDE
    assert fide.round_half_away(D("-2.5")) == -3
    assert fide.round_half_away(D("0.45")) == 0  # only the first decimal place decides
    assert fide.round_half_away(D("-0.5")) == -1


# --- published FIDE figures (notes 4.1-4.5) -----------------------------------------------


def test_published_2813_asymmetric_game() -> None:
    # F-P01/F-P02: 2813 vs 2400: the 2813 player uses D=413 (row 412-432 H .93); the 2400
    # player is capped at -400 (L .08). The two PDs sum to 1.01.
    assert fide.difference_used(2813, 2400) == (413, False)
    assert fide.expected_score(2813, 2400) == D("0.93")
    assert fide.difference_used(2400, 2813) == (-400, True)
    assert fide.expected_score(2400, 2813) == D("0.08")


def test_published_2813_period_rounds_minus_2_50_to_minus_3() -> None:
    # F-P01: wins vs 1787 (D 1026) and 2025 (D 788) give 0.00 (> 735 -> 1.00). The period
    # change -2.50 was published as -3: 2813 -> 2810. A draw against 2623 (D 190, row 189-197
    # H .75 -> -0.25) makes the period sum -0.25; K 10 -> -2.50 -> -3.
    games = [GameResult(1787, D(1)), GameResult(2025, D(1)), GameResult(2623, D("0.5"))]
    result = fide.rate_period(2813, games, k=10)
    assert [g.change for g in result.games] == [D(0), D(0), D("-2.5")]
    assert result.change == D("-2.50")
    assert result.rounded_change == -3
    assert result.new_rating == 2810


def test_published_700_rule_period() -> None:
    # F-P05: list K 20, n = 39 -> K = floor(700/39) = 17; 17 x 5.44 = 92.48 -> 92;
    # 2054 + 92 = 2146. Built here: 11 wins vs 2054 (D 0, .50 each: 5.50), one draw vs 2014
    # (D 40, row 40-46 .56: -0.06), 27 draws vs 2054 (0): sum 5.44.
    games = (
        [GameResult(2054, D(1))] * 11
        + [GameResult(2014, D("0.5"))]
        + [GameResult(2054, D("0.5"))] * 27
    )
    result = fide.rate_period(2054, games, k=20)
    assert (result.k_requested, result.k, result.k_limited) == (20, 17, True)
    assert result.change == D("92.48")
    assert result.new_rating == 2146


def test_initial_rating_f_n01() -> None:
    # notes 4.5: 1902 (½), 1877 (½), 1884 (1), 2012 (0), 1832 (1): sum 9507, 3 points.
    # Ra = (9507 + 3600)/7 = 1872.43; p = 4/7 = .5714 -> .57 -> dp 50; Ru 1922.43 -> 1922
    games = [
        GameResult(1902, D("0.5")),
        GameResult(1877, D("0.5")),
        GameResult(1884, D(1)),
        GameResult(2012, D(0)),
        GameResult(1832, D(1)),
    ]
    details = fide.initial_rating_details(games)
    assert details.average == D(13107) / D(7)
    assert (details.p, details.dp) == (D("0.57"), 50)
    assert details.rating == fide.initial_rating(games) == 1922
    assert details.publishable and not details.at_maximum


# --- scalachess EloTest (notes 5.3), K 40, one game = one period --------------------------

SCALACHESS = [
    # (own, opponent, win, loss, draw, derivation)
    (1500, 1500, 20, -20, 0, "PD .50: 40x.5=20, -20, 0"),
    (1500, 1900, 37, -3, 17, "D -400 L .08: 36.8->37, -3.2->-3, 16.8->17"),
    (1500, 2900, 37, -3, 17, "D -1400 capped -400: as above"),
    (1500, 1600, 26, -14, 6, "D -100 L .36: 25.6->26, -14.4->-14, 5.6->6"),
    (2000, 1600, 3, -37, -17, "D 400 H .92: 3.2->3, -36.8->-37, -16.8->-17"),
    (2000, 1000, 3, -37, -17, "D 1000 capped 400: as above"),
    (2000, 1900, 14, -26, -6, "D 100 H .64: 14.4->14, -25.6->-26, -5.6->-6"),
]


@pytest.mark.parametrize(("own", "opp", "win", "loss", "draw", "why"), SCALACHESS)
def test_scalachess_elo_test(own: int, opp: int, win: int, loss: int, draw: int, why: str) -> None:
    assert _one_game(own, opp, "1", 40).rounded_change == win, why
    assert _one_game(own, opp, "0", 40).rounded_change == loss, why
    assert _one_game(own, opp, "0.5", 40).rounded_change == draw, why


def test_scalachess_2800_beats_1800() -> None:
    # K 10, own 2800 >= 2650 so D 1000 is used: > 735 -> 1.00 -> 0, also after eleven wins
    assert _one_game(2800, 1800, "1", 10).rounded_change == 0
    eleven = fide.rate_period(2800, [GameResult(1800, D(1))] * 11, k=10)
    assert eleven.rounded_change == 0


# --- table 8.1.2 boundaries (notes 2.1) ---------------------------------------------------

# Upper bound of each row and its H value, transcribed from notes 2.1 (independent of the
# CSV shipped in the package); the last row (> 735) is 1.00.
TABLE_812 = [
    (3, "0.50"), (10, "0.51"), (17, "0.52"), (25, "0.53"), (32, "0.54"), (39, "0.55"),
    (46, "0.56"), (53, "0.57"), (61, "0.58"), (68, "0.59"), (76, "0.60"), (83, "0.61"),
    (91, "0.62"), (98, "0.63"), (106, "0.64"), (113, "0.65"), (121, "0.66"), (129, "0.67"),
    (137, "0.68"), (145, "0.69"), (153, "0.70"), (162, "0.71"), (170, "0.72"), (179, "0.73"),
    (188, "0.74"), (197, "0.75"), (206, "0.76"), (215, "0.77"), (225, "0.78"), (235, "0.79"),
    (245, "0.80"), (256, "0.81"), (267, "0.82"), (278, "0.83"), (290, "0.84"), (302, "0.85"),
    (315, "0.86"), (328, "0.87"), (344, "0.88"), (357, "0.89"), (374, "0.90"), (391, "0.91"),
    (411, "0.92"), (432, "0.93"), (456, "0.94"), (484, "0.95"), (517, "0.96"), (559, "0.97"),
    (619, "0.98"), (735, "0.99"),
]  # fmt: skip


def _transcribed_pd(diff: int) -> Decimal:
    for upper, high in TABLE_812:
        if abs(diff) <= upper:
            return D(high) if diff >= 0 else 1 - D(high)
    return D("1.00") if diff >= 0 else D("0.00")


def test_table_matches_transcription_for_every_difference() -> None:
    # uncapped (cap=False) so every row is reachable; own 2000 +- D
    for diff in range(-1200, 1201):
        assert fide.expected_score(2000, 2000 - diff, cap=False) == _transcribed_pd(diff), diff


@pytest.mark.parametrize(
    ("diff", "pd"),
    [
        (3, "0.50"),  # last D of row 0-3
        (4, "0.51"),  # first D of row 4-10
        (-3, "0.50"),  # L column of row 0-3
        (-4, "0.49"),  # L column of row 4-10
        (411, "0.92"),  # row 392-411 (TEC-FIDE's copy wrongly has .93)
        (412, "0.93"),  # row 412-432
        (-411, "0.08"),
        (-412, "0.07"),
        (610, "0.98"),  # row 560-619 (TEC-FIDE's copy wrongly has .99)
        (735, "0.99"),  # last D of row 620-735
        (736, "1.00"),  # "> 735 -> 1.0"
        (-735, "0.01"),
        (-736, "0.00"),
    ],
)
def test_table_boundaries(diff: int, pd: str) -> None:
    assert fide.expected_score(2000, 2000 - diff, cap=False) == D(pd)


# --- the 400-point rule (8.3.1 as amended 1 October 2025) --------------------------------


def test_difference_used() -> None:
    assert fide.difference_used(2649, 2149) == (400, True)  # 2649 < 2650: capped
    assert fide.difference_used(2650, 2149) == (501, False)  # 2650: real difference
    assert fide.difference_used(1500, 1900) == (-400, False)  # exactly 400 is not "more than"
    assert fide.difference_used(1500, 1901) == (-400, True)
    assert fide.difference_used(1500, 2901, cap=False) == (-1401, False)


# --- table 8.1.1 and performance rating ---------------------------------------------------


@pytest.mark.parametrize(
    ("p", "dp"),
    [("1.00", 800), ("0.99", 677), ("0.57", 50), ("0.50", 0), ("0.38", -87), ("0.00", -800)],
)
def test_dp_table(p: str, dp: int) -> None:
    assert fide.dp(D(p)) == dp  # notes 3: table 8.1.1


def test_dp_table_mirror_and_consistent_with_812() -> None:
    # notes 3: dp(1-p) = -dp(p), and for p .50-.99 dp(p) lies in the 8.1.2 row whose H is p
    for hundredths in range(0, 101):
        p = D(hundredths) / 100
        assert fide.dp(1 - p) == -fide.dp(p), p
    for hundredths in range(50, 100):
        p = D(hundredths) / 100
        assert _transcribed_pd(fide.dp(p)) == p, p


def test_performance_rating() -> None:
    # 8 games vs 2000 with 1 point: p = .125 -> .13 (half up; half-even would give .12)
    # -> dp -322 -> 1678
    assert fide.performance_rating([2000] * 8, D(1)) == 1678
    # 200 games vs 2000, 77 points: p = .385 -> .39 -> dp -80 -> 1920
    assert fide.performance_rating([2000] * 200, D(77)) == 1920
    # all wins: p 1.00 -> dp 800 (notional, 8.1): 1500 + 800
    assert fide.performance_rating([1500, 1500], D(2)) == 2300
    assert fide.performance_rating([], D(0)) is None
    with pytest.raises(BadInput):
        fide.performance_rating([1500], D(2))


# --- initial rating (8.2, 2024) -----------------------------------------------------------


def test_initial_rating_rounds_p_half_up() -> None:
    # 6 games vs 2000, 4 points: Ra = (12000 + 3600)/8 = 1950; p = 5/8 = .625 -> .63 (half up)
    # -> dp 95 -> 2045 (half-even .62 would give dp 87 -> 2037)
    assert fide.initial_rating([GameResult(2000, D(1))] * 4 + [GameResult(2000, D(0))] * 2) == 2045


def test_initial_rating_rounds_ru_half_up() -> None:
    # opponents 2004 + 5 x 2000 = 12004; Ra = 15604/8 = 1950.5; p .625 -> .63 -> dp 95
    # Ru = 2045.5 -> 2046
    games = [GameResult(2004, D(1))] + [GameResult(2000, D(1))] * 3 + [GameResult(2000, D(0))] * 2
    details = fide.initial_rating_details(games)
    assert details.unrounded == D("2045.5")
    assert details.rating == 2046


def test_initial_rating_maximum_2200() -> None:
    # 5 wins vs 2400: Ra = (12000 + 3600)/7 = 2228.57; p = 6/7 = .857 -> .86 -> dp 309;
    # Ru = 2537.57 -> at most 2200
    details = fide.initial_rating_details([GameResult(2400, D(1))] * 5)
    assert (details.rating, details.at_maximum) == (2200, True)


def test_initial_rating_below_publication_floor() -> None:
    # 5 games vs 1400, 0.5 points: Ra = (7000 + 3600)/7 = 1514.29; p = 1.5/7 = .214 -> .21
    # -> dp -230; Ru = 1284.29 -> 1284, returned but not publishable (< 1400)
    details = fide.initial_rating_details(
        [GameResult(1400, D("0.5"))] + [GameResult(1400, D(0))] * 4
    )
    assert details.rating == 1284
    assert not details.publishable
    assert not fide.is_publishable(1399) and fide.is_publishable(1400)


def test_initial_rating_needs_five_games_and_a_point() -> None:
    with pytest.raises(BadInput, match="at least 5 games"):
        fide.initial_rating([GameResult(1800, D(1))] * 4)
    with pytest.raises(BadInput, match="zero score"):
        fide.initial_rating([GameResult(1800, D(0))] * 5)


# --- K factor (8.3.3, precedence from notes 4.3) -----------------------------------------


@pytest.mark.parametrize(
    ("rating", "kwargs", "expected"),
    [
        (2400, {"games_before": 5}, (10, "2400")),  # 2400 beats "fewer than 30 games"
        (2350, {"games_before": 100, "reached_2400": True}, (10, "2400")),  # for good
        (2450, {"games_before": 5, "birth_year": 2012, "year": 2026}, (10, "2400")),
        (2299, {"games_before": 100, "birth_year": 2008, "year": 2026}, (40, "junior")),  # 18
        (2300, {"games_before": 100, "birth_year": 2008, "year": 2026}, (20, "standard")),
        (2000, {"games_before": 100, "birth_year": 2007, "year": 2026}, (20, "standard")),  # 19
        (2000, {"games_before": 29}, (40, "new")),
        (2000, {"games_before": 30}, (20, "standard")),
        (2399, {"games_before": 30}, (20, "standard")),
    ],
)
def test_k_factor(rating: int, kwargs: dict[str, Any], expected: tuple[int, str]) -> None:
    assert fide.k_factor(rating, **kwargs) == expected


def test_k_factor_bad_input() -> None:
    with pytest.raises(BadInput):
        fide.k_factor(2000, games_before=-1)
    with pytest.raises(BadInput):
        fide.k_factor(2000, games_before=10, birth_year=2010)


def test_700_rule_in_a_period() -> None:
    # K 40, 18 games: 720 > 700 -> floor(700/18) = 38; 18 draws vs equal: change 0
    result = fide.rate_period(1800, [GameResult(1800, D("0.5"))] * 18, k=40)
    assert (result.k, result.k_requested, result.k_limited) == (38, 40, True)
    # K 40, 17 games: 680 <= 700, unchanged
    assert fide.rate_period(1800, [GameResult(1800, D(1))] * 17, k=40).k == 40


def test_check_rating_bounds() -> None:
    assert fide.check_rating(0) == 0 and fide.check_rating(4000) == 4000
    for bad in (-1, 4001):
        with pytest.raises(BadInput, match="outside"):
            fide.check_rating(bad)
