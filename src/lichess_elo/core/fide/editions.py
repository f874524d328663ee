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
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

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
    "Edition",
    "InitialMethod",
    "JuniorUntil",
    "KReason",
    "Source",
    "adjusted",
    "adjustment_between",
    "chapter_of_speed",
    "check_as_of",
    "edition_for",
    "first_day",
    "in_force",
    "initial_rules",
    "latest",
]  # fmt: skip

Chapter = Literal["standard", "rapid-blitz"]
#: What the user may ask for: ``auto`` picks the chapter from each game's speed.
ChapterChoice = Literal["auto", "standard", "rapid-blitz"]
#: ``game``: the 400-point rule applies to every game; ``event``: a player may benefit from
#: it in only one game per event, the one with the greatest rating difference (2022-2024).
CapScope = Literal["game", "event"]
#: Junior K: ``birthday`` = "until their 18th birthday" (2014 text); ``end_of_year`` =
#: "until the end of the year of their 18th birthday" (2022 and 2024 texts).
JuniorUntil = Literal["birthday", "end_of_year"]
#: The initial rating of an unrated player (8.2): ``draws`` = Ra + dp with two hypothetical
#: draws against 1800 (2024); ``half-points`` = Ra + dp below 50 %, else Ra plus a fixed
#: number of points for each half point over 50 % (before 2024).
InitialMethod = Literal["draws", "half-points"]

#: Why a K applies, one word each: the caller gave it, reached 2400, junior, new (under 30
#: games), established, or the same K for everyone (rapid and blitz before October 2022).
KReason = Literal["given", "2400", "junior", "new", "standard", "flat"]
K_REASONS: tuple[KReason, ...] = ("given", "2400", "junior", "new", "standard", "flat")

CHAPTERS: tuple[Chapter, ...] = ("standard", "rapid-blitz")
CHAPTER_CHOICES: tuple[ChapterChoice, ...] = ("auto", "standard", "rapid-blitz")

#: Lichess speed -> FIDE chapter under ``auto`` (FIDE rates no bullet: it is the nearest).
SPEED_CHAPTERS: dict[str, Chapter] = {
    "ultraBullet": "rapid-blitz",
    "bullet": "rapid-blitz",
    "blitz": "rapid-blitz",
    "rapid": "rapid-blitz",
    "classical": "standard",
    "correspondence": "standard",
}


@dataclass(frozen=True)
class Source:
    """Where a rule was read: the text, the section and its address.

    Attributes:
        key: The citation key used in ``docs/rules.md``.
        title: The document as its publisher names it.
        section: The handbook section(s) or passage relied on.
        url: Its address (as cited; the handbook's archived chapters have their own).
        read: How the text reached us when not read at ``url`` itself.
    """

    key: str
    title: str
    section: str
    url: str
    read: str = ""


_ZZ = "verbatim transcription in zugzwang-foundation/Chess-ELO-Rating, docs/research"

