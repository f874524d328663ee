"""Hypothesis properties of the FIDE engine."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from lichess_elo.core import fide
from lichess_elo.core.fide import GameResult

RATINGS = st.integers(min_value=0, max_value=4000)
BELOW_2650 = st.integers(min_value=0, max_value=fide.CAP_EXEMPT_FROM - 1)
SCORES = st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)])
METHODS = st.sampled_from(["table", "formula"])
FAST = settings(max_examples=200, deadline=None)


@FAST
@given(BELOW_2650, BELOW_2650)
def test_table_sides_sum_to_one_when_both_capped_alike(a: int, b: int) -> None:
    # both players below 2650: the same |D| (capped or not) -> H + L = 1 in every row
    assert fide.expected_score(a, b) + fide.expected_score(b, a) == 1


@FAST
@given(RATINGS, RATINGS)
def test_table_sides_sum_to_one_without_cap(a: int, b: int) -> None:
    assert fide.expected_score(a, b, cap=False) + fide.expected_score(b, a, cap=False) == 1


@FAST
@given(RATINGS, RATINGS)
def test_formula_sides_sum_to_one(a: int, b: int) -> None:
    total = fide.expected_score(a, b, method="formula", cap=False) + fide.expected_score(
        b, a, method="formula", cap=False
    )
    assert abs(total - 1) < Decimal("1e-25")


@FAST
@given(RATINGS, RATINGS, RATINGS, METHODS, st.booleans())
def test_expected_score_monotonic_in_difference(
    own: int, opp1: int, opp2: int, method: fide.Method, cap: bool
) -> None:
    weaker, stronger = sorted((opp1, opp2))
    # a weaker opponent means a larger D, so a PD at least as high
    assert fide.expected_score(own, weaker, method=method, cap=cap) >= fide.expected_score(
        own, stronger, method=method, cap=cap
    )


@FAST
@given(st.integers(min_value=-1500, max_value=1500), st.integers(min_value=-1500, max_value=1500))
def test_table_monotonic_in_d(d1: int, d2: int) -> None:
    low, high = sorted((d1, d2))
    own = 2000
    assert fide.expected_score(own, own - low, cap=False) <= fide.expected_score(
        own, own - high, cap=False
    )


@FAST
@given(BELOW_2650, BELOW_2650, SCORES, st.integers(min_value=1, max_value=40), METHODS)
def test_zero_sum_with_equal_k(a: int, b: int, score: Decimal, k: int, method: fide.Method) -> None:
    # both below 2650 (no cap asymmetry), same K: one side's gain is the other's loss
    side_a = fide.rate_period(a, [GameResult(b, score)], k=k, method=method)
    side_b = fide.rate_period(b, [GameResult(a, 1 - score)], k=k, method=method)
    assert abs(side_a.change + side_b.change) < Decimal("1e-24")
    if method == "table":
        assert side_a.change == -side_b.change
        assert side_a.rounded_change == -side_b.rounded_change


@FAST
@given(st.decimals(min_value=-1000, max_value=1000, places=3, allow_nan=False))
def test_rounding_symmetric_around_zero(x: Decimal) -> None:
    assert fide.round_half_away(-x) == -fide.round_half_away(x)
    assert abs(fide.round_half_away(x) - x) <= Decimal("0.5")


@FAST
@given(
    RATINGS,
    st.lists(st.tuples(RATINGS, SCORES), min_size=1, max_size=40),
    st.integers(min_value=1, max_value=40),
)
def test_period_rounds_once(rating: int, games: list[tuple[int, Decimal]], k: int) -> None:
    result = fide.rate_period(rating, [GameResult(o, s) for o, s in games], k=k)
    assert result.change == sum((g.change for g in result.games), Decimal(0))
    assert abs(result.rounded_change - result.change) <= Decimal("0.5")
    assert result.new_rating == rating + result.rounded_change
    assert result.k * len(games) <= 700 or result.k == k


@FAST
@given(st.integers(min_value=1, max_value=100), st.integers(min_value=1, max_value=700))
def test_limit_k(k: int, n: int) -> None:
    used = fide.limit_k(k, n)
    if k * n <= 700:
        assert used == k
    else:
        assert used * n <= 700 < (used + 1) * n
