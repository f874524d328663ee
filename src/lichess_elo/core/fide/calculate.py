"""The FIDE calculator: one rating period, or an initial rating, with every input checked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from lichess_elo.core import arguments as args
from lichess_elo.core.fide.checks import (
    check_birth_year,
    check_choice,
    check_games_before,
    check_k,
    check_period_args,
    check_rating,
)
from lichess_elo.core.fide.constants import (
    CURRENT_STANDARD,
    METHODS,
    KRule,
    Method,
)
from lichess_elo.core.fide.editions import (
    CHAPTER_CHOICES,
    Chapter,
    ChapterChoice,
    Edition,
    check_as_of,
    in_force,
    initial_rules,
    latest,
)
from lichess_elo.core.fide.engine import (
    GameResult,
    k_factor,
    performance_rating,
)
from lichess_elo.core.fide.initial import InitialRating, initial_rating_details
from lichess_elo.core.fide.period import PeriodResult, rate_period
from lichess_elo.errors import BadInput, Conflict, Missing, WrongType


@dataclass(frozen=True)
class CalcResult:
    """What ``calculate`` worked out, everything the ``calc`` output shows.

    Exactly one of ``period`` (a rated player's period) and ``initial`` (an unrated
    player's initial rating) is set.

    Attributes:
        period: the rated period (K, per-game and total changes, new rating), or ``None``.
        initial: the initial rating step by step (FIDE 8.2), or ``None``.
        k_rule: why K is what it is: ``"given"`` (the caller's K) or the 8.3.3 reason;
            ``None`` for an initial rating, which has no K.
        games_before: the rated games before the period that decided K (30 when
            assumed); ``None`` when K was given or for an initial rating.
        games_assumed: no game count was given and the assumed 30 decided K.
        performance: the performance rating of the real games (table 8.1.1).
        edition: the rules applied (chapter and date).
    """

    period: PeriodResult | None
    initial: InitialRating | None
    k_rule: KRule | None
    games_before: int | None
    games_assumed: bool
    performance: int | None
    edition: Edition = CURRENT_STANDARD

    @property
    def new_rating(self) -> int:
        """The rating after the period, or the initial rating."""
        if self.period is not None:
            return self.period.new_rating
        if self.initial is not None:
            return self.initial.rating
        raise AssertionError("a CalcResult holds a period or an initial rating")  # pragma: no cover


def _check_types(
    rating: object,
    games: object,
    k: object,
    games_before: object,
    birth_year: object,
    year: object,
    peak: object,
    as_of: object,
) -> Sequence[GameResult]:
    """The types of ``calculate``'s arguments (each number an ``int`` or ``None``, the games
    ``GameResult`` with a score of 0, 0.5 or 1), the games with engine scores."""
    numbers = {"rating": rating, "k": k, "games_before": games_before}
    numbers |= {"birth_year": birth_year, "year": year, "peak": peak}
    for name, value in numbers.items():
        if value is not None:
            args.whole(name, value)
    if as_of is not None and (not isinstance(as_of, date) or isinstance(as_of, datetime)):
        raise WrongType("as_of", as_of, "a date")
    return check_period_args(0, games, 1, "table", True, CURRENT_STANDARD)


def calculate(
    rating: int | None,
    games: Sequence[GameResult],
    *,
    k: int | None = None,
    games_before: int | None = None,
    birth_year: int | None = None,
    year: int | None = None,
    method: Method = "table",
    cap: bool = True,
    unrated: bool = False,
    peak: int | None = None,
    rules: ChapterChoice = "auto",
    as_of: date | None = None,
) -> CalcResult:
    """The FIDE calculator: rate one period, or compute an unrated player's initial rating.

    K is ``k`` when given (the 700 rule still applies); otherwise it follows 8.3.3 from
    ``rating``, ``games_before`` and ``birth_year`` (see ``k_factor``), with 30 games
    assumed when ``games_before`` is not given, so an established player gets K 20.

    Every setting is checked here, before any work; the errors name the arguments by
    their logical names (``k``, ``games_before``, ``birth_year``...).

    Args:
        rating: the player's rating (0..4000); ``None`` with ``unrated``.
        games: the period's games against rated opponents.
        k: a fixed K (1..700) instead of the 8.3.3 rules.
        games_before: rated games before the period (0..100000); not with ``k``.
        birth_year: year of birth for the junior rule (1900..``year``); not with ``k``.
        year: the year of the rating list (the module reads no clock); needed with
            ``birth_year``.
        method: ``"table"`` (FIDE table 8.1.2) or ``"formula"`` (logistic).
        cap: apply the 400-point rule.
        unrated: compute the initial rating (FIDE 8.2) from ``games`` instead; ``k``,
            ``games_before``, ``birth_year``, ``peak``, the formula and ``cap=False`` do
            not apply.
        peak: the highest published rating ever (0..4000, at least ``rating``): decides
            the 2400 rule and the junior's 2300 limit; not with ``k``.
        rules: the chapter: ``standard``, ``rapid-blitz``, or ``auto`` (standard: a
            calculation has no game speed to choose by).
        as_of: the rules in force on this day (from the chapter's first edition on);
            ``None`` = the newest edition. It also picks the initial-rating rule.

    Returns:
        A ``CalcResult`` holding the ``PeriodResult`` (or the ``InitialRating``), why K
        is what it is, whether the game count was assumed, and the performance rating.

    Raises:
        WrongType, BadArgument: an argument of the wrong type, a score other than 0, 0.5
            or 1 (an int, float, Fraction, Decimal or str equal to one is taken).
        BadInput: a missing rating or no games; a value out of range; ``k`` together
            with ``games_before`` or ``birth_year``; any K option, the formula or
            ``cap=False`` with ``unrated``; fewer than 5 games or a zero score for an
            initial rating.

    >>> seed = [GameResult(1400, Decimal(1)), GameResult(1600, Decimal("0.5"))]
    >>> calculate(1500, seed, k=20).new_rating
    1510
    """
    games = _check_types(rating, games, k, games_before, birth_year, year, peak, as_of)
    args.flag("cap", cap)
    args.flag("unrated", unrated)
    args.choice("method", method, METHODS)
    args.choice("rules", rules, CHAPTER_CHOICES)
    chapter: Chapter = "standard" if rules == "auto" else rules
    if as_of is not None:
        check_as_of(as_of, chapter)
    edition = latest(chapter) if as_of is None else in_force(chapter, as_of)
    if unrated:
        choices = {"k": k, "games_before": games_before, "birth_year": birth_year, "peak": peak}
        return _initial(rating, games, choices, method, cap, as_of)
    if rating is None:
        raise Missing("rating", "give the player's rating, or ask for an initial rating")
    check_rating(rating)
    if not games:
        raise Missing("games", "give at least one game")
    check_choice("method", method, METHODS)
    k_value, k_rule, games_before, games_assumed = _period_k(
        rating, k, games_before, birth_year, year, peak, edition
    )
    period = rate_period(rating, games, k=k_value, method=method, cap=cap, edition=edition)
    return CalcResult(
        period=period,
        initial=None,
        k_rule=k_rule,
        games_before=games_before,
        games_assumed=games_assumed,
        performance=period.performance,
        edition=edition,
    )


def _initial(
    rating: int | None,
    games: Sequence[GameResult],
    choices: Mapping[str, int | None],
    method: Method,
    cap: bool,
    as_of: date | None,
) -> CalcResult:
    """``calculate`` with ``unrated``: the initial rating (FIDE 8.2), refusing every K
    choice (``choices``), the formula, ``cap=False`` and a rating."""
    for field, given in (*choices.items(), ("method", method == "formula" or None)):
        if given is not None:
            raise Conflict((field, "unrated"))
    if not cap:
        raise Conflict(("cap", "unrated"))
    if rating is not None:
        raise Conflict(("rating", "unrated"), "the games give the rating")
    rule = latest("standard") if as_of is None else initial_rules(as_of)
    if not games:
        raise Missing("games", f"an initial rating needs at least {rule.initial_min_games} games")
    details = initial_rating_details(games, edition=rule)
    return CalcResult(
        period=None,
        initial=details,
        k_rule=None,
        games_before=None,
        games_assumed=False,
        performance=performance_rating([g.opponent for g in games], details.points),
        edition=rule,
    )


def _period_k(
    rating: int,
    k: int | None,
    games_before: int | None,
    birth_year: int | None,
    year: int | None,
    peak: int | None,
    edition: Edition,
) -> tuple[int, KRule, int | None, bool]:
    """``calculate``'s K for a rated period: ``(K, why, games before, whether that count
    was assumed)``, from ``k`` or from 8.3.3, the inputs checked."""
    games_assumed = False
    if peak is not None:
        check_rating(peak, "peak")
        if peak < rating:
            raise BadInput(
                f"is below the rating {rating} (the peak is the highest)", field="peak", value=peak
            )
    if k is not None:
        given_k = (("games_before", games_before), ("birth_year", birth_year), ("peak", peak))
        for field, given in given_k:
            if given is not None:
                raise Conflict((field, "k"), "K is given")
        return check_k(k), "given", games_before, False
    if games_before is None:
        games_before, games_assumed = edition.new_player_games, True
    check_games_before(games_before)
    if birth_year is not None:
        if year is None:
            raise Missing("year", "the year of the list is needed with a birth year")
        check_birth_year(birth_year, year)
    k_value, k_rule = k_factor(
        rating,
        games_before=games_before,
        birth_year=birth_year,
        year=year,
        peak=peak,
        edition=edition,
    )
    return k_value, k_rule, games_before, games_assumed and k_rule in ("standard", "new")
