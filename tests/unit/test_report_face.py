"""The report as a reader sees it: the headline, the legend, the perfs left out,
no performance rating for short periods, and the chart's visible last step, title, keys and
shared date axis. Hand-made histories with K 20 fixed; expected numbers derived beside."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from lichess_elo.core.report.build import MIN_PERFORMANCE_GAMES, build_report
from lichess_elo.core.report.settings import ReportSettings
from lichess_elo.output.charts.report import close_figure, draw_chart
from lichess_elo.output.report.text import report_lines
from lichess_elo.output.report.words import headline, other_perfs
from tests.helpers import ME, day, game

# Hero 1500 in January: beats 1400 (+10 on Lichess), draws 1600 (+2); K 20 table 8.1.2:
# D +100 -> PD .64, +7.2; D -100 -> PD .36, draw +2.8; period +10 -> 1510 (Lichess +12).
# February: 1512 loses to 1500 (-8 Lichess). FIDE: 1510 v 1500, D +10 -> PD .51, -10.2
# -> -10 -> 1500. Totals: FIDE +10 - 10 = 0, Lichess +12 - 8 = +4.
JAN_FEB = [
    game("g1", day(1, 5), 1500, 10, 1400, 1),
    game("g2", day(1, 6), 1510, 2, 1600, 0.5),
    game("g3", day(2, 7), 1512, -8, 1500, 0),
]


def _report(games: list[Any], **settings: Any) -> Any:
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20, **settings))
    return report


def test_headline_says_what_fide_rules_did_next_to_lichess() -> None:
    # FIDE 0, Lichess +4: a difference of 4 points is within the 5-point "agree" margin.
    text = headline(_report(JAN_FEB))
    assert text == (
        "Under FIDE rules your 3 blitz games would have left the rating unchanged where "
        "Lichess gained 4; the two agree to within 4 points."
    )


def test_headline_names_the_period_the_difference_comes_from() -> None:
    # Add March: 1500 loses to 1300. FIDE: D +200 -> PD .76, 20 x -.76 = -15.2 -> -15;
    # Lichess -40 for that game. Totals: FIDE 0 - 15 = -15, Lichess +4 - 40 = -36; the
    # difference +21: January -2 (10 - 12), February -2 (-10 - -8), March +25 (-15 - -40).
    # March holds more than half of it: "mostly in 2023-03 (25 points there)".
    games = [*JAN_FEB, game("g4", day(3, 1), 1504, -40, 1300, 0)]
    text = headline(_report(games))
    assert text.startswith("Under FIDE rules your 4 blitz games would have cost 15 points")
    assert "where Lichess cost 36" in text
    assert text.endswith("the difference is mostly in 2023-03 (25 points there).")


def test_no_performance_rating_under_the_minimum_or_for_one_game_periods() -> None:
    assert MIN_PERFORMANCE_GAMES == 5
    assert [p.performance for p in _report(JAN_FEB).periods] == [None, None]
    # Five wins against 1500 in one month: p = 1.0 -> dp 800 (table 8.1.2's top), 2300.
    five = [game(f"w{i}", day(1, i + 1), 1500, 5, 1500, 1) for i in range(5)]
    assert [p.performance for p in _report(five).periods] == [2300]
    assert all(p.performance is None for p in _report(five, period="game").periods)


def test_legend_and_perfs_left_out() -> None:
    games = [*JAN_FEB, game("r1", day(1, 9), 1700, 5, 1700, 1, perf="rapid")]
    reports = build_report(ME, games, {}, settings=ReportSettings(k=20, perfs=("blitz",)))
    lines = report_lines(reports, "periods", 80)
    assert "Not shown: rapid (1 game). Show them with --perf NAME or --perf all." in lines
    assert "Legend:" in lines
    assert any("not a FIDE rating you would get" in line for line in lines)
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines)
    assert other_perfs(["blitz"], {"blitz": 3}) is None


@pytest.fixture
def figure_of() -> Iterator[Any]:
    made: list[Any] = []

    def draw(reports: list[Any]) -> Any:
        fig = draw_chart(reports)
        made.append(fig)
        return fig

    yield draw
    for fig in made:
        close_figure(fig)


def _line(ax: Any, label_start: str) -> Any:
    return next(line for line in ax.get_lines() if str(line.get_label()).startswith(label_start))


def test_chart_last_step_is_visible_and_the_title_matches_the_lines(figure_of: Any) -> None:
    import matplotlib.dates as mdates

    report = _report(JAN_FEB)
    fig = figure_of([report])
    ax = fig.axes[0]
    fide = _line(ax, "FIDE rules")
    xs, ys = fide.get_xdata(), fide.get_ydata()
    # February's step (1510 -> 1500) happens after the last game and stays drawn to the
    # right edge: at least a third of the space after the last game.
    last_game = mdates.date2num(report.games[-1].played_at)
    right = ax.get_xlim()[1]
    flat = [x for x, y in zip(xs, ys, strict=True) if y == 1500]
    assert max(mdates.date2num(x) if not isinstance(x, float) else x for x in flat) == right
    assert right - last_game > 0
    lichess = _line(ax, "Lichess")
    title = ax.get_title(loc="left")
    assert f"FIDE rules {ys[0]:.0f} → {ys[-1]:.0f}" in title  # 1500 -> 1500
    assert f"Lichess {lichess.get_ydata()[0]:.0f} → {lichess.get_ydata()[-1]:.0f}" in title


def test_chart_keys_gaps_rings_and_one_date_axis(figure_of: Any) -> None:
    # g2 shows 1515 where 1510 was expected: a gap of +5 (quiet grey, with a note).
    games = [
        game("g1", day(1, 5), 1500, 10, 1400, 1),
        game("g2", day(1, 6), 1515, 2, 1600, 0.5),
        game("r1", day(2, 9), 1700, 5, 1700, 1, perf="rapid"),
    ]
    reports = build_report(ME, games, {}, settings=ReportSettings(k=20, perfs=("all",)))
    fig = figure_of(reports)
    blitz_ax, rapid_ax = fig.axes
    assert blitz_ax.get_xlim() == rapid_ax.get_xlim()  # --perf all: one date axis
    texts = "\n".join(t.get_text() for t in fig.texts)
    assert "Grey dotted jumps: Lichess's rating moved between two games" in texts
    # Numbered rings: the key names each game and both changes.
    assert "1  2023-01-0" in texts and "FIDE rules +" in texts and "Lichess +" in texts
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "gap between two games (note below)" in labels
    assert "largest disagreements (key below)" in labels


def test_one_game_periods_get_no_period_labels(figure_of: Any) -> None:
    fig = figure_of([_report(JAN_FEB, period="game")])
    assert not [t for t in fig.axes[0].texts if "Lichess" in t.get_text() and "\n" in t.get_text()]
    fig = figure_of([_report(JAN_FEB)])
    assert [t.get_text().split("\n")[0] for t in fig.axes[0].texts if "\n" in t.get_text()] == [
        "2023-01",
        "2023-02",
    ]


def test_one_game_periods_show_no_games_or_performance_column() -> None:
    lines = report_lines([_report(JAN_FEB, period="game")], "periods", 200)
    header = next(line for line in lines if line.startswith("Game "))
    assert header.split()[:3] == ["Game", "Score", "Expected"]
    assert "Performance" not in header
    assert "  Performance: not shown, no period has 5 games" in lines


def test_counts_of_games_have_thousands_separators() -> None:
    # 1,000 draws at 1500 against 1500 in January: D 0 -> PD .50 (table 8.1.2), K 20 x
    # (.5 - .5) = 0 each, and Lichess 0 each: both unchanged, one period of 1,000 games.
    from datetime import UTC, datetime, timedelta

    start = datetime(2023, 1, 1, tzinfo=UTC)
    draws = [
        game(f"d{i}", start + timedelta(minutes=30 * i), 1500, 0, 1500, 0.5) for i in range(1000)
    ]
    report = _report(draws)
    assert headline(report).startswith("Under FIDE rules your 1,000 blitz games would have")
    lines = report_lines([report], "periods", 80)
    assert "blitz: 1,000 games in 1 month" in lines
    assert any(" 1,000 " in line for line in lines if line.lstrip().startswith("2023-01"))
    assert other_perfs(["blitz"], {"blitz": 1000, "bullet": 8073}) == (
        "Not shown: bullet (8,073 games)."
    )


def test_each_panels_key_sits_right_under_it(figure_of: Any) -> None:
    # Two perfs, each with rings: each panel's key (its first line names the perf) starts
    # under the panel, within an inch of it, and above the next panel.
    games = [
        game("g1", day(1, 5), 1500, 10, 1400, 1),
        game("g2", day(1, 6), 1510, 2, 1600, 0.5),
        game("r1", day(2, 9), 1700, 5, 1700, 1, perf="rapid"),
        game("r2", day(2, 10), 1705, -6, 1650, 0, perf="rapid"),
    ]
    reports = build_report(ME, games, {}, settings=ReportSettings(k=20, perfs=("all",)))
    fig = figure_of(reports)
    renderer = fig.canvas.get_renderer()
    inch = fig.dpi
    keys = [t for t in fig.texts if t.get_gid() == "panel-key"]
    assert [t.get_text().split(",")[0] for t in keys] == ["blitz", "rapid"]
    panels = [ax.get_window_extent(renderer) for ax in fig.axes]
    for i, (key, panel) in enumerate(zip(keys, panels, strict=True)):
        box = key.get_window_extent(renderer)
        assert box.y1 <= panel.y0  # under its panel (display y grows upwards)
        assert panel.y0 - box.y1 <= inch  # right under it
        if i + 1 < len(panels):
            assert box.y0 >= panels[i + 1].y1  # and above the next panel
    # the colours' legend is over the first panel
    legend = fig.legends[0].get_window_extent(renderer)
    assert legend.y0 >= panels[0].y1
