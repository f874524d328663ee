"""``report --view accuracy`` output: the scorecard's tables, CSV rows, JSON block and verdict.

An edge module (it words and formats, no maths): the numbers come from
``core.report.predictions.score_perf`` and ``core.accuracy``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lichess_elo.core import accuracy
from lichess_elo.core.accuracy import Outcome, Scores, Verdict
from lichess_elo.core.report import rivals
from lichess_elo.core.report.predictions import (
    CONTENDERS,
    FIRST_GAME_RATE,
    LEFT_OUT_REASONS,
    OPPONENT_RD_ESTABLISHED,
    OPPONENT_RD_PROVISIONAL,
    ContenderScore,
    KFit,
    PerfAccuracy,
)
from lichess_elo.output.accuracy_words import headline, k_summary, legend
from lichess_elo.output.common import plural, write_csv
from lichess_elo.output.tables import Column, Table, render_table, wrap_words

if TYPE_CHECKING:
    from lichess_elo.core.report import PerfReport

#: How the verdict names each contender.
_SUBJECT = {
    "lichess": "Lichess's rating",
    "fide": "the FIDE-rules rating",
    "elo_on_lichess": "Elo on Lichess's ratings",
    "score_rate": "the score rate so far",
    "glicko1": "Glicko-1",
    "stephenson": "Stephenson's rating",
}
_LABEL = {c.key: c.label for c in CONTENDERS}
#: Narrow column headings for the calibration table (80 columns).
_SHORT = {"lichess": "Lichess", "fide": "FIDE rules", "elo_on_lichess": "Elo/Lichess",
          "score_rate": "Score rate", "glicko1": "Glicko-1",
          "stephenson": "Stephenson"}  # fmt: skip
_CURVE_COLUMNS = 4

ACCURACY_FIELDS = (
    "perf", "contender", "games", "deviance", "log_loss", "brier", "correct",
    "mean_expected", "mean_actual", "vs_lichess", "vs_lichess_low", "vs_lichess_high",
)  # fmt: skip
"""CSV columns: one row per perf and contender; ``vs_lichess*`` = its deviance minus
Lichess's, with the bootstrap interval."""


def _round(value: float | None, places: int = 6) -> float | None:
    return None if value is None else round(value, places)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def verdict_text(v: Verdict, user: str, perf: str) -> str:
    """The one-line verdict, e.g. "Lichess's rating predicted X's 130 blitz games better: ..."."""
    if v.outcome is Outcome.NO_GAMES:
        return f"No {perf} games to score."
    better, worse = _SUBJECT[v.better], _SUBJECT[v.worse]
    games = plural(v.games, f"{perf} game")
    if v.outcome is Outcome.CLEAR:
        return (
            f"{_capital(better)} predicted {user}'s {games} better: deviance "
            f"{v.better_deviance:.3f} vs {v.worse_deviance:.3f} (difference {v.margin:.3f}, "
            f"{_percent(v.level, 0)} interval {v.low:.3f} to {v.high:.3f})."
        )
    both = (
        f"deviance {v.better_deviance:.3f} for {better} vs {v.worse_deviance:.3f} for {worse} "
        f"(difference {v.margin:.3f}"
    )
    if v.outcome is Outcome.TOO_FEW_GAMES:
        return f"Too few games for a verdict ({games}): {both}, no interval)."
    return (
        f"No clear winner over {games}: {both}, "
        f"{_percent(v.level, 0)} interval {v.low:.3f} to {v.high:.3f})."
    )


def _percent(share: float | None, places: int = 1) -> str:
    """``0.554`` as ``55.4 %`` (a space before the sign); ``-`` for ``None``."""
    return "-" if share is None else f"{share * 100:.{places}f} %"


def _fit_json(fit: KFit) -> dict[str, Any]:
    return {
        "track": "shadow",
        "best_k": fit.best.k,
        "best_k_resolved": fit.resolved,
        "best_deviance": _round(fit.best.deviance),
        "rules_k": list(fit.rules_k),
        "rules_deviance": _round(fit.rules_deviance),
        "k_limited": [{"period": x.period, "games": x.games, "k_max": x.k_max} for x in fit.limits],
        "curve": [{"k": p.k, "deviance": _round(p.deviance)} for p in fit.curve],
    }


def _scores_json(s: Scores) -> dict[str, float | None]:
    """The scores as JSON/CSV numbers, rounded to 6 decimals."""
    return {
        "deviance": _round(s.deviance),
        "log_loss": _round(s.log_loss),
        "brier": _round(s.brier),
        "correct": _round(s.correct),
        "mean_expected": _round(s.mean_expected),
        "mean_actual": _round(s.mean_actual),
    }


