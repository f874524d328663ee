"""The game model: immutable ``Game`` and ``Side`` records, and the Lichess JSON parser.

Pure code, no I/O. Every field the Lichess API may omit is optional here, because it
really is omitted: ``ratingDiff`` only on games that changed ratings, ``provisional`` only
when true, ``winner`` absent for draws and aborted games, ``user``/``rating`` absent for
AI and anonymous players (see ``notes/lichess-api.md`` §2.2).

The PGN reader (for games downloaded by hand) lives in ``pgn.py`` and returns the same
``Game`` objects.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

Color = Literal["white", "black"]
COLORS: tuple[Color, Color] = ("white", "black")

#: Statuses of a game that was played to a result (scalachess ``Status`` ids >= 30).
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
        return f"https://lichess.org/{self.id}"

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

    def score(self, color: Color) -> float | None:
        """1, 0.5 or 0 from ``color``'s side; ``None`` if the game has no result."""
        if not self.finished:
            return None
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == color else 0.0


def _millis_to_datetime(value: Any, field: str) -> datetime:
    if isinstance(value, datetime):  # berserk converts top-level timestamps in place
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{field} is not a timestamp: {value!r}")
    return datetime.fromtimestamp(value / 1000, UTC)


def _opt_int(value: Any, field: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{field} is not an integer: {value!r}")
    return value


def _opt_str(value: Any, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{field} is not a string: {value!r}")
    return value


def _parse_side(obj: Any, color: str) -> Side:
    if obj is None:
        return Side()
    if not isinstance(obj, Mapping):
        raise ValueError(f"players.{color} is not an object")
    user = obj.get("user")
    if user is not None and not isinstance(user, Mapping):
        raise ValueError(f"players.{color}.user is not an object")
    user = user or {}
    name = _opt_str(user.get("name"), f"players.{color}.user.name") or _opt_str(
        obj.get("name"), f"players.{color}.name"
    )
    user_id = _opt_str(user.get("id"), f"players.{color}.user.id")
    if user_id is None and user.get("name"):
        user_id = str(user["name"]).lower()
    return Side(
        user_id=user_id,
        name=name,
        title=_opt_str(user.get("title"), f"players.{color}.user.title"),
        rating=_opt_int(obj.get("rating"), f"players.{color}.rating"),
        rating_diff=_opt_int(obj.get("ratingDiff"), f"players.{color}.ratingDiff"),
        provisional=bool(obj.get("provisional", False)),
        ai_level=_opt_int(obj.get("aiLevel"), f"players.{color}.aiLevel"),
    )


def _event_id(obj: Mapping[str, Any], old_key: str, new_key: str) -> str | None:
    """Tournament id from the old string key or the new ``{id, name}`` object (2026-06)."""
    new = obj.get(new_key)
    if isinstance(new, Mapping) and isinstance(new.get("id"), str):
        return str(new["id"])
    return _opt_str(obj.get(old_key), old_key)


def parse_game(obj: Mapping[str, Any]) -> Game:
    """Turn one Lichess game JSON object into a ``Game``.

    Accepts both the raw API form (``createdAt`` in epoch milliseconds) and berserk's
    converted form (``createdAt`` as a ``datetime``).

    Raises:
        ValueError: a required field (``id``, ``createdAt``, ``status``, ``variant``,
            ``speed``, ``players``) is missing or has the wrong type.
    """
    if not isinstance(obj, Mapping):
        raise ValueError("not a JSON object")
    game_id = obj.get("id")
    if not isinstance(game_id, str) or not game_id:
        raise ValueError("missing game id")
    for key in ("createdAt", "status", "variant", "speed"):
        if key not in obj:
            raise ValueError(f"game {game_id}: missing {key}")
    players = obj.get("players")
    if not isinstance(players, Mapping):
        raise ValueError(f"game {game_id}: missing players")
    winner = obj.get("winner")
    if winner not in (None, "white", "black"):
        raise ValueError(f"game {game_id}: bad winner {winner!r}")
    moves = obj.get("moves") or ""
    if not isinstance(moves, str):
        raise ValueError(f"game {game_id}: moves is not a string")
    clock_obj = obj.get("clock")
    clock = None
    if isinstance(clock_obj, Mapping) and "initial" in clock_obj:
        clock = Clock(
            initial=int(clock_obj["initial"]), increment=int(clock_obj.get("increment", 0))
        )
    variant = str(obj["variant"])
    speed = str(obj["speed"])
    try:
        return Game(
            id=game_id,
            rated=bool(obj.get("rated", False)),
            variant=variant,
            speed=speed,
            perf=str(
                obj.get("perf") or (speed if variant in ("standard", "fromPosition") else variant)
            ),
            created_at=_millis_to_datetime(obj["createdAt"], "createdAt"),
            last_move_at=(
                _millis_to_datetime(obj["lastMoveAt"], "lastMoveAt")
                if obj.get("lastMoveAt") is not None
                else None
            ),
            status=str(obj["status"]),
            winner=winner,
            white=_parse_side(players.get("white"), "white"),
            black=_parse_side(players.get("black"), "black"),
            # SAN tokens repeat across games: interning them keeps 20,000 games' moves
            # at about a tenth of the memory of separate strings.
            moves=tuple(map(sys.intern, moves.split())),
            initial_fen=_opt_str(obj.get("initialFen"), "initialFen"),
            tournament_id=_event_id(obj, "tournament", "arenaTour"),
            swiss_id=_event_id(obj, "swiss", "swissTour"),
            clock=clock,
            source=_opt_str(obj.get("source"), "source"),
        )
    except ValueError as exc:
        raise ValueError(f"game {game_id}: {exc}") from exc


def parse_ndjson(
    lines: Iterable[str | bytes], on_warning: Callable[[str], None] | None = None
) -> Iterator[Game]:
    """Parse NDJSON lines into games, skipping malformed lines with a warning.

    Args:
        lines: One JSON object per line, as Lichess streams them; blank lines are ignored.
        on_warning: Called with a one-line message naming each skipped line.
    """
    for number, raw in enumerate(lines, start=1):
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        if not text.strip():
            continue
        try:
            yield parse_game(json.loads(text))
        except (ValueError, TypeError) as exc:
            if on_warning is not None:
                on_warning(f"line {number}: skipped malformed game ({exc})")


def parse_games(
    objects: Iterable[Mapping[str, Any]], on_warning: Callable[[str], None] | None = None
) -> Iterator[Game]:
    """Parse already-decoded game objects (e.g. from berserk), skipping malformed ones."""
    for number, obj in enumerate(objects, start=1):
        try:
            yield parse_game(obj)
        except (ValueError, TypeError) as exc:
            if on_warning is not None:
                gid = obj.get("id") if isinstance(obj, Mapping) else None
                where = f"game {gid}" if gid else f"item {number}"
                on_warning(f"{where}: skipped malformed game ({exc})")


def dedupe_sorted(games: Iterable[Game]) -> list[Game]:
    """Oldest first by ``created_at`` (then id), each game id once."""
    unique: dict[str, Game] = {}
    for game in games:
        unique.setdefault(game.id, game)
    return sorted(unique.values(), key=lambda g: (g.created_at, g.id))
