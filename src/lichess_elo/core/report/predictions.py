"""The scorecard's contenders: each one's expected score before every counted game (pure).

For every counted game of a perf (a report's ``GameRow``), from what was known before it:

* **Lichess Glicko-2** (``lichess``): ``glicko.expected_score`` from the player's and the
  opponent's pre-game Lichess ratings, with the colour advantage where Lichess applied it
  (``glicko.advantage_for``: standard and crazyhouse games from its start date on). The
  export has no RD, only the provisional flag, so the opponent's RD is taken as
  :data:`OPPONENT_RD_PROVISIONAL` (110, the smallest RD Lichess shows as provisional) for a
  provisional opponent and :data:`OPPONENT_RD_ESTABLISHED` (60, the RD lila's own comment
  calls a typical active player's) otherwise.
* **FIDE rules** (``fide``): the report's Elo track, i.e. table 8.1.2 (or the formula when
  asked) from the frozen rating of the period against the opponent's rating, with the same
  400-point rule: the ``expected`` the rating itself used.
* **Elo on Lichess ratings** (``elo_on_lichess``): the logistic ``1/(1+10^(-D/400))`` with
  D = Lichess pre-game rating - opponent's rating, no cap: the FIDE formula on Lichess's
  trajectory, to separate "which trajectory" from "which formula".
* **Glicko-1** (``glicko1``) and **Stephenson's rating** (``stephenson``): their own online
  tracks of the player's rating over the perf's counted games, month by month, from the
  Lichess rating before the first one (:mod:`lichess_elo.core.report.rivals`).
* **Score rate so far** (``score_rate``): the player's mean score over the perf's previous
  counted games (:data:`FIRST_GAME_RATE`, 0.5, before the first one).

Scores, calibration and paired bootstraps come from :mod:`lichess_elo.core.accuracy`.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from lichess_elo.core import accuracy, fide, glicko
from lichess_elo.core.accuracy import Band, Comparison, FloatArray, Scores, Verdict
from lichess_elo.core.report import rivals
from lichess_elo.core.report.model import GameRow
from lichess_elo.core.value import plain_twin
from lichess_elo.errors import BadInput

__all__ = [
    "CONTENDERS",
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

OPPONENT_RD_ESTABLISHED = 60.0
"""Opponent RD assumed for an established rating (lila: "a typical player's RD goes from 60
-> 110 in 1 year" of inactivity, ``Glicko.ratingPeriodsPerDay``)."""
OPPONENT_RD_PROVISIONAL = glicko.PROVISIONAL_DEVIATION
"""Opponent RD assumed for a provisional rating: 110, the threshold (RD >= 110)."""
FIRST_GAME_RATE = 0.5
"""The score-rate baseline's prediction before the perf's first counted game."""
K_SCAN = range(5, 61)
"""The K values ``fit_k`` tries by default: 5 to 60."""
LEFT_OUT_REASONS = ("ai_opponent", "no_rating_change")
"""The report's exclusion reasons of games no contender can predict (an AI opponent, or a
rating missing): left out of every contender alike, and counted."""


@dataclass(frozen=True)
class Contender:
    """One rating system on the scorecard: a stable key (JSON, CSV) and a label (tables)."""

    key: str
    label: str


LICHESS = Contender("lichess", "Lichess Glicko-2")
FIDE = Contender("fide", "FIDE rules")
ELO_ON_LICHESS = Contender("elo_on_lichess", "Elo on Lichess ratings")
SCORE_RATE = Contender("score_rate", "Score rate so far")
GLICKO1 = Contender(rivals.GLICKO1.key, "Glicko-1")
STEPHENSON = Contender(rivals.STEPHENSON.key, "Stephenson")
CONTENDERS: tuple[Contender, ...] = (LICHESS, FIDE, ELO_ON_LICHESS, SCORE_RATE, GLICKO1, STEPHENSON)
"""Every contender, in table order; the verdict compares the first two (the two added last
keep the earlier pairs' order)."""


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
    :data:`CONTENDERS` order); ``verdict`` is Lichess against the FIDE rules; ``left_out``
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


