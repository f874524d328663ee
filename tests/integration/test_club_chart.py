"""The club chart's series (chart_club.club_chart_series): pure, no matplotlib."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from lichess_elo.core.club.model import PeriodEntry, Standing
from lichess_elo.output.chart_club import ChartSeries, club_chart_series

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
