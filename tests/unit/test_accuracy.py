"""The scorecard's metrics: hand-worked values, scikit-learn, explicit bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import brier_score_loss, log_loss, mean_squared_error

from lichess_elo.core import accuracy
from lichess_elo.core.accuracy import Outcome, bootstrap
from lichess_elo.errors import BadInput

# Three games worked by hand (log10 3 = 0.4771212547, log10 4 = 0.6020599913,
# log10 24 = 1.3802112417, ln 0.75 = -0.2876820725, ln 0.24 = -1.4271163556,
# ln 100 = 4.6051701860):
#   game 1: expected 0.75, won   -> deviance -log10 0.75 = 0.6020599913 - 0.4771212547
#                                    = 0.1249387366; log-loss -ln 0.75 = 0.2876820725;
#                                    Brier (0.75-1)^2 = 0.0625; correct (win above 1/2) = 1
#   game 2: expected 0.40, drew  -> deviance -(0.5 log10 0.4 + 0.5 log10 0.6) = -0.5 log10 0.24
#                                    = -0.5 (1.3802112417 - 2) = 0.3098943792;
#                                    log-loss 0.5 x 1.4271163556 = 0.7135581778;
#                                    Brier (0.4-0.5)^2 = 0.01; correct (draw) = 1/2
#   game 3: expected 0.995, lost -> clamped to 0.99: deviance -log10 0.01 = 2;
#                                    log-loss ln 100 = 4.6051701860;
#                                    Brier on the raw 0.995: 0.995^2 = 0.990025; correct = 0
# Means over 3: deviance (0.1249387366 + 0.3098943792 + 2) / 3 = 2.4348331158 / 3 = 0.8116110386
#               log-loss (0.2876820725 + 0.7135581778 + 4.6051701860) / 3 = 1.8688034788
#               Brier (0.0625 + 0.01 + 0.990025) / 3 = 1.062525 / 3 = 0.354175
#               correct (1 + 0.5 + 0) / 3 = 0.5
#               mean expected (0.75 + 0.4 + 0.995) / 3 = 0.715; mean actual 1.5 / 3 = 0.5
HAND_P = [0.75, 0.4, 0.995]
HAND_S = [1.0, 0.5, 0.0]

FAST = settings(max_examples=150, deadline=None)
PROBS = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
RESULTS = st.sampled_from([0.0, 0.5, 1.0])
PAIRS = st.lists(st.tuples(PROBS, RESULTS), min_size=1, max_size=40)


def test_hand_worked_three_games() -> None:
    got = accuracy.score(HAND_P, HAND_S)
    assert got.games == 3
    assert got.deviance == pytest.approx(0.8116110386, abs=1e-9)
    assert got.log_loss == pytest.approx(1.8688034788, abs=1e-9)
    assert got.brier == pytest.approx(0.354175, abs=1e-12)
    assert got.correct == pytest.approx(0.5)
    assert got.mean_expected == pytest.approx(0.715)
    assert got.mean_actual == pytest.approx(0.5)


def test_hand_worked_per_game_deviance() -> None:
    got = accuracy.game_deviance(HAND_P, HAND_S)
    assert got.tolist() == pytest.approx([0.1249387366, 0.3098943792, 2.0], abs=1e-9)


def test_hand_worked_calibration() -> None:
    bands = accuracy.calibration(HAND_P, HAND_S)
    assert len(bands) == 10
    # 0.4 falls in [0.4, 0.5), 0.75 in [0.7, 0.8), 0.995 in the closed last band [0.9, 1.0]
    filled = {(b.low, b.high): (b.games, b.mean_expected, b.mean_actual) for b in bands if b.games}
    assert filled == {
        (0.4, 0.5): (1, 0.4, 0.5),
        (0.7, 0.8): (1, 0.75, 1.0),
        (0.9, 1.0): (1, 0.995, 0.0),
    }
    assert all(b.mean_expected is None for b in bands if not b.games)


def test_calibration_edges_inclusive_low_and_last_band_closed() -> None:
    # 0.0 -> first band, 0.5 -> [0.5, 0.6) not [0.4, 0.5), 1.0 -> the last band
    bands = accuracy.calibration([0.0, 0.5, 1.0], [0.0, 1.0, 1.0], edges=[0.0, 0.5, 1.0])
    assert [b.games for b in bands] == [1, 2]
    assert bands[1].mean_expected == 0.75


def test_calibration_rejects_bad_edges() -> None:
    with pytest.raises(BadInput, match="edges"):
        accuracy.calibration([0.5], [1.0], edges=[0.0, 0.6, 0.5, 1.0])
    with pytest.raises(BadInput, match="edges"):
        accuracy.calibration([0.5], [1.0], edges=[0.1, 1.0])


def _draw_expanded(p: list[float], s: list[float]) -> tuple[list[float], list[float], list[float]]:
    """Each draw as a half-weighted win plus a half-weighted loss (binary labels for sklearn)."""
    y, q, w = [], [], []
    for pi, si in zip(p, s, strict=True):
        if si == 0.5:
            y += [1.0, 0.0]
            q += [pi, pi]
            w += [0.5, 0.5]
        else:
            y.append(si)
            q.append(pi)
            w.append(1.0)
    return y, q, w


def test_against_scikit_learn() -> None:
    rng = np.random.default_rng(2024)
    p = rng.uniform(0.0, 1.0, 500)
    s = rng.choice([0.0, 0.5, 1.0], size=500, p=[0.45, 0.1, 0.45])
    got = accuracy.score(p, s)
    clamped = np.clip(p, 0.01, 0.99).tolist()
    y, q, w = _draw_expanded(clamped, s.tolist())
    # log-loss of a draw = -(0.5 ln p + 0.5 ln(1-p)) = the two half-weighted binary terms
    assert got.log_loss == pytest.approx(log_loss(y, q, sample_weight=w), rel=1e-12)
    assert got.deviance == pytest.approx(log_loss(y, q, sample_weight=w) / math.log(10), rel=1e-12)
    # Brier against a draw's target 0.5 is the plain mean squared error
    assert got.brier == pytest.approx(mean_squared_error(s, p), rel=1e-12)
    decided = s != 0.5
    only = accuracy.score(p[decided], s[decided])
    assert only.brier == pytest.approx(brier_score_loss(s[decided], p[decided]), rel=1e-12)


def test_correct_draw_rule() -> None:
    # win predicted 0.5 -> 1/2; draw predicted 0.5 -> 1; loss predicted 0.3 -> 1;
    # win predicted 0.2 -> 0; draw predicted 0.9 -> 1/2: (0.5 + 1 + 1 + 0 + 0.5) / 5 = 0.6
    got = accuracy.score([0.5, 0.5, 0.3, 0.2, 0.9], [1.0, 0.5, 0.0, 1.0, 0.5])
    assert got.correct == pytest.approx(0.6)


def test_all_draws() -> None:
    # five draws at 0.5: deviance -log10 0.5 = 0.3010299957, Brier 0, all correct
    got = accuracy.score([0.5] * 5, [0.5] * 5)
    assert got.deviance == pytest.approx(0.3010299957, abs=1e-10)
    assert got.brier == 0.0
    assert got.correct == 1.0


def test_empty_input() -> None:
    got = accuracy.score([], [])
    assert got == accuracy.Scores(0, None, None, None, None, None, None)
    assert all(b.games == 0 for b in accuracy.calibration([], []))
    comparison = accuracy.compare([], [], [])
    assert comparison.games == 0 and comparison.interval is None
    assert accuracy.verdict(comparison).outcome is Outcome.NO_GAMES


def test_one_game() -> None:
    # deviance: -log10 0.8 = 0.0969100130 vs -log10 0.6 = 0.2218487496; difference -0.1249387366
    comparison = accuracy.compare([0.8], [0.6], [1.0], names=("a", "b"))
    assert comparison.difference == pytest.approx(-0.1249387366, abs=1e-9)
    assert comparison.interval is None
    v = accuracy.verdict(comparison)
    assert v.outcome is Outcome.TOO_FEW_GAMES
    assert (v.better, v.worse) == ("a", "b")
    assert v.margin == pytest.approx(0.1249387366, abs=1e-9)
    assert accuracy.score([0.8], [1.0]).correct == 1.0


@pytest.mark.parametrize(
    ("p", "s", "message"),
    [
        ([0.5, 0.5], [1.0], "2 predictions but 1 results"),
        ([1.2], [1.0], "outside 0..1"),
        ([float("nan")], [1.0], "outside 0..1"),
        ([0.5], [0.3], "not 1, 0.5 or 0"),
        ([[0.5]], [[1.0]], "one-dimensional"),
    ],
)
def test_bad_input(p: list[float], s: list[float], message: str) -> None:
    with pytest.raises(BadInput, match=message):
        accuracy.score(p, s)


def test_bootstrap_rejects_bad_settings() -> None:
    with pytest.raises(BadInput, match="resamples"):
        accuracy.bootstrap_mean([1.0, 2.0], resamples=0)
    with pytest.raises(BadInput, match="level"):
        accuracy.bootstrap_mean([1.0, 2.0], level=1.0)


def _explicit_bootstrap(
    values: list[float], resamples: int, seed: int, level: float
) -> tuple[float, float]:
    """The documented procedure, one replicate and one element at a time."""
    rng = np.random.default_rng(seed)
    n = len(values)
    means = []
    for _ in range(resamples):
        picks = rng.integers(0, n, size=n)
        total = 0.0
        for i in picks:
            total += values[int(i)]
        means.append(total / n)
    means.sort()

    def quantile(q: float) -> float:  # linear interpolation between order statistics
        pos = q * (resamples - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, resamples - 1)
        return means[lo] + (pos - lo) * (means[hi] - means[lo])

    return quantile((1 - level) / 2), quantile((1 + level) / 2)


def test_bootstrap_fixed_seed_matches_explicit_loop() -> None:
    values = [0.3, -0.1, 0.05, 0.2, -0.25, 0.0, 0.12]
    low, high = _explicit_bootstrap(values, resamples=300, seed=7, level=0.95)
    got = accuracy.bootstrap_mean(values, resamples=300, seed=7)
    assert got is not None
    assert (got.low, got.high) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    assert (got.level, got.resamples, got.seed) == (0.95, 300, 7)
    assert accuracy.bootstrap_mean(values, resamples=300, seed=7) == got  # reproducible
    assert accuracy.bootstrap_mean(values, resamples=300, seed=8) != got


def test_bootstrap_chunking_does_not_change_the_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    # one replicate per chunk must draw the same indices as all replicates at once
    values = [0.3, -0.1, 0.05, 0.2, -0.25]
    whole = accuracy.bootstrap_mean(values, resamples=50, level=0.9, seed=3)
    monkeypatch.setattr(bootstrap, "_CHUNK_DRAWS", 1)
    assert accuracy.bootstrap_mean(values, resamples=50, level=0.9, seed=3) == whole
    low, high = _explicit_bootstrap(values, resamples=50, seed=3, level=0.9)
    assert whole is not None
    assert whole.low == pytest.approx(low, abs=1e-12)
    assert whole.high == pytest.approx(high, abs=1e-12)


def test_constant_difference_gives_zero_width_interval() -> None:
    got = accuracy.bootstrap_mean([0.0125] * 40, resamples=200, seed=1)
    assert got is not None and got.low == got.high == pytest.approx(0.0125)
    # paired: the same game 40 times -> every per-game difference is the same
    comparison = accuracy.compare([0.7] * 40, [0.6] * 40, [1.0] * 40, names=("a", "b"))
    assert comparison.interval is not None
    assert comparison.interval.low == comparison.interval.high
    # -log10 0.7 - (-log10 0.6) = 0.1549019600 - 0.2218487496 = -0.0669467896
    assert comparison.interval.low == pytest.approx(-0.0669467896, abs=1e-9)
    v = accuracy.verdict(comparison)
    assert v.outcome is Outcome.CLEAR and v.better == "a"
    assert v.low == v.high == pytest.approx(0.0669467896, abs=1e-9)


def test_verdict_no_clear_winner_when_interval_crosses_zero() -> None:
    # a wins the first two games' predictions, b the last two: the difference can go either way
    p_a = [0.7, 0.7, 0.4, 0.4]
    p_b = [0.6, 0.6, 0.6, 0.6]
    s = [1.0, 1.0, 1.0, 1.0]
    v = accuracy.verdict(accuracy.compare(p_a, p_b, s, names=("a", "b"), resamples=500))
    assert v.outcome is Outcome.NO_CLEAR_WINNER
    assert v.low is not None and v.high is not None and v.low < 0 < v.high


@FAST
@given(PAIRS)
def test_other_side_scores_the_same(pairs: list[tuple[float, float]]) -> None:
    # the opponent's view (1 - p, 1 - s) has the same deviance, Brier and share correct
    p = np.array([a for a, _ in pairs])
    s = np.array([b for _, b in pairs])
    one, other = accuracy.score(p, s), accuracy.score(1 - p, 1 - s)
    assert one.deviance == pytest.approx(other.deviance, abs=1e-12)
    assert one.brier == pytest.approx(other.brier, abs=1e-12)
    assert one.correct == pytest.approx(other.correct, abs=1e-12)


@FAST
@given(PAIRS)
def test_bounds_and_calibration_totals(pairs: list[tuple[float, float]]) -> None:
    p = [a for a, _ in pairs]
    s = [b for _, b in pairs]
    got = accuracy.score(p, s)
    assert got.deviance is not None and got.brier is not None and got.correct is not None
    # clamped to [0.01, 0.99]: per-game deviance lies between 0.0043648 (-log10 0.99) and 2
    assert -math.log10(0.99) - 1e-12 <= got.deviance <= 2 + 1e-12
    assert 0 <= got.brier <= 1 and 0 <= got.correct <= 1
    bands = accuracy.calibration(p, s)
    assert sum(b.games for b in bands) == len(pairs)
    actual = sum(b.games * b.mean_actual for b in bands if b.mean_actual is not None)
    assert actual == pytest.approx(sum(s))


@FAST
@given(st.lists(st.tuples(PROBS, PROBS, RESULTS), min_size=2, max_size=30))
def test_swapping_contenders_mirrors_the_comparison(
    rows: list[tuple[float, float, float]],
) -> None:
    a = [r[0] for r in rows]
    b = [r[1] for r in rows]
    s = [r[2] for r in rows]
    ab = accuracy.compare(a, b, s, names=("a", "b"), resamples=200)
    ba = accuracy.compare(b, a, s, names=("b", "a"), resamples=200)
    assert ab.difference == pytest.approx(-(ba.difference or 0.0), abs=1e-12)
    assert ab.interval is not None and ba.interval is not None
    assert ab.interval.low == pytest.approx(-ba.interval.high, abs=1e-12)
    va, vb = accuracy.verdict(ab), accuracy.verdict(ba)
    if ab.difference != 0:
        assert (va.better, va.outcome) == (vb.better, vb.outcome)


def _deviance_by_hand(p: float, s: float) -> float:
    """The challenge's per-game deviance, written out independently of the module."""
    q = min(max(p, 0.01), 0.99)
    return -(s * math.log10(q) + (1 - s) * math.log10(1 - q))


