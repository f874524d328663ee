"""The report's chart: both ratings over time, one panel per perf (an edge: it writes a file).

The figure, the path check and the atomic save are ``charts.figure``, shared with the club
chart.

What is drawn:

- **Lichess (Glicko-2)**, game by game: a step line through each game's rating before and
  after (rating + ratingDiff).
- **FIDE Elo**, by rating period: flat while the period lasts (the rating is frozen), one
  step at its end. On the ``lichess`` track each period restarts from the Lichess rating, so
  the steps are drawn apart.
- Rating periods shaded in alternating bands (labelled when there are few of them).
- **Gaps** in Lichess's rating chain: a dashed red jump with a marker.
- The **5 largest disagreements** (games): numbered rings on the Lichess line.
- The player's **real FIDE rating** (``--fide-id``), month by month on the matching list:
  a dashed step line, flat through each month of the list.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lichess_elo.core.contenders import LICHESS
from lichess_elo.core.games import LICHESS as LICHESS_SITE
from lichess_elo.output.charts import marks as chart_marks
from lichess_elo.output.charts import periods as chart_periods
from lichess_elo.output.charts.figure import check_chart_path, pyplot, save
from lichess_elo.output.common import plural
from lichess_elo.output.report.words import chapter_split, site_name

if TYPE_CHECKING:
    from lichess_elo.app.report import SitesRun
    from lichess_elo.core.report.model import PerfReport

#: The Lichess line: Lichess's colour on every chart (``core.contenders``).
_GLICKO = str(LICHESS.colour)
_ELO = chart_periods.ELO
_GAP_NOTE = (
    "Grey dotted jumps: Lichess's rating moved between two games without a game here "
    "(a game not held, or a rating adjustment)."
)
_PANEL_INCHES = 4.6
_NOTE_LINE_INCHES = 0.15
_RING = "#2b8a3e"
_BAND = "#868e96"
_FIDE = "#5f3dc4"
_ADVERB = {"month": "monthly", "week": "weekly", "day": "daily", "game": "one-game"}
_MAX_SHADED_PERIODS = 120


@dataclass
class _Drawn:
    """What a panel hands back: the notes' lines, and the rings (rank, time, rating), the
    periods' narrow labels and the data lines for the placing done after the layout."""

    notes: list[str]
    marks: list[tuple[int, datetime, float]]
    narrow: list[str]
    lines: list[Any]


def _span(report: PerfReport) -> tuple[datetime, datetime]:
    """The time axis of a panel: the games and a thin margin (1.5 % of the span, at least an
    hour) on each side; the end labels sit outside the axes."""
    first, last = report.games[0].played_at, report.games[-1].played_at
    margin = max((last - first) * 0.015, timedelta(hours=1))
    return first - margin, last + margin


def _lichess_line(games: Sequence[Any], end: datetime) -> tuple[list[datetime], list[float]]:
    """Lichess, game by game: (t, before) -> (t, after) for each game, flat between games;
    a gap breaks the line (the gap itself is drawn apart)."""
    gx: list[datetime] = []
    gy: list[float] = []
    for g in games:
        if gy:
            gx.append(g.played_at)
            gy.append(gy[-1])
            if g.gap_before is not None:
                gx.append(g.played_at)
                gy.append(float("nan"))
        gx += [g.played_at, g.played_at]
        gy += [g.lichess_from, g.lichess_after]
    gx.append(end)
    gy.append(gy[-1])
    return gx, gy


def _ring_key(report: PerfReport) -> tuple[list[str], list[tuple[int, datetime, float]]]:
    """The rings' key lines and marks (rank, time, rating after the game) of the largest
    disagreements; the rings are drawn once the layout is final (``chart_marks``)."""
    by_id = {g.id: g for g in report.games}
    key = []
    marks = []
    for rank, d in enumerate(report.summary.top_games, start=1):
        g = by_id[d.key]
        marks.append((rank, g.played_at, float(g.lichess_after)))
        key.append(
            f"{rank}  {g.played_at:%Y-%m-%d} vs {g.opponent} ({g.id}): FIDE rules "
            f"{float(d.elo):+.1f}, {site_name(report)} {d.lichess:+d}, "
            f"apart by {float(d.difference):.1f}"
        )
    return key, marks


