"""FIDE initial rating of an unrated player (8.2, 2024 rule)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from lichess_elo.core.fide.constants import (
    _HALF,
    _HUNDREDTH,
    _ZERO,
    HYPOTHETICAL_DRAWS,
    HYPOTHETICAL_OPPONENT,
    INITIAL_MIN_GAMES,
    INITIAL_RATING_MAX,
    PUBLICATION_FLOOR,
)
from lichess_elo.core.fide.rules import GameResult, dp, round_half_away
from lichess_elo.errors import BadInput


@dataclass(frozen=True)
class InitialRating:
    """The steps of an initial rating (8.2): Ra and p include the two hypothetical draws."""

    games: tuple[GameResult, ...]
    points: Decimal
    average: Decimal
    p: Decimal
    dp: int
    unrounded: Decimal
    rating: int
    at_maximum: bool
    publishable: bool


def initial_rating_details(results: Sequence[GameResult]) -> InitialRating:
    """FIDE 8.2 (2024) step by step: the initial rating of an unrated player.

    Ra = (sum of opponents + 2 x 1800) / (n + 2), unrounded; p = (points + 1) / (n + 2)
    rounded to .01 half up; Ru = Ra + dp(p), rounded half up, at most 2200. FIDE publishes
    it only when it is at least 1400 (7.1.4); ``publishable`` says so, the rating is
    returned either way.

    Args:
        results: the games against rated opponents (pooled over at most 26 months).

    Raises:
        BadInput: with fewer than 5 games (7.1.4), or a zero score, which 8.2.1 disregards.
    """
    n = len(results)
    if n < INITIAL_MIN_GAMES:
        raise BadInput(
            f"an initial rating needs at least {INITIAL_MIN_GAMES} games against rated "
            f"opponents, got {n}"
        )
    points = sum((r.score for r in results), _ZERO)
    if points == 0:
        raise BadInput("a zero score gives no initial rating (FIDE 8.2.1 disregards it)")
    total = n + HYPOTHETICAL_DRAWS
    average = (
        Decimal(sum(r.opponent for r in results)) + HYPOTHETICAL_DRAWS * HYPOTHETICAL_OPPONENT
    ) / total
    p = ((points + HYPOTHETICAL_DRAWS * _HALF) / total).quantize(_HUNDREDTH, ROUND_HALF_UP)
    diff = dp(p)
    unrounded = average + diff
    rounded = round_half_away(unrounded)
    rating = min(rounded, INITIAL_RATING_MAX)
    return InitialRating(
        games=tuple(results),
        points=points,
        average=average,
        p=p,
        dp=diff,
        unrounded=unrounded,
        rating=rating,
        at_maximum=rounded >= INITIAL_RATING_MAX,
        publishable=is_publishable(rating),
    )


def initial_rating(results: Sequence[GameResult]) -> int:
    """FIDE 8.2 (2024): the initial rating from at least 5 games against rated opponents.

    See ``initial_rating_details`` for the steps; check ``is_publishable`` for the 1400 floor.

    Raises:
        BadInput: with fewer than 5 games, or a zero score.
    """
    return initial_rating_details(results).rating


def is_publishable(rating: int) -> bool:
    """Whether FIDE would publish this rating: at least 1400 (7.1.2, 7.1.4, 7.2.1)."""
    return rating >= PUBLICATION_FLOOR
