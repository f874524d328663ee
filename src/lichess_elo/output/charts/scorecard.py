"""The scorecard's chart (``report --view accuracy --chart``): an edge that writes a file.

One row per perf with games: on the left the calibration of each rating-based contender
(mean actual against mean expected score per expectation band, the marker's area growing
with the band's games, the diagonal being perfect calibration; a marker that would fall on
an earlier contender's is drawn just right of it, never on top); on the right, with
``--fit-k``, the FIDE-rules track's deviance for K from 5 to 60, the lowest K marked
(called the best only when clear of the noise) and the rules' own deviance as a dashed
line. matplotlib comes from ``output.charts.figure`` (lazily, Agg).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lichess_elo.core.contenders import FIDE
from lichess_elo.core.report.predictions import KFit, PerfAccuracy
from lichess_elo.output.charts.figure import check_chart_path, pyplot, save
from lichess_elo.output.common import plural
from lichess_elo.output.scorecard.text import k_notes

if TYPE_CHECKING:
    from lichess_elo.core.report import PerfReport

#: The K curve's colour: the FIDE rules' own (each contender's colour, marker and dash are
#: its entry's, ``core.contenders``).
_FIDE = FIDE.colour
#: The calibration axes' size in points (about: 6.4 x 5.8 inches a panel less its labels):
#: a marker's size in points read on the 0-1 axes.
_AXES_POINTS = (400.0, 290.0)
#: Two markers whose centres are closer than this share of their mean diameter would be
#: drawn at the same point; the later one is moved right until they are this far apart.
SAME_POINT = 0.6


def _marker_points(size: float) -> float:
    """A scatter marker's diameter in points (``s`` is its area in points squared)."""
    return math.sqrt(size)


def dodge(
    points: Sequence[tuple[float, float]],
    sizes: Sequence[float],
    placed: list[tuple[float, float, float]],
) -> list[float]:
    """The x of each of a contender's points, moved right of any earlier contender's marker
    it would otherwise overprint (``placed``: the earlier markers as x, y, diameter in
    points; this contender's are added to it). A point is moved just far enough for the
    two centres to be ``SAME_POINT`` of their mean diameter apart, again while it meets
    another; the heights never move."""
    width, height = _AXES_POINTS
    xs = []
    for (x, y), size in zip(points, sizes, strict=True):
        d = _marker_points(size)
        px, py = x * width, y * height
        moved = True
        while moved:
            moved = False
            for qx, qy, qd in placed:
                apart = SAME_POINT * (d + qd) / 2
                if abs(px - qx) < apart - 1e-6 and abs(py - qy) < apart - 1e-6:
                    px = qx + apart  # strictly right: the loop ends (at most once each)
                    moved = True
        placed.append((px, py, d))
        xs.append(px / width)
    return xs


def _calibration_panel(ax: Any, card: PerfAccuracy, title: str) -> None:
    ax.plot([0, 1], [0, 1], color="#adb5bd", linewidth=1, label="perfect calibration")
    drawn: list[tuple[str, list[tuple[float, float]]]] = []  # (label, points) so far
    placed: list[tuple[float, float, float]] = []  # every marker so far, in points
    for c in card.contenders:
        colour = c.contender.colour
        if colour is None:  # no rating to calibrate (the score-rate baseline)
            continue
        marker, dash = c.contender.mark
        bands = [b for b in c.calibration if b.games]
        points = [(b.mean_expected or 0.0, b.mean_actual or 0.0) for b in bands]
        same = [label for label, earlier in drawn if earlier == points]
        sizes = [12 + 4 * b.games for b in bands]
        xs = dodge(points, sizes, placed)
        ys = [y for _, y in points]
        deviance = c.scores.deviance or 0.0
        label = f"{c.contender.label} (deviance {deviance:.3f})"
        if same:
            label += f"\n  same points as {same[0]} (drawn just right of it)"
        ax.plot(xs, ys, color=colour, linewidth=1.2, alpha=0.8, linestyle=dash)
        ax.scatter(
            xs, ys, s=sizes, marker=marker, facecolors="none", edgecolors=colour,
            linewidths=1.4, alpha=0.9, label=label, gid=f"calibration-{c.contender.key}",
        )  # fmt: skip
        drawn.append((c.contender.label, points))
    most = max((x / _AXES_POINTS[0] for x, _, _ in placed), default=1.0)
    ax.set_xlim(0, max(1.0, most + 0.02))  # a marker moved past 1 stays in sight
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("mean expected score in the band (bands of 0.1)")
    ax.set_ylabel("mean actual score")
    ax.set_title(title, loc="left", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8, frameon=False)


