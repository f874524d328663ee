"""The Glicko-2 calculator: Glickman's steps as scalachess runs them, and his whole period.

Pure code, no I/O; part of ``lichess_elo.core.glicko`` (the names are re-exported there).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from lichess_elo.core import arguments as args
from lichess_elo.core.games import COLORS, Color
from lichess_elo.core.glicko.rating import (
    CENTRE,
    MAX_ITERATIONS,
    SCALE,
    TAU,
    TOLERANCE,
    Rating,
    check_numbers,
)
from lichess_elo.errors import GlickoConvergenceError, WrongType


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
    check_numbers(white_score=white_score, advantage=advantage, tau=tau)
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
        check_numbers(rating=rating, opponent=opponent, advantage=advantage)
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
    check_numbers(tau=tau)
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
