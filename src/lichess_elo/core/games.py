"""The game model: a game, its players and a player's profile.

Pure code, no I/O. ``Game``, ``Side`` and ``Clock`` are immutable records of a game;
``UserInfo`` and ``PerfStats`` are a player's public profile. Every field a site may omit is
optional here, because it really is omitted (see ``docs/lichess.md``): Lichess gives
``ratingDiff`` only on games that changed ratings, ``provisional`` only when true,
``winner`` absent for draws and aborted games, ``user``/``rating`` absent for AI and
anonymous players.

A side records the ratings its site published, and only those: the rating before the game
(``Side.rating``, Lichess), after it (``Side.rating_after``, a site such as Chess.com) and
the site's change (``Side.rating_diff``, Lichess's ``ratingDiff``). ``chain_link`` reads
the rating chain of a player's games from whichever the site gives (``docs/sources.md``).

The shared rules live once, each in its own module, and are re-exported here for every
command and source:

- ``core.clock``: ``Clock`` and ``speed_of``, Lichess's speed class of a clock (lila
  ``Speed.scala``), and ``parse_time_control``;
- ``core.scores``: ``parse_score`` and ``parse_result``, a game score or result in any
  accepted spelling;
- ``core.dates``: ``parse_day`` and ``parse_month_or_day``, the accepted date formats, and
  ``check_date_range``.

The readers that build games (Lichess JSON, PGN) live in ``lichess_elo.sources``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Literal

from lichess_elo.core import lichess_pgn
from lichess_elo.core.clock import SPEED_LIMITS, SPEEDS, Clock, parse_time_control, speed_of
from lichess_elo.core.dates import (
    DAY_FORMATS,
    FIRST_DATE,
    LAST_DATE,
    MONTH_OR_DAY_FORMATS,
    check_date_range,
    parse_day,
    parse_month_or_day,
)
from lichess_elo.core.scores import RESULT_SPELLINGS, SCORE_SPELLINGS, parse_result, parse_score
from lichess_elo.core.value import plain_twin, value_class

__all__ = [
    "CHESSCOM",
    "COLORS",
    "DAY_FORMATS",
    "FINISHED_STATUSES",
    "FIRST_DATE",
    "LAST_DATE",
    "LICHESS",
    "MONTH_OR_DAY_FORMATS",
    "PERFS",
    "RATING_MAX",
    "RATING_MIN",
    "RESULT_SPELLINGS",
    "SCORE_SPELLINGS",
    "SITES",
    "SITE_NAMES",
    "SPEEDS",
    "SPEED_LIMITS",
    "Clock",
    "Color",
    "Game",
    "PerfStats",
    "Side",
    "UserInfo",
    "chain_link",
    "check_date_range",
    "dedupe_sorted",
    "game_url",
    "is_unplayed",
    "parse_day",
    "parse_month_or_day",
    "parse_result",
    "parse_score",
    "parse_time_control",
    "speed_of",
]

Color = Literal["white", "black"]
COLORS: tuple[Color, Color] = ("white", "black")

#: The ratings a game may carry and every rating this tool takes (a FIDE, club or site
#: rating): RATING_MIN..RATING_MAX, the one home of that range.
RATING_MIN = 0
RATING_MAX = 4000

#: Statuses of a game that was played to a result (scalachess ``Status`` ids >= 30), and
#: ``timeForfeit``: a PGN's ``Time forfeit``, which is ``outoftime`` or ``timeout``.
FINISHED_STATUSES = frozenset(
    {
        "mate",
        "resign",
        "stalemate",
        "timeout",
        "draw",
        "outoftime",
        "cheat",
        "noStart",
        "timeForfeit",
        "unknownFinish",
        "insufficientMaterialClaim",
        "variantEnd",
    }
)

#: Every rating pool (perf) key Lichess uses for games.
PERFS = (
    "ultraBullet",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
    "chess960",
    "crazyhouse",
    "antichess",
    "atomic",
    "horde",
    "kingOfTheHill",
    "racingKings",
    "threeCheck",
)


@value_class  # frozen for mypy; a plain slotted dataclass at run time (speed)
class Side:
    """One player of a game, as the site reports them.

    The three rating fields hold what the site published, and nothing derived: Lichess
    publishes ``rating`` and ``rating_diff``; a site that publishes the rating after the
    game only (Chess.com) gives ``rating_after``. ``chain_link`` derives the rest.

    Attributes:
        user_id: Lowercase site id, or ``None`` for AI and anonymous players.
        name: Display name (the AI shows as ``None``).
        title: ``GM``, ``LM``, ``BOT``... or ``None``.
        rating: The rating before the game, as shown on it (Lichess: integer, truncated
            Glicko); ``None`` when the site gives none.
        rating_diff: The site's own change of the rating by this game (Lichess's
            ``ratingDiff``); ``None`` when the site gives none or the game changed no rating.
        provisional: The rating was provisional (RD >= 110) when the game was created.
        ai_level: Stockfish level 1-8 for an AI opponent, else ``None``.
        rating_after: The rating after the game, as the site published it; ``None`` when
            the site gives none (Lichess never does: its after is ``rating + rating_diff``).
        rating_estimated: ``rating`` is an estimate, not a published number (Chess.com's
            opponent before the game: their post-game rating minus the change the result
            implies); every output marks it.
    """

    user_id: str | None = None
    name: str | None = None
    title: str | None = None
    rating: int | None = None
    rating_diff: int | None = None
    provisional: bool = False
    ai_level: int | None = None
    rating_after: int | None = None  # last: positional builders of the fields above stand
    rating_estimated: bool = False

    @property
    def is_bot(self) -> bool:
        """True for a BOT account (Lichess halves a human's change against one)."""
        return self.title == "BOT"

    @property
    def is_ai(self) -> bool:
        """True for Lichess's built-in Stockfish opponent."""
        return self.ai_level is not None

    @property
    def rating_end(self) -> int | None:
        """The rating the game left the player on: ``rating_after`` where the site gives
        it, else ``rating + rating_diff``; ``None`` when neither is known."""
        if self.rating_after is not None:
            return self.rating_after
        if self.rating is None or self.rating_diff is None:
            return None
        return self.rating + self.rating_diff

    @property
    def rating_shown(self) -> int | None:
        """The player's rating at the game as the site shows it: ``rating`` (before the
        game), else ``rating_after`` (a site that gives only post-game ratings; the rating
        an opponent is rated at there); ``None`` when the site gives neither."""
        return self.rating if self.rating is not None else self.rating_after

    @property
    def label(self) -> str:
        """A short human-readable name: the user name, ``AI level N`` or ``Anonymous``."""
        if self.name:
            return f"{self.title} {self.name}" if self.title else self.name
        if self.ai_level is not None:
            return f"AI level {self.ai_level}"
        return "Anonymous"


@value_class  # frozen for mypy; a plain slotted dataclass at run time (speed)
class Game:
    """One game of a site, immutable and fully typed.

    ``created_at`` is the time the tool assigns the game to a rating period by,
    timezone-aware UTC: a Lichess game's creation (as the export windows do), a Chess.com
    game's end (its archive month is the month it ended). ``site`` names the site
    (``SITES``): ``lichess`` unless a source says otherwise; ``source`` is Lichess's own
    field (``pool``, ``arena``...), not the site.
    """

    id: str
    rated: bool
    variant: str
    speed: str
    perf: str
    created_at: datetime
    status: str
    white: Side
    black: Side
    winner: Color | None = None
    last_move_at: datetime | None = None
    moves: tuple[str, ...] = ()
    initial_fen: str | None = None
    tournament_id: str | None = None
    swiss_id: str | None = None
    clock: Clock | None = None
    source: str | None = None
    site: str = "lichess"

    @property
    def url(self) -> str:
        """The game's page on its site (``game_url``)."""
        return game_url(self.id, self.site)

    def without_moves(self) -> Game:
        """This game with no moves (what a report holds once they are replayed: the moves
        are about half of a game's memory); itself when it holds none."""
        if not self.moves:
            return self
        game: Game = _plain_game(  # Game(...) without its __new__'s Python call
            self.id,
            self.rated,
            self.variant,
            self.speed,
            self.perf,
            self.created_at,
            self.status,
            self.white,
            self.black,
            self.winner,
            self.last_move_at,
            (),  # moves
            self.initial_fen,
            self.tournament_id,
            self.swiss_id,
            self.clock,
            self.source,
            self.site,
        )
        game.__class__ = Game
        return game

    @property
    def finished(self) -> bool:
        """True when the game was played to a result (not created, started or aborted)."""
        return self.status in FINISHED_STATUSES

    def side(self, color: Color) -> Side:
        """The player of ``color``."""
        return self.white if color == "white" else self.black

    def opponent(self, color: Color) -> Side:
        """The player facing ``color``."""
        return self.black if color == "white" else self.white

    def color_of(self, user: str) -> Color | None:
        """The colour ``user`` played (case-insensitive), or ``None`` if not in the game."""
        wanted = user.lower()
        for color in COLORS:
            side = self.side(color)
            if side.user_id == wanted or (side.name or "").lower() == wanted:
                return color
        return None

    def points(self, color: Color) -> Decimal:
        """``score`` as an exact ``Decimal`` (0 for a game without a result)."""
        return _POINTS[self.score(color) or 0.0]

    def score(self, color: Color) -> float | None:
        """1, 0.5 or 0 from ``color``'s side; ``None`` if the game has no result."""
        if not self.finished:
            return None
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == color else 0.0


#: ``Game``'s plain twin (``value.plain_twin``), for ``Game.without_moves``.
_plain_game = plain_twin(Game)


#: The sites a game can come from: Lichess, and Chess.com (``core.chesscom``).
LICHESS, CHESSCOM = "lichess", "chesscom"
SITES = (LICHESS, CHESSCOM)
#: Each site's name in words.
SITE_NAMES = {LICHESS: "Lichess", CHESSCOM: "Chess.com"}


def game_url(game_id: str, site: str = LICHESS) -> str:
    """The page of game ``game_id`` on its site: ``https://lichess.org/ID``; a Chess.com
    game's id is its page's path after ``/game/`` (``live/4860634174``), so
    ``https://www.chess.com/game/live/4860634174``."""
    if site == CHESSCOM:
        return f"https://www.chess.com/game/{game_id}"
    return f"https://lichess.org/{game_id}"


@dataclass(frozen=True)
class PerfStats:
    """One rating pool of ``/api/user``: rated games, rating and RD (truncated), provisional."""

    games: int
    rating: int
    rd: int
    provisional: bool


@dataclass(frozen=True)
class UserInfo:
    """The public profile. ``created_at`` is the Unix epoch when Lichess omits it (closed)."""

    id: str
    username: str
    created_at: datetime
    disabled: bool
    perfs: Mapping[str, PerfStats]
    fide_id: int | None = None


def chain_link(previous: Side | None, side: Side) -> tuple[int | None, int | None, int | None]:
    """One link of a player's rating chain in a perf: ``(before, change, gap)`` of ``side``,
    the player in a game, after ``previous``, the player in their previous counted game
    of the perf (``None`` for the first).

    - ``before``: ``side.rating`` where the site gives it, else the rating ``previous`` left
      the player on (``Side.rating_end``); ``None`` when neither is known (the first game of
      a site that publishes only post-game ratings).
    - ``change``: the site's ``rating_diff`` where it gives one (Lichess), else the observed
      ``rating_after - before``; ``None`` when either is unknown: a change is never made up.
    - ``gap``: ``side.rating`` minus the rating ``previous`` left the player on, where the
      site published both and they differ, else ``None``. A site that publishes only
      post-game ratings has no independent "before", so it shows no gap, never a false one.

    Lichess (before and change): ``(rating, rating_diff, rating - (prev.rating +
    prev.rating_diff) or None)``. Post-game ratings only, afters 1500, 1512, 1498:
    ``(None, None, None)``, ``(1500, 12, None)``, ``(1512, -14, None)``.
    """
    end = None if previous is None else previous.rating_end
    rating = side.rating
    before = end if rating is None else rating
    change = side.rating_diff
    if change is None and side.rating_after is not None and before is not None:
        change = side.rating_after - before
    gap = None if rating is None or end is None or rating == end else rating - end
    return before, change, gap


def is_unplayed(game: Game, plies: int | None = None) -> bool:
    """True for a game its site did not rate for want of moves (``lichess_pgn.unplayed``:
    no side with a published change, ``rating_diff`` or ``rating_after``, and at most one
    ply), whatever its ``rated`` flag says.

    Args:
        game: The game.
        plies: Its plies where its moves are no longer held (``Game.without_moves``); else
            the moves it holds are counted.
    """
    white, black = game.white, game.black
    if (
        white.rating_diff is not None
        or black.rating_diff is not None
        or white.rating_after is not None
        or black.rating_after is not None
    ):
        return False
    count = len(game.moves) if game.moves or plies is None else plies
    return lichess_pgn.unplayed(False, count)


def dedupe_sorted(games: Iterable[Game]) -> list[Game]:
    """Oldest first by ``created_at`` (then id), each game id once."""
    unique: dict[str, Game] = {}
    for game in games:
        unique.setdefault(game.id, game)
    return sorted(unique.values(), key=lambda g: (g.created_at, g.id))


_POINTS = {1.0: Decimal(1), 0.5: Decimal("0.5"), 0.0: Decimal(0)}
