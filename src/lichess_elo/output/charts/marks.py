"""Marks that charts place after their layout is final: date ticks that always name the
month (or year), numbered rings that never overprint, and labels thinned or moved apart.

Placement is measured with matplotlib's renderer (``get_window_extent``), so it runs after
``tight_layout``: a label is kept, moved or dropped by its real box on the figure. Every
placed artist carries a ``gid`` (``ring``, ``ring-label``, ``period-label``, ``end-label``)
so that tests can find and measure it.
"""

from __future__ import annotations

import importlib
import itertools
import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from lichess_elo.output.charts.compare import spread

#: The ring around one game, in points (its diameter).
RING_POINTS = 12.0
#: Where a ring's number may go: this many points beyond the ring's edge, nearest first,
#: at each of the angles (degrees) in turn.
_STANDOFF = (2.0, 9.0, 17.0, 27.0)
_ANGLES = (45, 135, -45, -135, 90, -90, 0, 180)


def _mpl(name: str) -> Any:
    return importlib.import_module(f"matplotlib.{name}")


def date_axis(ax: Any) -> None:
    """Ticks on real dates that each carry a month or a year: ``2024`` (yearly ticks),
    ``Mar`` (monthly; the first tick and each January add the year), ``29 Jan`` (daily; the
    first and each new year add the year), ``29 Jan 14:00`` (hourly)."""
    mdates = _mpl("dates")
    formatter: Any = _mpl("ticker").Formatter

    class _Labels(formatter):  # type: ignore[misc]
        def __call__(self, x: float, pos: int | None = None) -> str:
            return str(self.format_ticks([x])[0])

        def format_ticks(self, values: Sequence[float]) -> list[str]:
            low, high = sorted(self.axis.get_view_interval()) if self.axis else (-1e9, 1e9)
            step = abs(values[1] - values[0]) if len(values) > 1 else 1.0
            out: list[str] = []
            shown: datetime | None = None
            for value in values:
                d = mdates.num2date(value)
                first = shown is None and low <= value <= high
                new_year = first or (shown is not None and shown.year != d.year)
                if step >= 300:
                    out.append(f"{d:%Y}")
                elif step >= 27:
                    out.append(f"{d:%b}\n{d:%Y}" if new_year else f"{d:%b}")
                elif step >= 0.99:
                    out.append(f"{d.day} {d:%b}" + (f"\n{d:%Y}" if new_year else ""))
                else:
                    out.append(f"{d.day} {d:%b} {d:%H:%M}")
                if low <= value <= high:
                    shown = d
            return out

    locator = mdates.AutoDateLocator(minticks=3, maxticks=9)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(_Labels())


def _boxes(artists: Sequence[Any], renderer: Any) -> list[Any]:
    return [a.get_window_extent(renderer) for a in artists if a.get_visible()]


def _clear(box: Any, others: Sequence[Any]) -> bool:
    return not any(box.overlaps(o) for o in others)


def thin_period_labels(ax: Any, renderer: Any, narrow: Sequence[str]) -> None:
    """The period labels (``gid`` ``period-label``, left to right) made narrower
    (``narrow``: the same labels on three lines) when any two overprint, then every label
    that still overprints the last one kept removed."""
    labels = [t for t in ax.texts if t.get_gid() == "period-label"]
    boxes = _boxes(labels, renderer)
    if any(a.overlaps(b) for a, b in itertools.pairwise(boxes)):
        for text, words in zip(labels, narrow, strict=True):
            text.set_text(words)
    kept: list[Any] = []
    inside = ax.get_window_extent(renderer)
    for text in labels:
        box = text.get_window_extent(renderer)
        if (kept and box.overlaps(kept[-1])) or box.x0 < inside.x0 or box.x1 > inside.x1:
            text.remove()
        else:
            kept.append(box)


def spread_end_labels(ax: Any, renderer: Any) -> None:
    """Move the end-value labels (``gid`` ``end-label``) apart vertically so that none
    overprints another: as little as needed, the higher value staying above."""
    labels = [t for t in ax.texts if t.get_gid() == "end-label"]
    if len(labels) < 2:
        return
    heights = [t.get_window_extent(renderer).height for t in labels]
    wanted = [ax.transData.transform(t.xy)[1] for t in labels]
    placed = spread(wanted, max(heights) + 2)
    scale = 72 / ax.figure.dpi
    mid = (max(placed) + min(placed) - max(wanted) - min(wanted)) / 2  # keep them centred
    for text, want, put in zip(labels, wanted, placed, strict=True):
        text.xyann = (text.xyann[0], (put - want - mid) * scale)


