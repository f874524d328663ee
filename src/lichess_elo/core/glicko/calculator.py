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
here).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from lichess_elo.core import arguments as args
from lichess_elo.core.games import COLORS, Color
from lichess_elo.core.glicko_tables import ADVANTAGE as ADVANTAGE
from lichess_elo.core.glicko_tables import ADVANTAGE_SINCE as ADVANTAGE_SINCE
from lichess_elo.core.glicko_tables import REGULATOR as REGULATOR
from lichess_elo.core.glicko_tables import advantage_for as advantage_for
from lichess_elo.core.glicko_tables import regulator_factor as regulator_factor
from lichess_elo.errors import BadInput, GlickoConvergenceError, WrongType

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


# --- the calculator -----------------------------------------------------------------------


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Glickman step 5 with the Illinois iteration as scalachess runs it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        big_b = a - k * abs(tau)
        while f(big_b) < 0:
            k += 1
            big_b = a - k * abs(tau)
    f_a, f_b = f(big_a), f(big_b)
    iterations = 0
    while abs(big_b - big_a) > TOLERANCE and iterations < MAX_ITERATIONS:
        iterations += 1
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    if iterations == MAX_ITERATIONS:
        raise GlickoConvergenceError("Glicko-2 volatility iteration did not converge")
    return math.exp(big_a / 2.0)