def _panel(
    ax: Any, report: PerfReport, user: str, lo: datetime, hi: datetime, sites: bool = False
) -> _Drawn:
    """Draw one perf; returns the notes' lines and what is placed after the layout.
    ``sites``: a chart of two sites, where each line and title names its site."""
    games = report.games
    kind = report.settings.period
    first, last = games[0].played_at, games[-1].played_at
    step_at = last + (hi - last) / 2  # the last FIDE step: just after the last game
    gx, gy = _lichess_line(games, hi)
    spans = chart_periods.period_spans(report, lo, step_at)
    if kind != "game" and len(spans) <= _MAX_SHADED_PERIODS:
        for i, (start, end) in enumerate(spans):
            if i % 2 == 0:
                ax.axvspan(start, end, color=_BAND, alpha=0.10, lw=0)
    ex, ey = _fide_track(report, spans, hi)

    site = "Lichess Glicko-2" if report.site == LICHESS_SITE else f"{site_name(report)} rating"
    lines = ax.plot(gx, gy, color=_GLICKO, lw=1.4, label=f"{site}, game by game",
                    zorder=3)  # fmt: skip
    track = "one rating" if report.settings.track == "shadow" else "restarted each period"
    width = 2.2 if len(spans) <= 40 else 1.3  # many short steps: a thinner line
    on = f" on {site_name(report)} games" if sites else ""
    lines += ax.plot(ex, ey, color=_ELO, lw=width,
                     label=f"FIDE rules{on} ({_ADVERB[kind]} periods, {track})")  # fmt: skip

    chart_periods.adjustments_and_floor(ax, report, spans)
    fy = _real_fide(ax, report, lo, hi)
    gap_count = chart_periods.gaps(ax, games)
    narrow = chart_periods.period_labels(ax, report, spans, lo, hi)
    ymin = min(y for y in (*gy, *ey, *fy) if y == y)  # y == y skips the NaN line breaks
    ymax = max(y for y in (*gy, *ey, *fy) if y == y)
    _end_labels(ax, ey[-1], gy[-1], hi, site_name(report))
    ax.set_xlim(lo, hi)
    pad = max(10.0, (ymax - ymin) * 0.12)
    ax.set_ylim(ymin - pad, ymax + pad * 2.2)
    key, marks = _ring_key(report)
    if key:
        ax.plot([], [], marker="o", ms=9, mfc="none", mec=_RING, mew=1.4, ls="none",
                label="largest disagreements (key below)")  # fmt: skip
    ax.set_ylabel("rating")
    title = _title(report, user, ex, ey, gy)
    ax.set_title(f"{site_name(report)} · {title}" if sites else title, loc="left", fontsize=11)
    ax.grid(True, axis="y", alpha=0.3)
    drawn = _Drawn([], marks, narrow, lines)
    if gap_count or key:
        span = f"{first:%Y-%m-%d} to {last:%Y-%m-%d} (UTC)"
        perf = f"{site_name(report)} {report.perf}" if sites else report.perf
        drawn.notes += [f"{perf}, {span}:", *key] if key else [f"{perf}, {span}"]
    split = chapter_split(report)
    if split is not None:  # the Rules line's split, as the summary says it
        drawn.notes.append(f"{report.perf}: {split}")
    return drawn


def _fide_track(
    report: PerfReport, spans: Sequence[tuple[Any, Any]], hi: datetime
) -> tuple[list[Any], list[float]]:
    """The FIDE-rules track's points: flat through each period at its start, a step to its
    end; broken (a NaN) at a restart or before FIDE's adjustment; held on to ``hi``."""
    ex: list[Any] = []
    ey: list[float] = []
    for period, (start, end) in zip(report.periods, spans, strict=True):
        if (report.settings.track == "lichess" or period.adjustment is not None) and ex:
            ex.append(start)
            ey.append(float("nan"))  # a restart, or FIDE's adjustment (dotted): no solid join
        ex += [start, end, end]
        ey += [period.elo_start, period.elo_start, period.elo_end]
    ex.append(hi)  # the last rating stays visible after its step
    ey.append(ey[-1])
    return ex, ey