def _rings(points: Sequence[tuple[float, float]], ring: float) -> list[tuple[list[int], Any]]:
    """The points' indexes grouped under rings that never touch: each group's ring is
    centred on its points' box and ``ring`` wider than it; two rings that would touch are
    merged into one around both groups, until none do. Groups in the order of their first
    point, with (centre x, centre y, diameter) in pixels."""

    def circle(group: list[int]) -> tuple[float, float, float]:
        xs = [points[i][0] for i in group]
        ys = [points[i][1] for i in group]
        size = ring + max(max(xs) - min(xs), max(ys) - min(ys))
        return (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2, size

    groups = [[i] for i in range(len(points))]
    merged = True
    while merged:
        merged = False
        for a, b in itertools.combinations(range(len(groups)), 2):
            (xa, ya, da), (xb, yb, db) = circle(groups[a]), circle(groups[b])
            if math.dist((xa, ya), (xb, yb)) < (da + db) / 2:
                groups[a] = sorted(groups[a] + groups[b])
                del groups[b]
                merged = True
                break
    return [(g, circle(g)) for g in sorted(groups, key=lambda g: g[0])]


def place_rings(
    ax: Any,
    renderer: Any,
    marks: Sequence[tuple[int, datetime, float]],
    colour: str,
    avoid: Sequence[Any] = (),
) -> None:
    """Numbered rings on ``marks`` (rank, time, rating): games too close for two rings
    share one ring drawn around them all; each number goes where its box meets no other
    number, ring or text (``avoid``: lines whose points it should not cover), joined to
    its game by a thin line when it stands off."""
    mdates = _mpl("dates")
    px = ax.figure.dpi / 72  # pixels a point
    points = [tuple(ax.transData.transform((mdates.date2num(t), y))) for _, t, y in marks]
    taken = _boxes([t for t in ax.texts if t.get_gid() != "ring-label"], renderer)
    inside = ax.get_window_extent(renderer)
    centres = []
    for group, (cx, cy, across) in _rings(points, (RING_POINTS + 3) * px):  # + the stroke
        size, centre = across / px - 3, (cx, cy)
        ring = ax.plot(*ax.transData.inverted().transform(centre), marker="o", ms=size,
                       mfc="none", mec=colour, mew=1.6, ls="none", gid="ring")[0]  # fmt: skip
        taken.append(ring.get_window_extent(renderer))
        centres += [(i, centre, size / 2, len(group)) for i in group]
    dots = _line_points(avoid)
    for i, centre, radius, shared in sorted(centres):
        rank = marks[i][0]
        best: tuple[Any, Any, float] | None = None
        for standoff in _STANDOFF:
            for angle in _ANGLES:
                r = radius + standoff
                off = (r * math.cos(math.radians(angle)), r * math.sin(math.radians(angle)))
                text = ax.annotate(str(rank), ax.transData.inverted().transform(centre),
                                   xytext=off, textcoords="offset points", ha="center",
                                   va="center", fontsize=10, color=colour, fontweight="bold",
                                   gid="ring-label")  # fmt: skip
                box = text.get_window_extent(renderer)
                fits = _clear(
                    box.padded(3), taken
                )  # a little air: "2 5" reads as 25 and inside.contains(box.x0, box.y0)
                fits = fits and inside.contains(box.x1, box.y1)
                covers = float(box.count_contains(dots)) if len(dots) else 0.0
                if fits and (best is None or covers < best[2]):
                    if best is not None:
                        best[0].remove()
                    best = (text, box, covers)
                else:
                    text.remove()
                if best is not None and best[2] == 0:
                    break
            if best is not None and best[2] == 0:
                break
        if best is None:  # no room anywhere: the nearest spot, still clear of the rings
            best = (ax.annotate(str(rank), ax.transData.inverted().transform(centre),
                                xytext=(radius + 2, radius + 2), textcoords="offset points",
                                fontsize=10, color=colour, fontweight="bold",
                                gid="ring-label"), None, 0.0)  # fmt: skip
        text = best[0]
        taken.append(text.get_window_extent(renderer))
        if shared > 1 or math.hypot(*text.xyann) > radius + 6:  # which game: a thin line
            leader = {"arrowstyle": "-", "lw": 0.7, "color": colour, "shrinkA": 5, "shrinkB": 0}
            dx, dy = (centre[0] - points[i][0]) / px, (centre[1] - points[i][1]) / px
            start = (text.xyann[0] + dx, text.xyann[1] + dy)  # the number, seen from the game
            ax.annotate("", ax.transData.inverted().transform(points[i]), xytext=start,
                        textcoords="offset points", arrowprops=leader,
                        gid="ring-leader")  # fmt: skip


def _line_points(lines: Sequence[Any]) -> Any:
    """The display points of ``lines`` (an N × 2 array), to keep labels off the data."""
    np = importlib.import_module("numpy")
    arrays = [line.get_transform().transform(line.get_xydata()) for line in lines]
    arrays = [a[~np.isnan(a).any(axis=1)] for a in arrays]
    return np.concatenate(arrays) if arrays else np.empty((0, 2))
