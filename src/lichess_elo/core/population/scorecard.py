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
from lichess_elo.core.population.rivals_sql import CONTENDERS
from lichess_elo.core.report.predictions import OPPONENT_RD_ESTABLISHED

#: ``games.ord`` = epoch seconds x this + position in the file.
ORD_SCALE = 1_000_000_000


#: The systems of the scorecard, by key and label, in table order (``compare_all`` pairs
#: them in this order, so the first pair is FIDE's rules against Lichess).
SYSTEMS: tuple[tuple[str, str], ...] = (
    ("fide", "FIDE rules"),
    ("lichess", "Lichess Glicko-2"),
    *((r.key, "Glicko-1" if r.key == "glicko1" else "Stephenson") for r in CONTENDERS),
)


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
    #: Glicko-1's and Stephenson's scores, by contender key.
    rivals: dict[str, Scores] = field(default_factory=dict)
    #: Every pair of ``SYSTEMS`` (by label), paired on the same games.
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
        predicted = {
            "fide": np.asarray(cols["e"])[mask] / 100,
            "lichess": lichess_expected(
                np.asarray(cols["white_elo"])[mask],
                np.asarray(cols["black_elo"])[mask],
                np.asarray(cols["ord"])[mask],
            ),
            **{r.key: np.asarray(cols[f"e_{r.key}"])[mask] for r in CONTENDERS},
        }
        pairs = accuracy.compare_all(
            [(label, predicted[key]) for key, label in SYSTEMS],
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
                accuracy.score(predicted["fide"], results),
                accuracy.score(predicted["lichess"], results),
                pairs[0],
                {r.key: accuracy.score(predicted[r.key], results) for r in CONTENDERS},
                pairs,
                totals.get((perf, int(month)), games) - games,
            )
        )
    return scores