def _k_panel(ax: Any, fit: KFit) -> None:
    ks = [p.k for p in fit.curve]
    ax.plot(ks, [p.deviance for p in fit.curve], color=_FIDE, linewidth=1.5)
    ax.axhline(
        fit.rules_deviance, color="#495057", linestyle="--", linewidth=1,
        label=f"the rules (K {', '.join(map(str, fit.rules_k))}): {fit.rules_deviance:.4f}",
    )  # fmt: skip
    # Called the best only when KFit.resolved: clear of the noise on both sides (not at the
    # edge of the scan, not within the noise); otherwise a hollow mark that says why not.
    words = (
        f"best K {fit.best.k}: {fit.best.deviance:.4f}"
        if fit.resolved
        else f"every K gives {fit.best.deviance:.4f}: no best K"
        if fit.flat
        else f"lowest K {fit.best.k}: {fit.best.deviance:.4f} "
        f"({'at the edge of the scan' if fit.at_edge else 'within the noise'}: no best K)"
    )
    ax.scatter(
        [fit.best.k], [fit.best.deviance], s=60 if fit.resolved else 80, zorder=3,
        facecolors=_FIDE if fit.resolved else "none", edgecolors=_FIDE,
        linewidths=1.6, label=words, gid="best-k" if fit.resolved else "lowest-k",
    )  # fmt: skip
    ax.set_xlabel("K (fixed for every period)")
    ax.set_ylabel("binomial deviance (lower is better)")
    ax.set_title("FIDE rules, shadow track: deviance by K", loc="left", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=1, fontsize=8, frameon=False)
    notes = k_notes(fit)
    if notes:
        ax.text(
            0.5, -0.28, "\n".join(textwrap.fill(n, 90) for n in notes), transform=ax.transAxes,
            ha="center", va="top", fontsize=7, color="#495057",
        )  # fmt: skip


def draw_accuracy_chart(
    reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy], user: str
) -> Any:
    """The calibration (and the K curve when scanned) of every perf with games, as a
    matplotlib figure (close it with ``pyplot().close``)."""
    plt = pyplot()
    shown = [(r, cards[r.perf]) for r in reports if r.games and r.perf in cards]
    columns = 2 if any(card.fit is not None for _, card in shown) else 1
    rows = max(1, len(shown))
    size = (6.4 * columns, 5.8 * rows)
    fig, axes = plt.subplots(rows, columns, figsize=size, squeeze=False)
    try:
        if not shown:
            axes[0][0].text(0.5, 0.5, "no counted games", ha="center", va="center")
            axes[0][0].set_axis_off()
        for row, (report, card) in zip(axes, shown, strict=False):
            title = f"{user} · {report.perf}: calibration over {plural(card.games, 'game')}"
            _calibration_panel(row[0], card, title)
            if columns == 2:
                if card.fit is not None:
                    _k_panel(row[1], card.fit)
                else:
                    row[1].set_axis_off()
        fig.tight_layout()
    except BaseException:
        plt.close(fig)
        raise
    return fig


def write_accuracy_chart(
    reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy], path: Path, user: str
) -> Path:
    """Draw the calibration (and the K curve when scanned) of every perf with games and
    write it to ``path`` (PNG or SVG, atomically).

    Raises:
        BadInput: the path's suffix is not ``.png`` or ``.svg``.
        WriteFailed: the file could not be written.
    """
    check_chart_path(path)
    save(draw_accuracy_chart(reports, cards, user), path)
    return path
