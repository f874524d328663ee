"""The scorecard of a perf: every contender's expected score before every counted game,
scored and compared (pure).

The contenders and how each one predicts are declared once, in
:mod:`lichess_elo.core.contenders` (their names are re-exported here). Scores, calibration
and paired bootstraps come from :mod:`lichess_elo.core.accuracy`.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from lichess_elo.core import accuracy, fide
from lichess_elo.core.accuracy import Band, Comparison, FloatArray, Scores, Verdict
from lichess_elo.core.contenders import (
    ELO_ON_LICHESS,
    FIDE,
    FIRST_GAME_RATE,
    GLICKO1,
    LICHESS,
    OPPONENT_RD_ESTABLISHED,
    OPPONENT_RD_PROVISIONAL,
    SCORE_RATE,
    STEPHENSON,
    Contender,
    PerfGames,
    contenders,
    lichess_expectation,
    opponent_deviation,
    rival_predictions,
    score_rates,
)
from lichess_elo.core.report.model import GameRow
from lichess_elo.errors import BadInput

__all__ = [
    "ELO_ON_LICHESS",
    "FIDE",
    "FIRST_GAME_RATE",
    "GLICKO1",
    "K_SCAN",
    "LEFT_OUT_REASONS",
    "LICHESS",
    "NOISE_Z",
    "OPPONENT_RD_ESTABLISHED",
    "OPPONENT_RD_PROVISIONAL",
    "SCORE_RATE",
    "STEPHENSON",
    "Contender",
    "ContenderScore",
    "KFit",
    "KLimit",
    "KPoint",
    "PerfAccuracy",
    "fit_k",
    "lichess_expectation",
    "opponent_deviation",
    "predict",
    "results_of",
    "rival_predictions",
    "score_perf",
    "score_rates",
]

K_SCAN = range(5, 61)
"""The K values ``fit_k`` tries by default: 5 to 60."""
LEFT_OUT_REASONS = ("ai_opponent", "no_rating_change")
"""The report's exclusion reasons of games no contender can predict (an AI opponent, or a
rating missing): left out of every contender alike, and counted."""


@dataclass(frozen=True)
class ContenderScore:
    """One contender's scores and calibration over a perf's counted games."""

    contender: Contender
    scores: Scores
    calibration: tuple[Band, ...]


@dataclass(frozen=True)
class KPoint:
    """The FIDE-rules track's deviance with K fixed at ``k``."""

    k: int
    deviance: float


@dataclass(frozen=True)
class KLimit:
    """A period where FIDE's 700 rule (K x games <= 700) caps K inside the scanned range."""

    period: str
    games: int
    k_max: int


@dataclass(frozen=True)
class KFit:
    """The deviance curve over K, its lowest point and the rules' own K and deviance.

    ``best`` is the lowest deviance (the smallest K on a tie); ``rules_k`` lists the K values
    the FIDE rules gave the player's periods, oldest first, each once; ``limits`` the periods
    where the 700 rule caps the scanned K (a K above ``k_max`` acts as ``k_max`` there).
    ``resolved`` says whether the lowest point stands out of the noise on both sides
    (:func:`fit_k`); when it does not, no K is the best one.
    """

    curve: tuple[KPoint, ...]
    best: KPoint
    rules_k: tuple[int, ...]
    rules_deviance: float
    limits: tuple[KLimit, ...] = ()
    resolved: bool = False

    @property
    def at_edge(self) -> bool:
        """True when the lowest point is the smallest or the largest K scanned."""
        ks = [p.k for p in self.curve]
        return self.best.k in (min(ks), max(ks))

    @property
    def flat(self) -> bool:
        """True when every K gave the same deviance (one period, or every period capped)."""
        return len({p.deviance for p in self.curve}) == 1


@dataclass(frozen=True)
class PerfAccuracy:
    """The scorecard of one perf.

    ``comparisons`` holds every pair of contenders (first minus second, in
    ``core.contenders`` order); ``verdict`` is Lichess against the FIDE rules; ``left_out``
    counts the perf's games in range that no contender could predict (:data:`LEFT_OUT_REASONS`).
    """

    games: int
    contenders: tuple[ContenderScore, ...]
    comparisons: tuple[Comparison, ...]
    verdict: Verdict
    fit: KFit | None = None
    left_out: int = 0
    expected: dict[str, array[float]] = field(default_factory=dict, compare=False, repr=False)
    """Every contender's prediction of every counted game, by contender key (oldest first),
    as packed doubles (the same floats; 8 bytes a prediction instead of a float object's
    32, and read by numpy without a conversion a game)."""


