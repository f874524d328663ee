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
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lichess_elo.output.charts import check_chart_path, pyplot, save
from lichess_elo.output.common import plural

if TYPE_CHECKING:
    from lichess_elo.core.report.model import PerfReport

_GLICKO = "#1f6fb4"
_ELO = "#d9480f"
_GAP = "#adb5bd"
_GAP_NOTE = (
    "Grey dotted jumps: Lichess's rating moved between two games without a game here "
    "(a game not held, or a rating adjustment)."
)
_PANEL_INCHES = 4.6
_NOTE_LINE_INCHES = 0.15
_RING = "#2b8a3e"
#: A period is labelled only when it spans at least this share of the axis.
_MIN_LABEL_SHARE = 0.06
_BAND = "#868e96"
_FIDE = "#5f3dc4"
_MAX_LABELLED_PERIODS = 16
_ADVERB = {"month": "monthly", "week": "weekly", "day": "daily", "game": "one-game"}
_MAX_SHADED_PERIODS = 120


def _period_span(label: str, kind: str, when: datetime) -> tuple[datetime, datetime]:
    """The calendar bounds [start, end) of a period (a game period: the game's time)."""
    if kind == "month":
        start = datetime(int(label[:4]), int(label[5:7]), 1, tzinfo=UTC)
        end = datetime(start.year + start.month // 12, start.month % 12 + 1, 1, tzinfo=UTC)
        return start, end
    if kind == "week":
        start = datetime.fromisocalendar(int(label[:4]), int(label[6:]), 1).replace(tzinfo=UTC)
        return start, start + timedelta(days=7)
    if kind == "day":
        start = datetime.fromisoformat(label).replace(tzinfo=UTC)
        return start, start + timedelta(days=1)
    return when, when


def _span(report: PerfReport) -> tuple[datetime, datetime]:
    """The time axis of a panel: the games plus a margin (room for the end labels)."""
    first, last = report.games[0].played_at, report.games[-1].played_at
    margin = max((last - first) * 0.03, timedelta(hours=2))
    return first - margin, last + margin * 3


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
        gy += [g.lichess_rating, g.lichess_rating + g.lichess_diff]
    gx.append(end)
    gy.append(gy[-1])
    return gx, gy


def _period_spans(report: PerfReport, lo: datetime, step_at: datetime) -> list[tuple[Any, Any]]:
    """Each period's drawn [start, end): its calendar span within the data (a game period
    lasts until the next game); the last step is drawn at ``step_at`` at the latest."""
    games = report.games
    kind = report.settings.period
    firsts: dict[str, datetime] = {}
    for g in games:
        firsts.setdefault(g.period, g.played_at)
    labels = list(firsts)
    spans = []
    for i, label in enumerate(labels):
        start, end = _period_span(label, kind, firsts[label])
        if kind == "game":
            end = firsts[labels[i + 1]] if i + 1 < len(labels) else step_at
        spans.append((max(start, lo), min(end, step_at)))
    return spans


def _gaps(ax: Any, games: Sequence[Any]) -> int:
    """Quiet grey dotted jumps where Lichess's rating moved between two games."""
    previous = None
    count = 0
    for g in games:
        if g.gap_before is not None and previous is not None:
            before = previous.lichess_rating + previous.lichess_diff
            ax.plot(
                [g.played_at, g.played_at],
                [before, g.lichess_rating],
                color=_GAP,
                ls=":",
                lw=1.0,
                marker="_",
                ms=5,
                label=("gap between two games (note below)" if count == 0 else None),
                zorder=1,
            )
            count += 1
        previous = g
    return count


#: Rings closer than this on screen (pixels) share one label.
_RING_NEAR_PX = 14


def _rings(ax: Any, report: PerfReport) -> list[str]:
    """Numbered rings on the largest disagreements; returns the key's lines.

    Rings that fall on nearly the same spot share one label (``4, 5``), so that no two
    numbers overprint.
    """
    mdates: Any = importlib.import_module("matplotlib.dates")
    by_id = {g.id: g for g in report.games}
    key = []
    labels: list[tuple[Any, list[str]]] = []  # (display point, ranks) of each label
    for rank, d in enumerate(report.summary.top_games, start=1):
        g = by_id[d.key]
        y = g.lichess_rating + g.lichess_diff
        ax.plot([g.played_at], [y], marker="o", ms=13, mfc="none", mec=_RING, mew=1.6, ls="none")
        point = (mdates.date2num(g.played_at), y)
        shown = ax.transData.transform(point)
        for near, ranks in labels:
            if abs(near[0] - shown[0]) < _RING_NEAR_PX and abs(near[1] - shown[1]) < _RING_NEAR_PX:
                ranks.append(str(rank))
                break
        else:
            labels.append((shown, [str(rank)]))
        key.append(
            f"{rank}  {g.played_at:%Y-%m-%d} vs {g.opponent} ({g.id}): FIDE rules "
            f"{float(d.elo):+.1f}, Lichess {d.lichess:+d}, apart by {float(d.difference):.1f}"
        )
    for shown, ranks in labels:
        ax.annotate(
            ", ".join(ranks),
            tuple(ax.transData.inverted().transform(shown)),
            xytext=(8, 4),
            textcoords="offset points",
            ha="left",
            va="bottom",
            fontsize=10,
            color=_RING,
            fontweight="bold",
        )
    return key


def _period_labels(ax: Any, report: PerfReport, spans: Sequence[Any], lo: Any, hi: Any) -> None:
    """Label the periods that have room (never for one-game periods: they would overprint)."""
    if report.settings.period == "game" or len(spans) > _MAX_LABELLED_PERIODS:
        return
    whole = (hi - lo).total_seconds()
    for (start, end), period in zip(spans, report.periods, strict=True):
        if (end - start).total_seconds() < _MIN_LABEL_SHARE * whole:
            continue
        ax.text(
            start + (end - start) / 2,
            1.0,
            f"{period.label}\nFIDE {period.elo_change:+d} · Lichess {period.lichess_change:+d}",
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="top",
            fontsize=8,
            color="#495057",
        )


def _adjustments_and_floor(ax: Any, report: PerfReport, spans: Sequence[Any]) -> None:
    """Mark FIDE's one-time adjustment where the track crosses it (a dotted step with its
    words, never a game) and the floor where a period ends below it."""
    for period, (start, _) in zip(report.periods, spans, strict=True):
        if period.adjustment is None or period.adjusted_from is None:
            continue
        ax.plot([start, start], [period.adjusted_from, period.elo_start], color=_ELO, lw=2.2,
                ls=":", zorder=4)  # fmt: skip
        raised = period.elo_start - period.adjusted_from
        ax.annotate(
            f"FIDE adjustment {raised:+d}\n({period.adjustment.day:%-d %b %Y}, not a game)",
            (start, (period.adjusted_from + period.elo_start) / 2),
            xytext=(5, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
            color=_ELO,
        )
    floors = sorted({p.edition.floor for p in report.periods if p.below_floor})
    for floor in floors:
        ax.axhline(floor, color="#868e96", lw=1.0, ls="--", zorder=1)
        ax.annotate(
            f"FIDE floor {floor}: below it FIDE would not list the rating",
            (0.01, floor),
            xycoords=("axes fraction", "data"),
            xytext=(0, 3),
            textcoords="offset points",
            fontsize=8,
            color="#495057",
        )


def _panel(ax: Any, report: PerfReport, user: str, lo: datetime, hi: datetime) -> list[str]:
    """Draw one perf; returns the rings' key lines."""
    mdates: Any = importlib.import_module("matplotlib.dates")
    games = report.games
    kind = report.settings.period
    first, last = games[0].played_at, games[-1].played_at
    step_at = last + (hi - last) / 3  # the last FIDE step: clearly after the last game
    gx, gy = _lichess_line(games, hi)
    spans = _period_spans(report, lo, step_at)
    if kind != "game" and len(spans) <= _MAX_SHADED_PERIODS:
        for i, (start, end) in enumerate(spans):
            if i % 2 == 0:
                ax.axvspan(start, end, color=_BAND, alpha=0.10, lw=0)
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

    ax.plot(gx, gy, color=_GLICKO, lw=1.4, label="Lichess Glicko-2, game by game", zorder=3)
    track = "one rating" if report.settings.track == "shadow" else "restarted each period"
    width = 2.2 if len(spans) <= 40 else 1.3  # many short steps: a thinner line
    ax.plot(ex, ey, color=_ELO, lw=width, label=f"FIDE rules ({_ADVERB[kind]} periods, {track})")

    _adjustments_and_floor(ax, report, spans)
    fx, fy = _fide_steps(report, lo, hi)
    if report.fide is not None and not fx:
        ax.text(
            0.01,
            0.02,
            f"real FIDE: {report.fide.message or 'no rating in these months'} "
            f"({report.fide.fide_list})",
            transform=ax.transAxes,
            fontsize=8,
            color=_FIDE,
        )
    if fx:
        fide = report.fide
        assert fide is not None
        ax.plot(
            fx,
            fy,
            color=_FIDE,
            lw=1.6,
            ls="--",
            label=f"real FIDE rating ({fide.fide_list} list, monthly)",
        )
    gap_count = _gaps(ax, games)
    _period_labels(ax, report, spans, lo, hi)
    ymin = min(y for y in (*gy, *ey, *fy) if y == y)  # y == y skips the NaN line breaks
    ymax = max(y for y in (*gy, *ey, *fy) if y == y)
    # The end values, read off the lines; the higher label nudged up, the lower one down.
    ends = [(ey[-1], _ELO, "", 5 if ey[-1] > gy[-1] else -5), (gy[-1], _GLICKO, "", 0)]
    ends[1] = (gy[-1], _GLICKO, "", -ends[0][3])
    if round(ey[-1]) == round(gy[-1]):
        ends = [(gy[-1], "#343a40", "both ", 0)]
    for value, colour, both, nudge in ends:
        ax.annotate(
            f"{both}{value:.0f}",
            (mdates.date2num(hi), value),
            xytext=(4, nudge),
            textcoords="offset points",
            va="center",
            fontsize=9,
            color=colour,
            fontweight="bold",
            annotation_clip=False,
        )
    ax.set_xlim(lo, hi)
    pad = max(10.0, (ymax - ymin) * 0.12)
    ax.set_ylim(ymin - pad, ymax + pad * 2.2)
    key = _rings(ax, report)  # after the limits: rings close on screen share a label
    if key:
        ax.plot([], [], marker="o", ms=9, mfc="none", mec=_RING, mew=1.4, ls="none",
                label="largest disagreements (key below)")  # fmt: skip
    ax.set_ylabel("rating")
    ax.set_title(_title(report, user, ex, ey, gy), loc="left", fontsize=11)
    ax.grid(True, axis="y", alpha=0.3)
    if gap_count == 0 and not key:
        return []
    span = f"{first:%Y-%m-%d} to {last:%Y-%m-%d} (UTC)"
    return [f"{report.perf}, {span}:", *key] if key else [f"{report.perf}, {span}"]


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
        f"{user} · {report.perf}: {elo}, Lichess {gy[0]:.0f} → {gy[-1]:.0f}  "
        f"({plural(s.games, 'game')})"
    )


def _draw_panels(
    fig: Any, axes: Sequence[Any], shown: Sequence[PerfReport], user: str | None
) -> None:
    """The panels on one shared date axis, one legend, then the notes under it."""
    mdates: Any = importlib.import_module("matplotlib.dates")
    spans = [_span(r) for r in shown]
    lo = min(a for a, _ in spans)
    hi = max(b for _, b in spans)
    key: list[str] = []
    for ax, report in zip(axes, shown, strict=True):
        key += _panel(ax, report, user or report.user, lo, hi)
    bottom = axes[-1]
    locator = mdates.AutoDateLocator()
    bottom.xaxis.set_major_locator(locator)
    bottom.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, show_offset=False))
    first = min(r.games[0].played_at for r in shown)
    last = max(r.games[-1].played_at for r in shown)
    bottom.set_xlabel(f"{first:%Y-%m-%d} to {last:%Y-%m-%d} (UTC)", fontsize=8)
    handles: dict[str, Any] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    notes = [_GAP_NOTE, *key] if "gap between two games (note below)" in handles else key
    # Inches under the panels: the notes (one line each) and the legend row above them.
    notes_inches = _NOTE_LINE_INCHES * len(notes) + 0.1
    reserved = notes_inches + 0.45
    total = _PANEL_INCHES * len(axes) + reserved
    fig.set_size_inches(12, total)
    fig.legend(
        list(handles.values()),
        list(handles),
        loc="lower center",
        bbox_to_anchor=(0.5, notes_inches / total),
        ncol=4,
        fontsize=8,
        frameon=False,
    )
    if notes:
        fig.text(0.01, 0.05 / total, "\n".join(notes), fontsize=7.5, color="#343a40",
                 va="bottom", ha="left", family="monospace")  # fmt: skip
    fig.tight_layout(rect=(0, reserved / total, 1, 1))


