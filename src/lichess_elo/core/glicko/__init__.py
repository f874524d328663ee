"""Glicko-2 as Lichess runs it: one game is one rating period (pure functions, no I/O).

Source of truth: ``docs/lichess.md`` (a restatement of scalachess
``rating/.../glicko/impl/RatingCalculator.scala`` and lila ``PerfsUpdater``, ``Perf``,
``Glicko``, ``RatingRegulator``). Three layers:

* :func:`update` - the calculator: Glickman's steps for one game with step 6 skipped
  (phi* = phi), tau 0.75, both players updated from their pre-game values, plus the colour
  advantage (White's rating +A/2, Black's -A/2 inside the expected score only).
* :func:`glickman_period` - the paper's general multi-game period with step 6, so that
  Glickman's worked example can be checked.
* :func:`lichess_game` - what lila wraps around the calculator: live RD, caps, rating
  regulator, halving against a BOT, the +-700 limit, the sanity reset and the truncated
  ``ratingDiff``.

The colour advantage and the rating regulator by perf live in ``glicko_tables`` (re-exported
here). The code is in three modules: ``rating`` (the record and its constants),
``calculator`` and ``lila``; every public name is re-exported here.
"""

from __future__ import annotations

from lichess_elo.core.glicko.calculator import expected_score, glickman_period, update
from lichess_elo.core.glicko.lila import lichess_game, live_deviation
from lichess_elo.core.glicko.rating import (
    CENTRE,
    DEFAULT,
    MAX_DEVIATION,
    MAX_ITERATIONS,
    MAX_RATING_DELTA,
    MAX_VOLATILITY,
    MIN_DEVIATION,
    MIN_RATING,
    PERIODS_PER_DAY,
    PROVISIONAL_DEVIATION,
    SCALE,
    TAU,
    TOLERANCE,
    Rating,
    SideResult,
    is_provisional,
)
from lichess_elo.core.glicko_tables import (
    ADVANTAGE,
    ADVANTAGE_SINCE,
    REGULATOR,
    advantage_for,
    regulator_factor,
)

__all__ = [
    "ADVANTAGE",
    "ADVANTAGE_SINCE",
    "CENTRE",
    "DEFAULT",
    "MAX_DEVIATION",
    "MAX_ITERATIONS",
    "MAX_RATING_DELTA",
    "MAX_VOLATILITY",
    "MIN_DEVIATION",
    "MIN_RATING",
    "PERIODS_PER_DAY",
    "PROVISIONAL_DEVIATION",
    "REGULATOR",
    "SCALE",
    "TAU",
    "TOLERANCE",
    "Rating",
    "SideResult",
    "advantage_for",
    "expected_score",
    "glickman_period",
    "is_provisional",
    "lichess_game",
    "live_deviation",
    "regulator_factor",
    "update",
]
