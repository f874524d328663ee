"""The FIDE engine: each rule of an edition applied once (expected score, the 400-point rule
and its variants, the 600/2600 rule, K, the 700 rule, rounding, a rating period).

The numbers come from the edition (``editions.py``); nothing here holds a number of the
regulations but table 8.1.2's lookup."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import cache
from typing import TypeVar

from lichess_elo.core.fide.checks import check_expected_args
from lichess_elo.core.fide.constants import (
    CURRENT_STANDARD,
    GAMES_BEFORE_MAX,
    HUNDREDTH,
    ONE,
    ZERO,
    Method,
)
from lichess_elo.core.fide.editions import Edition, KReason
from lichess_elo.core.fide.game import GameResult as GameResult
from lichess_elo.core.fide.tables import dp_table, pd_rows
from lichess_elo.errors import BadInput, Missing, OutOfRange

_N = TypeVar("_N", int, Decimal)


def difference_used(
    own: int, opponent: int, *, cap: bool = True, edition: Edition = CURRENT_STANDARD
) -> tuple[int, bool]:
    """D = own - opponent, with the 400-point rule of ``edition`` (8.3.1).

    Args:
        own: rating of the player whose change is computed.
        opponent: the opponent's rating.
        cap: whether the rule applies to this game at all (``False``: the real difference;
            see ``cap_applies`` for the one-game-per-event limit).
        edition: the rules in force (default: the standard chapter as it stands, where
            |D| > 400 counts as +-400 when ``own`` < 2650).

    Returns:
        (D used, whether it was capped).
    """
    if not cap:
        return own - opponent, False
    return _capped(own, own - opponent, edition)


def capped_fraction(own: Decimal, opponent: Decimal, *, edition: Edition) -> Decimal:
    """``difference_used`` for unrounded ratings (a club's running ratings): the same rule,
    the same numbers."""
    return _capped(own, own - opponent, edition)[0]


def _capped(own: _N, diff: _N, edition: Edition) -> tuple[_N, bool]:
    """The 400-point rule of ``edition`` on ``diff`` for a player rated ``own``."""
    limit = edition.cap_difference
    exempt = edition.cap_exempt_from is not None and own >= edition.cap_exempt_from
    if not exempt and abs(diff) > limit:
        return type(diff)(limit if diff > 0 else -limit), True
    return diff, False


def cap_applies(
    own: int, opponents: Sequence[int], events: Sequence[str], *, edition: Edition
) -> tuple[bool, ...]:
    """Which of a period's games the 400-point rule may cap, game by game.

    With ``cap_scope == "game"`` every game. With ``"event"`` (2022 text: "In any
    tournament, a player may benefit from only one upgrade under this rule, for the game
    in which the rating difference is greatest"): in each event, of the games where the
    player is more than 400 points *above* the opponent (where the rule is an upgrade for
    the player), only the one with the greatest difference; the first of equal ones.
    Where the player is the lower-rated one the rule is no benefit, and it applies to every
    game, as in the editions whose cap scope is ``game`` (a reading, see ``docs/rules.md``).

    Args:
        own: The player's rating for the period.
        opponents: The opponents' ratings, one per game.
        events: The event of each game (any string; equal strings = one event).
        edition: The edition in force.
    """
    if len(opponents) != len(events):
        raise ValueError("one event per game is needed")
    if edition.cap_scope == "game":
        return tuple(True for _ in opponents)
    limit = edition.cap_difference
    best: dict[str, int] = {}
    for index, (opponent, event) in enumerate(zip(opponents, events, strict=True)):
        diff = own - opponent
        if diff > limit:
            chosen = best.get(event)
            if chosen is None or diff > own - opponents[chosen]:
                best[event] = index
    upgraded = set(best.values())
    return tuple(
        own - opponent <= limit or index in upgraded for index, opponent in enumerate(opponents)
    )


def not_rated(own: int, opponent: int, *, edition: Edition) -> bool:
    """The 600/2600 rule (the editions that set ``non_rating_gap``): a game between players
    ``non_rating_gap`` or more apart, where at least one is rated above
    ``non_rating_above``, is not rated."""
    if edition.non_rating_gap is None or edition.non_rating_above is None:
        return False
    apart = abs(own - opponent) >= edition.non_rating_gap
    return apart and max(own, opponent) > edition.non_rating_above


def is_junior(edition: Edition, birth_year: int | None, year: int) -> bool:
    """Whether a player born in ``birth_year`` is a junior on a list of ``year``.

    ``end_of_year``: up to and including the year of the 18th birthday
    (``year - birth_year <= 18``). ``birthday``: only the birth year is known, so the
    player counts as a junior up to the year before the 18th birthday
    (``year - birth_year < 18``; in the birthday year itself it depends on the day, which
    is not known, and the tool takes the established K).
    """
    if edition.k_junior is None or birth_year is None:
        return False
    age = year - birth_year
    if edition.junior_until == "end_of_year":
        return age <= edition.junior_age
    return age < edition.junior_age


def _pd_row(distance: int) -> tuple[Decimal, Decimal]:
    """Table 8.1.2's (PD high, PD low) for ``distance`` = |D|, from its rows."""
    for low, high, pd_high, pd_low in pd_rows():
        if distance >= low and (high is None or distance <= high):
            return pd_high, pd_low
    raise AssertionError(f"table 8.1.2 has no row for |D| = {distance}")  # pragma: no cover


@cache
def _pd_by_distance() -> tuple[tuple[Decimal, Decimal], ...]:
    """``_pd_row`` of every |D| up to one past the last bounded row; the last entry is the
    open-ended row's, which holds for every larger |D| too (one lookup a game, not a scan)."""
    top = max(high for _, high, _, _ in pd_rows() if high is not None) + 1
    return tuple(_pd_row(distance) for distance in range(top + 1))


def _table_pd(diff: int) -> Decimal:
    table = _pd_by_distance()
    pd_high, pd_low = table[min(abs(diff), len(table) - 1)]
    return pd_high if diff >= 0 else pd_low


#: The widest rating difference ``logistic_expected`` computes with: 10^(40,000/400) =
#: 10^100, ten times the range of every rating (0..4000) and far inside Decimal's exponents.
LOGISTIC_SPAN = Decimal(40_000)


def logistic_expected(difference: int | Decimal) -> Decimal:
    """The logistic expected score 1/(1+10^(-D/400)), unrounded, for a possibly fractional D.

    This is the formula, not FIDE's rule (table 8.1.2 is the rule); clubs that keep
    unrounded ratings use it directly.
    """
    # Clamped to +-LOGISTIC_SPAN (the result moves by less than 10^-100 past it): no
    # difference, however wide, overflows the power.
    diff = min(max(Decimal(difference), -LOGISTIC_SPAN), LOGISTIC_SPAN)
    with localcontext() as ctx:
        ctx.prec = 28
        return ONE / (ONE + Decimal(10) ** (Decimal(-diff) / Decimal(400)))


def expected_score(
    own: int,
    opponent: int,
    *,
    method: Method = "table",
    cap: bool = True,
    edition: Edition = CURRENT_STANDARD,
) -> Decimal:
    """The player's expected score (PD) against one opponent.

    Args:
        own: rating of the player whose change is computed.
        opponent: the opponent's rating.
        method: ``"table"`` for FIDE table 8.1.2 (two decimals, the rule), ``"formula"``
            for the unrounded logistic 1/(1+10^(-D/400)).
        cap: apply the 400-point rule (see ``difference_used``) before the lookup.
        edition: the rules in force (default: today's standard chapter).

    Returns:
        PD as a ``Decimal``, e.g. ``Decimal("0.64")`` for D = 100.

    Raises:
        WrongType, BadArgument, UnknownChoice: an argument of the wrong type or value.
    """
    check_expected_args(own, opponent, method, cap, edition)
    diff, _ = difference_used(own, opponent, cap=cap, edition=edition)
    return pd(diff, method)


def pd(diff: int, method: Method) -> Decimal:
    """PD for the D used: table 8.1.2 or the logistic formula."""
    return _table_pd(diff) if method == "table" else logistic_expected(diff)


def dp(p: Decimal) -> int:
    """Table 8.1.1: the rating difference dp for a fractional score p (rounded to .01 half up).

    Raises:
        BadInput: when p is outside 0..1.
    """
    key = p.quantize(HUNDREDTH, rounding=ROUND_HALF_UP)
    table = dp_table()
    if key not in table:
        raise BadInput(f"fractional score {p} is outside 0..1")
    return table[key]


def k_factor(
    rating: int,
    *,
    games_before: int,
    birth_year: int | None = None,
    year: int | None = None,
    reached_2400: bool = False,
    peak: int | None = None,
    edition: Edition = CURRENT_STANDARD,
) -> tuple[int, KReason]:
    """K from 8.3.3 of ``edition``, in the order fitted to FIDE's published K values.

    1. one K for everyone in the edition (``Edition.flat_k``) -> it (``"flat"``);
    2. the rating or ``peak`` has ever reached ``k_top_from`` (or ``reached_2400``) ->
       ``k_top`` (``"2400"``);
    3. a junior (``junior_until``) whose rating and peak stayed below ``junior_below`` ->
       ``k_junior`` (``"junior"``);
    4. fewer than ``new_player_games`` rated games before the period -> ``k_new``
       (``"new"``);
    5. otherwise -> ``k_standard`` (``"standard"``).

    Which editions hold which numbers, and from when to when, is the rulebook's
    (``editions.EDITIONS``); ``wording.k_reason_text`` words a reason with its dates.

    Args:
        rating: the player's rating.
        games_before: rated games completed before the period.
        birth_year: year of birth, if known (only used for the junior rule).
        year: the year of the rating list; required with ``birth_year`` (the module reads
            no clock, so the caller passes the current year).
        reached_2400: a published rating (or the starting rating) was ever >= 2400.
        peak: the highest published rating ever, if known: decides the 2400 rule and the
            junior's 2300 limit.
        edition: the rules in force (default: today's standard chapter).

    Returns:
        (K, the reason: ``"flat"``, ``"2400"``, ``"junior"``, ``"new"`` or ``"standard"``).

    Raises:
        BadInput: for a negative game count, or ``birth_year`` without ``year``.
    """
    if games_before < 0:
        raise OutOfRange("games_before", games_before, 0, GAMES_BEFORE_MAX)
    if birth_year is not None and year is None:
        raise Missing("year", "the year of the list is needed with a birth year")
    if edition.flat_k:
        return edition.k_standard, "flat"
    known = (peak, edition.k_top_from if reached_2400 else None, rating)
    highest = max(p for p in known if p is not None)
    if highest >= edition.k_top_from and games_before >= edition.k_top_min_games:
        return edition.k_top, "2400"
    junior = year is not None and is_junior(edition, birth_year, year)
    if junior and highest < edition.junior_below and edition.k_junior is not None:
        return edition.k_junior, "junior"
    if games_before < edition.new_player_games:
        return edition.k_new, "new"
    return edition.k_standard, "standard"


def limit_k(k: int, games: int, *, edition: Edition = CURRENT_STANDARD) -> int:
    """The 700 rule: when K x n > 700, the largest whole K with K x n <= 700.

    >>> limit_k(20, 40)
    17
    """
    most = edition.k_times_games_max
    if games > 0 and k * games > most:
        return most // games
    return k


def round_half_away(x: Decimal) -> int:
    """Round to a whole number with .5 away from zero (8.3.4): 2.5 -> 3, -2.5 -> -3."""
    return int(x.quantize(ONE, rounding=ROUND_HALF_UP))


def performance_rating(opponent_ratings: Sequence[int], points: Decimal) -> int | None:
    """Rp = Ra + dp(p) with table 8.1.1; ``None`` without games.

    Ra is the unrounded average of the opponents' ratings, p = points / games rounded to
    .01 half up (a reading, see the module docstring); Rp is rounded half up once.
    """
    n = len(opponent_ratings)
    if n == 0:
        return None
    if not ZERO <= points <= n:
        raise BadInput(f"{points} points is not possible in {n} games")
    average = Decimal(sum(opponent_ratings)) / n
    return round_half_away(average + dp(points / n))
