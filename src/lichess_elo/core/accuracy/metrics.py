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

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from lichess_elo.errors import BadInput

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

CLAMP_LOW = 0.01
"""Predictions below this count as this for deviance and log-loss (the challenge's rule)."""
CLAMP_HIGH = 0.99
"""Predictions above this count as this for deviance and log-loss."""
DEFAULT_BANDS: tuple[float, ...] = tuple(i / 10 for i in range(11))
"""Calibration band edges: ten bands of width 0.1."""
DEFAULT_RESAMPLES = 1000
"""Bootstrap replicates unless told otherwise."""
DEFAULT_LEVEL = 0.95
"""Coverage of the bootstrap interval unless told otherwise."""
DEFAULT_SEED = 12
"""Seed of the bootstrap's generator unless told otherwise (same seed, same interval)."""
MIN_BOOTSTRAP_GAMES = 2
"""Below this many games there is no interval: resampling one game says nothing."""

_CHUNK_DRAWS = 1 << 22  # indices drawn at once (32 MB of int64), whatever the game count

FloatArray = npt.NDArray[np.float64]
ArrayLike = Sequence[float] | npt.NDArray[np.floating] | npt.NDArray[np.integer]


@dataclass(frozen=True)
class Scores:
    """The scores of one contender over ``games`` games (``None`` when there are none)."""

    games: int
    deviance: float | None
    log_loss: float | None
    brier: float | None
    correct: float | None
    """Share of games predicted correctly, 0..1 (see the module docstring for draws)."""
    mean_expected: float | None
    mean_actual: float | None


@dataclass(frozen=True)
class Band:
    """One calibration band ``[low, high)`` (the last one closed) and its games."""

    low: float
    high: float
    games: int
    mean_expected: float | None
    mean_actual: float | None


@dataclass(frozen=True)
class Interval:
    """A bootstrap percentile interval for a mean."""

    low: float
    high: float
    level: float
    resamples: int
    seed: int


@dataclass(frozen=True)
class Comparison:
    """Paired deviance comparison of two contenders over the same games.

    ``difference`` is ``first_deviance - second_deviance``: positive when ``second`` predicted
    better. ``interval`` bounds that difference; ``None`` below two games.
    """

    first: str
    second: str
    games: int
    first_deviance: float | None
    second_deviance: float | None
    difference: float | None
    interval: Interval | None


class Outcome(enum.StrEnum):
    """What a comparison allows one to say."""

    CLEAR = "clear"
    """The interval of the difference lies strictly on one side of zero."""
    NO_CLEAR_WINNER = "no_clear_winner"
    """The interval contains zero."""
    TOO_FEW_GAMES = "too_few_games"
    """One game: a difference but no interval."""
    NO_GAMES = "no_games"


@dataclass(frozen=True)
class Verdict:
    """A comparison oriented winner-first, for wording at the output edge.

    ``better`` has the lower deviance (the first contender on an exact tie); ``margin`` is
    ``worse_deviance - better_deviance`` (>= 0) and ``low``/``high`` bound it.
    """

    outcome: Outcome
    games: int
    better: str
    worse: str
    better_deviance: float | None
    worse_deviance: float | None
    margin: float | None
    low: float | None
    high: float | None
    level: float | None


