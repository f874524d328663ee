"""FIDE standard Elo: expected scores, K factor, period change, performance and initial rating.

Pure functions with exact ``Decimal`` arithmetic. The only thing read from outside is the
two FIDE tables shipped inside the package (``data/expected_score_table.csv`` = table 8.1.2,
``data/dp_table.csv`` = table 8.1.1), loaded once through ``importlib.resources``.

Rules (FIDE Rating Regulations effective 1 March 2024, amended 1 October 2025, see
``notes/fide-rules.md`` sections 2-4 and 7.1):

* D = own rating - opponent rating. |D| > 400 counts as 400 while the player being rated
  is below 2650 (8.3.1); each side of a game is computed separately.
* PD from table 8.1.2: the H column when D >= 0, the L column when D < 0; beyond 735 the
  table gives 1.00 / 0.00. The logistic formula 1/(1+10^(-D/400)) is available on request.
* Period change = K x sum(score - PD), rounded once, 0.5 away from zero (8.3.4).
* K: ever reached 2400 -> 10; junior (through the year of the 18th birthday) below 2300 ->
  40; fewer than 30 games -> 40; else 20 (8.3.3, precedence as fitted to FIDE's data).
  If K x n > 700, K becomes the largest whole number with K x n <= 700.
* Initial rating (8.2, 2024): >= 5 games against rated opponents, two hypothetical draws
  against 1800, Ru = Ra + dp(p), at most 2200; published only when >= 1400.

Readings where the text is silent: p is rounded to .01 half up before table 8.1.1 (as the
Title Regulations do for percentages), and Ru / Rp are rounded half up.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from functools import cache
from importlib import resources
from typing import Literal

from lichess_elo.errors import BadInput

__all__ = [
    "BIRTH_YEAR_MIN",
    "CAP_DIFFERENCE",
    "CAP_EXEMPT_FROM",
    "GAMES_BEFORE_MAX",
    "HYPOTHETICAL_DRAWS",
    "HYPOTHETICAL_OPPONENT",
    "INITIAL_MIN_GAMES",
    "INITIAL_RATING_MAX",
    "JUNIOR_AGE",
    "JUNIOR_RATING_BELOW",
    "K_2400",
    "K_JUNIOR",
    "K_NEW",
    "K_STANDARD",
    "K_TIMES_GAMES_MAX",
    "MAX_RATING",
    "MIN_RATING",
    "NEW_PLAYER_GAMES",
    "PUBLICATION_FLOOR",
    "RATING_FOR_K10",
    "TABLE_LIMIT",
    "CalcResult",
    "GameResult",
    "InitialRating",
    "KReason",
    "KRule",
    "Method",
    "PeriodResult",
    "RatedGame",
    "calculate",
    "check_rating",
    "difference_used",
    "dp",
    "expected_score",
    "initial_rating",
    "initial_rating_details",
    "is_publishable",
    "k_factor",
    "limit_k",
    "logistic_expected",
    "parse_game",
    "parse_score",
    "performance_rating",
    "rate_period",
    "round_half_away",
]  # fmt: skip

Method = Literal["table", "formula"]
KReason = Literal["2400", "junior", "new", "standard"]
#: Why ``calculate`` used its K: given by the caller, or one of the 8.3.3 reasons.
KRule = Literal["given", "2400", "junior", "new", "standard"]

#: 8.3.1: a difference above this counts as this much ...
CAP_DIFFERENCE = 400
#: ... unless the player being rated is at or above this rating (from 1 October 2025).
CAP_EXEMPT_FROM = 2650
#: Table 8.1.2 ends with "> 735 -> 1.0 / .00".
TABLE_LIMIT = 735
#: 8.3.3 K values.
K_2400 = 10
K_JUNIOR = 40
K_NEW = 40
K_STANDARD = 20
#: A published rating that has reached this gets K 10 for good.
RATING_FOR_K10 = 2400
#: Junior K 40 lasts through the year of this birthday, while the rating is below ...
JUNIOR_AGE = 18
JUNIOR_RATING_BELOW = 2300
#: K 40 until events with at least this many games are completed.
NEW_PLAYER_GAMES = 30
#: The 700 rule: K x n may not exceed this.
K_TIMES_GAMES_MAX = 700
#: 7.1.4 / 8.2: initial rating.
INITIAL_MIN_GAMES = 5
HYPOTHETICAL_OPPONENT = 1800
HYPOTHETICAL_DRAWS = 2
INITIAL_RATING_MAX = 2200
#: 7.1.2 / 7.2.1: ratings below this are not published (the player shows as unrated).
PUBLICATION_FLOOR = 1400
#: Range of ratings this tool accepts as input.
MIN_RATING = 0
MAX_RATING = 4000
#: Range ``calculate`` accepts for a year of birth (up to the year of the list) ...
BIRTH_YEAR_MIN = 1900
#: ... and for the rated games played before the period (from 0).
GAMES_BEFORE_MAX = 100_000

_HUNDREDTH = Decimal("0.01")
_ONE = Decimal(1)
_HALF = Decimal("0.5")
_ZERO = Decimal(0)


@dataclass(frozen=True)
class GameResult:
    """One game of a period: the opponent's rating and the score (1, 0.5 or 0)."""

    opponent: int
    score: Decimal


