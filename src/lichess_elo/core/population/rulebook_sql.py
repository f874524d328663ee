"""The SQL of a rating period, generated from the FIDE rulebook (``core/fide/editions.py``).

``db rate`` runs month by month, so each month's edition of each chapter is known before its
SQL is written: every number of the regulations (K by era, flat K, ``k_top_min_games``, the
400-point rule every game or once per event, the 2650 exemption, the 600/2600 rule, the 700
rule, FIDE's one-time compression) enters the month's SQL as a literal read from an
``Edition`` or ``Adjustment`` here, and nowhere else. The standard perfs (``classical``) take
the standard chapter, the others the Rapid & Blitz chapter (``CASE`` on the perf), except
where a game's own chapter is known: the rules of a game (the 600/2600 rule, the 400-point
rule) and of each chapter's part of a player's month (K, the 700 rule) follow the stored
``chapter`` of its ``TimeControl`` (``game_chapter_sql``; the Laws of Chess, Appendix A).

The engine's reading of each rule (``core/fide/engine.py``) is followed exactly:

* K (``k_factor``): flat -> that K; peak >= ``k_top_from`` with ``k_top_min_games`` games
  -> ``k_top``; fewer than ``new_player_games`` games -> ``k_new``; else ``k_standard``.
  The junior K cannot apply: the dumps hold no birth years.
* The 600/2600 rule (``not_rated``) leaves a side's game out before anything else; the 700
  rule (``limit_k``) counts only the games rated.
* The 400-point rule (``difference_used``, ``cap_applies``): once per event, only the game
  with the greatest upgrade in each event (first of equal ones, by ``ord``) is capped where
  the player is the higher rated; a game without an event belongs to the period's event.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from lichess_elo.core.fide import editions
from lichess_elo.core.fide.editions import Adjustment, Chapter, Edition
from lichess_elo.core.months import yyyymm_add
from lichess_elo.core.population.dialect import Dialect
from lichess_elo.core.population.schema import PERFS, STANDARD_CHAPTER_PERFS, next_month

#: The perfs of the Rapid & Blitz chapter.
RAPID_BLITZ_PERFS = tuple(p for p in PERFS if p not in STANDARD_CHAPTER_PERFS)


def first_day(month: int) -> date:
    """The first day of YYYYMM."""
    return date(month // 100, month % 100, 1)


def previous_month(month: int) -> int:
    """The month before YYYYMM (``core.months``)."""
    return yyyymm_add(month, -1)


def chapter_of_perf(perf: str) -> Chapter:
    """The chapter that rates a perf of ``schema.PERFS``."""
    return "standard" if perf in STANDARD_CHAPTER_PERFS else "rapid-blitz"


@dataclass(frozen=True)
class MonthRules:
    """The rules of one month: the edition of each chapter and the compressions made to the
    list at its start (chapters they apply to)."""

    month: int
    standard: Edition
    rapid_blitz: Edition
    compressions: tuple[Adjustment, ...] = ()

    def edition(self, chapter: Chapter) -> Edition:
        """The edition of ``chapter``."""
        return self.standard if chapter == "standard" else self.rapid_blitz


def month_rules(month: int, *, as_of: date | None, adjustments: bool) -> MonthRules:
    """The rules of ``month``: each chapter's edition in force on its first day (or on
    ``as_of``); with ``adjustments`` and no ``as_of``, the compression whose day falls after
    the previous month's first day and on or before this one's."""
    day = as_of or first_day(month)
    found: list[Adjustment] = []
    if adjustments and as_of is None:
        before = first_day(previous_month(month))
        for chapter in editions.CHAPTERS:
            adj = editions.adjustment_between(chapter, before, first_day(month))
            if adj is not None and adj not in found:
                found.append(adj)
    return MonthRules(
        month,
        editions.in_force("standard", day),
        editions.in_force("rapid-blitz", day),
        tuple(found),
    )


def _by_chapter(perf: str, standard: str, rapid_blitz: str, chapter: str | None = None) -> str:
    """``standard`` for the standard perfs, ``rapid_blitz`` for the others (one branch when
    both are the same SQL); with ``chapter`` (SQL naming a game's chapter, ``game_chapter_sql``)
    by that chapter instead of the perf."""
    if standard == rapid_blitz:
        return standard
    if chapter is not None:
        return f"(CASE WHEN {chapter} = 'standard' THEN {standard} ELSE {rapid_blitz} END)"
    classical = ", ".join(f"'{p}'" for p in sorted(STANDARD_CHAPTER_PERFS))
    return f"(CASE WHEN {perf} IN ({classical}) THEN {standard} ELSE {rapid_blitz} END)"


def game_chapter_sql(chapter: str, perf: str) -> str:
    """SQL for the chapter that rates a stored game: its ``chapter`` column (FIDE's chapter
    of its ``TimeControl``, by the Laws of Chess, Appendix A), or its perf's chapter where
    the column is NULL (a database ingested before the column was kept)."""
    classical = ", ".join(f"'{p}'" for p in sorted(STANDARD_CHAPTER_PERFS))
    by_perf = f"CASE WHEN {perf} IN ({classical}) THEN 'standard' ELSE 'rapid-blitz' END"
    return f"COALESCE({chapter}, {by_perf})"


def edition_key_sql(rules: MonthRules, perf: str, chapter: str | None = None) -> str:
    """SQL for the key of the edition that rates ``perf`` this month."""
    return _by_chapter(perf, f"'{rules.standard.key}'", f"'{rules.rapid_blitz.key}'", chapter)


def _k_one(e: Edition, peak: str, games_before: str) -> str:
    if e.flat_k:
        return str(e.k_standard)
    top = f"{peak} >= {e.k_top_from}"
    if e.k_top_min_games:
        top += f" AND {games_before} >= {e.k_top_min_games}"
    return (
        f"(CASE WHEN {top} THEN {e.k_top} WHEN {games_before} < {e.new_player_games} "
        f"THEN {e.k_new} ELSE {e.k_standard} END)"
    )


def k_sql(
    rules: MonthRules, perf: str, peak: str, games_before: str, chapter: str | None = None
) -> str:
    """SQL for K before the 700 rule (``fide.k_factor`` without birth years): ``peak`` is
    the highest rating the player has had, the current one included."""
    return _by_chapter(
        perf,
        _k_one(rules.standard, peak, games_before),
        _k_one(rules.rapid_blitz, peak, games_before),
        chapter,
    )


def _limit_one(d: Dialect, e: Edition, k: str, n: str) -> str:
    most = e.k_times_games_max
    return f"(CASE WHEN ({k}) * {n} > {most} THEN {d.idiv(str(most), n)} ELSE {k} END)"


def k_used_sql(
    d: Dialect, rules: MonthRules, perf: str, k: str, n: str, chapter: str | None = None
) -> str:
    """SQL for K after the 700 rule (``fide.limit_k``) with ``n`` rated games."""
    return _by_chapter(
        perf,
        _limit_one(d, rules.standard, k, n),
        _limit_one(d, rules.rapid_blitz, k, n),
        chapter,
    )


def _not_rated_one(e: Edition, own: str, opp: str) -> str:
    if e.non_rating_gap is None or e.non_rating_above is None:
        return "FALSE"
    return (
        f"(ABS({own} - {opp}) >= {e.non_rating_gap} "
        f"AND GREATEST({own}, {opp}) > {e.non_rating_above})"
    )


def not_rated_sql(
    rules: MonthRules, perf: str, own: str, opp: str, chapter: str | None = None
) -> str:
    """SQL true for a side's game the edition leaves unrated (``fide.not_rated``)."""
    return _by_chapter(
        perf,
        _not_rated_one(rules.standard, own, opp),
        _not_rated_one(rules.rapid_blitz, own, opp),
        chapter,
    )


def has_rule_600(rules: MonthRules) -> bool:
    """Whether an edition of the month has the 600/2600 rule."""
    return any(_not_rated_one(e, "a", "b") != "FALSE" for e in (rules.standard, rules.rapid_blitz))


def per_event(rules: MonthRules) -> bool:
    """Whether an edition of the month applies the 400-point rule once per event."""
    return any(e.cap_scope == "event" for e in (rules.standard, rules.rapid_blitz))


def _upgrade_one(e: Edition, diff: str) -> str:
    return f"{diff} > {e.cap_difference}"


def upgrade_sql(rules: MonthRules, perf: str, diff: str, chapter: str | None = None) -> str:
    """SQL true where the 400-point rule would be an upgrade for the player (D > 400)."""
    return _by_chapter(
        perf, _upgrade_one(rules.standard, diff), _upgrade_one(rules.rapid_blitz, diff), chapter
    )


def _capped_one(e: Edition, own: str, diff: str, rank: str) -> str:
    limit = e.cap_difference
    parts = []
    if e.cap_exempt_from is not None:
        parts.append(f"WHEN {own} >= {e.cap_exempt_from} THEN {diff}")
    if e.cap_scope == "event":
        parts.append(f"WHEN {diff} > {limit} AND {rank} = 1 THEN {limit}")
    else:
        parts.append(f"WHEN {diff} > {limit} THEN {limit}")
    parts.append(f"WHEN {diff} < -{limit} THEN -{limit}")
    return f"(CASE {' '.join(parts)} ELSE {diff} END)"


def capped_d_sql(
    rules: MonthRules, perf: str, own: str, diff: str, rank: str, chapter: str | None = None
) -> str:
    """SQL for D after the 400-point rule (``fide.difference_used`` with ``cap_applies``):
    ``rank`` is the game's place among the player's upgrades in its event (1 = the greatest
    D, then the smaller ``ord``), read only under the once-per-event rule."""
    return _by_chapter(
        perf,
        _capped_one(rules.standard, own, diff, rank),
        _capped_one(rules.rapid_blitz, own, diff, rank),
        chapter,
    )


def compressed_sql(d: Dialect, adjustment: Adjustment, rating: str) -> str:
    """SQL for ``editions.adjusted``: R + factor x (below - R) below ``below``, rounded half
    away from zero (the raise is positive, so half up)."""
    if adjustment.factor is None:
        raise ValueError(f"{adjustment.key} needs the player's standard rating")
    ratio = Fraction(adjustment.factor)
    num, den = ratio.numerator, ratio.denominator
    raised = d.idiv(f"2 * ({adjustment.below} - {rating}) * {num} + {den}", str(2 * den))
    return f"(CASE WHEN {rating} < {adjustment.below} THEN {rating} + {raised} ELSE {rating} END)"


def adjusted_sql(d: Dialect, adjustments: Iterable[Adjustment], perf: str, rating: str) -> str:
    """SQL for ``rating`` after each compression in turn, in the chapters it applies to."""
    out = rating
    for adj in adjustments:
        done = compressed_sql(d, adj, out)
        out = _by_chapter(
            perf,
            done if "standard" in adj.chapters else out,
            done if "rapid-blitz" in adj.chapters else out,
        )
    return out


def adjustment_month(adjustment: Adjustment) -> int:
    """The first month whose list carries ``adjustment`` (YYYYMM): the month of its day
    when that is the 1st, else the next (as ``month_rules`` finds it)."""
    day = adjustment.day
    month = day.year * 100 + day.month
    return month if day.day == 1 else next_month(month)


def compressions_by(month: int) -> tuple[Adjustment, ...]:
    """The compressions whose list is ``month``'s or an earlier one, oldest first."""
    return tuple(
        a for a in editions.ADJUSTMENTS if a.kind == "compression" and adjustment_month(a) <= month
    )


def _edition_month(e: Edition) -> int:
    """The first month an edition rates under ``month_rules`` (in force on its 1st)."""
    day = e.effective_from
    month = day.year * 100 + day.month
    return month if day.day == 1 else next_month(month)


def predicted_d_sql(
    as_of_by_perf: dict[str, date | None], perf: str, month: str, own: str, diff: str
) -> str:
    """SQL for D of one game alone under the 400-point rule of the edition that rated its
    month (each perf's lists by month, or as of a day): a game's prediction, where the
    once-per-event choice of a period does not enter."""
    branches = []
    for name, as_of in as_of_by_perf.items():
        chapter = chapter_of_perf(name)
        if as_of is not None:
            expr = _capped_one(editions.in_force(chapter, as_of), own, diff, "1")
        else:
            chosen = [e for e in editions.EDITIONS if e.chapter == chapter]
            parts = [
                f"WHEN {month} >= {_edition_month(e)} THEN {_capped_one(e, own, diff, '1')}"
                for e in reversed(chosen[1:])
            ]
            first = _capped_one(chosen[0], own, diff, "1")
            expr = f"(CASE {' '.join(parts)} ELSE {first} END)" if parts else first
        branches.append(f"WHEN {perf} = '{name}' THEN {expr}")
    return f"(CASE {' '.join(branches)} ELSE {diff} END)" if branches else diff
