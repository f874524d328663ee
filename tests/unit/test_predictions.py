"""The scorecard's contenders on a hand-made three-game history.

Glicko-2 expectation (notes/lichess-glicko.md §0, §2): E = 1/(1+exp(-g(phi_j)(mu - mu_j))),
mu = (r - 1500)/173.7178, phi = RD/173.7178, g(phi) = 1/sqrt(1 + 3 phi^2/pi^2); White +A/2,
Black -A/2 with A = 11.782457 in standard chess from the advantage's start date on.
g(60) = 1/sqrt(1 + 3 (0.3453898)^2 / pi^2) = 0.9823483; g(110) = 1/sqrt(1 + 3 (0.6332153)^2
/ pi^2) = 0.9441208.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from lichess_elo.core import glicko
from lichess_elo.core.accuracy import Outcome
from lichess_elo.core.report import GameRow, ReportSettings, build_report, predictions
from lichess_elo.errors import BadInput
from tests.helpers import game

# g1: 2023-01-05, White 1500 vs 1500 (established), won.
# g2: 2023-01-06, Black 1506 vs 1700 (provisional), drew.
# g3: 2026-01-10 (after the colour advantage began), White 1501 vs 1600 (established), lost.
_G2 = game("g2", datetime(2023, 1, 6, tzinfo=UTC), 1506, 0, 1700, 0.5, color="black")
GAMES = [
    game("g1", datetime(2023, 1, 5, tzinfo=UTC), 1500, 5, 1500, 1),
    replace(_G2, white=replace(_G2.white, provisional=True)),  # the opponent is White
    game("g3", datetime(2026, 1, 10, tzinfo=UTC), 1501, -5, 1600, 0),
]


def _rows() -> tuple[GameRow, ...]:
    (report,) = build_report("Hero", GAMES, {}, settings=ReportSettings())
    return report.games


def test_glicko_expectation_matches_scalachess_advantage() -> None:
    # scalachess "Tune first move advantage": White's expected score 0.51694982672 at equal
    # ratings with the standard advantage (g = 1 at RD 0): 1/(1+exp(-11.782457/173.7178)).
    # The published figure agrees to 1e-8 (the advantage itself is published to 6 decimals).
    adv = glicko.ADVANTAGE["standard"]
    assert glicko.expected_score(1500, 1500, 0.0, advantage=adv) == pytest.approx(
        0.51694982672, abs=1e-8
    )
    assert glicko.expected_score(1500, 1500, 0.0, color="black", advantage=adv) == pytest.approx(
        1 - 0.51694982672, abs=1e-8
    )
    # 1700 vs 1500, opponent RD 60: 1/(1+exp(-0.9823483 x 200/173.7178)) = 0.7560179
    assert glicko.expected_score(1700, 1500, 60.0) == pytest.approx(0.7560179, abs=1e-7)


def test_opponent_deviation_from_the_provisional_flag() -> None:
    assert predictions.opponent_deviation(True) == 110.0
    assert predictions.opponent_deviation(False) == 60.0


def test_score_rates() -> None:
    # before game 1: 0.5; before 2: 1/1; before 3: (1+0)/2; before 4: (1+0+0.5)/3
    assert predictions.score_rates([1, 0, 0.5, 1]) == [0.5, 1.0, 0.5, 0.5]
    assert predictions.score_rates([]) == []


def test_every_contender_on_three_games() -> None:
    got = predictions.predict(_rows())
    # Lichess: g1 0.5 (2023: no advantage); g2 Black, no advantage, RD 110 (provisional):
    # 1/(1+exp(0.9441208 x 194/173.7178)) = 0.2583906; g3 White with +A/2 vs -A/2, RD 60:
    # g3 White, +A/2 for Hero and -A/2 for the opponent, RD 60: the difference seen by E is
    # 1501 + 5.8912285 - (1600 - 5.8912285) = -87.217543, so
    # 1/(1+exp(0.9823483 x 87.217543/173.7178)) = 1/(1+exp(0.4932022)) = 0.3791395
    assert got["lichess"] == pytest.approx([0.5, 0.2583906, 0.3791395], abs=1e-7)
    # FIDE rules, shadow track from 1500: January 2023: D 0 -> 0.50, D -200 -> 0.24 (row
    # 198-206, L). The games are blitz, so the Rapid & Blitz rules of 2023 apply: the
    # standard K text from 1 Oct 2022 (docs/rules.md); Lichess shows Hero established, so K
    # 20 (the K warning): 20 x (0.5 + 0.26) = 15.2 -> 15, so 1515. The track crosses 1 March
    # 2024: 1515 + 0.4 x (2000 - 1515) = 1515 + 194 = 1709 (QC24). January 2026: D = 1709 -
    # 1600 = 109 -> 0.65 (row 107-113, H).
    assert got["fide"] == [0.5, 0.24, 0.65]
    # Elo on Lichess ratings: 0.5; 1/(1+10^(194/400)) = 0.2466139; 1/(1+10^(99/400)) = 0.3612623
    assert got["elo_on_lichess"] == pytest.approx([0.5, 0.2466139, 0.3612623], abs=1e-7)
    # Score rate: 0.5, then 1/1, then 1.5/2
    assert got["score_rate"] == [0.5, 1.0, 0.75]
    # Glicko-1 from Hero's 1500, RD 60 (established), January 2023 step 1: sqrt(60² + 1200)
    # = 69.2820; g1 vs 1500/60: 0.5; g2 vs 1700/110 (provisional): k(4800 + 12100) = 0.924412,
    # 1/(1 + 10^(0.924412 x 200/400)) = 0.256495. The month's update: 1518.8114, RD 67.1310;
    # January 2026, 36 months on: sqrt(67.1310² + 1200 x 36) = 218.4183, and g3 vs 1600/60:
    # k(218.4183² + 60²) = 0.811968, 1/(1 + 10^(-k x (1518.8114 - 1600)/400)) = 0.406252
    assert got["glicko1"] == pytest.approx([0.5, 0.256495, 0.406252], abs=1e-6)
    # Stephenson (c 10, h 10, lambda 0.02, gamma 30 in prediction): step 1 sqrt(3600 + 100)
    # = 60.8276; g1 White: 1/(1 + 10^(-k(3700 + 3600) x 30/400)) = 0.541573; g2 Black vs
    # 1700/110: 1/(1 + 10^(k(3700 + 12100) x 230/400)) = 0.226226. Update: v + h² m = 3700 +
    # 200, r* = 1517.4615 (0.02 x (1600 - 1500) = 2 of it from lambda), RD* 60.8609; January
    # 2026: sqrt(60.8609² + 100 x 36) = 85.4637; g3 White vs 1600/60: 0.428719.
    assert got["stephenson"] == pytest.approx([0.541573, 0.226226, 0.428719], abs=1e-6)


def test_score_perf_on_three_games() -> None:
    card = predictions.score_perf(_rows(), resamples=200)
    assert card.games == 3
    assert [c.contender.key for c in card.contenders] == [
        "lichess",
        "fide",
        "elo_on_lichess",
        "score_rate",
        "glicko1",
        "stephenson",
    ]
    rate = card.contenders[3].scores
    # score rate: -log10 0.5 = 0.3010300; the draw at 1.0 clamps to 0.99:
    # -(0.5 log10 0.99 + 0.5 log10 0.01) = 1.0021824; the loss at 0.75: -log10 0.25 = 0.6020600
    # mean (0.3010300 + 1.0021824 + 0.6020600) / 3 = 0.6350908
    assert rate.deviance == pytest.approx(0.6350908, abs=1e-7)
    assert len(card.comparisons) == 15  # every pair of six
    assert (card.comparisons[0].first, card.comparisons[0].second) == ("lichess", "fide")
    assert {card.verdict.better, card.verdict.worse} == {"lichess", "fide"}
    assert card.verdict.outcome in (Outcome.CLEAR, Outcome.NO_CLEAR_WINNER)


def test_score_perf_without_games_and_with_one() -> None:
    empty = predictions.score_perf([])
    assert empty.games == 0 and empty.verdict.outcome is Outcome.NO_GAMES
    assert all(c.scores.deviance is None for c in empty.contenders)
    one = predictions.score_perf(_rows()[:1])
    assert one.verdict.outcome is Outcome.TOO_FEW_GAMES
    # one win predicted 0.5 by all but Stephenson (White's +30 in prediction): deviance
    # -log10 0.5 = 0.3010300 each; Stephenson's 0.541573 gives -log10 0.541573 = 0.266343
    got = {c.contender.key: c.scores.deviance for c in one.contenders}
    assert got.pop("stephenson") == pytest.approx(0.266343, abs=1e-6)
    assert all(d == pytest.approx(0.30103, abs=1e-6) for d in got.values())


def test_fit_k_finds_the_lowest_deviance() -> None:
    # predictions k/100 for a win and a loss: deviance -(log10 p + log10 (1-p))/2 is lowest at
    # p = 0.5, i.e. K = 50; the rules' 0.2 and 0.2: -(log10 0.2 + log10 0.8)/2 = 0.3979400
    fit = predictions.fit_k(
        lambda k: [k / 100, k / 100], [1.0, 0.0], rules_expected=[0.2, 0.2], rules_k=[40, 40, 20]
    )
    assert [p.k for p in fit.curve] == list(range(5, 61))
    assert fit.best.k == 50
    assert fit.best.deviance == pytest.approx(0.30103, abs=1e-5)
    assert fit.rules_deviance == pytest.approx(0.3979400, abs=1e-7)
    assert fit.rules_k == (40, 20)


def test_fit_k_ties_take_the_smallest_k_and_bad_input() -> None:
    fit = predictions.fit_k(lambda k: [0.6], [1.0], rules_expected=[0.6], rules_k=[20], ks=[30, 10])
    assert fit.best.k == 10
    with pytest.raises(BadInput):
        predictions.fit_k(lambda k: [], [], rules_expected=[], rules_k=[])


def test_games_no_contender_can_predict_are_left_out_and_counted() -> None:
    # An AI game (no opponent rating) and a rated game without a rating change join the
    # three games: every contender scores the same three, and the two are counted.
    from lichess_elo.app.accuracy import score_reports

    extra = [
        game("ai", datetime(2023, 1, 7, tzinfo=UTC), 1506, None, None, 1, ai=3, rated=False),
        # two plies: played (with none it would be unplayed, not a game to predict at all)
        replace(
            game("nodiff", datetime(2023, 1, 8, tzinfo=UTC), 1506, None, 1500, 0),
            moves=("e4", "e5"),
        ),
    ]
    games = sorted([*GAMES, *extra], key=lambda g: g.created_at)
    settings = ReportSettings()
    reports = build_report("Hero", games, {}, settings=settings)
    (card,) = score_reports("Hero", games, settings, None, reports).values()
    assert card.games == 3 and card.left_out == 2
    assert {c.scores.games for c in card.contenders} == {3}
    assert {k: list(v) for k, v in card.expected.items()} == predictions.predict(_rows())


def test_fit_k_names_a_minimum_that_rises_beyond_noise_on_both_sides() -> None:
    # Four wins, each predicted 0.5 with K 10 or 30 and 0.9 with K 20: every game's deviance
    # is -log10 0.5 = 0.30103 at K 10 and 30 and -log10 0.9 = 0.04576 at K 20, so each
    # paired difference is the same 0.25527: sd 0, standard error 0, beyond noise both sides.
    curve = {10: 0.5, 20: 0.9, 30: 0.5}
    fit = predictions.fit_k(
        lambda k: [curve[k]] * 4, [1.0] * 4, rules_expected=[0.5] * 4, rules_k=[20], ks=[10, 20, 30]
    )
    assert fit.best.k == 20
    assert not fit.at_edge
    assert fit.resolved


def test_fit_k_names_no_k_at_the_edge_or_within_the_noise() -> None:
    # At the edge: K 10 predicts 0.9 (lowest), K 20 and 30 predict 0.5: nothing below K 10.
    edge = {10: 0.9, 20: 0.5, 30: 0.5}
    fit = predictions.fit_k(
        lambda k: [edge[k]] * 4, [1.0] * 4, rules_expected=[0.5] * 4, rules_k=[20], ks=[10, 20, 30]
    )
    assert (fit.best.k, fit.at_edge, fit.resolved) == (10, True, False)
    # Within the noise: a win and a loss; K 20 predicts 0.6 then 0.5, K 10 and 30 0.5 and
    # 0.5. Per-game differences (K 10 minus K 20): -log10 0.5 + log10 0.6 = 0.07918 and 0:
    # mean 0.03959, sample sd 0.07918 / sqrt 2 = 0.05599, standard error 0.05599 / sqrt 2
    # = 0.03959, so the mean is 1 standard error, under NOISE_Z = 2: no best K.
    noisy = {10: [0.5, 0.5], 20: [0.6, 0.5], 30: [0.5, 0.5]}
    fit = predictions.fit_k(
        lambda k: noisy[k], [1.0, 0.0], rules_expected=[0.5, 0.5], rules_k=[20], ks=[10, 20, 30]
    )
    assert predictions.NOISE_Z == 2.0
    assert (fit.best.k, fit.at_edge, fit.resolved) == (20, False, False)