_START = (
    "the player's Lichess rating before the perf's first counted game, with the RD the "
    "opponents' rule gives it (established or provisional)"
)
_RIVAL_SOURCES = {
    "glicko1": (
        "Glickman, 'Parameter estimation in large dynamic paired comparison experiments', "
        "Applied Statistics 48 (1999); c by the rule of Glickman's 'The Glicko system': an "
        "RD of 50 returns to 350 after 100 periods, c = sqrt((350^2 - 50^2) / 100)"
    ),
    "stephenson": (
        "PlayerRatings (R) steph() defaults cval=10, hval=10, bval=0, lambda=2, gamma=0, "
        "rdmax=350, and predict()'s gamma=30 (Stephenson & Sonas, Deloitte/FIDE Chess "
        "Rating Challenge, 2012)"
    ),
}


def rivals_json() -> dict[str, dict[str, Any]]:
    """The constants of Glicko-1 and Stephenson's rating, with their source (JSON)."""
    out = {}
    for r in (rivals.GLICKO1, rivals.STEPHENSON):
        out[r.key] = {
            "period": "calendar month (UTC)",
            "c": _round(r.c),
            "h": r.h,
            "bonus": r.bonus,
            "neighbourhood": r.neighbourhood,
            "white_advantage": r.white_advantage,
            "white_advantage_applies_to": "standard" if r.white_advantage else None,
            "rd_max": r.rd_max,
            "start": _START,
            "source": _RIVAL_SOURCES[r.key],
        }
    return out


def accuracy_json(card: PerfAccuracy, user: str, perf: str) -> dict[str, Any]:
    """The report JSON's ``accuracy`` block of one perf (``docs/scorecard.md``)."""
    contenders = []
    for c in card.contenders:
        s = c.scores
        contenders.append(
            {
                "key": c.contender.key,
                "label": c.contender.label,
                **_scores_json(s),
                "calibration": [
                    {
                        "low": b.low,
                        "high": b.high,
                        "games": b.games,
                        "mean_expected": _round(b.mean_expected),
                        "mean_actual": _round(b.mean_actual),
                    }
                    for b in c.calibration
                ],
            }
        )
    comparisons = [
        {
            "first": m.first,
            "second": m.second,
            "first_deviance": _round(m.first_deviance),
            "second_deviance": _round(m.second_deviance),
            "difference": _round(m.difference),
            "low": _round(m.interval.low) if m.interval else None,
            "high": _round(m.interval.high) if m.interval else None,
            "level": m.interval.level if m.interval else None,
            "resamples": m.interval.resamples if m.interval else None,
            "seed": m.interval.seed if m.interval else None,
        }
        for m in card.comparisons
    ]
    v = card.verdict
    return {
        "games": card.games,
        "left_out": card.left_out,
        "left_out_reasons": list(LEFT_OUT_REASONS),
        "contenders": contenders,
        "comparisons": comparisons,
        "verdict": {
            "outcome": v.outcome.value,
            "better": v.better,
            "worse": v.worse,
            "better_deviance": _round(v.better_deviance),
            "worse_deviance": _round(v.worse_deviance),
            "margin": _round(v.margin),
            "low": _round(v.low),
            "high": _round(v.high),
            "level": v.level,
            "text": verdict_text(v, user, perf),
        },
        "assumptions": {
            "deviance_clamp": [accuracy.CLAMP_LOW, accuracy.CLAMP_HIGH],
            "opponent_rd_established": OPPONENT_RD_ESTABLISHED,
            "opponent_rd_provisional": OPPONENT_RD_PROVISIONAL,
            "first_game_rate": FIRST_GAME_RATE,
            **rivals_json(),
        },
        "fit_k": _fit_json(card.fit) if card.fit is not None else None,
    }


def accuracy_csv(reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy]) -> str:
    """CSV, one row per perf and contender (columns ``ACCURACY_FIELDS``)."""
    rows: list[dict[str, Any]] = []
    for report in reports:
        card = cards.get(report.perf)
        if card is None:
            continue
        against = {m.second: m for m in card.comparisons if m.first == "lichess"}
        for c in card.contenders:
            s = c.scores
            m = against.get(c.contender.key)
            rows.append(
                {
                    "perf": report.perf,
                    "contender": c.contender.key,
                    "games": s.games,
                    **_scores_json(s),
                    # Lichess minus it in the comparison; the column is it minus Lichess
                    "vs_lichess": _round(-m.difference) if m and m.difference is not None else None,
                    "vs_lichess_low": _round(-m.interval.high) if m and m.interval else None,
                    "vs_lichess_high": _round(-m.interval.low) if m and m.interval else None,
                }
            )
    return write_csv(rows, ACCURACY_FIELDS)


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
            _percent(c.scores.correct),
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
            _LABEL[m.first],
            _LABEL[m.second],
            "-" if m.difference is None else f"{m.difference:+.4f}",
            f"{m.interval.low:+.4f} to {m.interval.high:+.4f}" if m.interval else "-",
        )
        for m in card.comparisons
    ]
    columns = [Column("First", "left"), Column("Second", "left"), Column("Diff."),
               Column(f"{_percent(level, 0)} interval")]  # fmt: skip
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
    columns = [Column("Band", "left"), *(Column(_SHORT[c.contender.key]) for c in contenders)]
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
        caps = ", ".join(f"{x.k_max} in {x.period} ({x.games} games)" for x in fit.limits)
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