def _real_fide(ax: Any, report: PerfReport, lo: datetime, hi: datetime) -> list[float]:
    """The player's real FIDE ratings (dashed, monthly), or a line saying there are none;
    returns the ratings drawn."""
    fx, fy = chart_periods.fide_steps(report, lo, hi)
    fide = report.fide
    if fide is not None and not fx:
        ax.text(
            0.01,
            0.02,
            f"real FIDE: {fide.message or 'no rating in these months'} ({fide.fide_list})",
            transform=ax.transAxes,
            fontsize=8,
            color=_FIDE,
        )
    if fx:
        assert fide is not None
        ax.plot(
            fx,
            fy,
            color=_FIDE,
            lw=1.6,
            ls="--",
            label=f"real FIDE rating ({fide.fide_list} list, monthly)",
        )
    return list(fy)


def _end_labels(
    ax: Any, elo_end: float, lichess_end: float, hi: datetime, site: str = "Lichess"
) -> None:
    """Each line's name and end value, read off the line (moved apart after the layout if
    two would meet); one label when both round the same."""
    mdates: Any = importlib.import_module("matplotlib.dates")
    ends = [(elo_end, _ELO, "FIDE rules"), (lichess_end, _GLICKO, site)]
    if round(elo_end) == round(lichess_end):
        ends = [(lichess_end, "#343a40", "both")]
    for value, colour, name in ends:
        ax.annotate(
            f"{name} {value:.0f}",
            (mdates.date2num(hi), value),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=9,
            color=colour,
            fontweight="bold",
            annotation_clip=False,
            gid="end-label",
        )


def _title(
    report: PerfReport, user: str, ex: Sequence[Any], ey: Sequence[float], gy: Sequence[float]
) -> str:
    """The panel title, its numbers read off the drawn lines (first and last points)."""
    s = report.summary
    if report.settings.track == "shadow":
        elo = f"FIDE rules {ey[0]:.0f} → {ey[-1]:.0f}"
    else:
        elo = f"FIDE rules {s.elo_change:+d} over {plural(s.periods, 'restarted period')}"
    return (
        f"{user} · {report.perf}: {elo}, {site_name(report)} {gy[0]:.0f} → {gy[-1]:.0f}  "
        f"({plural(s.games, 'game')})"
    )