@dataclass(frozen=True)
class RatedGame:
    """One game as rated: the D used, whether it was capped, PD and K_used x (score - PD)."""

    opponent: int
    score: Decimal
    difference: int
    capped: bool
    expected: Decimal
    change: Decimal


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
    """

    period: PeriodResult | None
    initial: InitialRating | None
    k_rule: KRule | None
    games_before: int | None
    games_assumed: bool
    performance: int | None

    @property
    def new_rating(self) -> int:
        """The rating after the period, or the initial rating."""
        if self.period is not None:
            return self.period.new_rating
        if self.initial is not None:
            return self.initial.rating
        raise AssertionError("a CalcResult holds a period or an initial rating")  # pragma: no cover


# --- the packaged tables ---------------------------------------------------------------


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("lichess_elo").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@cache
def _pd_rows() -> tuple[tuple[int, int | None, Decimal, Decimal], ...]:
    """Table 8.1.2 as (diff_min, diff_max or None for no bound, PD high, PD low)."""
    return tuple(
        (
            int(row["diff_min"]),
            int(row["diff_max"]) if row["diff_max"] else None,
            Decimal(row["pd_high"]).quantize(_HUNDREDTH),
            Decimal(row["pd_low"]).quantize(_HUNDREDTH),
        )
        for row in _read_csv("expected_score_table.csv")
    )


@cache
def _dp_table() -> dict[Decimal, int]:
    """Table 8.1.1 as {p (2 decimals): dp}."""
    return {
        Decimal(row["p"]).quantize(_HUNDREDTH): int(row["dp"]) for row in _read_csv("dp_table.csv")
    }


# --- parsing and checks ----------------------------------------------------------------

_SCORE_WORDS = {
    "w": _ONE, "win": _ONE, "d": _HALF, "draw": _HALF, "=": _HALF, "½": _HALF, "1/2": _HALF,
    "l": _ZERO, "loss": _ZERO,
}  # fmt: skip


def parse_score(text: str) -> Decimal:
    """Parse a game score: ``1``, ``0.5``, ``½``, ``1/2``, ``0``, ``w``, ``d`` or ``l``.

    Args:
        text: the score as typed (case and surrounding spaces do not matter).

    Returns:
        ``Decimal(1)``, ``Decimal("0.5")`` or ``Decimal(0)``.

    Raises:
        BadInput: for anything else, e.g. ``0.7`` or ``x``.
    """
    key = text.strip().lower()
    if key in _SCORE_WORDS:
        return _SCORE_WORDS[key]
    try:
        value = Decimal(key)
    except InvalidOperation:
        value = None
    if value is not None and value.is_finite():
        for allowed in (_ONE, _HALF, _ZERO):
            if value == allowed:
                return allowed
    raise BadInput(f"score {text!r} is not 1, 0.5 (or ½, 1/2), 0, w, d or l")


def check_rating(value: int, what: str = "rating") -> int:
    """Return ``value`` if it is within 0..4000, else raise ``BadInput`` naming ``what``."""
    if not MIN_RATING <= value <= MAX_RATING:
        raise BadInput(f"{what} {value} is outside {MIN_RATING}..{MAX_RATING}")
    return value


def _parse_rating(text: str, what: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise BadInput(f"{what} {text!r} is not a whole number") from None
    return check_rating(value, what)


def parse_game(text: str) -> GameResult:
    """Parse ``OPP:SCORE`` (e.g. ``1400:1``, ``1600:½``, ``1550:l``) into a ``GameResult``.

    Raises:
        BadInput: naming the argument when it is malformed, the rating is outside 0..4000
            or the score is not 1, 0.5 or 0.
    """
    opponent, sep, score = text.partition(":")
    if not sep or not opponent.strip() or not score.strip():
        raise BadInput(f"game {text!r} is not OPP:SCORE, e.g. 1400:1")
    try:
        rating = _parse_rating(opponent, "opponent rating")
        value = parse_score(score)
    except BadInput as exc:
        raise BadInput(f"game {text!r}: {exc}") from None
    return GameResult(rating, value)


# --- expected score ---------------------------------------------------------------------


def difference_used(own: int, opponent: int, *, cap: bool = True) -> tuple[int, bool]:
    """D = own - opponent, with the 400-point rule (8.3.1, as amended 1 October 2025).

    Args:
        own: rating of the player whose change is computed.
        opponent: the opponent's rating.
        cap: apply the rule; ``False`` uses the real difference for everyone.

    Returns:
        (D used, whether it was capped). |D| > 400 counts as +-400 when ``own`` < 2650.
    """
    diff = own - opponent
    if cap and own < CAP_EXEMPT_FROM and abs(diff) > CAP_DIFFERENCE:
        return (CAP_DIFFERENCE if diff > 0 else -CAP_DIFFERENCE), True
    return diff, False


def _table_pd(diff: int) -> Decimal:
    distance = abs(diff)
    for low, high, pd_high, pd_low in _pd_rows():
        if distance >= low and (high is None or distance <= high):
            return pd_high if diff >= 0 else pd_low
    raise AssertionError(f"table 8.1.2 has no row for D = {diff}")  # pragma: no cover


def logistic_expected(difference: int | Decimal) -> Decimal:
    """The logistic expected score 1/(1+10^(-D/400)), unrounded, for a possibly fractional D.

    This is the formula, not FIDE's rule (table 8.1.2 is the rule); clubs that keep
    unrounded ratings use it directly.
    """
    diff = Decimal(difference)
    with localcontext() as ctx:
        ctx.prec = 28
        return _ONE / (_ONE + Decimal(10) ** (Decimal(-diff) / Decimal(400)))


def expected_score(
    own: int, opponent: int, *, method: Method = "table", cap: bool = True
) -> Decimal:
    """The player's expected score (PD) against one opponent.

    Args:
        own: rating of the player whose change is computed.
        opponent: the opponent's rating.
        method: ``"table"`` for FIDE table 8.1.2 (two decimals, the rule), ``"formula"``
            for the unrounded logistic 1/(1+10^(-D/400)).
        cap: apply the 400-point rule (see ``difference_used``) before the lookup.

    Returns:
        PD as a ``Decimal``, e.g. ``Decimal("0.64")`` for D = 100.
    """
    diff, _ = difference_used(own, opponent, cap=cap)
    return _table_pd(diff) if method == "table" else logistic_expected(diff)


def dp(p: Decimal) -> int:
    """Table 8.1.1: the rating difference dp for a fractional score p (rounded to .01 half up).

    Raises:
        BadInput: when p is outside 0..1.
    """
    key = p.quantize(_HUNDREDTH, rounding=ROUND_HALF_UP)
    table = _dp_table()
    if key not in table:
        raise BadInput(f"fractional score {p} is outside 0..1")
    return table[key]


# --- K factor -----------------------------------------------------------------------------


def k_factor(
    rating: int,
    *,
    games_before: int,
    birth_year: int | None = None,
    year: int | None = None,
    reached_2400: bool = False,
) -> tuple[int, KReason]:
    """K from 8.3.3, in the order fitted to FIDE's published K values (notes 4.3).

    1. the rating has ever reached 2400 (``reached_2400`` or ``rating`` >= 2400) -> 10;
    2. a junior (``year - birth_year <= 18``) rated below 2300 -> 40;
    3. fewer than 30 rated games before the period -> 40;
    4. otherwise -> 20.

    Args:
        rating: the player's rating.
        games_before: rated games completed before the period.
        birth_year: year of birth, if known (only used for the junior rule).
        year: the year of the rating list; required with ``birth_year`` (the module reads
            no clock, so the caller passes the current year).
        reached_2400: a published rating (or the starting rating) was ever >= 2400.

    Returns:
        (K, the reason: ``"2400"``, ``"junior"``, ``"new"`` or ``"standard"``).

    Raises:
        BadInput: for a negative game count, or ``birth_year`` without ``year``.
    """
    if games_before < 0:
        raise BadInput(f"games before the period {games_before} is negative")
    if reached_2400 or rating >= RATING_FOR_K10:
        return K_2400, "2400"
    if birth_year is not None:
        if year is None:
            raise BadInput("the year of the list is needed with a birth year")
        if year - birth_year <= JUNIOR_AGE and rating < JUNIOR_RATING_BELOW:
            return K_JUNIOR, "junior"
    if games_before < NEW_PLAYER_GAMES:
        return K_NEW, "new"
    return K_STANDARD, "standard"


def limit_k(k: int, games: int) -> int:
    """The 700 rule: when K x n > 700, the largest whole K with K x n <= 700.

    >>> limit_k(20, 40)
    17
    """
    if games > 0 and k * games > K_TIMES_GAMES_MAX:
        return K_TIMES_GAMES_MAX // games
    return k


def round_half_away(x: Decimal) -> int:
    """Round to a whole number with .5 away from zero (8.3.4): 2.5 -> 3, -2.5 -> -3."""
    return int(x.quantize(_ONE, rounding=ROUND_HALF_UP))


# --- period, performance, initial rating ------------------------------------------------


def performance_rating(opponent_ratings: Sequence[int], points: Decimal) -> int | None:
    """Rp = Ra + dp(p) with table 8.1.1; ``None`` without games.

    Ra is the unrounded average of the opponents' ratings, p = points / games rounded to
    .01 half up (a reading, see the module docstring); Rp is rounded half up once.
    """
    n = len(opponent_ratings)
    if n == 0:
        return None
    if not _ZERO <= points <= n:
        raise BadInput(f"{points} points is not possible in {n} games")
    average = Decimal(sum(opponent_ratings)) / n
    return round_half_away(average + dp(points / n))


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


def rate_period(
    rating: int,
    games: Sequence[GameResult],
    *,
    k: int,
    method: Method = "table",
    cap: bool = True,
) -> PeriodResult:
    """Rate one period: per-game K x (score - PD), summed, rounded once half away from zero.

    Args:
        rating: the player's rating on the list in force.
        games: the period's games against rated opponents.
        k: the player's K before the 700 rule (``limit_k`` is applied here).
        method: ``"table"`` (FIDE) or ``"formula"`` (logistic).
        cap: apply the 400-point rule.

    Returns:
        The ``PeriodResult``; per-game changes are unrounded.
    """
    k_used = limit_k(k, len(games))
    rated: list[RatedGame] = []
    for game in games:
        diff, capped = difference_used(rating, game.opponent, cap=cap)
        expected = expected_score(rating, game.opponent, method=method, cap=cap)
        rated.append(
            RatedGame(
                opponent=game.opponent,
                score=game.score,
                difference=diff,
                capped=capped,
                expected=expected,
                change=k_used * (game.score - expected),
            )
        )
    points = sum((g.score for g in games), _ZERO)
    expected_total = sum((g.expected for g in rated), _ZERO)
    change = k_used * (points - expected_total)
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
        performance=performance_rating([g.opponent for g in games], points),
    )


def _check_range(value: int, name: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise BadInput(f"{name} {value} is outside {low}..{high}")
    return value


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
) -> CalcResult:
    """The FIDE calculator: rate one period, or compute an unrated player's initial rating.

    K is ``k`` when given (the 700 rule still applies); otherwise it follows 8.3.3 from
    ``rating``, ``games_before`` and ``birth_year`` (see ``k_factor``), with 30 games
    assumed when ``games_before`` is not given, so an established player gets K 20.

    The messages of the ``BadInput`` it raises name the ``lichess-elo calc`` options
    (``--k``, ``--games``, ``--born``, ``--formula``, ``--no-cap``, ``--unrated``) that
    these arguments stand for.

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
            ``games_before``, ``birth_year``, the formula and ``cap=False`` do not apply.

    Returns:
        A ``CalcResult`` holding the ``PeriodResult`` (or the ``InitialRating``), why K
        is what it is, whether the game count was assumed, and the performance rating.

    Raises:
        BadInput: a missing rating or no games; a value out of range; ``k`` together
            with ``games_before`` or ``birth_year``; any K option, the formula or
            ``cap=False`` with ``unrated``; fewer than 5 games or a zero score for an
            initial rating.

    >>> seed = [GameResult(1400, Decimal(1)), GameResult(1600, Decimal("0.5"))]
    >>> calculate(1500, seed, k=20).new_rating
    1510
    """
    if unrated:
        options = (("--k", k), ("--games", games_before), ("--born", birth_year))
        for flag, given in options:
            if given is not None:
                raise BadInput(f"{flag} does not apply with --unrated")
        for flag, on in (("--formula", method == "formula"), ("--no-cap", not cap)):
            if on:
                raise BadInput(f"{flag} does not apply with --unrated")
        if rating is not None:
            raise BadInput("RATING does not apply with --unrated (the games give the rating)")
        if not games:
            raise BadInput("missing argument OPP:SCORE: --unrated needs at least 5 games")
        details = initial_rating_details(games)
        return CalcResult(
            period=None,
            initial=details,
            k_rule=None,
            games_before=None,
            games_assumed=False,
            performance=performance_rating([g.opponent for g in games], details.points),
        )
    if rating is None:
        raise BadInput("missing argument RATING, e.g. lichess-elo calc 1500 1400:1 1600:0.5")
    check_rating(rating, "RATING")
    if not games:
        raise BadInput("missing argument OPP:SCORE: give at least one game, e.g. 1400:1")
    rule: KRule
    games_assumed = False
    if k is not None:
        for flag, given in (("--games", games_before), ("--born", birth_year)):
            if given is not None:
                raise BadInput(f"{flag} does not apply with --k (K is given)")
        k_value, rule = _check_range(k, "--k", 1, K_TIMES_GAMES_MAX), "given"
    else:
        if games_before is None:
            games_before, games_assumed = NEW_PLAYER_GAMES, True
        _check_range(games_before, "--games", 0, GAMES_BEFORE_MAX)
        if birth_year is not None:
            if year is None:
                raise BadInput("the year of the list is needed with a birth year")
            _check_range(birth_year, "--born", BIRTH_YEAR_MIN, year)
        k_value, rule = k_factor(
            rating, games_before=games_before, birth_year=birth_year, year=year
        )
        games_assumed = games_assumed and rule in ("standard", "new")
    period = rate_period(rating, games, k=k_value, method=method, cap=cap)
    return CalcResult(
        period=period,
        initial=None,
        k_rule=rule,
        games_before=games_before,
        games_assumed=games_assumed,
        performance=period.performance,
    )