#: Every source an edition or adjustment cites, by key.
SOURCES: dict[str, Source] = {
    s.key: s
    for s in (
        Source(
            "H24", "FIDE Rating Regulations effective from 1 March 2024",
            "7.1.2, 7.1.4, 7.2.1, 8.2, 8.3.1-8.3.4", "https://handbook.fide.com/chapter/B022024",
            _ZZ + "/VERIFICATION_2026-10-09.md (d0fc1293), item 1",
        ),
        Source(
            "H24A", "FIDE Rating Regulations, amendment effective from 1 October 2025",
            "8.3.1 (players rated 2650 and above)", "https://handbook.fide.com/chapter/B022024",
            _ZZ + "/VERIFICATION_2026-10-09.md (d0fc1293), item 1; press: "
            "https://en.chessbase.com/post/fide-changes-rating-regulations",
        ),
        Source(
            "H22", "FIDE Rating Regulations effective from 1 January 2022 (to 29 Feb 2024)",
            "8.2, 8.3.1 (one upgrade per tournament), 8.3.3",
            "https://handbook.fide.com/chapter/B022022",
            _ZZ + "/VERIFICATION_TITLES.md (2828c628), item 2",
        ),
        Source(
            "RB24", "FIDE Rapid and Blitz Rating Regulations (from 1 March 2024)",
            "7.3.1, 7.3.3, 7.1.4", "https://handbook.fide.com/chapter/B02RBRegulations2024",
            _ZZ + "/VERIFICATION_2026-10-09.md (d0fc1293), item 2",
        ),
        Source(
            "RB24D", "FIDE Rapid and Blitz Rating Regulations, amendment from 1 December 2024",
            "600 points / 2600 non-rating rule",
            "https://handbook.fide.com/chapter/B02RBRegulations2024",
            _ZZ + "/VERIFICATION_2026-10-09.md, item 2; zugzwang src/layer0/rules.py "
            "(db159ac1) EXCLUSION_600; lichess-org/scalachess Elo.scala (cbffc9d7)",
        ),
        Source(
            "QC24", "FIDE Qualification Commission: new rating regulations come into force",
            "floor 1400; one-time adjustment 0.4 x (2000 - R); 400-point rule every game",
            "https://qc.fide.com/2024/03/01/new-rating-regulations-come-into-force/",
        ),
        Source(
            "FN2538", "FIDE seeks public discussion about proposed rating changes (22 Jul 2023)",
            "the adjustment formula and the restored 400-point rule", "https://fide.com/news/2538",
        ),
        Source(
            "RB22", "FIDE Rapid & Blitz Rating Regulations, changes from 1 October 2022",
            "K as in the standard regulations; one-time uplift to standard - 100",
            "https://handbook.fide.com/chapter/B02RBRegulations2022",
            "scacchierando.it 'Nuove regole FIDE per i rating Rapid&Blitz'; r/chess 31 Aug 2022 "
            "'FIDE will adjust Rapid & Blitz ratings' (secondary; both cite the handbook)",
        ),
        Source(
            "F2009", "FIDE: changes to title and rating regulations effective from 1 July 2009",
            "K values unchanged (25/15/10); 400-point rule; lists every two months",
            "http://www.fide.com/component/content/article/1-fide-news/4059-changes-to-title-"
            "and-rating-regulations-effective-from-july-1st-2009.html",
        ),
        Source(
            "PR2011", "PlayerRatings (R package), kfide: FIDE's K factors",
            "'The K factor of 30 was changed from 25 in the year 2011' (secondary; the date "
            "1 July follows the 2008 regulations' 0.1: changes come into effect on 1 July)",
            "https://rdrr.io/cran/PlayerRatings/man/kfide.html",
        ),
        Source(
            "HB161", "FIDE Handbook, Rating Regulations before 1 July 2014 (handbook id=161)",
            "8.56: K = 30 for a player new to the rating list; K = 15 under 2400; K = 10",
            "http://www.fide.com/fide/handbook.html?id=161&view=article",
            "quoted at http://samara-chess.ru/index.php?go=Pages&in=print&id=24 (13 Jan 2015)",
        ),
        Source(
            "HB73", "FIDE Handbook, Rating Regulations 2009 (handbook id=73)",
            "K = 25 new player; K = 15 under 2400; K = 10 once 2400 is published and 30 games "
            "completed; 9 games for an initial rating",
            "http://www.fide.com/fide/handbook.html?id=73&view=article",
            "quoted in the comments of ch.jester's FideCalculator (public code)",
        ),
        Source(
            "AICF2014", "AICF: rating calculation for an unrated player (2014 regulations)",
            "5 rated opponents within 26 months, at least 1000; Ra + 20 per half point",
            "http://aicf.in/rating-calculation-for-an-unrated-player-in-swiss-tournaments/",
        ),
        Source(
            "FIDECALC", "FIDE online initial-rating calculator (2022 rule), recorded 2026-10-09",
            "F-I01..F-I08, e.g. 'Rc:2000, W:3, N:5 Calculation: 2020=2000+20'",
            "https://ratings.fide.com/calc.phtml?page=initial",
            "zugzwang-foundation/Chess-ELO-Rating tests/fixtures/fide_calculator/"
            "calculator_initial_rating.json (477bdd94)",
        ),
        Source(
            "GSU2008", "FIDE Rating Regulations as amended through 2008",
            "0.6: after 1.7.2009 the floor will be 1200",
            "https://docsbay.net/doc/5644/gens-una-sumus",
        ),
        Source(
            "CV2011", "Updates from the FIDE front (Presidential Board 2011)",
            "floor 1000 and monthly lists from 1 July 2012",
            "http://www.chessvibes.com/reports/updates-from-the-fide-front",
        ),
        Source(
            "CE2014", "The new FIDE rating system from 1 July 2014",
            "K 40/20/10 and the junior K from 1 July 2014 (was 30/15/10)",
            "http://www.chesselo.com/new_fide_system.html",
        ),
        Source(
            "SAMARA", "FIDE Rating Regulations 8.56 before and after 1 July 2014",
            "8.56 verbatim", "http://samara-chess.ru/index.php?go=Pages&in=print&id=24",
        ),
        Source(
            "FIDE2011", "FIDE: rapid and blitz rating lists (2011)",
            "lists from 2012; 'K factor used will in all cases be 20'",
            "https://old.fide.com/component/content/article/1-fide-news/5721-rapid-and-blitz-"
            "rating-lists.html",
        ),
        Source(
            "ECF2011", "ECF: new FIDE venture (rapid and blitz)",
            "K 20 for all games and players; floor 1200, from 1 July 1000",
            "https://www.englishchess.org.uk/new-fide-venture/",
        ),
        Source(
            "CCUP", "FIDE rating uplift change (2022)",
            "the 2022 'only one upgrade' text next to the earlier one",
            "http://www.chesschat.org/showthread.php?18971-FIDE-rating-uplift-change",
        ),
    )
}  # fmt: skip


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
    def source_list(self) -> tuple[Source, ...]:
        """The ``Source`` of each key in ``sources``."""
        return tuple(SOURCES[key] for key in self.sources)


