"""``report --view accuracy`` output for programs: the scorecard's JSON block and CSV rows,
and the one-line verdict they share with the text (``output.scorecard.text``).

An edge module (it words and formats, no maths): the numbers come from
``core.report.predictions.score_perf`` and ``core.accuracy``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lichess_elo.core import accuracy
from lichess_elo.core.accuracy import Outcome, Scores, Verdict
from lichess_elo.core.contenders import by_key, contenders
from lichess_elo.core.report.predictions import (
    FIRST_GAME_RATE,
    LEFT_OUT_REASONS,
    OPPONENT_RD_ESTABLISHED,
    OPPONENT_RD_PROVISIONAL,
    KFit,
    PerfAccuracy,
)
from lichess_elo.output.common import plural, write_csv

if TYPE_CHECKING:
    from lichess_elo.core.report import PerfReport

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
    better, worse = by_key(v.better).subject, by_key(v.worse).subject
    games = plural(v.games, f"{perf} game")
    if v.outcome is Outcome.CLEAR:
        return (
            f"{_capital(better)} predicted {user}'s {games} better: deviance "
            f"{v.better_deviance:.3f} vs {v.worse_deviance:.3f} (difference {v.margin:.3f}, "
            f"{percent_text(v.level, 0)} interval {v.low:.3f} to {v.high:.3f})."
        )
    both = (
        f"deviance {v.better_deviance:.3f} for {better} vs {v.worse_deviance:.3f} for {worse} "
        f"(difference {v.margin:.3f}"
    )
    if v.outcome is Outcome.TOO_FEW_GAMES:
        return f"Too few games for a verdict ({games}): {both}, no interval)."
    return (
        f"No clear winner over {games}: {both}, "
        f"{percent_text(v.level, 0)} interval {v.low:.3f} to {v.high:.3f})."
    )


def percent_text(share: float | None, places: int = 1) -> str:
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


def rivals_json() -> dict[str, dict[str, Any]]:
    """The constants of every contender with an online track (Glicko-1, Stephenson's
    rating), with their source (JSON)."""
    out = {}
    for c in contenders():
        r = c.track
        if r is None:
            continue
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
            "source": c.source,
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
