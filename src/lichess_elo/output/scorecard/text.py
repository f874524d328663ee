"""``report --view accuracy`` as text: the scorecard's tables, the verdict and the notes.

An edge module (it words and lays out, no maths); the JSON and CSV of the same scorecard
are in ``output.scorecard.records``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from lichess_elo.core.contenders import by_key
from lichess_elo.core.report.predictions import ContenderScore, KFit, PerfAccuracy
from lichess_elo.output.common import plural
from lichess_elo.output.scorecard.records import percent_text, verdict_text
from lichess_elo.output.scorecard.words import headline, k_summary, legend
from lichess_elo.output.tables import Column, Table, render_table, wrap_words

if TYPE_CHECKING:
    from lichess_elo.core.report import PerfReport

_CURVE_COLUMNS = 4


def left_out_text(left_out: int) -> str:
    """The games no contender could predict, in one line."""
    return (
        f"{plural(left_out, 'game')} left out of every contender alike "
        "(an AI opponent or a rating missing)."
    )


def _f(value: float | None, places: int = 3) -> str:
    return "-" if value is None else f"{value:.{places}f}"


def scores_table(card: PerfAccuracy, perf: str) -> Table:
    """Each contender's scores: deviance, log-loss, Brier, correct, mean expectation."""
    names = ("Deviance", "Log-loss", "Brier", "Correct", "E mean", "Score")
    rows = [
        (
            c.contender.label,
            _f(c.scores.deviance),
            _f(c.scores.log_loss),
            _f(c.scores.brier),
            percent_text(c.scores.correct),
            _f(c.scores.mean_expected, 2),
            _f(c.scores.mean_actual, 2),
        )
        for c in card.contenders
    ]
    return Table(
        [Column("Contender", "left"), *(Column(n) for n in names)],
        rows,
        title=f"{perf}: how well each rating predicted {plural(card.games, 'game')}",
    )


def pairs_table(card: PerfAccuracy) -> Table:
    """The paired comparisons of the contenders, with their intervals."""
    level = next((m.interval.level for m in card.comparisons if m.interval), 0.95)
    rows = [
        (
            by_key(m.first).label,
            by_key(m.second).label,
            "-" if m.difference is None else f"{m.difference:+.4f}",
            f"{m.interval.low:+.4f} to {m.interval.high:+.4f}" if m.interval else "-",
        )
        for m in card.comparisons
    ]
    columns = [Column("First", "left"), Column("Second", "left"), Column("Diff."),
               Column(f"{percent_text(level, 0)} interval")]  # fmt: skip
    title = "Deviance differences (first minus second; below zero: first better)"
    return Table(columns, rows, title=title)


#: Contenders per calibration table: four columns of bands fit 80 columns.
_CALIBRATION_GROUP = 4


def calibration_tables(card: PerfAccuracy) -> list[Table]:
    """The calibration table, split so that each fits 80 columns (four contenders each)."""
    n = _CALIBRATION_GROUP
    groups = [card.contenders[i : i + n] for i in range(0, len(card.contenders), n)]
    return [calibration_table(group, first=i == 0) for i, group in enumerate(groups)]


def calibration_table(contenders: Sequence[ContenderScore], *, first: bool = True) -> Table:
    """Expected against scored by band of expectation, for ``contenders``."""
    rows = []
    for row in zip(*(c.calibration for c in contenders), strict=True):
        if not any(b.games for b in row):
            continue
        cells = [
            f"{b.games} {b.mean_expected:.2f}→{b.mean_actual:.2f}"
            if b.games and b.mean_expected is not None and b.mean_actual is not None
            else ""
            for b in row
        ]
        rows.append((f"{row[0].low:.1f}–{row[0].high:.1f}", *cells))
    columns = [Column("Band", "left"), *(Column(c.contender.short) for c in contenders)]
    title = "Calibration: games, mean expected → actual score, by expected band"
    if not first:
        title = f"Calibration, continued: {' and '.join(c.contender.label for c in contenders)}"
    return Table(columns, rows, title=title)


def curve_table(fit: KFit) -> Table:
    """The deviance of each K scanned by ``--fit-k``, in columns."""
    per_column = -(-len(fit.curve) // _CURVE_COLUMNS)
    rows = []
    for i in range(per_column):
        cells: list[str] = []
        for j in range(_CURVE_COLUMNS):
            index = j * per_column + i
            if index < len(fit.curve):
                p = fit.curve[index]
                star = "*" if fit.resolved and p.k == fit.best.k else ""
                cells += [f"{p.k}{star}", f"{p.deviance:.4f}"]
            else:
                cells += ["", ""]
        rows.append(cells)
    title = "K scan: the FIDE-rules track's deviance with K fixed (shadow track)"
    return Table([Column("K"), Column("Deviance")] * _CURVE_COLUMNS, rows, title=title)


def k_notes(fit: KFit) -> list[str]:
    """Why parts of the K curve are flat: the 700 rule, or nothing for K to act on."""
    notes = []
    if fit.limits:
        caps = ", ".join(f"{x.k_max} in {x.period} ({plural(x.games, 'game')})" for x in fit.limits)
        notes.append(f"FIDE's 700 rule (K × games ≤ 700) caps K at {caps}.")
    if fit.flat:
        notes.append(
            "Every K gives the same predictions: K only moves the rating between periods, "
            "and here it has no later period to act on."
        )
    return notes


def accuracy_lines(
    reports: Sequence[PerfReport],
    cards: Mapping[str, PerfAccuracy],
    user: str,
    width: int | None,
) -> list[str]:
    """Every perf's scorecard (scores, verdict, pairs, calibration, K scan) as lines of at
    most ``width`` cells (``None``: no limit), in the one table style."""
    lines: list[str] = []
    for report in reports:
        card = cards.get(report.perf)
        if report.message or card is None:
            continue
        said = headline(card.verdict, user, report.perf)
        lines += [*wrap_words(said, width), ""] if said else []
        lines += render_table(scores_table(card, report.perf), width)
        if card.left_out:
            said = left_out_text(card.left_out)
            lines += ["", *wrap_words(said, width)]
        lines += ["", *wrap_words(verdict_text(card.verdict, user, report.perf), width), ""]
        lines += [*render_table(pairs_table(card), width), ""]
        for calibration in calibration_tables(card):
            lines += [*render_table(calibration, width), ""]
        if card.fit is not None:
            lines += render_table(curve_table(card.fit), width)
            for line in (k_summary(card.fit), *k_notes(card.fit)):
                lines += wrap_words(line, width, "  ")
            lines.append("")
    if any(report.perf in cards and not report.message for report in reports):
        fit = any(card.fit is not None for card in cards.values())
        for item in legend(fit):
            lines += wrap_words(item, width, "    ")
    return lines


def accuracy_text(
    reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy], user: str, width: int | None
) -> str:
    """The scorecard as text for stdout (``width``: the terminal's) or a file (``None``)."""
    return "".join(f"{line}\n" for line in accuracy_lines(reports, cards, user, width))
