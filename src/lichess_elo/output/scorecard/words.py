"""The scorecard's headline and legend (``report --view accuracy``), in plain words.

An edge module: it words what ``core.accuracy`` and ``core.report.predictions`` found.
"""

from __future__ import annotations

from lichess_elo.core.accuracy import Outcome, Verdict
from lichess_elo.core.contenders import FIDE, LICHESS, by_key
from lichess_elo.core.report.predictions import KFit
from lichess_elo.output.common import plural

SCORE_LEGEND = (
    ("Contender", "the rating (or rule) whose expected scores are tested"),
    ("Deviance", "mean binomial deviance (log10) of its expected scores; lower is better"),
    ("Log-loss", "the same in natural logarithms (deviance × ln 10)"),
    ("Brier", "mean squared gap between expected and actual score; lower is better"),
    ("Correct", "share of games where it expected the winner (a draw counts half)"),
    ("E mean", "the player's mean expected score"),
    ("Score", "the player's mean actual score (equal for every contender)"),
    ("Diff., interval", "first's deviance minus second's and its bootstrap interval; "
     "an interval that includes 0 names no winner"),
    ("Calibration", "games in the band of expected score, their mean expected → actual "
     "score; a calibrated rating has the two close"),
)  # fmt: skip
K_LEGEND = (
    "K scan: the deviance of the FIDE-rules track at each fixed K; * marks the best K, named "
    "only when the deviance rises beyond noise (2 standard errors of the paired difference) on "
    "both sides of it"
)


def headline(v: Verdict, user: str, perf: str) -> str | None:
    """One sentence on FIDE's rules against Lichess's rating; ``None`` with no games."""
    if v.outcome is Outcome.NO_GAMES:
        return None
    games = plural(v.games, f"{perf} game")
    if v.outcome is Outcome.CLEAR:
        better = by_key(v.better).headline
        worse = by_key(v.worse).headline
        return f"On {user}'s {games}, {better} predicted the results better than {worse}."
    return (
        f"{user}'s {games} {'is' if v.games == 1 else 'are'} too few to tell whether "
        f"{FIDE.headline} or {LICHESS.headline} predicts the results better."
    )


def legend(fit: bool) -> list[str]:
    """The legend lines of the scorecard (with the K scan's when ``fit``)."""
    lines = ["Legend:", *(f"  {name}: {text}" for name, text in SCORE_LEGEND)]
    if fit:
        lines.append(f"  {K_LEGEND}")
    return lines


def k_summary(fit: KFit) -> str:
    """The best K beside the rules' own, in one line; no best K named when the lowest
    point is at the edge of the scan or within the noise."""
    rules = (
        f"the rules gave K {', '.join(map(str, fit.rules_k))} (deviance {fit.rules_deviance:.4f})."
    )
    if fit.resolved:
        return f"Best K {fit.best.k} (deviance {fit.best.deviance:.4f}); {rules}"
    where = (
        "is at the edge of the scan"
        if fit.at_edge
        else "does not stand out of the noise on both sides"
    )
    return (
        f"No best K: the lowest deviance (K {fit.best.k}, {fit.best.deviance:.4f}) {where}; {rules}"
    )
