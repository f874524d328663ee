"""The one range check of each FIDE input (ratings, K, game counts, birth years, choices)."""

from __future__ import annotations

from collections.abc import Sequence

from lichess_elo.core import arguments as args
from lichess_elo.core.fide.constants import (
    BIRTH_YEAR_MIN,
    GAMES_BEFORE_MAX,
    K_TIMES_GAMES_MAX,
    MAX_RATING,
    METHODS,
    MIN_RATING,
)
from lichess_elo.core.fide.editions import Edition
from lichess_elo.core.fide.game import GameResult
from lichess_elo.errors import OutOfRange, UnknownChoice, WrongType


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


def check_expected_args(
    own: object, opponent: object, method: object, cap: object, edition: object
) -> None:
    """The types and values of ``expected_score``'s arguments (ratings: whole numbers)."""
    if own.__class__ is not int or opponent.__class__ is not int:
        args.whole("rating", own)
        args.whole("opponent", opponent)
    if method != "table":
        args.choice("method", method, METHODS)
    if cap is not True:
        args.flag("cap", cap)
    if edition.__class__ is not Edition:
        args.instance("edition", edition, Edition, "an Edition (fide.latest(...))")


def _checked_game(game: object, number: int) -> GameResult:
    """One game of ``games`` (the ``number``-th), its score as the engine's ``Decimal``."""
    where = f"game {number}"
    if not isinstance(game, GameResult):
        raise WrongType("games", game, "a GameResult", where=where)
    args.whole("opponent", game.opponent)
    if game.event is not None:
        args.text("event", game.event)
    score = args.game_score(game.score, where=where)
    return game if game.score is score else GameResult(game.opponent, score, game.event)


def check_period_args(
    rating: object, games: object, k: object, method: object, cap: object, edition: object
) -> Sequence[GameResult]:
    """The types and values of ``rate_period``'s arguments; the games come back with each
    score as the engine's ``Decimal`` (``core.arguments.game_score``)."""
    args.whole("rating", rating)
    args.whole("k", k, 1, K_TIMES_GAMES_MAX)
    check_expected_args(0, 0, method, cap, edition)
    listed = args.sequence("games", games, "GameResult")
    if all(
        g.__class__ is GameResult
        and g.opponent.__class__ is int
        and args.is_engine_score(g.score)
        and (g.event is None or g.event.__class__ is str)
        for g in listed
    ):
        return listed
    return [_checked_game(g, i) for i, g in enumerate(listed, 1)]