def _pairs(predictions: ArrayLike, results: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Both inputs as checked float64 1-D arrays."""
    p = np.asarray(predictions, dtype=np.float64)
    s = np.asarray(results, dtype=np.float64)
    if p.ndim != 1 or s.ndim != 1:
        raise BadInput("predictions and results must be one-dimensional")
    if p.shape != s.shape:
        raise BadInput(f"{p.size} predictions but {s.size} results")
    if p.size and not (np.isfinite(p).all() and p.min() >= 0.0 and p.max() <= 1.0):
        raise BadInput("a prediction is outside 0..1")
    if s.size and not ((s == 0.0) | (s == 0.5) | (s == 1.0)).all():
        raise BadInput("a result is not 1, 0.5 or 0")
    return p, s


def _deviance_terms(p: FloatArray, s: FloatArray) -> FloatArray:
    """Per-game binomial deviance (log10) with the clamp."""
    c = np.clip(p, CLAMP_LOW, CLAMP_HIGH)
    won = np.log10(c)
    won *= s
    lost = np.subtract(1.0, c, out=c)
    np.log10(lost, out=lost)
    lost *= 1.0 - s
    lost += won
    np.negative(lost, out=lost)
    return lost


def _share_correct(p: FloatArray, s: FloatArray) -> float:
    """Mean of ``1 - |sgn(p - 1/2) - sgn(s - 1/2)| / 2``, on booleans for speed."""
    p_high, p_low = p > 0.5, p < 0.5
    s_high, s_low = s > 0.5, s < 0.5
    p_even, s_even = ~(p_high | p_low), ~(s_high | s_low)
    same = (p_high & s_high) | (p_low & s_low) | (p_even & s_even)
    half = p_even ^ s_even
    return (int(np.count_nonzero(same)) + 0.5 * int(np.count_nonzero(half))) / p.size


def game_deviance(predictions: ArrayLike, results: ArrayLike) -> FloatArray:
    """Per-game binomial deviance (log10, predictions clamped to [0.01, 0.99])."""
    p, s = _pairs(predictions, results)
    return _deviance_terms(p, s)


def score(predictions: ArrayLike, results: ArrayLike) -> Scores:
    """Deviance, log-loss, Brier score, share correct and means of one contender."""
    p, s = _pairs(predictions, results)
    n = int(p.size)
    if n == 0:
        return Scores(0, None, None, None, None, None, None)
    deviance = float(np.mean(_deviance_terms(p, s)))
    return Scores(
        games=n,
        deviance=deviance,
        log_loss=deviance * float(np.log(10.0)),
        brier=float(np.mean(np.square(np.subtract(p, s)))),
        correct=_share_correct(p, s),
        mean_expected=float(np.mean(p)),
        mean_actual=float(np.mean(s)),
    )


def calibration(
    predictions: ArrayLike, results: ArrayLike, edges: Sequence[float] = DEFAULT_BANDS
) -> tuple[Band, ...]:
    """Expected vs actual score per expectation band, every band listed (empty ones too).

    ``edges`` must rise strictly from 0 to 1; band *i* is ``[edges[i], edges[i+1])``, the
    last one closed.
    """
    e = np.asarray(edges, dtype=np.float64)
    if e.ndim != 1 or e.size < 2 or e[0] != 0.0 or e[-1] != 1.0 or not (np.diff(e) > 0).all():
        raise BadInput("must rise strictly from 0 to 1", field="calibration_band_edges")
    p, s = _pairs(predictions, results)
    k = e.size - 1
    band = np.zeros(p.size, dtype=np.intp)
    for edge in e[1:-1]:  # a pass per inner edge beats a binary search per game
        band += p >= edge
    counts = np.bincount(band, minlength=k)
    sum_p = np.bincount(band, weights=p, minlength=k)
    sum_s = np.bincount(band, weights=s, minlength=k)
    out = []
    for i in range(k):
        c = int(counts[i])
        out.append(
            Band(
                low=float(e[i]),
                high=float(e[i + 1]),
                games=c,
                mean_expected=float(sum_p[i] / c) if c else None,
                mean_actual=float(sum_s[i] / c) if c else None,
            )
        )
    return tuple(out)


def _check_bootstrap(resamples: int, level: float) -> None:
    if resamples < 1:
        raise BadInput("is fewer than 1", field="bootstrap_resamples", value=resamples)
    if not 0.0 < level < 1.0:
        raise BadInput("is not strictly between 0 and 1", field="interval_level", value=level)


def _resampled_means(columns: FloatArray, resamples: int, seed: int) -> FloatArray:
    """Column means of ``resamples`` resamples of the rows of ``columns`` (n x m): R x m.

    One column: a gather a replicate. Several: how often each row was drawn, then one
    matrix product for all columns, on the columns minus their means (added back after),
    so that a constant column gives the same mean in every replicate.
    """
    n, m = columns.shape
    rng = np.random.default_rng(seed)
    means = np.empty((resamples, m), dtype=np.float64)
    centre = columns.mean(axis=0)
    centred = columns - centre
    rows = max(1, _CHUNK_DRAWS // n)
    for start in range(0, resamples, rows):
        stop = min(resamples, start + rows)
        idx = rng.integers(0, n, size=(stop - start, n))
        if m == 1:
            means[start:stop, 0] = columns[:, 0][idx].mean(axis=1)
        else:
            idx += np.arange(stop - start)[:, np.newaxis] * n  # in place: no second chunk
            counts = np.bincount(idx.ravel(), minlength=(stop - start) * n)
            del idx  # before the product's float copy of ``counts``: one chunk less at peak
            means[start:stop] = centre + counts.reshape(stop - start, n) @ centred / n
    return means


def _interval(statistic: FloatArray, level: float, resamples: int, seed: int) -> Interval:
    low, high = np.quantile(statistic, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return Interval(float(low), float(high), level, resamples, seed)


def bootstrap_mean(
    values: ArrayLike,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    level: float = DEFAULT_LEVEL,
    seed: int = DEFAULT_SEED,
) -> Interval | None:
    """Percentile bootstrap interval for the mean of ``values``; ``None`` below two values.

    Reproducible: the same values, resamples, level and seed give the same interval.
    """
    _check_bootstrap(resamples, level)
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1:
        raise BadInput("bootstrap values must be one-dimensional")
    if v.size < MIN_BOOTSTRAP_GAMES:
        return None
    means = _resampled_means(v[:, np.newaxis], resamples, seed)[:, 0]
    return _interval(means, level, resamples, seed)


def compare_all(
    predictions: Sequence[tuple[str, ArrayLike]],
    results: ArrayLike,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    level: float = DEFAULT_LEVEL,
    seed: int = DEFAULT_SEED,
) -> tuple[Comparison, ...]:
    """Paired bootstrap of every pair of contenders, ``(name, predictions)``, over the same
    games: one resampling serves all pairs (pairs in ``itertools.combinations`` order).

    A replicate's statistic for a pair is the mean per-game deviance difference over the
    drawn games.
    """
    _check_bootstrap(resamples, level)
    names = [name for name, _ in predictions]
    columns = []
    for _, given in predictions:
        p_arr, s = _pairs(given, results)
        columns.append(_deviance_terms(p_arr, s))
    n = int(np.asarray(results).size)
    if n == 0:
        return tuple(Comparison(a, b, 0, None, None, None, None) for a, b in combinations(names, 2))
    pairs = list(combinations(range(len(names)), 2))
    diffs = np.column_stack([columns[i] - columns[j] for i, j in pairs] or [np.empty(n)])
    reps = _resampled_means(diffs, resamples, seed) if n >= MIN_BOOTSTRAP_GAMES else None
    out = []
    for p, (i, j) in enumerate(pairs):
        interval = _interval(reps[:, p], level, resamples, seed) if reps is not None else None
        out.append(
            Comparison(
                first=names[i],
                second=names[j],
                games=n,
                first_deviance=float(np.mean(columns[i])),
                second_deviance=float(np.mean(columns[j])),
                difference=float(np.mean(diffs[:, p])),
                interval=interval,
            )
        )
    return tuple(out)


def compare(
    first: ArrayLike,
    second: ArrayLike,
    results: ArrayLike,
    *,
    names: tuple[str, str] = ("first", "second"),
    resamples: int = DEFAULT_RESAMPLES,
    level: float = DEFAULT_LEVEL,
    seed: int = DEFAULT_SEED,
) -> Comparison:
    """Paired bootstrap of the deviance difference ``first - second`` over the same games."""
    (comparison,) = compare_all(
        [(names[0], first), (names[1], second)],
        results,
        resamples=resamples,
        level=level,
        seed=seed,
    )
    return comparison


def verdict(comparison: Comparison) -> Verdict:
    """Orient a comparison winner-first and say whether its interval excludes zero."""
    c = comparison
    if c.games == 0 or c.difference is None:
        return Verdict(Outcome.NO_GAMES, 0, c.first, c.second, None, None, None, None, None, None)
    flip = c.difference > 0  # the second contender has the lower deviance
    better, worse = (c.second, c.first) if flip else (c.first, c.second)
    better_dev, worse_dev = (
        (c.second_deviance, c.first_deviance) if flip else (c.first_deviance, c.second_deviance)
    )
    margin = abs(c.difference)
    if c.interval is None:
        return Verdict(
            Outcome.TOO_FEW_GAMES, c.games, better, worse, better_dev, worse_dev, margin,
            None, None, None,
        )  # fmt: skip
    low, high = (c.interval.low, c.interval.high) if flip else (-c.interval.high, -c.interval.low)
    outcome = Outcome.CLEAR if low > 0.0 else Outcome.NO_CLEAR_WINNER
    return Verdict(
        outcome, c.games, better, worse, better_dev, worse_dev, margin, low, high, c.interval.level
    )
