"""The club ladder's records: inputs, rules and results (pure data, no I/O).

``rating.py`` rates them, ``standings.py`` builds the awards and the player view;
``sources/club/files.py`` and ``sources/club/config.py`` read them from files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Literal

from lichess_elo.core import fide

UpdateMode = Literal["event", "month", "game"]
ClubMethod = Literal["formula", "fide-table"]
Rounding = Literal["display", "update"]
Start = int | Literal["fide"]

UPDATE_MODES: tuple[UpdateMode, ...] = ("event", "month", "game")
METHODS: tuple[ClubMethod, ...] = ("formula", "fide-table")
ROUNDINGS: tuple[Rounding, ...] = ("display", "update")
#: A newcomer's first games that do not count towards "Biggest progress" when the club
#: sets neither ``awards.progress_after`` nor ``k.provisional_games``.
DEFAULT_CALIBRATION_GAMES = 5
#: The player view shows the change over this many calendar months before the latest game.
RECENT_MONTHS = 3


def name_key(name: str) -> str:
    """How names are matched: spaces collapsed, case ignored."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class ClubPlayer:
    """One row of the players file.

    Attributes:
        name: The player's name as the games spell it (matched without regard to case).
        rating: The current rating from the sheet; ``None`` for a newcomer.
        provisional: The sheet marks the rating (or start) ``?``: a newcomer's, not yet
            established, so the newcomers' K applies.
        group: e.g. ``beginner``; selects a per-group start rating and K.
        born: Birth year (for the junior K rule).
        start: This player's own start rating, used when ``rating`` is empty.
        lichess: The player's Lichess account, so tournament games rate this member.
        where: ``file:line`` for messages.
    """

    name: str
    rating: int | None = None
    group: str | None = None
    born: int | None = None
    start: int | None = None
    lichess: str | None = None
    where: str = ""
    provisional: bool = False


@dataclass(frozen=True)
class ClubGame:
    """One game, from player A's (White's) side.

    Attributes:
        white: Player A (White when colours are known).
        black: Player B.
        score: A's score: 1, 0.5 or 0.
        day: The date the game was played.
        event: Event name, or ``None`` (then the date names the event).
        round: Round number(s) for ordering, e.g. ``(3,)`` or ``(2, 1)``.
        time_control: ``minutes+increment`` such as ``15+10``, or ``None``.
        game_id: The Lichess game id, when the game came from Lichess.
        where: ``file:line`` (or ``tournament:id``) for messages.
        seq: Input order, the last tie-breaker.
        forfeit: Won or lost by forfeit (``+:-``, ``-:+``): recorded, never rated.
    """

    white: str
    black: str
    score: Decimal
    day: date
    event: str | None = None
    round: tuple[int, ...] = ()
    time_control: str | None = None
    game_id: str | None = None
    where: str = ""
    seq: int = 0
    forfeit: bool = False

    @property
    def event_name(self) -> str:
        """The event, or the game's date when the input named none."""
        return self.event or self.day.isoformat()


@dataclass(frozen=True)
class Rules:
    """The club's rating rules (``club.toml``); see ``docs/club.md`` for every key."""

    start: Start = 1000
    start_groups: Mapping[str, Start] = field(default_factory=dict)
    start_players: Mapping[str, int] = field(default_factory=dict)
    newcomers: bool = False
    k: int = 20
    k_groups: Mapping[str, int] = field(default_factory=dict)
    k_players: Mapping[str, int] = field(default_factory=dict)
    junior_k: int | None = None
    junior_age: int = 18
    provisional_k: int | None = None
    provisional_games: int = 0
    return_k: int | None = None
    return_months: int = 6
    return_games: int = 0
    count_events: tuple[str, ...] = ()
    count_time_controls: tuple[str, ...] = ()
    exclude_events: tuple[str, ...] = ()
    update: UpdateMode = "event"
    method: ClubMethod = "formula"
    cap: bool | None = None
    rounding: Rounding = "display"
    target_step: int = 50
    term_end: date | None = None
    min_games: int = 0
    hide_provisional: bool = False
    progress_after: int | None = None
    club_name: str | None = None
    language: str = "en"
    columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def calibration_games(self) -> int:
        """A newcomer's first games that calibrate her rating and do not count towards the
        progress award: ``progress_after`` when set, else the club's provisional games
        (``k.provisional_games``) when it has them, else 5 (FIDE's initial rating needs 5
        games)."""
        if self.progress_after is not None:
            return self.progress_after
        return self.provisional_games or DEFAULT_CALIBRATION_GAMES

    @property
    def cap_used(self) -> bool:
        """The 400-point rule: off for ``formula``, on for ``fide-table`` unless set."""
        return self.cap if self.cap is not None else self.method == "fide-table"