def _rate(
    player: Rating,
    results: Sequence[tuple[float, float, float, float]],
    tau: float,
    periods: float,
) -> Rating:
    """Glickman steps 2-8 for one player.

    ``results`` holds (own mu as seen in the expectation, opponent mu likewise, opponent phi,
    score). Own mu with a colour offset is used only inside E; the update starts from the
    player's real mu.
    """
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + periods * sigma * sigma)
        return Rating(player.rating, phi_star * SCALE, sigma)
    inv_v = 0.0
    outcome = 0.0
    for own_mu, mu_j, phi_j, score in results:
        g = _g(phi_j)
        e = _expected(own_mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        outcome += g * (score - e)
    v = 1.0 / inv_v
    delta = v * outcome
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + periods * new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * outcome
    return Rating(new_mu * SCALE + CENTRE, new_phi * SCALE, new_sigma)


def update(
    white: Rating,
    black: Rating,
    white_score: float,
    *,
    advantage: float = 0.0,
    tau: float = TAU,
) -> tuple[Rating, Rating]:
    """Rate one game as the scalachess calculator does (one game = one period, no step 6).

    Both players are updated from their pre-game values. The colour advantage raises White's
    rating by ``advantage / 2`` and lowers Black's by as much inside the expected score only.
    No caps, regulator or rounding: see :func:`lichess_game` for those.

    Args:
        white: White's pre-game rating.
        black: Black's pre-game rating.
        white_score: 1 (White won), 0.5 (draw) or 0 (Black won).
        advantage: colour advantage in rating points, e.g. ``ADVANTAGE["standard"]``.
        tau: system constant (Lichess: 0.75).

    Returns:
        (White after, Black after), unrounded.

    Raises:
        WrongType, BadArgument: an argument of the wrong type or value.
    """
    args.glicko_rating("white", white, Rating)
    args.glicko_rating("black", black, Rating)
    _numbers(white_score=white_score, advantage=advantage, tau=tau)
    half = advantage / 2.0
    mu_w = (white.rating + half - CENTRE) / SCALE
    mu_b = (black.rating - half - CENTRE) / SCALE
    phi_w = white.deviation / SCALE
    phi_b = black.deviation / SCALE
    new_white = _rate(white, [(mu_w, mu_b, phi_b, white_score)], tau, 0.0)
    new_black = _rate(black, [(mu_b, mu_w, phi_w, 1.0 - white_score)], tau, 0.0)
    return new_white, new_black


def expected_score(
    rating: float,
    opponent: float,
    opponent_deviation: float,
    *,
    color: Color = "white",
    advantage: float = 0.0,
) -> float:
    """The player's Glicko-2 expected score against one opponent, as :func:`update` uses it.

    ``1 / (1 + exp(-g(phi_j) (mu - mu_j)))`` with ``g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)``,
    where White's rating is raised by ``advantage / 2`` and Black's lowered by as much.

    Args:
        rating: the player's pre-game rating.
        opponent: the opponent's pre-game rating.
        opponent_deviation: the opponent's RD (only the opponent's RD enters E).
        color: the player's colour, for the side of the colour advantage.
        advantage: colour advantage in rating points (see :func:`advantage_for`).

    Raises:
        WrongType, BadArgument, UnknownChoice: an argument of the wrong type or value.
    """
    if color != "white" and color != "black":
        args.choice("color", color, COLORS)
    try:  # the arguments are checked when the result shows one is wrong (a hot path)
        half = advantage / 2.0 if color == "white" else -advantage / 2.0
        mu = (rating + half - CENTRE) / SCALE
        mu_j = (opponent - half - CENTRE) / SCALE
        value = _expected(mu, mu_j, opponent_deviation / SCALE)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        value = math.nan
    if value != value:  # NaN
        _numbers(rating=rating, opponent=opponent, advantage=advantage)
        args.real("opponent_deviation", opponent_deviation, low=0, above=True)
    return value


def glickman_period(
    player: Rating,
    opponents: Sequence[tuple[Rating, float]],
    *,
    tau: float = 0.5,
    periods: int = 1,
) -> Rating:
    """Rate one player over a whole period as in Glickman's paper (step 6 applied).

    Args:
        player: the player's rating at the start of the period.
        opponents: (opponent's rating, the player's score against them) for every game.
        tau: system constant (the paper's example uses 0.5).
        periods: elapsed rating periods in step 6 (1 in the paper; 0 is Lichess's choice).

    Returns:
        The player's rating after the period. With no games only the RD grows (step 6).

    Raises:
        WrongType, BadArgument: an argument of the wrong type or value.
    """
    args.glicko_rating("player", player, Rating)
    for pair in args.sequence("opponents", opponents, "(Rating, score) pairs"):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise WrongType("opponents", pair, "a (Rating, score) pair")
        args.glicko_rating("opponent", pair[0], Rating)
        args.real("score", pair[1])
    _numbers(tau=tau)
    args.whole("periods", periods, 0)
    results = [
        (
            (player.rating - CENTRE) / SCALE,
            (opp.rating - CENTRE) / SCALE,
            opp.deviation / SCALE,
            score,
        )
        for opp, score in opponents
    ]
    return _rate(player, results, tau, float(periods))


# --- the lila wrapper ---------------------------------------------------------------------


def _cap(r: Rating) -> Rating:
    """Lila ``GlickoExt.cap``: rating >= 400, RD within 45..500, volatility <= 0.1."""
    return Rating(
        max(r.rating, MIN_RATING),
        min(max(r.deviation, MIN_DEVIATION), MAX_DEVIATION),
        min(r.volatility, MAX_VOLATILITY),
    )


def _sane(r: Rating) -> bool:
    """Lila ``sanityCheck``: 0 < r < 4000, 0 < RD < 1000, 0 < volatility < 0.2."""
    return 0 < r.rating < 4000 and 0 < r.deviation < 1000 and 0 < r.volatility < 2 * MAX_VOLATILITY


def live_deviation(player: Rating, days: float) -> float:
    """Return the RD Lichess uses after ``days`` without a rated game in the perf.

    RD_live = sqrt(RD^2 + 0.21436 * days * (173.7178 * sigma)^2), clamped to 45..500, computed
    from the capped perf (RD within 45..500, volatility at most 0.1) as lila does. Negative
    days deflate the RD (lila's write path); the radicand never goes below 0.
    """
    args.glicko_rating("player", player, Rating)
    _numbers(days=days)
    capped = _cap(player)
    t = PERIODS_PER_DAY * days
    growth = t * (SCALE * capped.volatility) ** 2
    live = math.sqrt(max(capped.deviation**2 + growth, 0.0))
    return min(max(live, MIN_DEVIATION), MAX_DEVIATION)


#: The bounds of the numbers the functions take besides ratings: (low, high, above low).
_BOUNDS = {"tau": (0.0, 10.0, True), "advantage": (-500.0, 500.0, False)}


def _numbers(**values: object) -> None:
    """Refuse any of ``values`` that is not a finite number within its ``_BOUNDS``."""
    for name, value in values.items():
        low, high, above = _BOUNDS.get(name, (None, None, False))
        args.real(name, value, low=low, high=high, above=above)


def _check_score(score: float) -> None:
    if score not in (0.0, 0.5, 1.0):
        raise BadInput("must be 1, 0.5 or 0", field="score", value=score)


def lichess_game(
    white: Rating,
    black: Rating,
    white_score: float,
    *,
    perf: str | None = None,
    advantage: float = ADVANTAGE["standard"],
    days_white: float = 0,
    days_black: float = 0,
    bot: Color | None = None,
) -> tuple[SideResult, SideResult]:
    """Rate one game the way lila does and return what each side's perf becomes.

    Steps (``docs/lichess.md``): RD grows with the days since each player's last game in the perf;
    the calculator sees capped values (rating >= 400, RD 45..500, volatility <= 0.1); gains are
    multiplied by the perf's regulator factor; a human playing a BOT gets the midpoint of the
    pre- and post-game (rating, RD, volatility); the new rating stays within +-700 of the old
    one; an insane result resets to 1500/500/0.09; the stored value is capped again;
    ``rating_diff`` = trunc(new rating) - trunc(old rating).

    Args:
        white: White's stored perf (rating, RD at the last game, volatility).
        black: Black's stored perf.
        white_score: 1, 0.5 or 0 from White's point of view.
        perf: perf key whose regulator applies (e.g. ``"blitz"``); None applies none.
        advantage: colour advantage in rating points (see :data:`ADVANTAGE`).
        days_white: days since White's previous rated game in this perf (0: no RD growth).
        days_black: the same for Black.
        bot: the colour played by a BOT account, if one side is a BOT.

    Returns:
        (White's SideResult, Black's SideResult).

    Raises:
        BadInput: a score other than 1/0.5/0, negative days or an unknown perf;
            ``WrongType``, ``BadArgument``: an argument of the wrong type or value.
    """
    args.glicko_rating("white", white, Rating)
    args.glicko_rating("black", black, Rating)
    _numbers(white_score=white_score, advantage=advantage, days_white=days_white)
    _numbers(days_black=days_black)
    if bot is not None:
        args.choice("bot", bot, COLORS)
    _check_score(white_score)
    if days_white < 0 or days_black < 0:
        raise BadInput("must be 0 or more", field="days", value=min(days_white, days_black))
    factor = regulator_factor(perf)
    loaded = (
        replace(white, deviation=live_deviation(white, days_white)),
        replace(black, deviation=live_deviation(black, days_black)),
    )
    pre = (_cap(loaded[0]), _cap(loaded[1]))
    post = update(pre[0], pre[1], white_score, advantage=advantage)
    sides: list[SideResult] = []
    for color, old, before, after in zip(COLORS, loaded, pre, post, strict=True):
        if factor != 1.0 and after.rating > before.rating:
            after = replace(
                after, rating=after.rating + (after.rating - before.rating) * (factor - 1)
            )
        if bot is not None and bot != color:
            after = Rating(
                (after.rating + before.rating) / 2,
                (after.deviation + before.deviation) / 2,
                (after.volatility + before.volatility) / 2,
            )
        clamped = min(
            max(after.rating, old.rating - MAX_RATING_DELTA), old.rating + MAX_RATING_DELTA
        )
        new = replace(after, rating=clamped)
        stored = _cap(new if _sane(new) else DEFAULT)
        diff = math.trunc(stored.rating) - math.trunc(old.rating)
        sides.append(SideResult(before=old, after=stored, rating_diff=diff))
    return sides[0], sides[1]
