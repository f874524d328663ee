"""The scorecard's metrics of one contender: deviance, log-loss, Brier, share correct, bands.

Vectorised with numpy, pure; the definitions are in the package docstring
(``lichess_elo.core.accuracy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lichess_elo.errors import BadInput

CLAMP_LOW = 0.01
"""Predictions below this count as this for deviance and log-loss (the challenge's rule)."""
CLAMP_HIGH = 0.99
"""Predictions above this count as this for deviance and log-loss."""
DEFAULT_BANDS: tuple[float, ...] = tuple(i / 10 for i in range(11))
"""Calibration band edges: ten bands of width 0.1."""

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


def checked_pairs(predictions: ArrayLike, results: ArrayLike) -> tuple[FloatArray, FloatArray]:
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


def deviance_terms(p: FloatArray, s: FloatArray) -> FloatArray:
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
    p, s = checked_pairs(predictions, results)
    return deviance_terms(p, s)


def score(predictions: ArrayLike, results: ArrayLike) -> Scores:
    """Deviance, log-loss, Brier score, share correct and means of one contender."""
    p, s = checked_pairs(predictions, results)
    n = int(p.size)
    if n == 0:
        return Scores(0, None, None, None, None, None, None)
    deviance = float(np.mean(deviance_terms(p, s)))
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
    p, s = checked_pairs(predictions, results)
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