def results_of(rows: Sequence[GameRow]) -> list[float]:
    """The player's score in each game: 1, 0.5 or 0."""
    return [float(r.score) for r in rows]


def predict(rows: Sequence[GameRow]) -> dict[str, list[float]]:
    """Every registered contender's prediction for every row, by contender key (rows oldest
    first; ``core.contenders``)."""
    games = PerfGames(rows)  # what several contenders share is made once
    return {c.key: list(c.predict(games)) for c in contenders()}


def score_perf(
    rows: Sequence[GameRow],
    *,
    resamples: int = accuracy.DEFAULT_RESAMPLES,
    level: float = accuracy.DEFAULT_LEVEL,
    seed: int = accuracy.DEFAULT_SEED,
    left_out: int = 0,
) -> PerfAccuracy:
    """The scorecard of one perf's counted games (oldest first); every pair bootstrapped
    with the same seed, so with the same resampled games. ``left_out``: the games that no
    contender could predict, to be said."""
    games = PerfGames(rows)
    listed = contenders()
    results = array("d", games.results)
    predicted = {c.key: array("d", c.predict(games)) for c in listed}
    scored = tuple(
        ContenderScore(
            c,
            accuracy.score(predicted[c.key], results),
            accuracy.calibration(predicted[c.key], results),
        )
        for c in listed
    )
    comparisons = accuracy.compare_all(
        [(c.key, predicted[c.key]) for c in listed],
        results,
        resamples=resamples,
        level=level,
        seed=seed,
    )
    verdict = accuracy.verdict(comparisons[0])
    return PerfAccuracy(
        len(rows), scored, comparisons, verdict, left_out=left_out, expected=predicted
    )


def fit_k(
    expected_for_k: Callable[[int], Sequence[float]],
    results: Sequence[float],
    *,
    rules_expected: Sequence[float],
    rules_k: Sequence[int],
    periods: Sequence[tuple[str, int]] = (),
    ks: Sequence[int] = K_SCAN,
) -> KFit:
    """Scan K: the deviance of the FIDE-rules track's predictions with each K fixed.

    Args:
        expected_for_k: the track's expected scores, game by game, with K fixed at its
            argument (the caller reruns the rating track).
        results: the player's scores in the same games.
        rules_expected: the same track's expected scores under the K rules.
        rules_k: the K values the rules gave, oldest period first.
        periods: (label, games) of every period, to list where the 700 rule caps K.
        ks: the K values to try.

    Raises:
        BadInput: no games, or no K to try.
    """
    if not results:
        raise BadInput("no games to fit K on")
    if not ks:
        raise BadInput("no K values to try")
    curve = []
    terms = {}
    for k in ks:
        terms[k] = accuracy.game_deviance(expected_for_k(k), results)
        curve.append(KPoint(k, float(np.mean(terms[k]))))
    best = min(curve, key=lambda p: (p.deviance, p.k))
    rules = accuracy.score(rules_expected, results).deviance
    assert rules is not None
    top = max(ks)
    limits = tuple(
        KLimit(label, n, fide.limit_k(top, n)) for label, n in periods if fide.limit_k(top, n) < top
    )
    risen = {p.k for p in curve if _beyond_noise(terms[p.k], terms[best.k])}
    resolved = any(k < best.k for k in risen) and any(k > best.k for k in risen)
    return KFit(tuple(curve), best, tuple(dict.fromkeys(rules_k)), rules, limits, resolved)


#: How many standard errors a deviance difference must pass to be more than noise.
NOISE_Z = 2.0


def _beyond_noise(other: FloatArray, best: FloatArray) -> bool:
    """Whether ``other``'s per-game deviance is above ``best``'s by more than the noise.

    The noise chosen: :data:`NOISE_Z` (2, about the scorecard's 95 % level) standard errors
    of the paired mean difference, ``sd(d) / sqrt(n)`` with ``d`` the per-game differences
    (sample sd). The same games are scored under both K, so the pairing removes what the
    games share, as in the scorecard's paired bootstrap; a normal error instead of a
    bootstrap keeps the 56-K scan cheap. A lowest point counts as the best K only when some
    smaller K and some larger K are both beyond the noise: a minimum at the edge of the scan
    (nothing on one side) or on a plateau flatter than its noise names no K.
    """
    d = other - best
    if d.size < 2:
        return False
    mean = float(np.mean(d))
    error = float(np.std(d, ddof=1)) / math.sqrt(d.size)
    return mean > NOISE_Z * error
