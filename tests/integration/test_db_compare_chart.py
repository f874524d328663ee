"""``db compare --chart`` reads right: months are dates in order on every panel
even when a band's first month comes later in the stored rows, 12 bands get 12 colours,
and each line ends with its band's name. Drawn for real with matplotlib (SVG, text kept
as text)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import matplotlib

from lichess_elo.app.db import CompareResult
from lichess_elo.core.population.rows import BandRow
from lichess_elo.output.charts.compare import (
    GAME_MONTHS,
    LIST_MONTHS,
    band_lines,
    band_styles,
    series_style,
    spread,
    write_compare_chart,
)


def _result() -> CompareResult:
    # Blitz rows arrive with 2024-02 before 2024-01 (the order of the report);
    # rapid has 12 bands of 5 players each, 1000+ to 2100+, in January and March.
    blitz = [BandRow("blitz", 202402, 1500, 6, 12.0, 11.0),
             BandRow("blitz", 202401, 1500, 6, 4.0, 4.0),
             BandRow("blitz", 202403, 1500, 6, -3.0, -3.0),
             BandRow("blitz", 202401, 1600, 4, 9.0, 9.0)]  # fmt: skip
    rapid = [BandRow("rapid", m, 1000 + 100 * i, 5, float(i), float(i))
             for i in range(12) for m in (202403, 202401)]  # fmt: skip
    return CompareResult(("blitz", "rapid"), blitz + rapid, [], [])


def test_months_are_dates_in_order() -> None:
    lines = band_lines(_result(), "blitz")
    # Only band 1500 has 5 players or more; its months sorted, whatever the rows' order.
    assert lines == [(1500, [date(2024, 1, 1), date(2024, 2, 1), date(2024, 3, 1)],
                      [4.0, 12.0, -3.0])]  # fmt: skip


def test_twelve_bands_twelve_colours() -> None:
    assert len({series_style(i)[0] for i in range(12)}) == 12
    # The 13th series takes the first colour again, with another marker.
    assert series_style(12) == (series_style(0)[0], "s")


def test_end_labels_kept_apart() -> None:
    # 1.0 and 1.2 are closer than the gap 1: the higher moves up to 2.0; 5 stays.
    assert spread([1.2, 5.0, 1.0], 1.0) == [2.0, 5.0, 1.0]


def test_chart_ticks_in_order_and_lines_named(tmp_path: Path) -> None:
    path = tmp_path / "bands.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        write_compare_chart(_result(), path)
    svg = path.read_text(encoding="utf-8")
    ticks = re.findall(r">(20\d\d-\d\d)<", svg)
    assert ticks, "no month ticks"
    # Each panel's ticks run forward in time (a panel restarts the sequence).
    panels: list[list[str]] = [[]]
    for tick in ticks:
        if panels[-1] and tick <= panels[-1][-1]:
            panels.append([])
        panels[-1].append(tick)
    assert len(panels) == 2, ticks
    # Every band's name: once on its line's end and once in its panel's legend (1500+ is
    # in both panels).
    for band in range(1000, 2200, 100):
        assert svg.count(f">{band}+<") == (4 if band == 1500 else 2), band


def test_a_band_has_one_colour_in_every_panel() -> None:
    styles = band_styles(_result())
    # the bands drawn anywhere (5 players or more): rapid's 1000+ .. 2100+, and blitz's
    # 1500+ (its 1600+ has 4 players): 12 bands, 12 colours, lowest first
    assert sorted(styles) == list(range(1000, 2200, 100))
    assert len({colour for colour, _ in styles.values()}) == 12
    assert styles[1000] == series_style(0) and styles[1500] == series_style(5)
    # so blitz's one band is drawn in 1500+'s colour, as in rapid's panel, not in the
    # first colour (each panel used to count its own bands from the first colour)
    assert styles[1500] != series_style(0)


def test_the_axes_say_list_months_and_game_months(tmp_path: Path) -> None:
    from dataclasses import replace

    from lichess_elo.core.accuracy.bootstrap import Comparison
    from lichess_elo.core.accuracy.metrics import Scores
    from lichess_elo.core.population.scorecard import MonthScore

    path = tmp_path / "bands.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        write_compare_chart(_result(), path)
    svg = path.read_text(encoding="utf-8")
    assert svg.count(LIST_MONTHS) == 2  # one band panel a perf
    assert GAME_MONTHS not in svg  # nothing was scored: no deviance panel
    # one scored month of blitz: a deviance panel beside each band panel
    card = Scores(100, 0.3, 0.69, 0.24, 0.6, 0.5, 0.5)
    month = MonthScore(
        "blitz",
        202401,
        100,
        100,
        card,
        card,
        Comparison("FIDE", "Lichess", 100, 0.3, 0.3, 0.0, None),
    )
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        write_compare_chart(replace(_result(), scores=[month]), path)
    svg = path.read_text(encoding="utf-8")
    assert svg.count(LIST_MONTHS) == 2 and svg.count(GAME_MONTHS) == 1
