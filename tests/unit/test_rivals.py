"""Glicko-1 and Stephenson's rating: published examples and hand derivations.

q = ln 10 / 400 = 0.00575646; k(v) = 1/sqrt(1 + 3 q² v / π²), 3 q² / π² = 1.007240e-5.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from lichess_elo.core.report import rivals
from lichess_elo.core.report.rivals import GLICKO1, STEPHENSON, Opponent, TrackGame

# Glickman, "The Glicko system" (Boston University, 1995), the example after step 2:
# a player rated 1500, RD 200, beats 1400/RD 30, loses to 1550/RD 100 and to 1700/RD 300.
GLICKMAN = [Opponent(1400, 30, 1), Opponent(1550, 100, 0), Opponent(1700, 300, 0)]


def test_glickman_worked_example() -> None:
    # The paper's table: g(RD_j) = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303;
    # d² = (q² Σ g² E (1-E))^-1 = 231.67² (from the rounded E; 231.70² unrounded);
    # r' = 1500 + q / (1/200² + 1/d²) Σ g (s - E) = 1464 and RD' = 151.4.
    rating, rd = rivals.period_update(1500, 200, GLICKMAN, GLICKO1)
    assert round(rating) == 1464
    assert round(rd, 1) == 151.4
    # the same to 1e-3 from the unrounded intermediates: 1464.106, 151.399
    assert rating == pytest.approx(1464.106, abs=1e-3)
    assert rd == pytest.approx(151.399, abs=1e-3)


def test_glickman_expectations_of_the_example() -> None:
    # E against one opponent alone is the update's e_j when the player's RD is 0:
    # k(30²) = 0.9955 and E = 1/(1 + 10^(-0.9955 x 100/400)) = 0.639 (the paper's table)
    assert rivals.expected(1500, 0, 1400, 30) == pytest.approx(0.639, abs=5e-4)
    assert rivals.expected(1500, 0, 1550, 100) == pytest.approx(0.432, abs=5e-4)
    assert rivals.expected(1500, 0, 1700, 300) == pytest.approx(0.303, abs=5e-4)


def test_glicko1_constant_by_glickmans_rule() -> None:
    # 350 = sqrt(50² + 100 c²): c = sqrt(120000 / 100) = sqrt(1200) = 34.641016
    assert pytest.approx(34.641016, abs=1e-6) == rivals.GLICKO1_C
    assert rivals.inflate(50, 100, GLICKO1) == pytest.approx(350.0)
    # 300² + 1200 x 30 = 126000 > 350² = 122500: the ceiling
    assert rivals.inflate(300, 30, GLICKO1) == 350.0
    assert rivals.inflate(60, 0, GLICKO1) == 60.0


def test_stephenson_one_game_by_hand() -> None:
    # PlayerRatings' defaults: init 2200/300, cval 10, hval 10, bval 0, lambda 2.
    # Step 1: v = 300² + 10² = 90100. The opponent 2300/RD 200: k(40000) = 1/sqrt(1.402896)
    # = 0.844281; e = 1/(1 + 10^(0.844281 x 100/400)) = 1/(1 + 10^0.211070) = 0.380835;
    # d = q² k² e (1-e) = 3.313686e-5 x 0.712811 x 0.235799 = 5.569664e-6.
    # Step 3: v* = 1/(1/(90100 + 10² x 1) + d) = 1/(1.108647e-5 + 5.569664e-6) = 60037.93,
    # RD* = 245.0264. Step 4 (a win): r* = 2200 + q v* k (1 - e) + 0.02 (2300 - 2200)
    # = 2200 + 0.00575646 x 60037.93 x 0.844281 x 0.619165 + 2 = 2200 + 180.666 + 2 = 2382.666.
    rd = rivals.inflate(300, 1, STEPHENSON)
    assert rd * rd == pytest.approx(90100)
    rating, rd = rivals.period_update(2200, rd, [Opponent(2300, 200, 1)], STEPHENSON)
    assert rating == pytest.approx(2382.666, abs=1e-3)
    assert rd == pytest.approx(245.0264, abs=1e-4)


def test_stephenson_bonus_and_neighbourhood_by_hand() -> None:
    # A draw between equals (2000/RD 100 vs 2000/RD 0): e = 0.5, k(0) = 1, so the score term
    # is k (s - e + b) = b. With b = 0.01 (bval 1) and lambda 0 the rating rises by
    # q v* b, v* = 1/(1/(100² + 0) + q² x 0.25) = 1/(1e-4 + 8.284215e-6) = 9235.0:
    # 0.00575646 x 9235.0 x 0.01 = 0.53161.
    rules = replace(STEPHENSON, h=0.0, bonus=0.01, neighbourhood=0.0)
    rating, rd = rivals.period_update(2000, 100, [Opponent(2000, 0, 0.5)], rules)
    assert rating == pytest.approx(2000.53161, abs=1e-4)
    assert rd == pytest.approx(math.sqrt(9235.0), abs=1e-2)
    # lambda alone pulls the rating to the opponents' mean: 0.02 x (2100 - 2000) = 2
    rules = replace(STEPHENSON, h=0.0, neighbourhood=0.02)
    drawn, _ = rivals.period_update(
        2000, 100, [Opponent(2100, 0, 0.5), Opponent(2100, 0, 0.5)], rules
    )
    plain, _ = rivals.period_update(
        2000, 100, [Opponent(2100, 0, 0.5), Opponent(2100, 0, 0.5)], GLICKO1
    )
    assert drawn - plain == pytest.approx(2.0, abs=1e-9)


def test_stephenson_without_h_b_lambda_is_glicko() -> None:
    # man/steph.Rd: "Glicko is obtained as a special case upon setting ... hval, bval and
    # lambda to zero" (same c).
    rules = replace(STEPHENSON, c=GLICKO1.c, h=0.0, bonus=0.0, neighbourhood=0.0)
    assert rivals.period_update(1500, 200, GLICKMAN, rules) == pytest.approx(
        rivals.period_update(1500, 200, GLICKMAN, GLICKO1)
    )


def test_prediction_combines_both_rds_and_the_colour_term() -> None:
    # k(60² + 110²) = k(15700) = 1/sqrt(1.158137) = 0.929223;
    # E = 1/(1 + 10^(0.929223 x 200/400)) = 1/(1 + 10^0.464612) = 1/3.914816 = 0.255440
    assert rivals.expected(1500, 60, 1700, 110) == pytest.approx(0.255440, abs=1e-6)
    # gamma 30 as White, equal ratings, both RD 0: 1/(1 + 10^(-30/400)) = 0.543066
    assert rivals.expected(1500, 0, 1500, 0, 30) == pytest.approx(0.543066, abs=1e-6)
    assert rivals.period_update(1500, 80, [], STEPHENSON) == (1500, 80)


def _games(seed: int, n: int) -> list[TrackGame]:
    rng = random.Random(seed)
    month = rivals.month_index(2023, 1)
    out = []
    for _ in range(n):
        month += rng.choice((0, 0, 0, 1, 3))
        colour = rng.choice((1, -1))
        opponent = Opponent(rng.randint(1200, 2400), rng.choice((60.0, 110.0)), 0, colour)
        out.append(TrackGame(month, replace(opponent, score=rng.choice((0, 0.5, 1))), True))
    return out


def test_track_has_no_look_ahead() -> None:
    # 50 seeded histories of 40 games: changing a game's result changes no prediction of its
    # own month or an earlier one.
    for seed in range(50):
        games = _games(seed, 40)
        base = rivals.track(games, 1800, 60, STEPHENSON)
        i = random.Random(seed).randrange(len(games))
        flipped = list(games)
        o = games[i].opponent
        flipped[i] = replace(games[i], opponent=replace(o, score=1 - o.score))
        other = rivals.track(flipped, 1800, 60, STEPHENSON)
        same = [j for j, g in enumerate(games) if g.month <= games[i].month]
        assert [other[j] for j in same] == [base[j] for j in same]


def test_track_by_hand_over_a_gap() -> None:
    # January 2023, from 1500/RD 60: RD 60 -> sqrt(60² + 1200) = 69.2820 (step 1, t = 1).
    # Win vs 1500/60 predicted 0.5; the draw vs 1700/110:
    # k(4800 + 12100) = 1/sqrt(1.170224) = 0.924412, E = 1/(1 + 10^0.462206) = 0.256495.
    # The update gives 1518.8114, RD 67.1310; 36 months later (January 2026) step 1:
    # sqrt(67.1310² + 1200 x 36) = 218.4183, and vs 1600/60 as White: 0.406252.
    jan, later = rivals.month_index(2023, 1), rivals.month_index(2026, 1)
    games = [
        TrackGame(jan, Opponent(1500, 60, 1, 1), True),
        TrackGame(jan, Opponent(1700, 110, 0.5, -1), True),
        TrackGame(later, Opponent(1600, 60, 0, 1), True),
    ]
    assert later - jan == 36
    got = rivals.track(games, 1500, 60, GLICKO1)
    assert got == pytest.approx([0.5, 0.256495, 0.406252], abs=1e-6)
    assert rivals.track([], 1500, 60, GLICKO1) == []


def test_a_track_run_far_away_gives_zero_not_an_overflow() -> None:
    # RD 0 on both sides: k = 1; D = 0 - 200000: 10^(200000/400) = 10^500 is past the
    # largest double (10^308.25), so the score is 0.0 (1/(1+10^500) < 1e-308); the other
    # way round 10^-500 underflows to 0: 1/(1+0) = 1.
    assert rivals.expected(0.0, 0.0, 200000.0, 0.0) == 0.0
    assert rivals.expected(200000.0, 0.0, 0.0, 0.0) == 1.0
    # One win against 200000/RD 0 from 0/RD 50: E = 0, so d = 0 and gain = 1 x (1 - 0);
    # v' = 1/(1/(50² + 10² x 1)) = 2600; r' = 0 + q x 2600 x 1 + 0.02 x (200000 - 0)
    # = 0.00575646 x 2600 + 4000 = 4014.96680; RD' = sqrt(2600) = 50.990195.
    rating, rd = rivals.period_update(0.0, 50.0, [Opponent(200000.0, 0.0, 1.0)], STEPHENSON)
    assert rating == pytest.approx(4014.96680, abs=1e-4)
    assert rd == pytest.approx(50.990195, abs=1e-6)
