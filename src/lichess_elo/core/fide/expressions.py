"""FIDE's rules as expressions over columns (``core.expr``), each built from an edition's
numbers and written once: ``db rate`` renders them as SQL for DuckDB and Spark
(``population/rulebook_sql.py``) and evaluates them over numpy arrays on one machine
(``population/arrays_step.py``). The scalar engine (``engine.py``) stays the readable
reference; the differential tests hold every executor to it, row for row.

Each function follows the engine's reading of its rule, and the arithmetic is in whole
numbers (ratings, points and expected scores in hundredths), so every executor gives the
same integers:

* ``k``: ``k_factor`` without birth years (the dumps hold none): flat K, or K 10 from a
  peak of ``k_top_from`` (with ``k_top_min_games``), K 40 for fewer than
  ``new_player_games``, else ``k_standard``;
* ``k_limited``: the 700 rule (``limit_k``): K x n at most ``k_times_games_max``;
* ``not_rated``: the 600/2600 rule (``not_rated``);
* ``upgrade`` and ``capped_difference``: the 400-point rule (``difference_used`` with
  ``cap_applies``: every game, or once per event, the 2650 exemption);
* ``rounded_change``: K x sum(S - PD), rounded once, half away from zero (8.3.4);
* ``compressed``: the one-time compression (``adjusted``).
"""

from __future__ import annotations

from fractions import Fraction

from lichess_elo.core.expr.nodes import Expr, Lit, abs_, case, greatest, lit
from lichess_elo.core.fide.editions import Adjustment, Edition


def k(e: Edition, peak: Expr, games_before: Expr) -> Expr:
    """K before the 700 rule; ``peak`` the highest rating the player has had, the current
    one included."""
    if e.flat_k:
        return lit(e.k_standard)
    top = peak >= e.k_top_from
    if e.k_top_min_games:
        top = top & (games_before >= e.k_top_min_games)
    return case((top, e.k_top), (games_before < e.new_player_games, e.k_new), default=e.k_standard)


def k_limited(e: Edition, k_value: Expr, n: Expr) -> Expr:
    """K after the 700 rule with ``n`` (> 0) rated games: the largest whole K with
    K x n at most ``k_times_games_max`` where K x n exceeds it."""
    most = e.k_times_games_max
    return case((k_value * n > most, lit(most) // n), default=k_value)


def not_rated(e: Edition, own: Expr, opp: Expr) -> Expr:
    """True for a side's game the edition leaves unrated (600 or more apart, the higher
    above 2600), false under an edition without the rule."""
    if e.non_rating_gap is None or e.non_rating_above is None:
        return Lit(False)
    return (abs_(own - opp) >= e.non_rating_gap) & (greatest(own, opp) > e.non_rating_above)


def has_not_rated(e: Edition) -> bool:
    """Whether the edition has the 600/2600 rule."""
    return not_rated(e, lit(0), lit(0)) != Lit(False)


def upgrade(e: Edition, diff: Expr) -> Expr:
    """True where the 400-point rule would raise the player's expectation (D > 400)."""
    return diff > e.cap_difference


def capped_difference(e: Edition, own: Expr, diff: Expr, rank: Expr) -> Expr:
    """D after the 400-point rule: ``rank`` is the game's place among the player's
    upgrades in its event (1 = the greatest D, then the earlier game), read only under the
    once-per-event rule; from ``cap_exempt_from`` the real D."""
    limit = e.cap_difference
    exempt = own >= e.cap_exempt_from if e.cap_exempt_from is not None else False
    raised = (diff > limit) & rank.eq(1) if e.cap_scope == "event" else diff > limit
    return case((exempt, diff), (raised, limit), (diff < -limit, -limit), default=diff)


def rounded_change(x: Expr) -> Expr:
    """``x`` / 100 rounded half away from zero: the change from K x (points - expected)
    in hundredths (8.3.4)."""
    return case((x >= 0, (x + 50) // 100), default=-((-x + 50) // 100))


def compressed(adjustment: Adjustment, rating: Expr) -> Expr:
    """``editions.adjusted`` of a compression: R + factor x (below - R) below ``below``,
    rounded half up (the raise is positive).

    Raises:
        ValueError: an adjustment that needs the player's standard rating.
    """
    if adjustment.factor is None:
        raise ValueError(f"{adjustment.key} needs the player's standard rating")
    ratio = Fraction(adjustment.factor)
    num, den = ratio.numerator, ratio.denominator
    raised = (2 * (adjustment.below - rating) * num + den) // (2 * den)
    return case((rating < adjustment.below, rating + raised), default=rating)


def by_chapter(standard: Expr, in_standard: Expr, in_rapid_blitz: Expr) -> Expr:
    """``in_standard`` where ``standard`` (a truth: the chapter is the standard one) holds,
    else ``in_rapid_blitz`` (one of them when both are alike)."""
    if in_standard == in_rapid_blitz:
        return in_standard
    return case((standard, in_standard), default=in_rapid_blitz)
