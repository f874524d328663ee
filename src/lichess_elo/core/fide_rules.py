"""FIDE's rating rules by chapter and by date: a table of editions, pure data.

Which rules rate a game depends on two things (``docs/rules.md`` has the long form with
the regulation text and every source):

* **The chapter.** Standard games fall under the FIDE Rating Regulations; rapid and blitz
  games under the Rapid & Blitz chapter. ``chapter_of_speed`` maps a Lichess speed to a
  chapter: bullet, blitz and rapid (and ultraBullet) -> ``rapid-blitz``; classical and
  correspondence -> ``standard``, unless the caller forces one chapter.
* **The date.** ``edition_for`` picks the edition in force on a day: the latest whose
  ``effective_from`` is on or before it. A day before the first edition of a chapter gets
  the first one (``Edition.before_first`` says so): FIDE had no rapid or blitz list before
  2012, and the 350-point rule before July 2009 is not modelled.

Each ``Edition`` holds only numbers and words; the engine (``fide.py``) applies them. The
helpers here are the per-game parts of the rules that depend on the edition: the rating
difference used (400-point rule, 2650 exemption), which games of an event get the 400-point
rule when it is limited to one game per event, and the 600/2600 non-rating rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

__all__ = [
    "CHAPTERS",
    "CHAPTER_CHOICES",
    "EDITIONS",
    "EDITIONS_BY_KEY",
    "SPEED_CHAPTERS",
    "CapScope",
    "Chapter",
    "ChapterChoice",
    "Edition",
    "JuniorUntil",
    "KReason",
    "cap_applies",
    "chapter_of_speed",
    "difference_used",
    "edition_for",
    "is_junior",
    "k_for",
    "not_rated",
]  # fmt: skip

Chapter = Literal["standard", "rapid-blitz"]
#: What the user may ask for: ``auto`` picks the chapter from each game's speed.
ChapterChoice = Literal["auto", "standard", "rapid-blitz"]
#: ``game``: the 400-point rule applies to every game; ``event``: a player may benefit from
#: it in only one game per event, the one with the greatest rating difference (2022-2024).
CapScope = Literal["game", "event"]
#: Junior K: ``birthday`` = "until their 18th birthday" (2014 text); ``end_of_year`` =
#: "until the end of the year of their 18th birthday" (2024 text).
JuniorUntil = Literal["birthday", "end_of_year"]

#: Why a K applies: reached 2400, junior, new (under 30 games), established, or the same K
#: for everyone (rapid and blitz before March 2024).
KReason = Literal["2400", "junior", "new", "standard", "flat"]

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
        floor: The lowest rating published on a list.
        sources: Citation keys of ``docs/rules.md``.
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
    cap_difference: int = 400
    k_top_from: int = 2400
    junior_below: int = 2300
    junior_age: int = 18
    new_player_games: int = 30
    k_times_games_max: int = 700
    before_first: bool = False

    @property
    def flat_k(self) -> bool:
        """True when every player has the same K (rapid and blitz before March 2024)."""
        return self.k_new == self.k_standard == self.k_top and self.k_junior is None


def _standard(key: str, day: date, title: str, **values: object) -> Edition:
    return Edition(key=key, chapter="standard", effective_from=day, title=title, **values)  # type: ignore[arg-type]


def _rapid_blitz(key: str, day: date, title: str, **values: object) -> Edition:
    return Edition(key=key, chapter="rapid-blitz", effective_from=day, title=title, **values)  # type: ignore[arg-type]


_K_2014 = {"k_new": 40, "k_standard": 20, "k_top": 10, "k_junior": 40}
_K_2009 = {"k_new": 30, "k_standard": 15, "k_top": 10, "k_junior": None, "junior_until": None}
_K_FLAT = {"k_new": 20, "k_standard": 20, "k_top": 20, "k_junior": None, "junior_until": None}
_NO_600 = {"non_rating_gap": None, "non_rating_above": None}

#: Every edition, oldest first within each chapter. See ``docs/rules.md`` for the text.
EDITIONS: tuple[Edition, ...] = (
    _standard(
        "standard-2009-07", date(2009, 7, 1), "FIDE Rating Regulations, 1 Jul 2009",
        **_K_2009, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1200,
        sources=("CE2014", "SAMARA", "GSU2008"),
    ),
    _standard(
        "standard-2012-07", date(2012, 7, 1), "FIDE Rating Regulations, 1 Jul 2012",
        **_K_2009, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1000,
        sources=("CE2014", "SAMARA", "CV2011"),
    ),
    _standard(
        "standard-2014-07", date(2014, 7, 1), "FIDE Rating Regulations, 1 Jul 2014",
        **_K_2014, junior_until="birthday", cap_scope="game", cap_exempt_from=None,
        **_NO_600, floor=1000, sources=("CE2014", "SAMARA", "CX2014"),
    ),
    _standard(
        "standard-2022-01", date(2022, 1, 1), "FIDE Rating Regulations, 1 Jan 2022",
        **_K_2014, junior_until="birthday", cap_scope="event", cap_exempt_from=None,
        **_NO_600, floor=1000, sources=("H22", "CCUP"),
    ),
    _standard(
        "standard-2024-03", date(2024, 3, 1), "FIDE Rating Regulations, 1 Mar 2024",
        **_K_2014, junior_until="end_of_year", cap_scope="game", cap_exempt_from=None,
        **_NO_600, floor=1400, sources=("H24", "QC24"),
    ),
    _standard(
        "standard-2025-10", date(2025, 10, 1),
        "FIDE Rating Regulations, 1 Mar 2024 as amended 1 Oct 2025",
        **_K_2014, junior_until="end_of_year", cap_scope="game", cap_exempt_from=2650,
        **_NO_600, floor=1400, sources=("H24", "CB25"),
    ),
    _rapid_blitz(
        "rapid-blitz-2012-01", date(2012, 1, 1), "FIDE rapid and blitz ratings, 1 Jan 2012",
        **_K_FLAT, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1200,
        sources=("FIDE2011", "ECF2011"),
    ),
    _rapid_blitz(
        "rapid-blitz-2012-07", date(2012, 7, 1), "FIDE rapid and blitz ratings, 1 Jul 2012",
        **_K_FLAT, cap_scope="game", cap_exempt_from=None, **_NO_600, floor=1000,
        sources=("FIDE2011", "ECF2011", "CC2012"),
    ),
    _rapid_blitz(
        "rapid-blitz-2022-01", date(2022, 1, 1),
        "FIDE Rapid & Blitz Regulations, 1 Jan 2022",
        **_K_FLAT, cap_scope="event", cap_exempt_from=None, **_NO_600, floor=1000,
        sources=("FIDE2011", "H22", "CCUP"),
    ),
    _rapid_blitz(
        "rapid-blitz-2024-03", date(2024, 3, 1),
        "FIDE Rapid & Blitz Regulations, 1 Mar 2024",
        **_K_2014, junior_until="end_of_year", cap_scope="game", cap_exempt_from=None,
        **_NO_600, floor=1400, sources=("RB24", "QC24"),
    ),
    _rapid_blitz(
        "rapid-blitz-2024-12", date(2024, 12, 1),
        "FIDE Rapid & Blitz Regulations, 1 Mar 2024 as amended 1 Dec 2024",
        **_K_2014, junior_until="end_of_year", cap_scope="game", cap_exempt_from=None,
        non_rating_gap=600, non_rating_above=2600, floor=1400, sources=("RB24", "ZZ", "SC"),
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


def edition_for(chapter: Chapter, day: date) -> Edition:
    """The edition of ``chapter`` in force on ``day``.

    A day before the chapter's first edition gets that first edition, marked
    ``before_first`` (FIDE had no rapid/blitz list before 2012; the 350-point rule of
    the editions before July 2009 is not modelled).
    """
    editions = [e for e in EDITIONS if e.chapter == chapter]
    current = [e for e in editions if e.effective_from <= day]
    if current:
        return current[-1]
    first = editions[0]
    return replace(first, before_first=True)


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


def k_for(
    edition: Edition,
    rating: int,
    *,
    games_before: int,
    birth_year: int | None = None,
    year: int | None = None,
    peak: int | None = None,
) -> tuple[int, KReason]:
    """K of ``edition`` (8.3.3), in the order fitted to FIDE's published K values.

    1. the same K for everyone in a flat edition -> that K (``flat``);
    2. the rating, or the ``peak`` (the highest published rating ever), has reached
       2400 -> 10 (``2400``);
    3. a junior (``is_junior``) whose rating and peak are both below 2300 -> 40
       (``junior``): "as long as their rating remains under 2300" - once rated 2300 a
       junior does not return to K 40;
    4. fewer than 30 rated games before the period -> the new player's K (``new``);
    5. otherwise the established K (``standard``).

    Raises:
        ValueError: ``birth_year`` without ``year``, or a negative ``games_before``.
    """
    if games_before < 0:
        raise ValueError("games_before is negative")
    if birth_year is not None and year is None:
        raise ValueError("the year of the list is needed with a birth year")
    if edition.flat_k:
        return edition.k_standard, "flat"
    highest = rating if peak is None else max(rating, peak)
    if highest >= edition.k_top_from:
        return edition.k_top, "2400"
    junior = year is not None and is_junior(edition, birth_year, year)
    if junior and highest < edition.junior_below and edition.k_junior is not None:
        return edition.k_junior, "junior"
    if games_before < edition.new_player_games:
        return edition.k_new, "new"
    return edition.k_standard, "standard"


def difference_used(
    edition: Edition, own: int, opponent: int, *, cap: bool = True
) -> tuple[int, bool]:
    """D = own - opponent after the 400-point rule of ``edition``.

    ``cap`` says whether the rule applies to this game at all (``False``: the real
    difference; see ``cap_applies`` for the one-game-per-event limit). A player rated
    ``cap_exempt_from`` or more is never capped.

    Returns:
        (D used, whether it was capped).
    """
    diff = own - opponent
    exempt = edition.cap_exempt_from is not None and own >= edition.cap_exempt_from
    if cap and not exempt and abs(diff) > edition.cap_difference:
        return (edition.cap_difference if diff > 0 else -edition.cap_difference), True
    return diff, False


def cap_applies(
    edition: Edition, own: int, opponents: Sequence[int], events: Sequence[str]
) -> tuple[bool, ...]:
    """Which of a period's games the 400-point rule may cap, game by game.

    With ``cap_scope == "game"`` every game. With ``"event"`` (2022 text: "In any
    tournament, a player may benefit from only one upgrade under this rule, for the game
    in which the rating difference is greatest"): in each event, of the games where the
    player is more than 400 points *above* the opponent (where the rule is an upgrade for
    the player), only the one with the greatest difference; the first of equal ones.
    Where the player is the lower-rated one the rule is no benefit, and it applies to every
    game as before 2022 (a reading, see ``docs/rules.md``).

    Args:
        edition: The edition in force.
        own: The player's rating for the period.
        opponents: The opponents' ratings, one per game.
        events: The event of each game (any string; equal strings = one event).
    """
    if len(opponents) != len(events):
        raise ValueError("one event per game is needed")
    if edition.cap_scope == "game":
        return tuple(True for _ in opponents)
    best: dict[str, int] = {}
    for index, (opponent, event) in enumerate(zip(opponents, events, strict=True)):
        diff = own - opponent
        if diff > edition.cap_difference:
            chosen = best.get(event)
            if chosen is None or diff > own - opponents[chosen]:
                best[event] = index
    upgraded = set(best.values())
    return tuple(
        own - opponent <= edition.cap_difference or index in upgraded
        for index, opponent in enumerate(opponents)
    )


def not_rated(edition: Edition, own: int, opponent: int) -> bool:
    """The 600/2600 rule (Rapid & Blitz, from 1 December 2024): a game between players
    ``non_rating_gap`` or more apart, where at least one is rated above
    ``non_rating_above``, is not rated."""
    if edition.non_rating_gap is None or edition.non_rating_above is None:
        return False
    apart = abs(own - opponent) >= edition.non_rating_gap
    return apart and max(own, opponent) > edition.non_rating_above
