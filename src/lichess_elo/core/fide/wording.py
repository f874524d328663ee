"""The rulebook in words (pure): every sentence that dates a K, a floor, the 400-point rule
or an initial-rating rule is made here from the editions (``editions.py``), never written
by hand beside the code that prints it.

A rule's dates are those of the run of consecutive editions of its chapter that hold the
same terms for it: K 20 for everyone in Rapid & Blitz ran through three editions, from
1 Jan 2012 to 30 Sep 2022, so every one of them says so. A run that reaches the newest
edition is open: "since 1 Jul 2014".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import date, timedelta

from lichess_elo.core.fide.editions import EDITIONS, Edition
from lichess_elo.core.fide.kinds import Chapter, KReason

__all__ = [
    "CHAPTER_NAMES",
    "day_text",
    "edition_end",
    "edition_text",
    "initial_rule_text",
    "k_reason_span",
    "k_reason_text",
    "non_rating_text",
    "rule_span",
    "span_text",
]  # fmt: skip

#: A chapter as a sentence names it.
CHAPTER_NAMES: dict[Chapter, str] = {"standard": "standard", "rapid-blitz": "Rapid & Blitz"}

_ONE_DAY = timedelta(days=1)


def day_text(day: date, *, long: bool = False) -> str:
    """A rule's day in words: ``1 Oct 2022`` (``long``: ``1 October 2022``)."""
    return f"{day.day} {day:%B %Y}" if long else f"{day.day} {day:%b %Y}"


def _chapter(edition: Edition) -> list[Edition]:
    return [e for e in EDITIONS if e.chapter == edition.chapter]


def _index(editions: list[Edition], edition: Edition) -> int:
    """Where ``edition`` stands in its chapter (by key: ``before_first`` copies included)."""
    return [e.key for e in editions].index(edition.key)


def edition_end(edition: Edition) -> date | None:
    """The last day ``edition`` was in force (the day before the next edition of its
    chapter), or ``None`` while it is the newest."""
    editions = _chapter(edition)
    i = _index(editions, edition)
    return editions[i + 1].effective_from - _ONE_DAY if i + 1 < len(editions) else None


def edition_text(edition: Edition) -> str:
    """The edition by its title, with its last day when a later one replaced it:
    ``FIDE Rating Regulations, 1 Jul 2009, in force to 30 Jun 2011``."""
    end = edition_end(edition)
    return edition.title if end is None else f"{edition.title}, in force to {day_text(end)}"


def rule_span(edition: Edition, terms: Callable[[Edition], Hashable]) -> tuple[date, date | None]:
    """First and last day (``None``: still in force) of the run of consecutive editions of
    ``edition``'s chapter around it whose ``terms`` are the same as its own."""
    editions = _chapter(edition)
    i = _index(editions, edition)
    own = terms(editions[i])
    first = i
    while first > 0 and terms(editions[first - 1]) == own:
        first -= 1
    last = i
    while last + 1 < len(editions) and terms(editions[last + 1]) == own:
        last += 1
    end = editions[last + 1].effective_from - _ONE_DAY if last + 1 < len(editions) else None
    return editions[first].effective_from, end


def span_text(span: tuple[date, date | None]) -> str:
    """``since 1 Jul 2014`` for an open span, ``from 1 Jan 2012 to 30 Sep 2022`` otherwise."""
    start, end = span
    if end is None:
        return f"since {day_text(start)}"
    return f"from {day_text(start)} to {day_text(end)}"


#: What each K reason depends on in an edition: its dates are those of the run of editions
#: where these are the same.
_K_TERMS: dict[str, Callable[[Edition], Hashable]] = {
    "flat": lambda e: (e.flat_k, e.k_standard if e.flat_k else None),
    "2400": lambda e: (e.flat_k, e.k_top, e.k_top_from, e.k_top_min_games),
    "junior": lambda e: (e.flat_k, e.k_junior, e.junior_until, e.junior_below, e.junior_age),
    "new": lambda e: (e.flat_k, e.k_new, e.new_player_games),
    "standard": lambda e: (e.flat_k, e.k_standard, e.k_top_from, e.new_player_games),
}


def k_reason_span(edition: Edition, reason: KReason) -> tuple[date, date | None] | None:
    """The dates of the K rule ``reason`` of ``edition`` (``None`` for ``given``)."""
    terms = _K_TERMS.get(reason)
    return None if terms is None else rule_span(edition, terms)


def k_reason_text(edition: Edition, reason: KReason | str) -> str:
    """Why K is what it is under ``edition``, with the dates of that rule, worded to follow
    ``K n:``, e.g. ``the same for everyone (Rapid & Blitz from 1 Jan 2012 to 30 Sep 2022)``
    or ``new player: fewer than 30 rated games (the rule since 1 Jul 2014, FIDE 8.3.3)``.
    ``given`` and a reason the rulebook does not know are returned as they are."""
    e = edition
    terms = _K_TERMS.get(reason)
    if terms is None:
        return reason
    span = span_text(rule_span(e, terms))
    if reason == "flat":
        return f"the same for everyone ({CHAPTER_NAMES[e.chapter]} {span})"
    if reason == "2400":
        games = f" after {e.k_top_min_games} games" if e.k_top_min_games else ""
        what = f"rating (or peak) {e.k_top_from} or more{games}, for good"
    elif reason == "junior":
        what = f"junior never rated {e.junior_below} or more"
    elif reason == "new":
        what = f"new player: fewer than {e.new_player_games} rated games"
    else:
        what = f"{e.new_player_games} or more rated games, rating below {e.k_top_from}"
    return f"{what} (the rule {span}, FIDE 8.3.3)"


def _initial_terms(e: Edition) -> Hashable:
    return (e.initial_method, e.initial_per_half_point, e.initial_max, e.initial_min_games)


def initial_rule_text(edition: Edition) -> str:
    """The initial-rating rule (8.2) of ``edition`` named by its dates:
    ``rule since 1 Mar 2024``, ``rule from 1 Jul 2014 to 29 Feb 2024``."""
    return f"rule {span_text(rule_span(edition, _initial_terms))}"


def non_rating_text(edition: Edition) -> str:
    """The 600/2600 rule of ``edition`` in words, with its chapter and dates, e.g.
    ``600+ points apart with a player above 2600 (Rapid & Blitz, since 1 Dec 2024)``."""
    e = edition
    span = rule_span(e, lambda x: (x.non_rating_gap, x.non_rating_above))
    return (
        f"{e.non_rating_gap}+ points apart with a player above {e.non_rating_above} "
        f"({CHAPTER_NAMES[e.chapter]}, {span_text(span)})"
    )