def _draw_panels(
    fig: Any,
    axes: Sequence[Any],
    shown: Sequence[PerfReport],
    user: str | None,
    sites: bool = False,
) -> None:
    """The panels on one shared date axis (``sites``: each its own, its lines and title
    named for its site), the legend of the colours over the first panel, and each panel's
    notes (its ring key) right under it."""
    spans = [_span(r) for r in shown]
    lo = min(a for a, _ in spans)
    hi = max(b for _, b in spans)
    drawn = [
        _panel(ax, report, user or report.user, *(_span(report) if sites else (lo, hi)), sites)
        for ax, report in zip(axes, shown, strict=True)
    ]
    bottom = axes[-1]
    for ax in axes if sites else [bottom]:
        chart_marks.date_axis(ax)
    first = min(r.games[0].played_at for r in shown)
    last = max(r.games[-1].played_at for r in shown)
    if not sites:  # each site's panel has its own dates
        bottom.set_xlabel(f"{first:%Y-%m-%d} to {last:%Y-%m-%d} (UTC)", fontsize=8)
    handles: dict[str, Any] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    # The key of the colours and the gap note on top, over the first panel; each panel's own
    # notes (its ring key, its chapters) right under it, in a row of the grid of their own,
    # so no key sits far below the panel it explains.
    top = [_GAP_NOTE] if chart_periods.GAP_LABEL in handles else []
    columns = 2 if sites else 4
    legend_inches = 0.2 * -(-len(handles) // columns) + 0.1  # a row of 8-point labels each
    top_inches = legend_inches + _NOTE_LINE_INCHES * len(top) + 0.15
    note_inches = [_NOTE_LINE_INCHES * len(d.notes) + 0.1 if d.notes else 0.02 for d in drawn]
    total = _PANEL_INCHES * len(axes) + sum(note_inches) + top_inches
    fig.set_size_inches(12, total)
    ratios = [h for n in note_inches for h in (_PANEL_INCHES, n)]
    grid = fig.add_gridspec(2 * len(axes), 1, height_ratios=ratios)
    for i, ax in enumerate(axes):
        ax.set_subplotspec(grid[2 * i, 0])
    fig.legend(
        list(handles.values()),
        list(handles),
        loc="upper center",
        bbox_to_anchor=(0.5, 1 - 0.05 / total),
        ncol=columns,
        fontsize=8,
        frameon=False,
    )
    if top:
        fig.text(0.5, 1 - (legend_inches + 0.02) / total, "\n".join(top), fontsize=7.5,
                 color="#343a40", va="top", ha="center")  # fmt: skip
    fig.tight_layout(rect=(0, 0, 1, 1 - top_inches / total))
    renderer = fig.canvas.get_renderer()
    for ax, d in zip(axes, drawn, strict=True):  # right under the panel and its dates
        if d.notes:
            under = ax.get_tightbbox(renderer).y0 / fig.bbox.height - 0.08 / total
            fig.text(0.01, under, "\n".join(d.notes), fontsize=7.5, color="#343a40",
                     va="top", ha="left", family="monospace", gid="panel-key")  # fmt: skip
    for ax, d in zip(axes, drawn, strict=True):  # placed by their real boxes, now final
        chart_marks.thin_period_labels(ax, renderer, d.narrow)
        chart_marks.spread_end_labels(ax, renderer)
        chart_marks.place_rings(ax, renderer, d.marks, _RING, avoid=d.lines)


def draw_chart(
    reports: Sequence[PerfReport], *, user: str | None = None, sites: bool = False
) -> Any:
    """The chart as a matplotlib figure (close it with ``close_figure``): one panel per
    perf with games, on one shared date axis; ``sites``: the reports of two sites (a panel
    per site and perf, each on its own dates, named for its site)."""
    plt = pyplot()
    shown = [r for r in reports if r.games]
    rows = max(1, len(shown))
    fig, axes = plt.subplots(
        rows, 1, figsize=(12, _PANEL_INCHES * rows), squeeze=False, sharex=not sites
    )
    try:
        if not shown:
            axes[0][0].text(0.5, 0.5, "no counted games", ha="center", va="center")
            axes[0][0].set_axis_off()
            fig.tight_layout()
        else:
            _draw_panels(fig, [row[0] for row in axes], shown, user, sites)
    except BaseException:
        plt.close(fig)
        raise
    return fig


def close_figure(fig: Any) -> None:
    """Free a figure made by ``draw_chart``."""
    pyplot().close(fig)


def write_chart(reports: Sequence[PerfReport], path: Path, *, user: str | None = None) -> Path:
    """Draw one panel per perf with games and write a PNG or SVG to ``path``.

    Args:
        reports: The perf reports (those without games are skipped).
        path: Where to write; the suffix picks the format (``.png`` or ``.svg``).
        user: The name shown in the titles (default: the reports' user).

    Returns:
        ``path``.

    Raises:
        BadInput: the path's suffix is not ``.png`` or ``.svg``.
        WriteFailed: the file could not be written (disk full...); nothing half-written
            is left behind.
    """
    check_chart_path(path)
    save(draw_chart(reports, user=user), path)
    return path


def write_sites_chart(run: SitesRun, path: Path) -> Path:
    """``write_chart`` for two accounts: a panel per site and perf with games, each titled
    with its site and user, its lines labelled with its site; no line across the sites.

    Raises:
        BadInput: the path's suffix is not ``.png`` or ``.svg``.
        WriteFailed: the file could not be written.
    """
    check_chart_path(path)
    reports = [r for one in run.runs for r in one.run.reports]
    save(draw_chart(reports, sites=True), path)
    return path
