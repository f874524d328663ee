"""Which FIDE rules rate a report's games: chapter, edition by date, events, the K warning.

Pure code, no I/O (part of the report model; the rules table is ``core/fide/editions.py``,
the long form ``docs/rules.md``):

- **Chapter of a game.** Under ``auto`` each game takes FIDE's chapter of its own clock, by
  the Laws of Chess, Appendix A (``fide.fide_chapter``: standard when initial + 60 x
  increment is 60 minutes or more, else Rapid & Blitz); a game whose clock is not known
  takes its Lichess speed's chapter, and a correspondence game (no clock) the standard
  chapter. ``--rules`` forces one chapter for every game.
- **Chapter of a perf.** The chapter most of its games take (ties: the chapter of the
  earliest such game): the chapter whose one-time adjustments the perf's one track crosses.
- **Edition of a period.** For each chapter its games take, the edition of that chapter in
  force on the period's first game's UTC date, or on the fixed ``rules_as_of`` date: a
  period whose games span chapters is rated in parts, one a chapter (``perf.perf_report``).
- **Event of a game** (the once-per-event 400-point rule of 2022-2024): its Lichess arena
  or swiss; a game of neither belongs to the period (``None``).
- **The K warning.** The 30-game rule rests on the count of rated games before the first
  game held. When that count says "under 30", it is contradicted (K is then taken as for an
  established player, unless the user gave the count or K) when

  - Lichess's API shows the first game held already established (not provisional); or
  - the games come from a PGN, which never says whether a rating was provisional, and the
    player's first rating held is not Lichess's 1500 start, so games came before it. A
    first game at exactly 1500 is a new account: the count stands and nothing is assumed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from lichess_elo.core.fide import editions as fide_rules
from lichess_elo.core.fide.editions import Chapter, ChapterChoice, Edition
from lichess_elo.core.fide.kinds import fide_chapter
from lichess_elo.core.games import Color, Game

#: The rating every new Lichess account starts each perf at (lila ``Glicko.default``).
LICHESS_START = 1500


@dataclass(frozen=True)
class KWarning:
    """The 30-game count contradicted by the games (see the module docstring).

    Attributes:
        first_game: The first game held in the perf.
        first_rating: The player's Lichess rating in it.
        counted_before: The rated games before it, as counted (under 30).
        assumed_before: The count used instead (30: an established player).
        basis: ``established``: Lichess's API showed the rating not provisional;
            ``not_start``: a PGN (no provisional mark) whose first rating is not Lichess's
            start, so the file does not begin at the account's first game.
    """

    first_game: str
    first_rating: int
    counted_before: int
    assumed_before: int
    basis: str = "established"

    @property
    def text(self) -> str:
        """One line saying what was assumed and why (only what the data said)."""
        if self.basis == "not_start":
            return (
                f"{self.counted_before} rated games counted before the first game held "
                f"({self.first_game}), rated {self.first_rating}, not Lichess's "
                f"{LICHESS_START} start, so games came before it and the count is unknown "
                "(a PGN never says whether a rating was provisional): K assumed as for an "
                f"established player ({self.assumed_before}+ games)"
            )
        return (
            f"{self.counted_before} rated games counted before the first game held "
            f"({self.first_game}), which Lichess shows established ({self.first_rating}, not "
            f"provisional): K assumed as for an established player ({self.assumed_before}+ "
            "games)"
        )


def game_chapter(game: Game, choice: ChapterChoice) -> Chapter:
    """The chapter that rates ``game``: forced by ``choice``, else FIDE's chapter of its
    clock (Laws of Chess, Appendix A), else (clock unknown) its Lichess speed's chapter."""
    if choice != "auto":
        return choice
    if game.clock is not None:
        return fide_chapter(game.clock)
    return fide_rules.chapter_of_speed(game.speed, "auto")


def main_chapter(chapters: Sequence[Chapter]) -> Chapter:
    """The chapter most of ``chapters`` are (ties: the earliest of them); standard for none."""
    if not chapters:
        return "standard"
    counts = Counter(chapters)
    return max(dict.fromkeys(chapters), key=lambda c: counts[c])


def perf_chapter(games: Sequence[Game], choice: ChapterChoice) -> Chapter:
    """The chapter of a perf's one track: forced by ``choice``, else the chapter most of its
    games take (``game_chapter``); standard without games."""
    if choice != "auto":
        return choice
    return main_chapter([game_chapter(game, choice) for game in games])


def period_edition(chapter: Chapter, first: Game, as_of: date | None) -> Edition:
    """The edition that rates a period starting with ``first`` (or the one of ``as_of``)."""
    return fide_rules.in_force(chapter, as_of or first.created_at.date())


def game_event(game: Game) -> str | None:
    """The event of ``game`` for the once-per-event rule: its arena or swiss, else ``None``."""
    if game.tournament_id:
        return f"arena:{game.tournament_id}"
    if game.swiss_id:
        return f"swiss:{game.swiss_id}"
    return None


def k_warning(
    first: tuple[Game, Color] | None,
    counted_before: int,
    *,
    count_given: bool,
    k_given: bool,
    new_player_games: int,
    provisional_known: bool = True,
) -> KWarning | None:
    """The K warning for a perf, or ``None`` when the count is not contradicted.

    Args:
        first: The first game held in the perf and the player's colour.
        counted_before: Rated games before it, as counted from the public data.
        count_given: The user gave the count (it is then taken as it is).
        k_given: The user gave K (the 30-game rule does not apply).
        new_player_games: The 30 of the 30-game rule: ``Edition.new_player_games`` of the
            edition that rates the first period (the count is compared with it).
        provisional_known: The games carry Lichess's provisional flag (the API does; a PGN
            never does, and then only a first rating of 1500 says the account is new).
    """
    if first is None or count_given or k_given or counted_before >= new_player_games:
        return None
    game, color = first
    me = game.side(color)
    if me.rating is None:
        return None
    if not provisional_known:
        if me.rating == LICHESS_START:  # a new account's first game: the count stands
            return None
        return KWarning(game.id, me.rating, counted_before, new_player_games, "not_start")
    if me.provisional:
        return None
    return KWarning(game.id, me.rating, counted_before, new_player_games)
