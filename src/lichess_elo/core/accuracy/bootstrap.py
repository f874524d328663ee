"""The paired bootstrap of the scorecard: intervals, comparisons of contenders, verdicts.

Vectorised with numpy, pure and reproducible from a seed; the resampling scheme is in the
package docstring (``lichess_elo.core.accuracy``).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from lichess_elo.core.accuracy.metrics import ArrayLike, FloatArray, checked_pairs, deviance_terms
from lichess_elo.errors import BadInput

DEFAULT_RESAMPLES = 1000
"""Bootstrap replicates unless told otherwise."""
DEFAULT_LEVEL = 0.95
"""Coverage of the bootstrap interval unless told otherwise."""
DEFAULT_SEED = 12
"""Seed of the bootstrap's generator unless told otherwise (same seed, same interval)."""
MIN_BOOTSTRAP_GAMES = 2
"""Below this many games there is no interval: resampling one game says nothing."""


#: Indices drawn at once (4 MB of int32), whatever the game count. A chunk holds them and
#: their counts as floats for the product (8 MB), the largest block of a warm report's peak
#: (a chunk of 1 << 22 made it about 70 MB higher at 100,000 games). The replicates do not
#: depend on it: the generator's stream is the same however the draws are split, and each
#: replicate is its own row of the product.
_CHUNK_DRAWS = 1 << 20


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


def _check_bootstrap(resamples: int, level: float) -> None:
    if resamples < 1:
        raise BadInput("is fewer than 1", field="bootstrap_resamples", value=resamples)
    if not 0.0 < level < 1.0:
        raise BadInput("is not strictly between 0 and 1", field="interval_level", value=level)


def _draw_type(n: int) -> type[np.signedinteger[Any]]:
    """The narrowest index type ``Generator.integers(0, n)`` gives the same draws in: below
    2**31 numpy draws every int type's bounded integers from the same 32-bit stream
    (``random_bounded_uint64_fill`` calls the 32-bit generator when the range fits), so
    int32 draws are the int64 ones at half the memory written."""
    return np.int32 if n <= np.iinfo(np.int32).max else np.int64


def _resampled_means(
    columns: FloatArray, resamples: int, seed: int, in_place: bool = False
) -> FloatArray:
    """Column means of ``resamples`` resamples of the rows of ``columns`` (n x m): R x m.

    One column: a gather a replicate. Several: how often each row was drawn (counted a
    replicate at a time, in a block that stays in cache), then one matrix product for all
    columns, on the columns minus their means (added back after), so that a constant
    column gives the same mean in every replicate. With ``in_place`` the columns are
    centred where they are (the caller is done with them): no second n x m array.
    """
    n, m = columns.shape
    rng = np.random.default_rng(seed)
    means = np.empty((resamples, m), dtype=np.float64)
    centre = columns.mean(axis=0)
    centred = np.subtract(columns, centre, out=columns if in_place and m > 1 else None)
    rows = max(1, _CHUNK_DRAWS // n)
    kind = _draw_type(n)
    counts = np.empty((min(rows, resamples), n), dtype=np.float64) if m > 1 else None
    for start in range(0, resamples, rows):
        stop = min(resamples, start + rows)
        idx = rng.integers(0, n, size=(stop - start, n), dtype=kind)
        if counts is None:
            means[start:stop, 0] = columns[:, 0][idx].mean(axis=1)
        else:
            block = counts[: stop - start]
            for row, drawn in enumerate(idx):  # a replicate's counts, written as floats
                block[row] = np.bincount(drawn, minlength=n)
            means[start:stop] = centre + block @ centred / n
    return means


def _quantile(ordered: FloatArray, q: float) -> float:
    """``np.quantile(values, q)`` (its default, linear method) of the sorted ``ordered``,
    step for step: the same float operations, so the same number. numpy's own pulls in
    ``numpy.ma`` (through ``np.unique``), about 30 ms of a report's start."""
    n = ordered.size
    if math.isnan(ordered[-1]):  # a NaN sorts last; numpy's quantile is NaN then
        return math.nan
    virtual = (n - 1) * q
    if virtual >= n - 1:
        return float(ordered[-1])
    below = math.floor(virtual) if virtual >= 0 else 0
    a, b = float(ordered[below]), float(ordered[below + 1])
    t = virtual - below
    diff = b - a
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t


def _interval(statistic: FloatArray, level: float, resamples: int, seed: int) -> Interval:
    ordered = np.sort(statistic)
    low = _quantile(ordered, (1.0 - level) / 2.0)
    high = _quantile(ordered, (1.0 + level) / 2.0)
    return Interval(low, high, level, resamples, seed)


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
        p_arr, s = checked_pairs(given, results)
        columns.append(deviance_terms(p_arr, s))
    n = int(np.asarray(results).size)
    if n == 0:
        return tuple(Comparison(a, b, 0, None, None, None, None) for a, b in combinations(names, 2))
    pairs = list(combinations(range(len(names)), 2))
    diffs = np.column_stack([columns[i] - columns[j] for i, j in pairs] or [np.empty(n)])
    # the means first: the resampling then centres ``diffs`` in place (the peak of a large
    # report: no copy of them, and no per-game deviances held beside them)
    deviances = [float(np.mean(c)) for c in columns]
    differences = [float(np.mean(diffs[:, p])) for p in range(len(pairs))]
    del columns
    reps = None
    if n >= MIN_BOOTSTRAP_GAMES:
        reps = _resampled_means(diffs, resamples, seed, in_place=True)
    out = []
    for p, (i, j) in enumerate(pairs):
        interval = _interval(reps[:, p], level, resamples, seed) if reps is not None else None
        out.append(
            Comparison(
                first=names[i],
                second=names[j],
                games=n,
                first_deviance=deviances[i],
                second_deviance=deviances[j],
                difference=differences[p],
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