def test_compare_all_matches_an_explicit_paired_loop() -> None:
    p_a = [0.62, 0.35, 0.8, 0.5, 0.995, 0.2]
    p_b = [0.55, 0.45, 0.7, 0.6, 0.9, 0.3]
    p_c = [0.5] * 6
    s = [1.0, 0.0, 0.5, 1.0, 0.0, 0.5]
    got = accuracy.compare_all([("a", p_a), ("b", p_b), ("c", p_c)], s, resamples=250, seed=5)
    assert [(c.first, c.second) for c in got] == [("a", "b"), ("a", "c"), ("b", "c")]
    columns = {"a": p_a, "b": p_b, "c": p_c}
    for comparison in got:
        first, second = columns[comparison.first], columns[comparison.second]
        diffs = [
            _deviance_by_hand(x, r) - _deviance_by_hand(y, r)
            for x, y, r in zip(first, second, s, strict=True)
        ]
        low, high = _explicit_bootstrap(diffs, resamples=250, seed=5, level=0.95)
        assert comparison.interval is not None
        assert comparison.interval.low == pytest.approx(low, abs=1e-12)
        assert comparison.interval.high == pytest.approx(high, abs=1e-12)
        assert comparison.difference == pytest.approx(sum(diffs) / 6, abs=1e-12)
        alone = accuracy.compare(first, second, s, resamples=250, seed=5)
        assert alone.interval is not None
        assert alone.interval.low == pytest.approx(comparison.interval.low, abs=1e-12)
        assert alone.interval.high == pytest.approx(comparison.interval.high, abs=1e-12)


def test_compare_all_constant_difference_is_zero_width() -> None:
    # three contenders over 30 identical games: every pair's per-game difference is constant
    got = accuracy.compare_all(
        [("a", [0.7] * 30), ("b", [0.6] * 30), ("c", [0.4] * 30)], [1.0] * 30
    )
    for comparison in got:
        assert comparison.interval is not None
        assert comparison.interval.low == comparison.interval.high


def test_compare_all_without_games() -> None:
    got = accuracy.compare_all([("a", []), ("b", []), ("c", [])], [])
    assert [(c.first, c.second, c.games, c.interval) for c in got] == [
        ("a", "b", 0, None),
        ("a", "c", 0, None),
        ("b", "c", 0, None),
    ]
