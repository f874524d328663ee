"""The SQL of a rating period, rendered from the FIDE rulebook's rules as expressions
(``core/fide/expressions.py``, each written once over an ``Edition``; ``core/expr``).

``db rate`` runs month by month, so each month's edition of each chapter is known before its
SQL is written: every number of the regulations (K by era, flat K, ``k_top_min_games``, the
400-point rule every game or once per event, the 2650 exemption, the 600/2600 rule, the 700
rule, FIDE's one-time compression) enters the month's SQL as a literal read from an
``Edition`` or ``Adjustment`` by those expressions, and nowhere else; the array engine
(``arrays_step.py``) evaluates the same expressions. The standard perfs (``classical``)
take the standard chapter, the others the Rapid & Blitz chapter (``CASE`` on the perf),
except where a game's own chapter is known: the rules of a game (the 600/2600 rule, the
400-point rule) and of each chapter's part of a player's month (K, the 700 rule) follow the
stored ``chapter`` of its ``TimeControl`` (``game_chapter_sql``; the Laws of Chess,
Appendix A).

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

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date

from lichess_elo.core.expr.nodes import Col, Expr, case, coalesce, lit
from lichess_elo.core.expr.sql import render
from lichess_elo.core.fide import editions
from lichess_elo.core.fide import expressions as fx
from lichess_elo.core.fide.editions import Adjustment, Chapter, Edition
from lichess_elo.core.months import yyyymm_add
from lichess_elo.core.population.dialect import DUCKDB, Dialect
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


def _standard(perf: str, chapter: str | None) -> Expr:
    """True where the standard chapter rates: by ``chapter`` (SQL naming a game's chapter,
    ``game_chapter_sql``) when given, else by the perf."""
    if chapter is not None:
        return Col(chapter).eq("standard")
    return Col(perf).isin(tuple(sorted(STANDARD_CHAPTER_PERFS)))


def _rule(
    rules: MonthRules,
    perf: str,
    chapter: str | None,
    build: Callable[[Edition], Expr],
    d: Dialect = DUCKDB,
) -> str:
    """The SQL of a rule built for each chapter's edition (``fide.expressions``), chosen
    by the chapter (one branch when both are alike)."""
    expr = fx.by_chapter(_standard(perf, chapter), build(rules.standard), build(rules.rapid_blitz))
    return render(expr, d)


def game_chapter_sql(chapter: str, perf: str) -> str:
    """SQL for the chapter that rates a stored game: its ``chapter`` column (FIDE's chapter
    of its ``TimeControl``, by the Laws of Chess, Appendix A), or its perf's chapter where
    the column is NULL (a database ingested before the column was kept)."""
    by_perf = case((_standard(perf, None), "standard"), default="rapid-blitz")
    return render(coalesce(Col(chapter), by_perf), DUCKDB)


def edition_key_sql(rules: MonthRules, perf: str, chapter: str | None = None) -> str:
    """SQL for the key of the edition that rates ``perf`` this month."""
    return _rule(rules, perf, chapter, lambda e: lit(e.key))


def k_sql(
    rules: MonthRules, perf: str, peak: str, games_before: str, chapter: str | None = None
) -> str:
    """SQL for K before the 700 rule (``fx.k``): ``peak`` is the highest rating the player
    has had, the current one included."""
    return _rule(rules, perf, chapter, lambda e: fx.k(e, Col(peak), Col(games_before)))


def k_used_sql(
    d: Dialect, rules: MonthRules, perf: str, k: str, n: str, chapter: str | None = None
) -> str:
    """SQL for K after the 700 rule (``fx.k_limited``) with ``n`` rated games."""
    return _rule(rules, perf, chapter, lambda e: fx.k_limited(e, Col(k), Col(n)), d)


def not_rated_sql(
    rules: MonthRules, perf: str, own: str, opp: str, chapter: str | None = None
) -> str:
    """SQL true for a side's game the edition leaves unrated (``fx.not_rated``)."""
    return _rule(rules, perf, chapter, lambda e: fx.not_rated(e, Col(own), Col(opp)))


def has_rule_600(rules: MonthRules) -> bool:
    """Whether an edition of the month has the 600/2600 rule."""
    return any(fx.has_not_rated(e) for e in (rules.standard, rules.rapid_blitz))


def per_event(rules: MonthRules) -> bool:
    """Whether an edition of the month applies the 400-point rule once per event."""
    return any(e.cap_scope == "event" for e in (rules.standard, rules.rapid_blitz))


def upgrade_sql(rules: MonthRules, perf: str, diff: str, chapter: str | None = None) -> str:
    """SQL true where the 400-point rule would be an upgrade for the player (D > 400)."""
    return _rule(rules, perf, chapter, lambda e: fx.upgrade(e, Col(diff)))


def capped_d_sql(
    rules: MonthRules, perf: str, own: str, diff: str, rank: str, chapter: str | None = None
) -> str:
    """SQL for D after the 400-point rule (``fx.capped_difference``): ``rank`` is the
    game's place among the player's upgrades in its event (1 = the greatest D, then the
    smaller ``ord``), read only under the once-per-event rule."""
    return _rule(
        rules, perf, chapter, lambda e: fx.capped_difference(e, Col(own), Col(diff), Col(rank))
    )


def rounded_change_sql(d: Dialect, x: str) -> str:
    """SQL for ``x`` / 100 rounded half away from zero (``fx.rounded_change``)."""
    return render(fx.rounded_change(Col(x)), d)


def compressed_sql(d: Dialect, adjustment: Adjustment, rating: str) -> str:
    """SQL for ``editions.adjusted`` of a compression (``fx.compressed``)."""
    return render(fx.compressed(adjustment, Col(rating)), d)


def adjusted(adjustments: Iterable[Adjustment], standard: Expr, rating: Expr) -> Expr:
    """``rating`` after each compression in turn, in the chapters it applies to
    (``standard``: true where the standard chapter rates the rating's perf)."""
    out = rating
    for adj in adjustments:
        done = fx.compressed(adj, out)
        out = fx.by_chapter(
            standard,
            done if "standard" in adj.chapters else out,
            done if "rapid-blitz" in adj.chapters else out,
        )
    return out


def adjusted_sql(d: Dialect, adjustments: Iterable[Adjustment], perf: str, rating: str) -> str:
    """SQL for ``rating`` after each compression in turn, in the chapters it applies to."""
    return render(adjusted(adjustments, _standard(perf, None), Col(rating)), d)


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


def _capped_one(e: Edition, own: str, diff: str) -> str:
    return render(fx.capped_difference(e, Col(own), Col(diff), lit(1)), DUCKDB)


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
            expr = _capped_one(editions.in_force(chapter, as_of), own, diff)
        else:
            chosen = [e for e in editions.EDITIONS if e.chapter == chapter]
            parts = [
                f"WHEN {month} >= {_edition_month(e)} THEN {_capped_one(e, own, diff)}"
                for e in reversed(chosen[1:])
            ]
            first = _capped_one(chosen[0], own, diff)
            expr = f"(CASE {' '.join(parts)} ELSE {first} END)" if parts else first
        branches.append(f"WHEN {perf} = '{name}' THEN {expr}")
    return f"(CASE {' '.join(branches)} ELSE {diff} END)" if branches else diff
