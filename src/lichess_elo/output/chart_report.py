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
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lichess_elo.output.charts import figure
from lichess_elo.output.common import plural

if TYPE_CHECKING:
    from lichess_elo.core.report.model import PerfReport

_GLICKO = "#1f6fb4"
_ELO = "#d9480f"
_GAP = "#c92a2a"
_BAND = "#868e96"
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


def _panel(ax: Any, report: PerfReport, title: str) -> None:
    mdates: Any = importlib.import_module("matplotlib.dates")  # untyped in places
    games = report.games
    kind = report.settings.period
    first, last = games[0].played_at, games[-1].played_at
    margin = max((last - first) * 0.03, timedelta(hours=2))
    lo, hi = first - margin, last + margin

    # Lichess, game by game: (t, before) -> (t, after) for each game.
    # Flat between games; a gap breaks the line (it is drawn dashed red below).
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
    gx.append(last + margin / 2)
    gy.append(gy[-1])

    # Periods: shading and the Elo steps.
    firsts: dict[str, datetime] = {}
    for g in games:
        firsts.setdefault(g.period, g.played_at)
    spans = []
    labels = list(firsts)
    for i, label in enumerate(labels):
        start, end = _period_span(label, kind, firsts[label])
        if kind == "game":
            end = firsts[labels[i + 1]] if i + 1 < len(labels) else last
        spans.append((max(start, lo), min(end, last + margin / 2)))
    if len(spans) <= _MAX_SHADED_PERIODS:
        for i, (start, end) in enumerate(spans):
            if i % 2 == 0:
                ax.axvspan(start, end, color=_BAND, alpha=0.10, lw=0)
    ex: list[Any] = []
    ey: list[float] = []
    for period, (start, end) in zip(report.periods, spans, strict=True):
        if report.settings.track == "lichess" and ex:
            ex.append(start)
            ey.append(float("nan"))  # each period restarts: no joining line
        ex += [start, end, end]
        ey += [period.elo_start, period.elo_start, period.elo_end]

    ax.plot(gx, gy, color=_GLICKO, lw=1.4, label="Lichess Glicko-2 (game by game)")
    track = "shadow" if report.settings.track == "shadow" else "restarted each period"
    width = 2.2 if len(spans) <= 40 else 1.3  # many short steps: a thinner line
    ax.plot(ex, ey, color=_ELO, lw=width, label=f"FIDE Elo ({_ADVERB[kind]} periods, {track})")

    previous = None
    gap_count = 0
    for g in games:
        if g.gap_before is not None and previous is not None:
            before = previous.lichess_rating + previous.lichess_diff
            ax.plot(
                [g.played_at, g.played_at], [before, g.lichess_rating], color=_GAP, ls="--", lw=1
            )
            ax.plot(
                [g.played_at],
                [g.lichess_rating],
                marker="v" if g.gap_before < 0 else "^",
                color=_GAP,
                ms=6,
                ls="none",
                label="gap in the Lichess rating chain" if gap_count == 0 else None,
            )
            gap_count += 1
        previous = g

    by_id = {g.id: g for g in games}
    for rank, d in enumerate(report.summary.top_games, start=1):
        g = by_id[d.key]
        y = g.lichess_rating + g.lichess_diff
        ax.plot(
            [g.played_at],
            [y],
            marker="o",
            ms=13,
            mfc="none",
            mec="#2b8a3e",
            mew=1.6,
            ls="none",
            label="largest disagreements (games, 1 = largest)" if rank == 1 else None,
        )
        ax.annotate(
            str(rank),
            (mdates.date2num(g.played_at), y),
            xytext=(8, 4),
            textcoords="offset points",
            ha="left",
            va="bottom",
            fontsize=10,
            color="#2b8a3e",
            fontweight="bold",
        )

    if len(spans) <= _MAX_LABELLED_PERIODS:
        for (start, end), period in zip(spans, report.periods, strict=True):
            ax.text(
                start + (end - start) / 2,
                1.0,
                f"{period.label}\nElo {period.elo_change:+d} · Lichess {period.lichess_change:+d}",
                transform=ax.get_xaxis_transform(),
                ha="center",
                va="top",
                fontsize=8,
                color="#495057",
            )
    ax.set_xlim(lo, hi)
    ymin = min(y for y in (*gy, *ey) if y == y)  # y == y skips the NaN line breaks
    ymax = max(y for y in (*gy, *ey) if y == y)
    pad = max(10.0, (ymax - ymin) * 0.12)
    ax.set_ylim(ymin - pad, ymax + pad * 2.2)
    locator = mdates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    # No offset text ("2023-Feb" at the axis end, though the data may start in January):
    # the label gives the span instead.
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, show_offset=False))
    ax.set_xlabel(f"{first:%Y-%m-%d} to {last:%Y-%m-%d} (UTC)", fontsize=8, color="#495057")
    ax.set_ylabel("rating")
    ax.set_title(title, loc="left", fontsize=11)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=4, fontsize=8, frameon=False)


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
    shown = [r for r in reports if r.games]
    rows = max(1, len(shown))
    with figure(path, rows, 1, figsize=(12, 5.2 * rows), squeeze=False) as (_fig, axes):
        if not shown:
            axes[0][0].text(0.5, 0.5, "no counted games", ha="center", va="center")
            axes[0][0].set_axis_off()
        for ax, report in zip((row[0] for row in axes), shown, strict=False):
            s = report.summary
            elo = (
                f"FIDE Elo {s.elo_start} → {s.elo_final}"
                if report.settings.track == "shadow"
                else f"FIDE Elo {s.elo_change:+d} over {plural(s.periods, 'restarted period')}"
            )
            title = (
                f"{user or report.user} · {report.perf}: {elo}, "
                f"Lichess {s.lichess_start} → {s.lichess_final}  ({plural(s.games, 'game')})"
            )
            _panel(ax, report, title)
    return path