@dataclass(frozen=True)
class PeriodEntry:
    """What one rating period did to one player (``k_rule``: the rule that gave ``k``,
    see ``kfactor.KChoice``)."""

    period: str
    day: date
    games: int
    points: Decimal
    expected: Decimal
    k: int
    change: Decimal
    rating_before: Decimal | None
    rating_after: Decimal
    k_rule: str = ""


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings (``rating`` unrounded; see ``shown``); ``k_next``
    is the K of their next period and ``k_rule`` the rule that gives it; ``newcomer``: the
    players file gave no established rating (her first games calibrate it)."""

    name: str
    rating: Decimal
    change: int
    games: int
    provisional: bool
    history: tuple[PeriodEntry, ...]
    k_next: int
    k_rule: str = ""
    newcomer: bool = False

    @property
    def shown(self) -> int:
        """The rating as displayed: rounded half away from zero."""
        return fide.round_half_away(self.rating)


@dataclass(frozen=True)
class EventSummary:
    """One event (or date, when the input named none) and the games that counted."""

    name: str
    day: date
    games: int


@dataclass(frozen=True)
class ProgressAward:
    """Biggest rating gain of a calendar month."""

    period: str
    name: str
    change: int


@dataclass(frozen=True)
class GamesAward:
    """Most games played."""

    name: str
    games: int


@dataclass(frozen=True)
class Target:
    """A player's next target: ``step`` points up, and wins against equals it takes."""

    rating: int
    step: int
    by: date | None
    k: int
    gain_per_win: Decimal
    wins_needed: int


@dataclass(frozen=True)
class ExcludedGame:
    """A game read but not rated, and the rule that left it out."""

    game: ClubGame
    rule: str


@dataclass(frozen=True)
class ClubResult:
    """The whole ladder after every counted game.

    ``excluded`` lists every game that was read but not rated, with its rule; ``k_used``
    gives, per group (or player with their own K, or ``others``), the K values the rated
    periods actually used. ``hidden`` is set on a published result (``publish.published``).
    """

    standings: tuple[Standing, ...]
    unrated: tuple[str, ...]
    events: tuple[EventSummary, ...]
    progress: tuple[ProgressAward, ...]
    most_games: tuple[GamesAward, ...]
    last_period: str | None
    last_day: date | None
    notes: tuple[str, ...]
    rules: Rules
    excluded: tuple[ExcludedGame, ...] = ()
    k_used: tuple[tuple[str, tuple[int, ...]], ...] = ()
    hidden: Hidden | None = None


@dataclass(frozen=True)
class Hidden:
    """Who the ``[publish]`` rules left out of a published table.

    Attributes:
        players: How many rated players were left out.
        unrated: How many players not rated yet were left out (never named).
        min_games: The rule's minimum of games (0: none).
        provisional: Provisional ratings were left out.
    """

    players: int
    unrated: int
    min_games: int
    provisional: bool


@dataclass(frozen=True)
class PlayerView:
    """One player's page: the standing, the change over the last ``months`` and the target."""

    standing: Standing
    recent: int
    months: int
    target: Target
