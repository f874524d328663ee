"""``db compare --chart``: mean Elo - Lichess by Lichess band over the months, one panel
per perf. Months are real dates in order (not text labels in order of first appearance),
each band has its own colour and marker up to 12 bands, the same in every panel (a band is
one colour across the perfs, its legend lists every band drawn), and every line ends with
its name. Beside each perf's panel, when its months were scored, the binomial deviance of
FIDE rules, Lichess Glicko-2, Glicko-1 and Stephenson's rating month by month (lower is
better).

The two panels' months are not the same kind: a band's point is a *list month* (the list
published on its first day, before its games), a deviance's a *game month* (the games
played in it, predicted from the lists at its start). The axes say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lichess_elo.core.population.rows import CompareResult

#: Twelve colours told apart on screen and on paper (matplotlib's tab10, then black and a
#: dark gold); beyond twelve the colours come round again with another marker.
SERIES_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#b8860b",
)  # fmt: skip
_MARKERS = ("o", "s", "^", "D")
#: A band's line needs this many players on a list for that month's point.
MIN_PLAYERS = 5
#: The x axes' labels: what a month is on each panel.
LIST_MONTHS = "list month (the list published on its 1st, before its games)"
GAME_MONTHS = "game month (its games, predicted from the lists at its start)"


def series_style(i: int) -> tuple[str, str]:
    """The colour and marker of the ``i``-th series (0-based): 12 distinct colours, then
    the colours again with the next marker."""
    return SERIES_COLOURS[i % len(SERIES_COLOURS)], _MARKERS[(i // len(SERIES_COLOURS)) % 4]


def band_styles(result: CompareResult) -> dict[int, tuple[str, str]]:
    """The colour and marker of every band drawn in any perf's panel (``series_style`` in
    order of band, lowest first), so a band looks the same in every panel."""
    drawn = sorted({b.band for b in result.bands if b.players >= MIN_PLAYERS})
    return {band: series_style(i) for i, band in enumerate(drawn)}


def band_lines(result: CompareResult, perf: str) -> list[tuple[int, list[date], list[float]]]:
    """Each band of ``perf`` (lowest first) with its months as dates, in order, and its
    mean Elo - Lichess; a month with fewer than ``MIN_PLAYERS`` players is left out."""
    rows = [b for b in result.bands if b.perf == perf and b.players >= MIN_PLAYERS]
    lines = []
    for band in sorted({b.band for b in rows}):
        points = sorted((b.month, b.mean) for b in rows if b.band == band)
        days = [date(m // 100, m % 100, 1) for m, _ in points]
        lines.append((band, days, [mean for _, mean in points]))
    return lines


def score_lines(result: CompareResult, perf: str) -> list[tuple[str, list[date], list[float]]]:
    """Each system of the scorecard (``scorecard.systems()`` order) with the months of ``perf``
    as dates, in order, and its deviance on each month's games (months without one left
    out)."""
    from lichess_elo.core.population.scorecard import systems

    scores = sorted((s for s in result.scores if s.perf == perf), key=lambda s: s.month)
    lines = []
    for system in systems():
        key, label = system.key, system.label
        points = []
        for s in scores:
            card = {"fide": s.fide, "lichess": s.lichess}.get(key) or s.rivals.get(key)
            if card is not None and card.deviance is not None:
                points.append((date(s.month // 100, s.month % 100, 1), card.deviance))
        if points:
            lines.append((label, [d for d, _ in points], [v for _, v in points]))
    return lines


def spread(values: Sequence[float], gap: float) -> list[float]:
    """``values`` moved apart as little as possible upwards so that neighbours are at least
    ``gap`` apart (where the end labels go, so that no two overprint)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    placed = [0.0] * len(values)
    last = float("-inf")
    for i in order:
        last = max(values[i], last + gap)
        placed[i] = last
    return placed


def write_compare_chart(result: CompareResult, path: Path) -> Path:
    """Mean Elo - Lichess by band over the months, one panel per perf (PNG or SVG).

    Raises:
        BadInput: the path cannot take a chart; WriteFailed: it could not be written.
    """
    import importlib

    from lichess_elo.output.charts.figure import figure

    mdates: Any = importlib.import_module("matplotlib.dates")

    perfs = [p for p in result.perfs if any(b.perf == p for b in result.bands)] or ["-"]
    scored = any(score_lines(result, p) for p in perfs)
    columns, width = (2, 18) if scored else (1, 11)
    with figure(path, len(perfs), columns, figsize=(width, 4.2 * len(perfs)), squeeze=False) as (
        _,
        axes,
    ):
        if scored:
            for ax, perf in zip((row[1] for row in axes), perfs, strict=True):
                _score_panel(ax, mdates, perf, score_lines(result, perf))
        styles = band_styles(result)
        for ax, perf in zip((row[0] for row in axes), perfs, strict=True):
            lines = band_lines(result, perf)
            for band, days, means in lines:
                colour, marker = styles[band]
                ax.plot(days, means, color=colour, marker=marker, label=f"{band}+")
            ax.axhline(0, color="grey", linewidth=0.8)
            ax.set_title(f"{perf}: mean FIDE-rules Elo - Lichess rating, by Lichess band")
            ax.set_ylabel("Elo - Lichess")
            ax.set_xlabel(LIST_MONTHS)
            if not lines:
                continue
            ax.xaxis.set_major_locator(mdates.AutoDateLocator(minticks=2, maxticks=12))
            ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m"))
            first = min(days[0] for _, days, _ in lines)
            last = max(days[-1] for _, days, _ in lines)
            pad = max((last - first).days * 0.04, 10)
            ax.set_xlim(mdates.date2num(first) - pad, mdates.date2num(last) + pad)
            low, high = ax.get_ylim()
            ends = spread([means[-1] for _, _, means in lines], (high - low) / 28)
            for (band, days, _), y in zip(lines, ends, strict=True):
                ax.annotate(
                    f"{band}+", xy=(mdates.date2num(days[-1]), y), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize="small",
                    color=styles[band][0], annotation_clip=False,
                )  # fmt: skip
            ax.legend(
                fontsize="small", title="Lichess band\n(one colour in\nevery panel)",
                loc="center left", bbox_to_anchor=(1.06, 0.5),
            )  # fmt: skip
    return path


def _score_panel(
    ax: Any, mdates: Any, perf: str, lines: list[tuple[str, list[date], list[float]]]
) -> None:
    """One perf's deviance by month for every system of the scorecard."""
    for i, (label, days, values) in enumerate(lines):
        colour, marker = series_style(i)
        ax.plot(days, values, color=colour, marker=marker, markersize=3, label=label)
    ax.set_title(f"{perf}: binomial deviance of each month's games (lower is better)")
    ax.set_ylabel("deviance")
    ax.set_xlabel(GAME_MONTHS)
    if not lines:
        ax.set_axis_off()
        return
    ax.xaxis.set_major_locator(mdates.AutoDateLocator(minticks=2, maxticks=12))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m"))
    ax.legend(fontsize="small", loc="best")
