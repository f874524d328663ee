"""The game model and the one implementation of each shared rule.

Pure code, no I/O. ``Game``, ``Side`` and ``Clock`` are immutable records of a Lichess
game; ``UserInfo`` and ``PerfStats`` are a player's public profile. Every field the Lichess
API may omit is optional here, because it really is omitted (see ``docs/lichess.md``):
``ratingDiff`` only on games that changed ratings, ``provisional`` only when true,
``winner`` absent for draws and aborted games, ``user``/``rating`` absent for AI and
anonymous players.

The shared rules live here once, for every command and source:

- ``speed_of``: Lichess's speed class of a clock (lila ``Speed.scala``);
- ``parse_score``: a game score or result in any accepted spelling;
- ``parse_day`` and ``parse_month_or_day``: the accepted date formats.

The readers that build games (Lichess JSON, PGN) live in ``lichess_elo.sources``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Literal

from lichess_elo.core.value import value_class
from lichess_elo.errors import BadInput, Malformed, NotBefore

Color = Literal["white", "black"]
COLORS: tuple[Color, Color] = ("white", "black")

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
    """One player of a game, as Lichess reports them.

    Attributes:
        user_id: Lowercase Lichess id, or ``None`` for AI and anonymous players.
        name: Display name (the AI shows as ``None``).
        title: ``GM``, ``LM``, ``BOT``... or ``None``.
        rating: The pre-game rating shown on the game (integer, truncated Glicko).
        rating_diff: Lichess's ``ratingDiff``; ``None`` when the game changed no rating.
        provisional: The rating was provisional (RD >= 110) when the game was created.
        ai_level: Stockfish level 1-8 for an AI opponent, else ``None``.
    """

    user_id: str | None = None
    name: str | None = None
    title: str | None = None
    rating: int | None = None
    rating_diff: int | None = None
    provisional: bool = False
    ai_level: int | None = None

    @property
    def is_bot(self) -> bool:
        """True for a BOT account (Lichess halves a human's change against one)."""
        return self.title == "BOT"

    @property
    def is_ai(self) -> bool:
        """True for Lichess's built-in Stockfish opponent."""
        return self.ai_level is not None

    @property
    def label(self) -> str:
        """A short human-readable name: the user name, ``AI level N`` or ``Anonymous``."""
        if self.name:
            return f"{self.title} {self.name}" if self.title else self.name
        if self.ai_level is not None:
            return f"AI level {self.ai_level}"
        return "Anonymous"


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's time control in seconds (absent for correspondence games)."""

    initial: int
    increment: int

    @property
    def estimated_total(self) -> int:
        """Lichess's speed estimate: initial + 40 x increment, in seconds."""
        return self.initial + 40 * self.increment


@value_class  # frozen for mypy; a plain slotted dataclass at run time (speed)
class Game:
    """One Lichess game, immutable and fully typed.

    ``created_at`` is the game's creation time, timezone-aware UTC; the tool assigns
    games to rating periods by it, as the export windows do.
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

    @property
    def url(self) -> str:
        """The game's page on lichess.org."""
        return game_url(self.id)

    def without_moves(self) -> Game:
        """This game with no moves (what a report holds once they are replayed: the moves
        are about half of a game's memory)."""
        return Game(
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
            (),
            self.initial_fen,
            self.tournament_id,
            self.swiss_id,
            self.clock,
            self.source,
        )

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


def game_url(game_id: str) -> str:
    """The page of game ``game_id`` on lichess.org."""
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


def dedupe_sorted(games: Iterable[Game]) -> list[Game]:
    """Oldest first by ``created_at`` (then id), each game id once."""
    unique: dict[str, Game] = {}
    for game in games:
        unique.setdefault(game.id, game)
    return sorted(unique.values(), key=lambda g: (g.created_at, g.id))


_POINTS = {1.0: Decimal(1), 0.5: Decimal("0.5"), 0.0: Decimal(0)}


# --- speed ------------------------------------------------------------------------------

#: Lichess's speed limits on initial + 40 x increment seconds (lila ``Speed.scala``):
#: a game is the first speed whose limit its estimate is below; 21600 s (6 hours) and
#: more is correspondence.
SPEED_LIMITS: tuple[tuple[int, str], ...] = (
    (30, "ultraBullet"),
    (180, "bullet"),
    (480, "blitz"),
    (1500, "rapid"),
    (21600, "classical"),
)
#: lila's user export writes a correspondence game's clock as ``N day(s) per move``.
_DAYS_PER_MOVE = re.compile(r"\d+ days? per move")
#: The speeds, fastest first.
SPEEDS = (*(name for _, name in SPEED_LIMITS), "correspondence")


def parse_time_control(tag: str) -> Clock | None:
    """A PGN ``TimeControl`` tag in seconds (``300+3``, ``600``); ``None`` for ``-``/``?``/empty
    and for lila's user-export ``3 days per move`` (no clock: correspondence).

    >>> parse_time_control("300+3"), parse_time_control("-")
    (Clock(initial=300, increment=3), None)

    Raises:
        ValueError: the tag is none of these.
    """
    if tag in ("", "-", "?") or _DAYS_PER_MOVE.fullmatch(tag):
        return None
    initial, _, increment = tag.partition("+")
    try:
        return Clock(initial=int(initial), increment=int(increment or 0))
    except ValueError as exc:
        raise ValueError(f"bad TimeControl {tag!r}") from exc


def speed_of(clock: Clock | None) -> str:
    """Lichess's speed for a clock: by initial + 40 x increment; no clock = correspondence.

    >>> speed_of(Clock(180, 2)), speed_of(Clock(21600, 0)), speed_of(None)
    ('blitz', 'correspondence', 'correspondence')
    """
    if clock is None:
        return "correspondence"
    total = clock.estimated_total
    for limit, name in SPEED_LIMITS:
        if total < limit:
            return name
    return "correspondence"


# --- scores and results ------------------------------------------------------------------

_ONE, _HALF, _ZERO = Decimal(1), Decimal("0.5"), Decimal(0)
#: Every accepted spelling of a score from one player's side (or a result from White's,
#: or player A's, side), lower case and without spaces.
_SCORES: Mapping[str, Decimal] = {
    "1": _ONE, "1.0": _ONE, "w": _ONE, "win": _ONE, "1-0": _ONE, "1:0": _ONE,
    "0.5": _HALF, ".5": _HALF, "½": _HALF, "1/2": _HALF, "d": _HALF, "draw": _HALF, "=": _HALF,
    "½-½": _HALF, "1/2-1/2": _HALF, "0.5-0.5": _HALF, "½:½": _HALF,
    "0": _ZERO, "0.0": _ZERO, "l": _ZERO, "loss": _ZERO, "0-1": _ZERO, "0:1": _ZERO,
}  # fmt: skip
#: What the score parser accepts, for messages.
SCORE_SPELLINGS = "1, 0.5, 0, ½, 1/2, w, d, l, =, 1-0, 1:0, ½-½, 1/2-1/2, 0-1 or 0:1"
#: Forfeits, from White's (player A's) side: recorded, never rated (FIDE rating
#: regulations: a game won by forfeit is not rated).
_FORFEITS: Mapping[str, Decimal] = {
    "+:-": _ONE, "+-": _ONE, "+/-": _ONE, "1f-0f": _ONE,
    "-:+": _ZERO, "-+": _ZERO, "-/+": _ZERO, "0f-1f": _ZERO,
}  # fmt: skip
#: What the result parser accepts (a score or a forfeit), for messages.
RESULT_SPELLINGS = f"{SCORE_SPELLINGS}, or a forfeit +:- or -:+"


def parse_score(text: str, field: str = "score") -> Decimal:
    """Parse a score (``1``, ``0.5``, ``½``, ``w``/``d``/``l``...) or a result (``1-0``...).

    A result is read from White's (or the first-named player's) side. Case and spaces do
    not matter.

    Raises:
        Malformed: anything else, naming ``field``.
    """
    key = text.strip().lower().replace(" ", "")
    if key in _SCORES:
        return _SCORES[key]
    if key in _FORFEITS:
        raise BadInput("a forfeit is recorded, never rated", field=field, value=text.strip())
    raise Malformed(field, text.strip(), SCORE_SPELLINGS, f"a {field}")


def parse_result(text: str, field: str = "result") -> tuple[Decimal, bool]:
    """A game result from White's (player A's) side: ``(score, forfeit)``.

    Every spelling of ``parse_score``, plus the forfeits ``+:-`` and ``-:+`` (also ``+-``,
    ``-+``, ``+/-``, ``-/+``), which come back with ``forfeit`` true: the result stands,
    the game is never rated.

    Raises:
        Malformed: anything else, naming ``field`` and every accepted spelling.
    """
    key = text.strip().lower().replace(" ", "")
    if key in _FORFEITS:
        return _FORFEITS[key], True
    if key in _SCORES:
        return _SCORES[key], False
    raise Malformed(field, text.strip(), RESULT_SPELLINGS, f"a {field}")


# --- dates ----------------------------------------------------------------------------------

_DAY_FORMATS = (
    re.compile(r"(?P<y>\d{4})[-./](?P<m>\d{1,2})[-./](?P<d>\d{1,2})"),
    re.compile(r"(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})"),
)
#: The day formats ``parse_day`` accepts, for messages.
DAY_FORMATS = "YYYY-MM-DD, YYYY.MM.DD, YYYY/MM/DD or DD.MM.YYYY, e.g. 2026-03-07"
#: The formats ``parse_month_or_day`` accepts, for messages.
MONTH_OR_DAY_FORMATS = "YYYY-MM or YYYY-MM-DD, e.g. 2023-01 or 2023-01-25"


def parse_day(text: str, field: str = "date") -> date:
    """A day written ``2026-03-07``, ``2026.03.07``, ``2026/03/07`` or ``07.03.2026``.

    Raises:
        Malformed: anything else (or an impossible day), naming ``field``.
    """
    value = text.strip()
    for pattern in _DAY_FORMATS:
        m = pattern.fullmatch(value)
        if m:
            try:
                return date(int(m["y"]), int(m["m"]), int(m["d"]))
            except ValueError:
                break
    raise Malformed(field, value, DAY_FORMATS, "a date")


#: The dates ``parse_month_or_day`` accepts: Lichess epoch milliseconds start in 1970, and
#: the month after the last one must exist (``date.max`` is 9999-12-31).
FIRST_DATE = date(1970, 1, 1)
LAST_DATE = date(9998, 12, 31)


def parse_month_or_day(text: str, field: str) -> date:
    """``YYYY-MM`` (the first day of that month) or ``YYYY-MM-DD``.

    Raises:
        Malformed: anything else, naming ``field`` and the expected formats.
        BadInput: a date before ``FIRST_DATE`` or after ``LAST_DATE``.
    """
    value = text.strip()
    match = re.fullmatch(r"(\d{4})-(\d{2})(?:-(\d{2}))?", value)
    try:
        if match is None:
            raise ValueError(value)
        year, month, day = match.groups()
        parsed = date(int(year), int(month), int(day) if day else 1)
    except ValueError:
        raise Malformed(field, value, MONTH_OR_DAY_FORMATS, "a date") from None
    if not FIRST_DATE <= parsed <= LAST_DATE:
        raise BadInput(
            f"is out of range; expected a date from {FIRST_DATE:%Y-%m-%d} to {LAST_DATE:%Y-%m-%d}",
            field=field,
            value=value,
        )
    return parsed


def check_date_range(since: date | None, until: date | None) -> None:
    """Refuse an empty or reversed range: ``since`` must be before ``until`` (exclusive).

    Raises:
        NotBefore: naming both ends.
    """
    if since is not None and until is not None and since >= until:
        raise NotBefore("since", since.isoformat(), "until", until.isoformat())
