"""``db compare``'s scorecard, pure: the systems it scores and each month's scores from the
columns of the games sampled (``sources/population/compare.scored_games``), with the paired
bootstrap of ``core.accuracy`` (one resampling of a month's games serves every pair).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import numpy as np

from lichess_elo.core import accuracy, glicko
from lichess_elo.core.accuracy import Comparison, Scores
from lichess_elo.core.contenders import (
    FIDE,
    LICHESS,
    OPPONENT_RD_ESTABLISHED,
    Contender,
    db_contenders,
)

#: ``games.ord`` = epoch seconds x this + position in the file.
ORD_SCALE = 1_000_000_000


def systems() -> tuple[Contender, ...]:
    """The systems of the scorecard in table order: the registered contenders with a ``db``
    step (``core.contenders.db_contenders``; ``compare_all`` pairs them in this order, so
    the first pair is FIDE's rules against Lichess). A contender without one is left out."""
    return db_contenders()


def tracked() -> tuple[Contender, ...]:
    """The systems predicted from their stored monthly track (``rivals``)."""
    return tuple(c for c in systems() if c.db == "track")


@dataclass(frozen=True)
class MonthScore:
    """Every system's scores on one month's games of one perf (FIDE first)."""

    perf: str
    month: int
    games: int
    sampled: int
    fide: Scores
    lichess: Scores
    #: FIDE rules against Lichess Glicko-2.
    comparison: Comparison
    #: The scores of every contender with a stored track (``tracked``), by key.
    rivals: dict[str, Scores] = field(default_factory=dict)
    #: Every pair of ``systems()`` (by label), paired on the same games.
    comparisons: tuple[Comparison, ...] = ()
    #: The month's games that some system cannot predict, left out of all of them.
    left_out: int = 0

    def versus(self, first: str, second: str) -> Comparison | None:
        """The comparison of the systems labelled ``first`` and ``second``, oriented
        ``first - second``; ``None`` if not made."""
        for c in self.comparisons:
            if (c.first, c.second) == (first, second):
                return c
            if (c.second, c.first) == (first, second):
                flipped = c.interval and replace(
                    c.interval, low=-c.interval.high, high=-c.interval.low
                )
                return Comparison(
                    first,
                    second,
                    c.games,
                    c.second_deviance,
                    c.first_deviance,
                    None if c.difference is None else -c.difference,
                    flipped,
                )
        return None


def lichess_expected(white: np.ndarray, black: np.ndarray, ords: np.ndarray) -> np.ndarray:
    """White's Glicko-2 expected score for each game (``glicko.expected_score``)."""
    out = np.empty(len(white))
    for i, (w, b, o) in enumerate(zip(white.tolist(), black.tolist(), ords.tolist(), strict=True)):
        when = datetime.fromtimestamp(o // ORD_SCALE, UTC)
        out[i] = glicko.expected_score(
            w, b, OPPONENT_RD_ESTABLISHED, advantage=glicko.advantage_for("standard", when)
        )
    return out


def _db_expected(contender: Contender, cols: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
    """White's expected score by ``contender`` in the masked games, by its ``db`` step."""
    if contender.db == "list":  # FIDE's PD of the stored lists, in hundredths
        fide: np.ndarray = np.asarray(cols["e"])[mask] / 100
        return fide
    if contender.db == "headers":
        return lichess_expected(
            np.asarray(cols["white_elo"])[mask],
            np.asarray(cols["black_elo"])[mask],
            np.asarray(cols["ord"])[mask],
        )
    tracked: np.ndarray = np.asarray(cols[f"e_{contender.key}"])[mask]
    return tracked


def score_months(
    cols: dict[str, np.ndarray],
    totals: dict[tuple[str, int], int],
    *,
    resamples: int,
    seed: int,
) -> list[MonthScore]:
    """Every system's scores on each perf and month of the sampled games ``cols`` (the
    columns of ``scored_games``); ``totals`` holds the games of each perf and month in the
    database, so that those some system cannot predict are counted (``left_out``)."""
    perf_col = np.asarray(cols["perf"], dtype=object)
    month_col = np.asarray(cols["month"])
    keys = sorted(set(zip(perf_col.tolist(), month_col.tolist(), strict=True)))
    scores: list[MonthScore] = []
    for perf, month in keys:
        mask = (perf_col == perf) & (month_col == month)
        results = np.asarray(cols["score"])[mask] / 100
        listed = systems()
        predicted = {c.key: _db_expected(c, cols, mask) for c in listed}
        pairs = accuracy.compare_all(
            [(c.label, predicted[c.key]) for c in listed],
            results,
            resamples=resamples,
            seed=seed,
        )
        games = int(np.asarray(cols["n"])[mask][0])
        scores.append(
            MonthScore(
                perf,
                int(month),
                games,
                int(mask.sum()),
                accuracy.score(predicted[FIDE.key], results),
                accuracy.score(predicted[LICHESS.key], results),
                pairs[0],
                {
                    c.key: accuracy.score(predicted[c.key], results)
                    for c in listed
                    if c.db == "track"
                },
                pairs,
                totals.get((perf, int(month)), games) - games,
            )
        )
    return scores