def opponent_deviation(provisional: bool) -> float:
    """The RD assumed for an opponent from the provisional flag (see the module docstring)."""
    return OPPONENT_RD_PROVISIONAL if provisional else OPPONENT_RD_ESTABLISHED


def lichess_expectation(row: GameRow) -> float:
    """Glicko-2's expected score of the player before ``row``'s game."""
    return glicko.expected_score(
        row.lichess_from,
        row.opponent_rating,
        opponent_deviation(row.opponent_provisional),
        color=row.color,
        advantage=glicko.advantage_for(row.variant, row.played_at),
    )


def score_rates(scores: Sequence[float]) -> list[float]:
    """Before each game, the mean of the scores before it (``FIRST_GAME_RATE`` at first)."""
    rates, total = [], 0.0
    for i, s in enumerate(scores):
        rates.append(total / i if i else FIRST_GAME_RATE)
        total += s
    return rates


@cache
def _logistic(difference: int) -> float:
    """``fide.logistic_expected`` as a float, once per whole rating difference."""
    return float(fide.logistic_expected(difference))


def results_of(rows: Sequence[GameRow]) -> list[float]:
    """The player's score in each game: 1, 0.5 or 0."""
    return [float(r.score) for r in rows]


def _track_games(rows: Sequence[GameRow]) -> list[rivals.TrackGame]:
    # each value made as its plain twin, then given its class (``TrackGame(...)`` without
    # a Python call a value)
    track_game, opponent_of = plain_twin(rivals.TrackGame), plain_twin(rivals.Opponent)
    games = []
    for r in rows:
        opponent = opponent_of(
            float(r.opponent_rating),
            opponent_deviation(r.opponent_provisional),
            float(r.score),
            1 if r.color == "white" else -1,
        )
        opponent.__class__ = rivals.Opponent
        game = track_game(
            rivals.month_index(r.played_at.year, r.played_at.month),
            opponent,
            r.variant == "standard",
        )
        game.__class__ = rivals.TrackGame
        games.append(game)
    return games


def rival_predictions(rows: Sequence[GameRow], rules: rivals.RivalRules) -> list[float]:
    """One online contender's prediction for every row (rows oldest first), its track
    starting from the first row's Lichess rating and the RD of its provisional flag."""
    return _rival(rows, _track_games(rows), rules)


def _rival(
    rows: Sequence[GameRow], games: Sequence[rivals.TrackGame], rules: rivals.RivalRules
) -> list[float]:
    """``rival_predictions`` over the rows' track games, made once for every contender."""
    if not rows:
        return []
    first = rows[0]
    return rivals.track(
        games, float(first.lichess_from), opponent_deviation(first.provisional), rules
    )


def predict(rows: Sequence[GameRow]) -> dict[str, list[float]]:
    """Every contender's prediction for every row, by contender key (rows oldest first)."""
    games = _track_games(rows)  # the same for both rivals
    return {
        LICHESS.key: [lichess_expectation(r) for r in rows],
        FIDE.key: [float(r.expected) for r in rows],
        ELO_ON_LICHESS.key: [_logistic(r.lichess_from - r.opponent_rating) for r in rows],
        SCORE_RATE.key: score_rates(results_of(rows)),
        GLICKO1.key: _rival(rows, games, rivals.GLICKO1),
        STEPHENSON.key: _rival(rows, games, rivals.STEPHENSON),
    }


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
    results = array("d", results_of(rows))
    predicted = {key: array("d", p) for key, p in predict(rows).items()}
    scored = tuple(
        ContenderScore(
            c,
            accuracy.score(predicted[c.key], results),
            accuracy.calibration(predicted[c.key], results),
        )
        for c in CONTENDERS
    )
    comparisons = accuracy.compare_all(
        [(c.key, predicted[c.key]) for c in CONTENDERS],
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
