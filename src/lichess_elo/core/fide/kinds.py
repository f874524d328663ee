"""The words of the FIDE rulebook: its chapters, what a user may choose, and why a K applies
(pure; ``editions.py`` holds the editions that use them)."""

from __future__ import annotations

from typing import Literal

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

#: Lichess speed -> FIDE chapter under ``auto`` (FIDE rates no bullet: it is the nearest).
SPEED_CHAPTERS: dict[str, Chapter] = {
    "ultraBullet": "rapid-blitz",
    "bullet": "rapid-blitz",
    "blitz": "rapid-blitz",
    "rapid": "rapid-blitz",
    "classical": "standard",
    "correspondence": "standard",
}
