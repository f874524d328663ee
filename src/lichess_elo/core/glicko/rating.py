"""The Glicko-2 rating record, Lichess's constants and the checks of the engine's numbers.

Pure code, no I/O; part of ``lichess_elo.core.glicko`` (the names are re-exported there).
"""

from __future__ import annotations

from dataclasses import dataclass

from lichess_elo.core import arguments as args

#: Glicko-2 scale: mu = (r - 1500) / SCALE, phi = RD / SCALE (about 400 / ln 10).
SCALE = 173.7178
CENTRE = 1500.0
#: Lichess's system constant (scalachess ``Tau.default``).
TAU = 0.75
#: Volatility iteration: stop when |B - A| <= 1e-6, give up after 1000 iterations.
TOLERANCE = 1e-6
MAX_ITERATIONS = 1000
#: Rating periods per day of inactivity for the live RD (lila ``Glicko.calculator``).
PERIODS_PER_DAY = 0.21436
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
MAX_VOLATILITY = 0.1
MIN_RATING = 400.0
MAX_RATING_DELTA = 700.0
#: RD at or above which Lichess shows a rating as provisional ("1500?").
PROVISIONAL_DEVIATION = 110.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale: rating, deviation (RD) and volatility."""

    rating: float
    deviation: float
    volatility: float = 0.09

    @property
    def provisional(self) -> bool:
        """True when Lichess marks this rating provisional (RD >= 110)."""
        return is_provisional(self.deviation)


#: A new Lichess player (lila ``Glicko.default``).
DEFAULT = Rating(1500.0, 500.0, 0.09)


@dataclass(frozen=True, slots=True)
class SideResult:
    """One player's side of a rated game.

    ``before`` is the perf as loaded at the end of the game (stored rating, live RD, stored
    volatility); ``after`` the stored perf afterwards; ``rating_diff`` what Lichess shows.
    """

    before: Rating
    after: Rating
    rating_diff: int


def is_provisional(deviation: float) -> bool:
    """Return True when an RD makes a Lichess rating provisional (RD >= 110)."""
    return deviation >= PROVISIONAL_DEVIATION


#: The bounds of the numbers the functions take besides ratings: (low, high, above low).
_BOUNDS = {"tau": (0.0, 10.0, True), "advantage": (-500.0, 500.0, False)}


def check_numbers(**values: object) -> None:
    """Refuse any of ``values`` that is not a finite number within its ``_BOUNDS``."""
    for name, value in values.items():
        low, high, above = _BOUNDS.get(name, (None, None, False))
        args.real(name, value, low=low, high=high, above=above)
