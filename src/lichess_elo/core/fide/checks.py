"""The one range check of each FIDE input (ratings, K, game counts, birth years, choices)."""

from __future__ import annotations

from collections.abc import Sequence

from lichess_elo.core.fide.constants import (
    BIRTH_YEAR_MIN,
    GAMES_BEFORE_MAX,
    K_TIMES_GAMES_MAX,
    MAX_RATING,
    MIN_RATING,
)
from lichess_elo.errors import OutOfRange, UnknownChoice


def check_choice(field: str, value: str, choices: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise ``UnknownChoice``."""
    if value not in choices:
        raise UnknownChoice(field, value, choices)
    return value


def _check_range(field: str, value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise OutOfRange(field, value, low, high)
    return value


def check_rating(value: int, field: str = "rating") -> int:
    """Return ``value`` if it is a rating within 0..4000, else raise ``OutOfRange``."""
    return _check_range(field, value, MIN_RATING, MAX_RATING)


def check_k(value: int) -> int:
    """Return ``value`` if it is a K within 1..700 (the 700 rule's bound), else raise."""
    return _check_range("k", value, 1, K_TIMES_GAMES_MAX)


def check_games_before(value: int) -> int:
    """Return ``value`` if it is a count of earlier rated games within 0..100000."""
    return _check_range("games_before", value, 0, GAMES_BEFORE_MAX)


def check_birth_year(value: int, year: int) -> int:
    """Return ``value`` if it is a birth year within 1900..``year`` (the list's year)."""
    return _check_range("birth_year", value, BIRTH_YEAR_MIN, year)
