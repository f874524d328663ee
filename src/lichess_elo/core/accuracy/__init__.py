"""How well expected scores predicted results: the scorecard's metrics, vectorised with numpy.

Every function takes *predictions* (the expected score of one side before each game, 0..1)
and *results* (that side's score: 1, 0.5 or 0), as equal-length 1-D sequences or arrays. It is
pure and fast enough for millions of games (see ``benchmarks/bench_accuracy.py``).

Metrics, all means over the N games (lower is better except ``correct``):

* **binomial deviance** (the Deloitte/FIDE Chess Rating Challenge metric):
  ``-(1/N) sum[s log10(p') + (1-s) log10(1-p')]`` with ``p'`` = p clamped to [0.01, 0.99];
* **log-loss**: the same with the natural logarithm (so deviance x ln 10), same clamp;
* **Brier score**: ``(1/N) sum (p - s)^2`` on the raw prediction (a draw's target is 0.5);
* **correct**: the share of games whose result lies on the side of 0.5 the prediction chose,
  ``1 - |sgn(p - 1/2) - sgn(s - 1/2)| / 2`` a game: a win predicted above 0.5 or a loss
  predicted below it counts 1, the opposite 0; a draw, or a prediction of exactly 0.5,
  counts 1/2 (and a draw predicted at exactly 0.5 counts 1);
* **calibration**: games grouped into expectation bands ``[lo, hi)`` (the last band closed),
  with the count, mean expected and mean actual score of each.

The paired bootstrap (:func:`compare`, :func:`compare_all`, :func:`bootstrap_mean`)
resamples the games with replacement, ``resamples`` times, from
``numpy.random.default_rng(seed)``: replicate *r* takes the *r*-th block of N draws of
``Generator.integers(0, N)``; its statistic is the mean over the drawn games of the
values, for a pair of contenders of the per-game deviance differences. Every pair is
judged on the same draws. The
interval is the ``(1-level)/2`` and ``(1+level)/2`` quantiles of the replicates (numpy's
default linear interpolation). Fewer than :data:`MIN_BOOTSTRAP_GAMES` games give no
interval.
"""

from __future__ import annotations

from lichess_elo.core.accuracy.bootstrap import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MIN_BOOTSTRAP_GAMES,
    Comparison,
    Interval,
    Outcome,
    Verdict,
    bootstrap_mean,
    compare,
    compare_all,
    verdict,
)
from lichess_elo.core.accuracy.metrics import (
    CLAMP_HIGH,
    CLAMP_LOW,
    DEFAULT_BANDS,
    Band,
    Scores,
    calibration,
    game_deviance,
    score,
)
from lichess_elo.core.accuracy.metrics import (
    ArrayLike as ArrayLike,
)
from lichess_elo.core.accuracy.metrics import (
    FloatArray as FloatArray,
)

__all__ = [
    "CLAMP_HIGH",
    "CLAMP_LOW",
    "DEFAULT_BANDS",
    "DEFAULT_LEVEL",
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "MIN_BOOTSTRAP_GAMES",
    "Band",
    "Comparison",
    "Interval",
    "Outcome",
    "Scores",
    "Verdict",
    "bootstrap_mean",
    "calibration",
    "compare",
    "compare_all",
    "game_deviance",
    "score",
    "verdict",
]
