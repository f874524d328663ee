"""A FIDE rating period (pure): every game of the period rated once by the engine's rules,
and the records of the outcome (``RatedGame``, ``PeriodResult``).

``rate_period`` is the period of the regulations: the 600/2600 rule, K limited by the 700
rule, the 400-point rule (per game, or once per event), the PDs and the change rounded once.
``period_expected`` is its arithmetic without the records, for the K scan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from lichess_elo.core.fide.checks import check_period_args
from lichess_elo.core.fide.constants import CURRENT_STANDARD, ZERO, Method
from lichess_elo.core.fide.editions import Edition
from lichess_elo.core.fide.engine import (
    cap_applies,
    difference_used,
    limit_k,
    not_rated,
    pd,
    performance_rating,
    round_half_away,
)
from lichess_elo.core.fide.game import GameResult
from lichess_elo.core.value import value_class


@value_class  # frozen for mypy; built as fast as a plain slotted dataclass (one a game)
class RatedGame:
    """One game as rated: the D used, whether it was capped, PD and K_used x (score - PD).

    ``not_rated`` gives why the edition leaves the game unrated (``"600/2600"``); such a
    game has no change and counts neither in the period's totals nor in n.
    """

    opponent: int
    score: Decimal
    difference: int
    capped: bool
    expected: Decimal
    change: Decimal
    not_rated: str | None = None


@dataclass(frozen=True)
class PeriodResult:
    """A rating period: the per-game values, the unrounded and rounded change, new rating."""

    rating: int
    k: int
    k_requested: int
    k_limited: bool
    method: Method
    cap: bool
    games: tuple[RatedGame, ...]
    points: Decimal
    expected: Decimal
    change: Decimal
    rounded_change: int
    new_rating: int
    performance: int | None
    edition: Edition = CURRENT_STANDARD

    @property
    def rated_games(self) -> int:
        """The games the edition rates (n of the 700 rule)."""
        return sum(g.not_rated is None for g in self.games)


#: A rating difference: whole (the lists) or unrounded (a club's running ratings).


#: ``_change``'s products by (K, score object, PD object); holds the objects themselves so
#: that an ``id`` is never mistaken for another object's.
_CHANGES: dict[tuple[int, int, int], tuple[Decimal, Decimal, Decimal]] = {}
_CHANGES_MAX = 4096


def _change(k: int, score: Decimal, expected: Decimal, method: Method) -> Decimal:
    """K x (score - PD). With the table, one shared ``Decimal`` per K, score and PD: the
    scores and the table's PDs are a few shared objects, so a report of 300,000 games holds
    a few hundred products instead of one each (the same value, exponent included, since
    the very same operands give it). The formula's PDs are all different: not shared."""
    if method != "table":
        return k * (score - expected)
    key = (k, id(score), id(expected))
    hit = _CHANGES.get(key)
    if hit is not None and hit[0] is score and hit[1] is expected:
        return hit[2]
    if len(_CHANGES) >= _CHANGES_MAX:
        _CHANGES.clear()
    change = k * (score - expected)
    _CHANGES[key] = (score, expected, change)
    return change


def rate_period(
    rating: int,
    games: Sequence[GameResult],
    *,
    k: int,
    method: Method = "table",
    cap: bool = True,
    edition: Edition = CURRENT_STANDARD,
) -> PeriodResult:
    """Rate one period: per-game K x (score - PD), summed, rounded once half away from zero.

    The ``edition`` decides the 400-point rule (every game, or once per event: the
    ``event`` of each game, ``None`` = the period), the 2650 exemption and the 600/2600
    rule (a game it leaves unrated gets ``not_rated`` and counts nowhere, not even in n).

    Args:
        rating: the player's rating on the list in force.
        games: the period's games against rated opponents.
        k: the player's K before the 700 rule (``limit_k`` is applied here).
        method: ``"table"`` (FIDE) or ``"formula"`` (logistic).
        cap: apply the 400-point rule.
        edition: the rules in force (default: today's standard chapter).

    Returns:
        The ``PeriodResult``; per-game changes are unrounded.

    Raises:
        WrongType, BadArgument, OutOfRange, UnknownChoice: an argument of the wrong type or
            value (a score must be 0, 0.5 or 1: see ``core.arguments``).
    """
    games = check_period_args(rating, games, k, method, cap, edition)
    excluded, counted, k_used, rated_parts, points, expected_total, change = _rate(
        rating, games, k, method, cap, edition
    )
    rated = [
        RatedGame(  # positional, in field order: keywords cost about twice as much a game
            game.opponent,  # opponent
            game.score,  # score
            diff,  # difference
            capped,  # capped
            expected,  # expected
            ZERO if out else _change(k_used, game.score, expected, method),  # change
            "600/2600" if out else None,  # not_rated
        )
        for game, out, (diff, capped, expected) in zip(games, excluded, rated_parts, strict=True)
    ]
    rounded = round_half_away(change)
    return PeriodResult(
        rating=rating,
        k=k_used,
        k_requested=k,
        k_limited=k_used != k,
        method=method,
        cap=cap,
        games=tuple(rated),
        points=points,
        expected=expected_total,
        change=change,
        rounded_change=rounded,
        new_rating=rating + rounded,
        performance=performance_rating([g.opponent for g in counted], points),
        edition=edition,
    )


def _rate(
    rating: int,
    games: Sequence[GameResult],
    k: int,
    method: Method,
    cap: bool,
    edition: Edition,
) -> tuple[
    list[bool], list[GameResult], int, list[tuple[int, bool, Decimal]], Decimal, Decimal, Decimal
]:
    """``rate_period``'s arithmetic: which games the 600/2600 rule leaves out, the counted
    games, K after the 700 rule, each game's (D used, capped, PD), the points, the expected
    total and the unrounded change."""
    excluded = [not_rated(rating, g.opponent, edition=edition) for g in games]
    counted = [g for g, out in zip(games, excluded, strict=True) if not out]
    k_used = limit_k(k, len(counted), edition=edition)
    applies = iter(
        cap_applies(
            rating,
            [g.opponent for g in counted],
            [g.event or "" for g in counted],
            edition=edition,
        )
    )
    parts: list[tuple[int, bool, Decimal]] = []
    for game, out in zip(games, excluded, strict=True):
        may_cap = cap and not out and next(applies)
        diff, capped = difference_used(rating, game.opponent, cap=may_cap, edition=edition)
        parts.append((diff, capped, pd(diff, method)))
    points = sum((g.score for g in counted), ZERO)
    expected_total = sum(
        (e for (_, _, e), out in zip(parts, excluded, strict=True) if not out), ZERO
    )
    return (
        excluded,
        counted,
        k_used,
        parts,
        points,
        expected_total,
        k_used * (points - expected_total),
    )


def period_expected(
    rating: int,
    games: Sequence[GameResult],
    *,
    k: int,
    method: Method = "table",
    cap: bool = True,
    edition: Edition = CURRENT_STANDARD,
) -> tuple[list[Decimal], int]:
    """``rate_period``'s per-game PDs and new rating only, from the same arithmetic, with no
    record made (the K scan rates every period once per K)."""
    *_, parts, _points, _expected, change = _rate(rating, games, k, method, cap, edition)
    return [e for _, _, e in parts], rating + round_half_away(change)
