"""FIDE initial rating of an unrated player (8.2), by the rule of the edition in force.

Two rules have been in force (``Edition.initial_method``):

* ``draws`` (H24 8.2.2-8.2.3): Ra is the average of the rated opponents
  plus two hypothetical opponents rated 1800, both games drawn; Ru = Ra + dp(p), p with the
  two draws; at most 2200.
* ``half-points`` (H22 8.2.3 and earlier): Ra is the average of the rated
  opponents; scoring 50 % or more, Ru = Ra + a fixed number of points for each half point
  over 50 % (``Edition.initial_per_half_point``); below 50 %, Ru = Ra + dp(p).

Which edition holds which rule, from when to when, is the rulebook's (``editions.EDITIONS``);
``wording.initial_rule_text`` names a rule by its dates.

Either way FIDE publishes it only when it reaches the edition's floor (7.1.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from lichess_elo.core.fide.constants import CURRENT_STANDARD, HALF, HUNDREDTH, ZERO
from lichess_elo.core.fide.editions import Edition, InitialMethod
from lichess_elo.core.fide.engine import GameResult, dp, round_half_away
from lichess_elo.errors import BadInput


@dataclass(frozen=True)
class InitialRating:
    """The steps of an initial rating (8.2).

    Attributes:
        games: The games against rated opponents.
        points: The points scored in them.
        average: Ra (with the hypothetical draws under ``draws``).
        p: The fractional score, rounded to .01 (with the draws under ``draws``).
        dp: Table 8.1.1's dp for ``p`` (``None`` when the half-point rule decided).
        bonus: The points added to Ra: dp, or the half points over 50 % times their value.
        unrounded: Ra + bonus.
        rating: The initial rating (rounded, at most the edition's maximum).
        at_maximum: The maximum cut it.
        publishable: At least the edition's floor.
        edition: The edition whose rule was applied.
    """

    games: tuple[GameResult, ...]
    points: Decimal
    average: Decimal
    p: Decimal
    dp: int | None
    bonus: Decimal
    unrounded: Decimal
    rating: int
    at_maximum: bool
    publishable: bool
    edition: Edition = CURRENT_STANDARD

    @property
    def method(self) -> InitialMethod:
        """The rule applied: ``draws`` or ``half-points``."""
        return self.edition.initial_method or "draws"

    @property
    def half_points_over(self) -> int:
        """Half points scored over 50 % (the ``half-points`` rule's count; 0 below 50 %)."""
        n = len(self.games)
        return max(0, int((self.points * 2) - n))


def initial_rating_details(
    results: Sequence[GameResult], *, edition: Edition = CURRENT_STANDARD
) -> InitialRating:
    """FIDE 8.2 step by step under ``edition``'s rule (see the module docstring).

    Ra is kept unrounded; p is rounded to .01 half up (a reading: the Title Regulations'
    rule for percentages); Ru is rounded half up once, then cut to the edition's maximum.

    Args:
        results: the games against rated opponents (pooled over at most 26 months).
        edition: the edition in force (its ``initial_method``, maximum and floor); a Rapid
            & Blitz edition has none of its own: pass ``editions.initial_rules(day)``.

    Raises:
        BadInput: with fewer games than the edition needs (7.1.4), or a zero score, which
            8.2.1 disregards.
    """
    n = len(results)
    need = edition.initial_min_games
    if n < need:
        raise BadInput(
            f"an initial rating needs at least {need} games against rated opponents, got {n}"
        )
    points = sum((r.score for r in results), ZERO)
    if points == 0:
        raise BadInput("a zero score gives no initial rating (FIDE 8.2.1 disregards it)")
    opponents = Decimal(sum(r.opponent for r in results))
    diff: int | None
    if edition.initial_method in (None, "draws"):
        total = n + edition.hypothetical_draws
        average = (opponents + edition.hypothetical_draws * edition.hypothetical_opponent) / total
        p = ((points + edition.hypothetical_draws * HALF) / total).quantize(
            HUNDREDTH, ROUND_HALF_UP
        )
        diff = dp(p)
        bonus = Decimal(diff)
    else:
        average = opponents / n
        p = (points / n).quantize(HUNDREDTH, ROUND_HALF_UP)
        over = points * 2 - n  # half points over 50 %
        if over >= 0:
            diff = None
            bonus = over * (edition.initial_per_half_point or ZERO)
        else:
            diff = dp(p)
            bonus = Decimal(diff)
    unrounded = average + bonus
    rounded = round_half_away(unrounded)
    most = edition.initial_max
    rating = rounded if most is None else min(rounded, most)
    return InitialRating(
        games=tuple(results),
        points=points,
        average=average,
        p=p,
        dp=diff,
        bonus=bonus,
        unrounded=unrounded,
        rating=rating,
        at_maximum=most is not None and rounded >= most,
        publishable=is_publishable(rating, edition=edition),
        edition=edition,
    )


def initial_rating(results: Sequence[GameResult], *, edition: Edition = CURRENT_STANDARD) -> int:
    """FIDE 8.2: the initial rating under ``edition``'s rule (see ``initial_rating_details``).

    Raises:
        BadInput: with too few games, or a zero score.
    """
    return initial_rating_details(results, edition=edition).rating


def is_publishable(rating: int, *, edition: Edition = CURRENT_STANDARD) -> bool:
    """Whether FIDE would publish this rating: at least the edition's floor
    (``Edition.floor``; 7.1.2, 7.2.1)."""
    return rating >= edition.floor
