"""The report chart reads right: real dates that end at the data, tick labels that each
name a month or a year, and rings, numbers, period and end labels that never overprint.

Measured on the figure itself (data limits, tick texts, and the boxes matplotlib's renderer
gives each artist), never on pixels.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from lichess_elo.core.games import Game
from lichess_elo.core.report import PerfReport, ReportSettings, build_report
from lichess_elo.output.charts.report import close_figure, draw_chart
from tests.helpers import ME, game

MONTH_OR_YEAR = re.compile(r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|\b\d{4}\b)")


def _history(start: datetime, days: int, every: int, seed: int, pile: int = -1) -> list[Game]:
    """One game every ``every`` days at noon, 1500 against opponents within 200; Lichess
    moves as FIDE's K 20 would, rounded (so the two agree within half a point), except the
    five games from day ``pile`` on: wins against an equal opponent (FIDE rules +10 at K 20,
    0.5 x 20) that Lichess scores +40, apart by 30: the five largest disagreements, all
    in one week."""
    rng = random.Random(seed)
    rating, games = 1500, []
    for i, d in enumerate(range(0, days, every)):
        when = start + timedelta(days=d, hours=12)
        if pile <= d < pile + 5 * every:
            opp, score, diff = rating, 1.0, 40
        else:
            opp, score = rating + rng.randint(-200, 200), rng.choice((1.0, 0.0, 0.5))
            diff = round(20 * (score - 1 / (1 + 10 ** ((opp - rating) / 400))))
        games.append(game(f"g{i}", when, rating, diff, opp, score))
        rating += diff
    return games


def _report(games: list[Game], k: int = 20) -> PerfReport:
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=k))
    return report


@pytest.fixture
def drawn() -> Iterator[Any]:
    made: list[Any] = []

    def draw(reports: list[PerfReport]) -> tuple[Any, Any]:
        fig = draw_chart(reports)
        made.append(fig)
        return fig, fig.canvas.get_renderer()

    yield draw
    for fig in made:
        close_figure(fig)


def _boxes(ax: Any, gid: str, renderer: Any) -> list[Any]:
    return [a.get_window_extent(renderer) for a in (*ax.texts, *ax.lines) if a.get_gid() == gid]


def _no_two_meet(boxes: list[Any]) -> bool:
    return not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2))


def _ticks(ax: Any) -> list[tuple[float, str]]:
    low, high = ax.get_xlim()
    return [(t.get_loc(), t.label1.get_text()) for t in ax.xaxis.get_major_ticks()
            if low <= t.get_loc() <= high]  # fmt: skip


# 2022-01-10 to 2025-07-25 (1293 days, one game every 3 days: 431 games), ending mid-year;
# the piled week starts on day 801 (2024-03-20).
LONG = _history(datetime(2022, 1, 10, tzinfo=UTC), 1293, 3, seed=7, pile=801)


def test_a_long_history_ends_at_its_last_game_with_a_month_or_year_on_every_tick(
    drawn: Any,
) -> None:
    import matplotlib.dates as mdates

    report = _report(LONG)
    fig, _ = drawn([report])
    ax = fig.axes[0]
    first = mdates.date2num(report.games[0].played_at)
    last = mdates.date2num(report.games[-1].played_at)
    low, high = ax.get_xlim()
    # The margin is 1.5 % of the span on each side (the old axis ran 9 % past the end).
    assert first - low == pytest.approx((last - first) * 0.015)
    assert high - last == pytest.approx((last - first) * 0.015)
    ticks = _ticks(ax)
    assert len(ticks) >= 3
    assert all(MONTH_OR_YEAR.search(text) for _, text in ticks), ticks
    assert [loc for loc, _ in ticks] == sorted(loc for loc, _ in ticks)
    # Each tick's text is its own date: year ticks read their year.
    for loc, text in ticks:
        assert str(mdates.num2date(loc).year) in text or not re.search(r"\d{4}", text)


def test_five_rings_piled_in_one_week_never_overprint(drawn: Any) -> None:
    fig, renderer = drawn([_report(LONG)])
    ax = fig.axes[0]
    numbers = [t for t in ax.texts if t.get_gid() == "ring-label"]
    assert sorted(t.get_text() for t in numbers) == ["1", "2", "3", "4", "5"]  # one each
    labels, rings = _boxes(ax, "ring-label", renderer), _boxes(ax, "ring", renderer)
    assert 1 <= len(rings) < 5  # games a ring apart share one ring drawn around them
    assert _no_two_meet(labels) and _no_two_meet(rings)
    assert not any(a.overlaps(b) for a in labels for b in rings)
    inside = ax.get_window_extent(renderer)
    assert all(inside.x0 <= b.x0 and b.x1 <= inside.x1 for b in labels)
    assert all(inside.y0 <= b.y0 and b.y1 <= inside.y1 for b in labels)


def test_rings_on_the_same_spot_share_one_ring_but_each_number_is_its_own(drawn: Any) -> None:
    # g1 and g2 at the same minute both end on 1510 (1500 + 10, 1505 + 5): one ring, two
    # numbers (each joined to its game); g3 a month later keeps its own ring.
    games = [
        game("g1", datetime(2023, 1, 5, 12, tzinfo=UTC), 1500, 10, 1400, 1),
        game("g2", datetime(2023, 1, 5, 12, tzinfo=UTC), 1505, 5, 1500, 1),
        game("g3", datetime(2023, 2, 9, 12, tzinfo=UTC), 1510, -9, 1400, 0),
    ]
    fig, renderer = drawn([_report(games)])
    ax = fig.axes[0]
    assert sorted(t.get_text() for t in ax.texts if t.get_gid() == "ring-label") == ["1", "2", "3"]
    assert len(_boxes(ax, "ring", renderer)) == 2
    assert _no_two_meet(_boxes(ax, "ring-label", renderer))


def test_ten_month_labels_and_close_end_values_never_overprint(drawn: Any) -> None:
    # 2024-09-02 to 2025-06-28: ten monthly periods, each wide enough to be labelled.
    report = _report(_history(datetime(2024, 9, 2, tzinfo=UTC), 300, 2, seed=3))
    fig, renderer = drawn([report])
    ax = fig.axes[0]
    periods = [t for t in ax.texts if t.get_gid() == "period-label"]
    assert len(periods) >= 5
    assert _no_two_meet([t.get_window_extent(renderer) for t in periods])
    assert _no_two_meet(_boxes(ax, "end-label", renderer))
    assert all(MONTH_OR_YEAR.search(text) for _, text in _ticks(ax))


def test_end_labels_a_point_apart_are_moved_apart(drawn: Any) -> None:
    # One game: 1500 beats 1500, Lichess +11, FIDE rules +10 (K 20 x 0.5): 1511 and 1510
    # are one rating point apart, far less than a label's height.
    fig, renderer = drawn([_report([game("g1", datetime(2023, 3, 2, 9, tzinfo=UTC),
                                         1500, 11, 1500, 1)])])  # fmt: skip
    ax = fig.axes[0]
    ends = [t for t in ax.texts if t.get_gid() == "end-label"]
    assert sorted(t.get_text() for t in ends) == ["FIDE rules 1510", "Lichess 1511"]
    assert _no_two_meet([t.get_window_extent(renderer) for t in ends])
    high = next(t for t in ends if t.get_text() == "Lichess 1511")
    low = next(t for t in ends if t.get_text() == "FIDE rules 1510")
    assert high.get_window_extent(renderer).y0 >= low.get_window_extent(renderer).y1
    # One game: the axis spans an hour each side of it, every tick names the day and month.
    assert all(re.search(r"2 Mar", text) for _, text in _ticks(ax))
