"""The words of the FIDE rulebook: its chapters, what a user may choose, and why a K applies
(pure; ``editions.py`` holds the editions that use them)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from lichess_elo.core.clock import Clock

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
#: draws against 1800; ``half-points`` = Ra + dp below 50 %, else Ra plus a fixed
#: number of points for each half point over 50 % (each edition names its method).
InitialMethod = Literal["draws", "half-points"]

#: Why a K applies, one word each: the caller gave it, reached 2400, junior, new (under 30
#: games), established, or the same K for everyone (the Rapid & Blitz editions with a ``flat_k``).
KReason = Literal["given", "2400", "junior", "new", "standard", "flat"]
K_REASONS: tuple[KReason, ...] = ("given", "2400", "junior", "new", "standard", "flat")

CHAPTERS: tuple[Chapter, ...] = ("standard", "rapid-blitz")
CHAPTER_CHOICES: tuple[ChapterChoice, ...] = ("auto", "standard", "rapid-blitz")

#: FIDE's speed of a game by the Laws of Chess, Appendix A and B; ``None`` for a game
#: without a clock (correspondence: FIDE's Laws do not cover it and FIDE rates none).
FideSpeed = Literal["standard", "rapid", "blitz"]

#: The Laws of Chess, Appendix A.1: rapid is "a fixed time of more than 10 minutes but less
#: than 60 minutes for each player; or the time allotted plus 60 times any increment is of
#: more than 10 minutes but less than 60 minutes"; 60 minutes or more is standard. In
#: seconds, on initial + 60 x increment (``laws_total``).
STANDARD_FROM_SECONDS = 60 * 60
#: Blitz (Appendix B) is 10 minutes or less on the same count; the Laws of 2009 drew that
#: line at 15 minutes ("more than 15 minutes but less than 60 minutes" for rapid) until the
#: Laws decided in 2012 took effect on 1 July 2013 (``docs/rules.md``, "The chapter of a
#: game"). The 60-minute line, the one that decides the rating chapter, never moved.
BLITZ_UP_TO_SECONDS = 10 * 60
BLITZ_UP_TO_SECONDS_2009 = 15 * 60
BLITZ_LINE_MOVED = date(2013, 7, 1)


def laws_total(clock: Clock) -> int:
    """The Laws' count of a clock in seconds: the time allotted plus 60 x the increment.

    >>> laws_total(Clock(3540, 1)), laws_total(Clock(2700, 15))
    (3600, 3600)
    """
    return clock.initial + 60 * clock.increment


def fide_speed(clock: Clock | None, day: date | None = None) -> FideSpeed | None:
    """FIDE's speed of a game with ``clock`` played on ``day`` (today's Laws without one):
    standard from 60 minutes, blitz up to 10 minutes (15 before 1 July 2013), else rapid;
    ``None`` without a clock (correspondence).

    >>> fide_speed(Clock(600, 0)), fide_speed(Clock(600, 1)), fide_speed(Clock(3600, 0))
    ('blitz', 'rapid', 'standard')
    >>> fide_speed(Clock(900, 0), date(2013, 6, 30)), fide_speed(None)
    ('blitz', None)
    """
    if clock is None:
        return None
    total = laws_total(clock)
    if total >= STANDARD_FROM_SECONDS:
        return "standard"
    old = day is not None and day < BLITZ_LINE_MOVED
    blitz_up_to = BLITZ_UP_TO_SECONDS_2009 if old else BLITZ_UP_TO_SECONDS
    return "blitz" if total <= blitz_up_to else "rapid"


def fide_chapter(clock: Clock | None) -> Chapter:
    """The FIDE rating chapter of a game with ``clock``, by the Laws of Chess, Appendix A:
    ``standard`` when initial + 60 x increment is 60 minutes or more, else ``rapid-blitz``
    (rapid and blitz share the Rapid & Blitz regulations, so the 2013 move of the blitz
    line does not change a chapter). A game without a clock (correspondence, which FIDE
    does not rate) takes ``standard``, as correspondence always has here.

    >>> fide_chapter(Clock(1800, 0)), fide_chapter(Clock(3540, 1)), fide_chapter(None)
    ('rapid-blitz', 'standard', 'standard')
    """
    if clock is None or laws_total(clock) >= STANDARD_FROM_SECONDS:
        return "standard"
    return "rapid-blitz"


#: Lichess speed -> FIDE chapter, where a game's clock is not known (a ``db`` made before
#: the clock was kept, the K of a perf's list between its games): FIDE rates no bullet, so
#: it is the nearest; classical and correspondence take the standard chapter.
SPEED_CHAPTERS: dict[str, Chapter] = {
    "ultraBullet": "rapid-blitz",
    "bullet": "rapid-blitz",
    "blitz": "rapid-blitz",
    "rapid": "rapid-blitz",
    "classical": "standard",
    "correspondence": "standard",
}
