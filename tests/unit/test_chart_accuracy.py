"""The scorecard's chart keeps every line in sight and calls a K the best only when
``KFit.resolved`` says so (measured on the figure's artists, never on pixels)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from lichess_elo.core.report import PerfReport, ReportSettings, build_report
from lichess_elo.core.report.predictions import KFit, KPoint, PerfAccuracy, score_perf
from lichess_elo.output.charts.figure import pyplot
from lichess_elo.output.charts.scorecard import draw_accuracy_chart
from tests.helpers import ME, game


def _report() -> PerfReport:
    # 40 games, one a day, against 1300..1690 (steps of 10): wins against the lower half,
    # losses against the upper, so the calibration bands have games on both sides of 0.5.
    start = datetime(2023, 1, 1, 12, tzinfo=UTC)
    games = [
        game(
            f"g{i}",
            start + timedelta(days=i),
            1500,
            5 if i < 20 else -5,
            1300 + 10 * i,
            1 if i < 20 else 0,
        )
        for i in range(40)
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    return report


def _same_as_lichess(card: PerfAccuracy) -> PerfAccuracy:
    """The card with Elo on Lichess's calibration made Lichess's own, point for point."""
    lichess = next(c for c in card.contenders if c.contender.key == "lichess")
    contenders = tuple(
        dataclasses.replace(c, calibration=lichess.calibration)
        if c.contender.key == "elo_on_lichess"
        else c
        for c in card.contenders
    )
    return dataclasses.replace(card, contenders=contenders)


@pytest.fixture
def drawn() -> Iterator[Any]:
    made: list[Any] = []

    def draw(report: PerfReport, card: PerfAccuracy) -> Any:
        fig = draw_accuracy_chart([report], {report.perf: card}, ME)
        made.append(fig)
        return fig

    yield draw
    for fig in made:
        pyplot().close(fig)


def _by_gid(ax: Any) -> dict[str, Any]:
    return {c.get_gid(): c for c in ax.collections if c.get_gid()}


def test_identical_lines_are_drawn_beside_each_other_and_the_legend_says_so(drawn: Any) -> None:
    report = _report()
    fig = drawn(report, _same_as_lichess(score_perf(report.games)))
    ax = fig.axes[0]
    marks = _by_gid(ax)
    lichess, copy = marks["calibration-lichess"], marks["calibration-elo_on_lichess"]
    # Same points: each drawn right of Lichess's, at the same height.
    assert len(lichess.get_offsets()) >= 2
    for (x0, y0), (x1, y1) in zip(lichess.get_offsets(), copy.get_offsets(), strict=True):
        assert x1 > x0 and y1 == y0
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("same points as Lichess Glicko-2" in t for t in legend)
    # Every contender has its own marker and its own dash.
    paths = {k: tuple(map(tuple, c.get_paths()[0].vertices.round(3))) for k, c in marks.items()}
    assert len(set(paths.values())) == len(paths) == 5
    # matplotlib names four dash styles (a fifth, custom pattern reads as "--" too).
    lines = ax.get_lines()[1:]  # after the diagonal
    assert len(lines) == 5 and {line.get_linestyle() for line in lines} == {"-", "--", ":", "-."}


def test_no_two_contenders_markers_fall_on_one_point(drawn: Any) -> None:
    # Measured on the drawn figure: for every two markers of different contenders, their
    # centres (in pixels) are at least 0.4 of their mean diameter apart in x or in y (a
    # marker's diameter is the square root of its area ``s`` in points squared, x dpi / 72),
    # so none sits on another, even where two contenders' calibrations are identical.
    import itertools

    report = _report()
    for card in (score_perf(report.games), _same_as_lichess(score_perf(report.games))):
        fig = drawn(report, card)
        ax = fig.axes[0]
        fig.canvas.draw()
        marks = []
        for key, c in _by_gid(ax).items():
            centres = ax.transData.transform(c.get_offsets())
            sizes = c.get_sizes()
            marks += [
                (key, x, y, (s**0.5) * fig.dpi / 72)
                for (x, y), s in zip(centres, sizes, strict=True)
            ]
        assert len({k for k, *_ in marks}) == 5
        for (k1, x1, y1, d1), (k2, x2, y2, d2) in itertools.combinations(marks, 2):
            if k1 != k2:
                apart = 0.4 * (d1 + d2) / 2
                assert abs(x1 - x2) >= apart or abs(y1 - y2) >= apart, (k1, k2, x1, y1)


def _fit(resolved: bool, best_k: int, slope: float = 1 / 1000) -> KFit:
    curve = tuple(KPoint(k, 0.30 + abs(k - best_k) * slope) for k in range(5, 61))
    return KFit(curve, KPoint(best_k, 0.30), (20,), 0.31, resolved=resolved)


@pytest.mark.parametrize(
    ("resolved", "best_k", "slope", "gid", "words"),
    [
        (True, 20, 1e-3, "best-k", "best K 20: 0.3000"),
        (False, 20, 1e-3, "lowest-k", "lowest K 20: 0.3000 (within the noise: no best K)"),
        (False, 5, 1e-3, "lowest-k", "lowest K 5: 0.3000 (at the edge of the scan: no best K)"),
        (False, 5, 0.0, "lowest-k", "every K gives 0.3000: no best K"),  # a flat curve
    ],
)
def test_the_lowest_k_is_called_the_best_only_when_resolved(
    drawn: Any, resolved: bool, best_k: int, slope: float, gid: str, words: str
) -> None:
    report = _report()
    card = dataclasses.replace(score_perf(report.games), fit=_fit(resolved, best_k, slope))
    ax = drawn(report, card).axes[1]
    assert list(_by_gid(ax)) == [gid]
    assert words in [t.get_text() for t in ax.get_legend().get_texts()]
