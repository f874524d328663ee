"""The FIDE rulebook: every edition of both chapters by date, each with its sources.

This module is the one answer to "which rules applied on this day in this chapter"
(``in_force``); every path reads it: ``calc``, ``report``, ``club``, the library's defaults
(``latest``) and the SQL of ``db`` (``population/rulebook_sql.py``). ``docs/rules.md`` has
the long form with the regulation text.

* **The chapter.** Standard games fall under the FIDE Rating Regulations; rapid and blitz
  games under the Rapid & Blitz chapter. ``chapter_of_speed`` maps a Lichess speed to a
  chapter: bullet, blitz, rapid and ultraBullet -> ``rapid-blitz``; classical and
  correspondence -> ``standard``, unless the caller forces one chapter.
* **The date.** ``in_force`` picks the edition in force on a day: the latest whose
  ``effective_from`` is on or before it. A day before the first edition of a chapter gets
  the first one, marked ``before_first`` (FIDE had no rapid or blitz list before 2012; the
  350-point rule before July 2009 is not modelled); ``check_as_of`` refuses such a day
  where the user chose it.
* **One-time adjustments.** FIDE twice changed published ratings between two lists rather
  than through a rule of the period: the compression of 1 March 2024 (both chapters) and
  the Rapid & Blitz uplift of 1 October 2022 (from a player's standard rating).
  ``ADJUSTMENTS`` holds them; ``adjustment_between`` finds the one a track crosses.

Each ``Edition`` holds only numbers and words; the engine (``engine.py``) applies them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from lichess_elo.core.fide.adjustments import (
    ADJUSTMENTS,
    COMPRESSION_2024,
    UPLIFT_2022,
    Adjustment,
    adjusted,
    adjustment_between,
)
from lichess_elo.core.fide.citations import SOURCES, Citation
from lichess_elo.core.fide.kinds import (
    CHAPTER_CHOICES,
    CHAPTERS,
    K_REASONS,
    SPEED_CHAPTERS,
    CapScope,
    Chapter,
    ChapterChoice,
    InitialMethod,
    JuniorUntil,
    KReason,
)
from lichess_elo.errors import BadInput

__all__ = [
    "ADJUSTMENTS",
    "CHAPTERS",
    "CHAPTER_CHOICES",
    "COMPRESSION_2024",
    "EDITIONS",
    "EDITIONS_BY_KEY",
    "K_REASONS",
    "SOURCES",
    "SPEED_CHAPTERS",
    "UPLIFT_2022",
    "Adjustment",
    "CapScope",
    "Chapter",
    "ChapterChoice",
    "Citation",
    "Edition",
    "InitialMethod",
    "JuniorUntil",
    "KReason",
    "adjusted",
    "adjustment_between",
    "chapter_of_speed",
    "check_as_of",
    "first_day",
    "in_force",
    "initial_rules",
    "latest",
]  # fmt: skip


@dataclass(frozen=True)
class Edition:
    """One edition of one chapter of the FIDE rating rules, in force from ``effective_from``.

    Attributes:
        key: Short stable name, e.g. ``standard-2014-07`` (used in JSON).
        chapter: ``standard`` or ``rapid-blitz``.
        effective_from: The first day it applies (to events starting on or after it).
        title: The edition as a person would name it.
        k_new: K for a player with fewer than ``new_player_games`` games.
        k_standard: K for an established player below ``k_top_from``.
        k_top: K once a published rating has reached ``k_top_from``, for good.
        k_junior: K for a junior who has never been rated ``junior_below`` or more;
            ``None`` when the edition has no junior rule.
        junior_until: How long a player is a junior (``None`` without a junior rule).
        cap_scope: Every game, or one game per event (see ``CapScope``).
        cap_exempt_from: Players rated this or more get no 400-point rule (``None``: no
            exemption).
        non_rating_gap: A game between players this far apart or more ...
        non_rating_above: ... where at least one is rated above this, is not rated
            (``None``: no such rule).
        floor: The lowest rating published on a list (7.2.1: below it, unrated).
        sources: Keys of ``SOURCES``.
        initial_method: How an unrated player's first rating is computed (8.2); ``None``
            in the Rapid & Blitz chapter, which takes the standard chapter's rule of the
            day (``initial_rules``).
        initial_per_half_point: Points for each half point over 50 % (``half-points``).
        initial_max: The highest initial rating (``None``: no maximum).
        initial_min_games: Games against rated opponents an initial rating needs.
        k_top_min_games: K 10 also needs this many games (2009 text: "and he has also
            completed events with a total of at least 30 games").
    """

    key: str
    chapter: Chapter
    effective_from: date
    title: str
    k_new: int
    k_standard: int
    k_top: int
    k_junior: int | None
    junior_until: JuniorUntil | None
    cap_scope: CapScope
    cap_exempt_from: int | None
    non_rating_gap: int | None
    non_rating_above: int | None
    floor: int
    sources: tuple[str, ...]
    initial_method: InitialMethod | None = None
    initial_per_half_point: Decimal | None = None
    initial_max: int | None = None
    initial_min_games: int = 5
    k_top_min_games: int = 0
    cap_difference: int = 400
    k_top_from: int = 2400
    junior_below: int = 2300
    junior_age: int = 18
    new_player_games: int = 30
    k_times_games_max: int = 700
    hypothetical_opponent: int = 1800
    hypothetical_draws: int = 2
    before_first: bool = False

    @property
    def flat_k(self) -> bool:
        """True when every player has the same K (rapid and blitz before October 2022)."""
        return self.k_new == self.k_standard == self.k_top and self.k_junior is None

    @property
    def source_list(self) -> tuple[Citation, ...]:
        """The ``Citation`` of each key in ``sources``."""
        return tuple(SOURCES[key] for key in self.sources)


_K_2009 = {"k_new": 25, "k_standard": 15, "k_top": 10, "k_junior": None, "junior_until": None}
_K_2011 = {**_K_2009, "k_new": 30}
_K_2014 = {"k_new": 40, "k_standard": 20, "k_top": 10, "k_junior": 40}
_K_FLAT = {"k_new": 20, "k_standard": 20, "k_top": 20, "k_junior": None, "junior_until": None}
_NO_600 = {"non_rating_gap": None, "non_rating_above": None}
#: Initial rating before 2024: "Ra + 20 for each half point over 50 %" (K 40's half), and
#: before July 2014 half the highest K of the time (F2009: "12.5 (half of the highest K
#: value)" with K 25; 15 with K 30).
_INITIAL_2014 = {"initial_method": "half-points", "initial_per_half_point": Decimal(20)}
_INITIAL_2024 = {"initial_method": "draws", "initial_max": 2200}


def _edition(chapter: Chapter, key: str, day: date, title: str, **values: object) -> Edition:
    return Edition(key=key, chapter=chapter, effective_from=day, title=title, **values)  # type: ignore[arg-type]


#: Every edition, oldest first within each chapter. See ``docs/rules.md`` for the text.
EDITIONS: tuple[Edition, ...] = (
    _edition(
        "standard", "standard-2009-07", date(2009, 7, 1), "FIDE Rating Regulations, 1 Jul 2009",
        **_K_2009, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1200,
        initial_method="half-points", initial_per_half_point=Decimal("12.5"),
        initial_min_games=9, k_top_min_games=30, sources=("F2009", "HB73", "GSU2008", "CE2014"),
    ),
    _edition(
        "standard", "standard-2011-07", date(2011, 7, 1), "FIDE Rating Regulations, 1 Jul 2011",
        **_K_2011, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1200,
        initial_method="half-points", initial_per_half_point=Decimal(15),
        initial_min_games=9, sources=("PR2011", "HB161", "CE2014"),
    ),
    _edition(
        "standard", "standard-2012-07", date(2012, 7, 1), "FIDE Rating Regulations, 1 Jul 2012",
        **_K_2011, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1000,
        initial_method="half-points", initial_per_half_point=Decimal(15),
        initial_min_games=9, sources=("CV2011", "HB161", "CE2014"),
    ),
    _edition(
        "standard", "standard-2014-07", date(2014, 7, 1), "FIDE Rating Regulations, 1 Jul 2014",
        **_K_2014, junior_until="birthday", cap_scope="game", cap_exempt_from=None,
        **_NO_600, floor=1000, **_INITIAL_2014, sources=("CE2014", "SAMARA", "AICF2014"),
    ),
    _edition(
        "standard", "standard-2022-01", date(2022, 1, 1), "FIDE Rating Regulations, 1 Jan 2022",
        **_K_2014, junior_until="end_of_year", cap_scope="event", cap_exempt_from=None,
        **_NO_600, floor=1000, **_INITIAL_2014, sources=("H22", "CCUP", "FIDECALC"),
    ),
    _edition(
        "standard", "standard-2024-03", date(2024, 3, 1), "FIDE Rating Regulations, 1 Mar 2024",
        **_K_2014, junior_until="end_of_year", cap_scope="game", cap_exempt_from=None,
        **_NO_600, floor=1400, **_INITIAL_2024, sources=("H24", "QC24"),
    ),
    _edition(
        "standard", "standard-2025-10", date(2025, 10, 1),
        "FIDE Rating Regulations, 1 Mar 2024 as amended 1 Oct 2025",
        **_K_2014, junior_until="end_of_year", cap_scope="game", cap_exempt_from=2650,
        **_NO_600, floor=1400, **_INITIAL_2024, sources=("H24", "H24A"),
    ),
    _edition(
        "rapid-blitz", "rapid-blitz-2012-01", date(2012, 1, 1),
        "FIDE rapid and blitz ratings, 1 Jan 2012",
        **_K_FLAT, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1200,
        sources=("FIDE2011", "ECF2011"),
    ),
    _edition(
        "rapid-blitz", "rapid-blitz-2012-07", date(2012, 7, 1),
        "FIDE rapid and blitz ratings, 1 Jul 2012",
        **_K_FLAT, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1000,
        sources=("FIDE2011", "ECF2011", "CV2011"),
    ),
    _edition(
        "rapid-blitz", "rapid-blitz-2022-01", date(2022, 1, 1),
        "FIDE Rapid & Blitz Regulations, 1 Jan 2022",
        **_K_FLAT, cap_scope="event", cap_exempt_from=None, **_NO_600, floor=1000,
        sources=("FIDE2011", "H22", "CCUP"),
    ),
    _edition(
        "rapid-blitz", "rapid-blitz-2022-10", date(2022, 10, 1),
        "FIDE Rapid & Blitz Regulations, 1 Oct 2022",
        **_K_2014, junior_until="end_of_year", cap_scope="event", cap_exempt_from=None,
        **_NO_600, floor=1000, sources=("RB22", "H22"),
    ),
    _edition(
        "rapid-blitz", "rapid-blitz-2024-03", date(2024, 3, 1),
        "FIDE Rapid & Blitz Regulations, 1 Mar 2024",
        **_K_2014, junior_until="end_of_year", cap_scope="game", cap_exempt_from=None,
        **_NO_600, floor=1400, sources=("RB24", "QC24"),
    ),
    _edition(
        "rapid-blitz", "rapid-blitz-2024-12", date(2024, 12, 1),
        "FIDE Rapid & Blitz Regulations, 1 Mar 2024 as amended 1 Dec 2024",
        **_K_2014, junior_until="end_of_year", cap_scope="game", cap_exempt_from=None,
        non_rating_gap=600, non_rating_above=2600, floor=1400,
        sources=("RB24", "RB24D"),
    ),
)  # fmt: skip

#: The editions by ``key``.
EDITIONS_BY_KEY: dict[str, Edition] = {edition.key: edition for edition in EDITIONS}


def chapter_of_speed(speed: str, choice: ChapterChoice = "auto") -> Chapter:
    """The chapter that rates a game of Lichess ``speed`` (``choice`` forces one).

    Under ``auto``, bullet, blitz, rapid and ultraBullet -> ``rapid-blitz``; classical,
    correspondence and any other speed -> ``standard``.
    """
    if choice != "auto":
        return choice
    return SPEED_CHAPTERS.get(speed, "standard")


def _of(chapter: Chapter) -> list[Edition]:
    return [e for e in EDITIONS if e.chapter == chapter]


def in_force(chapter: Chapter, day: date) -> Edition:
    """The edition of ``chapter`` in force on ``day``.

    A day before the chapter's first edition gets that first edition, marked
    ``before_first`` (FIDE had no rapid/blitz list before 2012; the 350-point rule of
    the editions before July 2009 is not modelled).
    """
    editions = _of(chapter)
    current = [e for e in editions if e.effective_from <= day]
    if current:
        return current[-1]
    return replace(editions[0], before_first=True)


def initial_rules(day: date) -> Edition:
    """The edition whose initial-rating rule (8.2) applies on ``day``: the standard
    chapter's, which the Rapid & Blitz chapter follows where it says nothing of its own."""
    return in_force("standard", day)


def latest(chapter: Chapter) -> Edition:
    """The newest edition of ``chapter``: the rules as they stand (the library's default)."""
    return _of(chapter)[-1]


def first_day(chapter: Chapter | None = None) -> date:
    """The first day of ``chapter``'s first edition (of any chapter's, without one)."""
    editions = EDITIONS if chapter is None else _of(chapter)
    return min(e.effective_from for e in editions)


def check_as_of(day: date, chapter: Chapter | None = None) -> date:
    """Return ``day`` if the rulebook has an edition of ``chapter`` (of every chapter,
    without one) in force then; else raise ``BadInput`` naming the range.
    """
    chapters = CHAPTERS if chapter is None else (chapter,)
    if all(day >= first_day(c) for c in chapters):
        return day
    ranges = ", ".join(f"{c} from {first_day(c).isoformat()}" for c in chapters)
    raise BadInput(
        f"is before the first FIDE edition this tool has ({ranges}, to today)",
        field="rules_as_of",
        value=day.isoformat(),
    )