@dataclass(frozen=True)
class Adjustment:
    """A one-time change FIDE made to published ratings between two lists.

    ``compression`` (1 March 2024): every rating below ``below`` is raised by
    ``factor`` x (``below`` - R), rounded half away from zero. ``uplift`` (1 October 2022,
    Rapid & Blitz): a rating more than ``below`` points under the player's standard rating
    is raised to standard - ``below``; it needs the standard rating, so only a real FIDE
    record shows it.

    Attributes:
        key: Short stable name (used in JSON).
        day: The first list with the adjusted ratings.
        chapters: The chapters whose lists were adjusted.
        kind: ``compression`` or ``uplift``.
        title: What happened, in words.
        below: The 2000 of the compression; the 100 of the uplift.
        factor: The 0.4 of the compression (``None`` for the uplift).
        sources: Keys of ``SOURCES``.
    """

    key: str
    day: date
    chapters: tuple[Chapter, ...]
    kind: Literal["compression", "uplift"]
    title: str
    below: int
    factor: Decimal | None
    sources: tuple[str, ...]


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

#: The Rapid & Blitz uplift of 1 October 2022 (shown where a real FIDE record has it).
UPLIFT_2022 = Adjustment(
    key="rapid-blitz-uplift-2022-10",
    day=date(2022, 10, 1),
    chapters=("rapid-blitz",),
    kind="uplift",
    title="1 Oct 2022: rapid and blitz ratings more than 100 below the standard rating "
    "raised to standard - 100",
    below=100,
    factor=None,
    sources=("RB22",),
)

#: The compression of 1 March 2024, applied to a track that crosses that day.
COMPRESSION_2024 = Adjustment(
    key="compression-2024-03",
    day=date(2024, 3, 1),
    chapters=("standard", "rapid-blitz"),
    kind="compression",
    title="1 Mar 2024: every rating below 2000 raised by 0.4 x (2000 - R)",
    below=2000,
    factor=Decimal("0.4"),
    sources=("QC24", "FN2538"),
)

#: The one-time adjustments, oldest first.
ADJUSTMENTS: tuple[Adjustment, ...] = (UPLIFT_2022, COMPRESSION_2024)


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


#: The same as ``in_force`` (the name the report and the tests used first).
edition_for = in_force


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


def adjusted(adjustment: Adjustment, rating: int) -> int:
    """A rating after the compression: R + 0.4 x (2000 - R) below 2000, rounded half away
    from zero (1000 -> 1400, 1500 -> 1700, 1950 -> 1970; QC24); 2000 and above unchanged.

    Raises:
        ValueError: for the uplift, which needs the standard rating as well.
    """
    if adjustment.factor is None:
        raise ValueError(f"{adjustment.key} needs the player's standard rating")
    if rating >= adjustment.below:
        return rating
    raised = adjustment.factor * (adjustment.below - rating)
    return rating + int(raised.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def adjustment_between(chapter: Chapter, after: date, on_or_before: date) -> Adjustment | None:
    """The compression a track of ``chapter`` crosses from a period on ``after`` to one on
    ``on_or_before`` (the uplift needs a standard rating, so a track never crosses it)."""
    for adjustment in ADJUSTMENTS:
        if (
            adjustment.kind == "compression"
            and chapter in adjustment.chapters
            and after < adjustment.day <= on_or_before
        ):
            return adjustment
    return None
