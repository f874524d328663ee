"""The club chart's series (chart_club.club_chart_series): pure, no matplotlib."""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal
from itertools import pairwise

from lichess_elo.core.club.model import PeriodEntry, Standing
from lichess_elo.output.charts.club import (
    ChartSeries,
    club_chart_series,
    dodge,
    fit_labels,
    x_span,
)

D = Decimal
MARCH, APRIL, MAY = date(2026, 3, 7), date(2026, 4, 11), date(2026, 5, 9)


def _entry(day: date, before: Decimal | None, after: Decimal) -> PeriodEntry:
    change = after - before if before is not None else D(0)
    return PeriodEntry(day.isoformat(), day, 1, D(1), D("0.5"), 40, change, before, after)


def _standing(*history: PeriodEntry) -> Standing:
    rating = history[-1].rating_after if history else D(1000)
    return Standing("P", rating, 0, len(history), False, history, 20)


def test_line_starts_at_the_rating_before_the_first_update() -> None:
    # 1200 before the first update (2026-03-07) -> 1240, then 1244.95 on 2026-04-11;
    # the club's latest update is 2026-05-09, so the last rating is carried there, no dot.
    s = _standing(_entry(MARCH, D(1200), D(1240)), _entry(APRIL, D(1240), D("1244.95")))
    assert club_chart_series(s, MAY) == ChartSeries(
        (MARCH, MARCH, APRIL, MAY), (1200.0, 1240.0, 1244.95, 1244.95), (0, 1, 2)
    )


def test_nothing_carried_when_the_player_was_in_the_latest_update() -> None:
    s = _standing(_entry(APRIL, D(900), D("909.45")))
    assert club_chart_series(s, APRIL) == ChartSeries((APRIL, APRIL), (900.0, 909.45), (0, 1))
    assert club_chart_series(s, None) == club_chart_series(s, APRIL)


def test_newcomer_rated_by_the_initial_rating_rule_starts_at_that_rating() -> None:
    # No rating before the first update (rating_before None): the line starts at 1450.
    s = _standing(_entry(MARCH, None, D(1450)), _entry(APRIL, D(1450), D(1460)))
    assert club_chart_series(s, APRIL) == ChartSeries((MARCH, APRIL), (1450.0, 1460.0), (0, 1))


def test_no_history_no_points() -> None:
    assert club_chart_series(_standing(), MAY) == ChartSeries((), (), ())


def test_the_axis_spans_the_events_with_padding() -> None:
    # One event: 10 days each side (not the years matplotlib picks for a single date).
    assert x_span([MARCH]) == (date(2026, 2, 25), date(2026, 3, 17))
    # A year of events (365 days): 4 % = 14.6 -> 15 days each side.
    assert x_span([date(2025, 1, 1), date(2026, 1, 1)]) == (date(2024, 12, 17), date(2026, 1, 16))


def test_end_labels_never_overprint_and_stay_under_the_top() -> None:
    assert fit_labels([0.0, 1.0, 2.0], 10.0, 100.0) == [0.0, 10.0, 20.0]
    # pushed past the top (95, 105): the top one comes back to 100, the other under it
    assert fit_labels([95.0, 96.0], 10.0, 100.0) == [90.0, 100.0]
    rng = random.Random(23)
    for _ in range(200):  # a fixed count of seeded cases
        values = [rng.uniform(800, 1400) for _ in range(rng.randint(1, 12))]
        placed = fit_labels(values, 25.0, 1700.0)
        ordered = sorted(range(len(values)), key=lambda i: (values[i], i))
        heights = [placed[i] for i in ordered]
        assert all(b - a >= 25.0 - 1e-9 for a, b in pairwise(heights))
        assert max(heights) <= 1700.0


def test_dots_on_the_same_point_are_set_side_by_side() -> None:
    # Three players start at 1000 on the same day, one at 1200: the three get -1, 0, +1
    # dot widths, the fourth stays; on the next day nobody shares a point.
    points = [[(1.0, 1000.0), (8.0, 1010.0)], [(1.0, 1000.0), (8.0, 990.0)],
              [(1.0, 1000.0), (8.0, 1100.0)], [(1.0, 1200.0)]]  # fmt: skip
    assert dodge(points, 5.0) == [[-1.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0]]


def test_a_series_own_dots_on_one_point_share_its_place() -> None:
    # One player at 1100 before and after the day's event, another at 1100 after it: the
    # first player's two dots share one place (-0.5), the other's is beside them (+0.5).
    points = [[(1.0, 1100.0), (1.0, 1100.0)], [(1.0, 1100.0)]]
    assert dodge(points, 5.0) == [[-0.5, -0.5], [0.5]]
    assert dodge([[(1.0, 1100.0), (1.0, 1100.0)]], 5.0) == [[0.0, 0.0]]
