"""The scorecard's chart (``report --view accuracy --chart``): an edge that writes a file.

One row per perf with games: on the left the calibration of each rating-based contender
(mean actual against mean expected score per expectation band, the marker's area growing
with the band's games, the diagonal being perfect calibration); on the right, with
``--fit-k``, the FIDE-rules track's deviance for K from 5 to 60, the lowest K marked
(called the best only when clear of the noise) and the rules' own deviance as a dashed
line. matplotlib comes from ``output.charts`` (lazily, Agg).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lichess_elo.core.report.predictions import KFit, PerfAccuracy
from lichess_elo.output.accuracy import k_notes
from lichess_elo.output.charts import figure
from lichess_elo.output.common import plural

if TYPE_CHECKING:
    from lichess_elo.core.report import PerfReport

_COLOURS = {"lichess": "#1f6fb4", "fide": "#d9480f", "elo_on_lichess": "#2b8a3e",
            "glicko1": "#7048e8", "stephenson": "#c2255c"}  # fmt: skip


def _calibration_panel(ax: Any, card: PerfAccuracy, title: str) -> None:
    ax.plot([0, 1], [0, 1], color="#adb5bd", linewidth=1, label="perfect calibration")
    for c in card.contenders:
        colour = _COLOURS.get(c.contender.key)
        if colour is None:  # the score-rate baseline has no rating to calibrate
            continue
        bands = [b for b in c.calibration if b.games]
        xs = [b.mean_expected for b in bands]
        ys = [b.mean_actual for b in bands]
        sizes = [12 + 4 * b.games for b in bands]
        deviance = c.scores.deviance or 0.0
        ax.plot(xs, ys, color=colour, linewidth=1, alpha=0.6)
        ax.scatter(
            xs, ys, s=sizes, color=colour, alpha=0.75,
            label=f"{c.contender.label} (deviance {deviance:.3f})",
        )  # fmt: skip
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("mean expected score in the band (bands of 0.1)")
    ax.set_ylabel("mean actual score")
    ax.set_title(title, loc="left", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8, frameon=False)


def _k_panel(ax: Any, fit: KFit) -> None:
    ks = [p.k for p in fit.curve]
    ax.plot(ks, [p.deviance for p in fit.curve], color=_COLOURS["fide"], linewidth=1.5)
    ax.axhline(
        fit.rules_deviance, color="#495057", linestyle="--", linewidth=1,
        label=f"the rules (K {', '.join(map(str, fit.rules_k))}): {fit.rules_deviance:.4f}",
    )  # fmt: skip
    ax.scatter(
        [fit.best.k], [fit.best.deviance], color=_COLOURS["fide"], zorder=3,
        label=f"{'best' if fit.resolved else 'lowest, no best'} K {fit.best.k}: "
        f"{fit.best.deviance:.4f}",
    )  # fmt: skip
    ax.set_xlabel("K (fixed for every period)")
    ax.set_ylabel("binomial deviance (lower is better)")
    ax.set_title("FIDE rules, shadow track: deviance by K", loc="left", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8, frameon=False)
    notes = k_notes(fit)
    if notes:
        ax.text(
            0.5, -0.24, "\n".join(textwrap.fill(n, 90) for n in notes), transform=ax.transAxes,
            ha="center", va="top", fontsize=7, color="#495057",
        )  # fmt: skip


def write_accuracy_chart(
    reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy], path: Path, user: str
) -> Path:
    """Draw the calibration (and the K curve when scanned) of every perf with games.

    Raises:
        BadInput: the path's suffix is not ``.png`` or ``.svg``.
        WriteFailed: the file could not be written.
    """
    shown = [(r, cards[r.perf]) for r in reports if r.games and r.perf in cards]
    columns = 2 if any(card.fit is not None for _, card in shown) else 1
    rows = max(1, len(shown))
    size = (6.4 * columns, 5.8 * rows)
    with figure(path, rows, columns, figsize=size, squeeze=False) as (_, axes):
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
    return path
