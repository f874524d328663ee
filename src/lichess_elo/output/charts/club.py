"""``club --chart``: the players' club ratings after each update, for a noticeboard.

An edge module (matplotlib, imported lazily). The axis spans the club's events with some
padding (one event is not drawn across years); up to 12 players each have their own colour
(``chart_compare.series_style``, the palette ``db compare`` uses), every line ends with the
player's name and rating to the right of the plot, the end names are moved apart so that
none overprints another, the dots of players on the same point are set side by side, and
event names that would touch are left unnamed (their dotted line stays).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from lichess_elo.core.fide import round_half_away
from lichess_elo.core.words import plural
from lichess_elo.output.charts.compare import series_style, spread
from lichess_elo.output.charts.figure import figure

if TYPE_CHECKING:
    from pathlib import Path

    from lichess_elo.core.club.model import ClubResult, Standing

_TEXT = "#495057"
#: Days of padding on each side of the events at least (one event: three weeks shown).
MIN_PAD_DAYS = 10
#: An event name is cut to this many characters (with "…"), so it fits above the lines.
EVENT_NAME_CHARS = 28


class ChartSeries(NamedTuple):
    """One player's line in the club chart: parallel dates and ratings.

    Attributes:
        days: The date of each point.
        ratings: The (unrounded) rating at each point.
        dots: Indices of the points drawn with a dot (all but a carried last point).
    """

    days: tuple[date, ...]
    ratings: tuple[float, ...]
    dots: tuple[int, ...]


def club_chart_series(s: Standing, last_day: date | None) -> ChartSeries:
    """The points of ``s``'s line in the club chart (pure).

    The line starts at the rating before the first counted game (the first update's
    ``rating_before``), dated like that update, so the first step is drawn like every
    other. A player first rated by the FIDE initial-rating rule had no rating before,
    so the line starts at the first rating. Then one point per update (its
    ``rating_after``), and the last rating carried, without a dot, to ``last_day`` (the
    club's latest update) when that is later. No history: no points.
    """
    days: list[date] = []
    ratings: list[float] = []
    if s.history and s.history[0].rating_before is not None:
        days.append(s.history[0].day)
        ratings.append(float(s.history[0].rating_before))
    for e in s.history:
        days.append(e.day)
        ratings.append(float(e.rating_after))
    dots = tuple(range(len(days)))
    if days and last_day is not None and last_day > days[-1]:
        days.append(last_day)  # carried to the club's latest update
        ratings.append(ratings[-1])
    return ChartSeries(tuple(days), tuple(ratings), dots)


def x_span(days: Sequence[date]) -> tuple[date, date]:
    """The axis' first and last day: the days given, padded by 4 % of their span on each
    side and by at least ``MIN_PAD_DAYS`` (pure)."""
    first, last = min(days), max(days)
    pad = timedelta(days=max(MIN_PAD_DAYS, round((last - first).days * 0.04)))
    return first - pad, last + pad


def fit_labels(values: Sequence[float], gap: float, top: float) -> list[float]:
    """Label heights at least ``gap`` apart, moved as little as possible, none above
    ``top`` (pure): ``spread`` upwards, then those pushed past ``top`` back down."""
    placed = spread(values, gap)
    ceiling = top
    for i in sorted(range(len(placed)), key=lambda i: -placed[i]):
        placed[i] = min(placed[i], ceiling)
        ceiling = placed[i] - gap
    return placed


def dodge(points: Sequence[Sequence[tuple[float, float]]], near: float) -> list[list[float]]:
    """An x offset, in units of one dot, for every point of every series (pure): dots of
    different series on the same day within ``near`` of each other are set side by side,
    centred on the day, in series order (a series' own dots there share its place)."""
    slots: dict[tuple[float, int], list[int]] = {}
    for n, series in enumerate(points):
        for x, y in series:
            members = slots.setdefault((x, round(y / near) if near > 0 else 0), [])
            if n not in members:
                members.append(n)
    out = []
    for n, series in enumerate(points):
        offsets = []
        for x, y in series:
            members = slots[(x, round(y / near) if near > 0 else 0)]
            offsets.append(members.index(n) - (len(members) - 1) / 2)
        out.append(offsets)
    return out


def _cut(name: str) -> str:
    return name if len(name) <= EVENT_NAME_CHARS else name[: EVENT_NAME_CHARS - 1] + "…"


def write_club_chart(result: ClubResult, names: Sequence[str], path: Path) -> None:
    """Chart the players' ratings after each update (matplotlib, Agg, written atomically).

    Each line starts at the player's start rating (see ``club_chart_series``) and ends with
    the name and rating; every event is a faint line with its name, as the report chart
    labels its periods. The path's suffix picks the format, ``.png`` or ``.svg``.

    Raises:
        BadInput: the path cannot take a chart (``chart.check_chart_path``).
        WriteFailed: the file could not be written (disk full...); the message names
            ``path``, never a temporary file, and nothing half-written is left behind.
    """
    mdates = _mdates()
    wanted = {n.casefold() for n in names}
    shown = [s for s in result.standings if s.name.casefold() in wanted]
    lines = [(s, club_chart_series(s, result.last_day)) for s in shown]
    lines = [(s, series) for s, series in lines if series.days]
    with figure(path, figsize=(11, 5.6), dpi=110) as (fig, ax):
        days = [d for _, series in lines for d in series.days] + [e.day for e in result.events]
        first, last = x_span(days) if days else (date(2000, 1, 1), date(2000, 1, 2))
        x0, x1 = float(mdates.date2num(first)), float(mdates.date2num(last))
        ratings = [r for _, series in lines for r in series.ratings] or [1000.0]
        low, high = min(ratings), max(ratings)
        margin = max(10.0, (high - low) * 0.08)
        low, high = low - margin, high + margin
        ends = _player_lines(ax, lines, (x1 - x0) / 150, (high - low) / 60)
        ax.set_xlim(x0, x1)
        ax.set_ylim(low, high)
        event_texts = _event_names(ax, result, (x1 - x0) / 70)
        _axes_words(ax, result, lines)
        _end_names(fig, ax, ends, event_texts, (low, high), x1)


def _mdates() -> Any:
    """``matplotlib.dates``, imported when a chart is drawn."""
    import importlib

    return importlib.import_module("matplotlib.dates")


#: A line's end: where it ends (x, y), its label and its colour.
_End = tuple[float, float, str, str]


def _player_lines(
    ax: Any, lines: Sequence[tuple[Standing, ChartSeries]], dot_days: float, near: float
) -> list[_End]:
    """Each player's rating line (steps) and its dots, dodged sideways by ``dot_days`` when
    closer than ``near`` (one dot is about 1/150 of the axis wide; dots closer than 1/60 of
    the height meet); returns the lines' ends."""
    mdates = _mdates()
    points = [
        [(float(mdates.date2num(series.days[i])), series.ratings[i]) for i in series.dots]
        for _, series in lines
    ]
    offsets = dodge(points, near)
    ends: list[_End] = []
    for n, ((s, series), dots) in enumerate(zip(lines, offsets, strict=True)):
        colour, marker = series_style(n)
        xs = [float(mdates.date2num(d)) for d in series.days]
        ax.plot(xs, list(series.ratings), drawstyle="steps-post", color=colour, lw=2.0)
        ax.plot([x + o * dot_days for (x, _), o in zip(points[n], dots, strict=True)],
                [y for _, y in points[n]], ls="none", marker=marker, color=colour, ms=5.5,
                markeredgecolor="white", markeredgewidth=0.8)  # fmt: skip
        rating = round_half_away(Decimal(str(series.ratings[-1])))
        ends.append((xs[-1], series.ratings[-1], f"{s.name} {rating}", colour))
    return ends


def _event_names(ax: Any, result: ClubResult, min_apart: float) -> list[Any]:
    """A faint line at every event, and its name where it does not overprint the last
    name (``min_apart``: a rotated 8-point name is about 1/70 of the axis wide)."""
    mdates = _mdates()
    event_texts = []
    last_named = float("-inf")
    for event in result.events:
        x = float(mdates.date2num(event.day))
        ax.axvline(x, color="#adb5bd", lw=0.8, ls=":", zorder=0)
        if x - last_named < min_apart:
            continue  # too close to the last name: it would overprint
        last_named = x
        event_texts.append(
            ax.text(
                x,
                0.99,
                f"{_cut(event.name)} ",
                transform=ax.get_xaxis_transform(),
                rotation=90,
                ha="right",
                va="top",
                fontsize=8,
                color=_TEXT,
            )
        )
    return event_texts


def _axes_words(ax: Any, result: ClubResult, lines: Sequence[tuple[Standing, ChartSeries]]) -> None:
    """The title, the axes' labels and dates, the grid."""
    mdates = _mdates()
    who = f"{lines[0][0].name}'s" if len(lines) == 1 else f"Top {len(lines)} players'"
    after = f" after {result.last_period}" if result.last_period else ""
    ax.set_title(f"{who} club rating{after}", loc="left", fontsize=12)
    ax.set_ylabel("club rating")
    if result.events:
        span = f"{result.events[0].day.isoformat()} to {result.events[-1].day.isoformat()}"
        ax.set_xlabel(f"{plural(len(result.events), 'event')}, {span}", fontsize=8)
    locator = mdates.AutoDateLocator(minticks=3, maxticks=9)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, show_offset=False))
    ax.grid(True, axis="y", alpha=0.3)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _end_names(
    fig: Any,
    ax: Any,
    ends: Sequence[_End],
    event_texts: Sequence[Any],
    limits: tuple[float, float],
    x1: float,
) -> None:
    """Headroom above the lines for the event names, then each line's name and rating at
    the right, moved apart where they would meet (the figure's last tight_layout makes
    room for them)."""
    low, high = limits
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    box = ax.get_window_extent(renderer)
    tallest = max((t.get_window_extent(renderer).height for t in event_texts), default=0.0)
    room = min(0.6, tallest / box.height + 0.03) if event_texts else 0.0
    high = high + (high - low) * room / (1 - room)
    ax.set_ylim(low, high)
    gap = (high - low) * (9 * 1.35 * fig.dpi / 72) / box.height  # a 9-point line, in data
    placed = fit_labels([y for _, y, _, _ in ends], gap, high)
    for (x, y, label, colour), at in zip(ends, placed, strict=True):
        # the slanted bit stays left of the axis' end, the names right of it: no line
        # crosses a name
        ax.plot([x, x1], [y, at], color=colour, lw=0.8, clip_on=False)
        ax.annotate(label, xy=(x1, at), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=9, color=colour, fontweight="bold",
                    annotation_clip=False)  # fmt: skip