def draw_chart(reports: Sequence[PerfReport], *, user: str | None = None) -> Any:
    """The chart as a matplotlib figure (close it with ``close_figure``): one panel per
    perf with games, on one shared date axis."""
    plt = pyplot()
    shown = [r for r in reports if r.games]
    rows = max(1, len(shown))
    fig, axes = plt.subplots(
        rows, 1, figsize=(12, _PANEL_INCHES * rows), squeeze=False, sharex=True
    )
    try:
        if not shown:
            axes[0][0].text(0.5, 0.5, "no counted games", ha="center", va="center")
            axes[0][0].set_axis_off()
            fig.tight_layout()
        else:
            _draw_panels(fig, [row[0] for row in axes], shown, user)
    except BaseException:
        plt.close(fig)
        raise
    return fig


def close_figure(fig: Any) -> None:
    """Free a figure made by ``draw_chart``."""
    pyplot().close(fig)


def _fide_steps(report: PerfReport, lo: datetime, hi: datetime) -> tuple[list[Any], list[float]]:
    """The real FIDE list as steps: each month's rating from its first day to the next's."""
    if report.fide is None:
        return [], []
    xs: list[Any] = []
    ys: list[float] = []
    for month, rating in report.fide.history:
        start = datetime(month.year, month.month, 1, tzinfo=UTC)
        nxt = datetime(month.year + month.month // 12, month.month % 12 + 1, 1, tzinfo=UTC)
        if xs and xs[-1] != start:
            xs.append(start)
            ys.append(float("nan"))  # a month off the list: no joining line
        xs += [max(start, lo), min(nxt, hi)]
        ys += [rating, rating]
    return xs, ys


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
