"""The Lichess JSON parser: game objects (from the API or berserk) into ``Game`` records.

Pure code, no I/O; malformed objects are skipped with a one-line warning naming them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from lichess_elo.core.games import LICHESS, RATING_MAX, RATING_MIN, Clock, Game, Side


def _millis_to_datetime(value: Any, field: str) -> datetime:
    if type(value) is int:  # the usual case first (a bool is no int here)
        try:
            return datetime.fromtimestamp(value / 1000, UTC)
        except (OverflowError, OSError, ValueError):  # e.g. 10^30: no date
            raise ValueError(f"{field} is out of range: {value!r}") from None
    if isinstance(value, datetime):  # berserk converts top-level timestamps in place
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{field} is not a timestamp: {value!r}")
    try:
        return datetime.fromtimestamp(value / 1000, UTC)
    except (OverflowError, OSError, ValueError):  # e.g. 10^30: no date
        raise ValueError(f"{field} is out of range: {value!r}") from None


#: The ratings a game can carry (Lichess's lie well inside); one outside is malformed.
RATING_RANGE = range(RATING_MIN, RATING_MAX + 1)


def _opt_int(value: Any, field: str) -> int | None:
    if value is None or type(value) is int:  # the usual cases first, without isinstance
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{field} is not an integer: {value!r}")
    return value


def _rating(value: Any, field: str) -> int | None:
    rating = _opt_int(value, field)
    if rating is not None and rating not in RATING_RANGE:
        raise ValueError(f"{field} {rating} is outside {RATING_MIN}..{RATING_MAX}")
    return rating


def _opt_str(value: Any, field: str) -> str | None:
    if value is None or type(value) is str:
        return value
    if not isinstance(value, str):
        raise ValueError(f"{field} is not a string: {value!r}")
    return value


def _parse_side(obj: Any, color: str) -> Side:
    if obj is None:
        return Side()
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise ValueError(f"players.{color} is not an object")
    user = obj.get("user")
    if user is not None and type(user) is not dict and not isinstance(user, Mapping):
        raise ValueError(f"players.{color}.user is not an object")
    user = user or {}
    name = _opt_str(user.get("name"), f"players.{color}.user.name") or _opt_str(
        obj.get("name"), f"players.{color}.name"
    )
    user_id = _opt_str(user.get("id"), f"players.{color}.user.id")
    if user_id is None and user.get("name"):
        user_id = str(user["name"]).lower()
    return Side(  # positional: the order of Side's fields (faster than keywords)
        user_id,
        name,
        _opt_str(user.get("title"), f"players.{color}.user.title"),  # title
        _rating(obj.get("rating"), f"players.{color}.rating"),  # rating
        _opt_int(obj.get("ratingDiff"), f"players.{color}.ratingDiff"),  # rating_diff
        bool(obj.get("provisional", False)),  # provisional
        _opt_int(obj.get("aiLevel"), f"players.{color}.aiLevel"),  # ai_level
        None,  # rating_after (Lichess publishes the rating before the game and its change)
        False,  # rating_estimated (every Lichess rating is published)
    )


def _event_id(obj: Mapping[str, Any], old_key: str, new_key: str) -> str | None:
    """Tournament id from the old string key or the new ``{id, name}`` object (2026-06)."""
    new = obj.get(new_key)
    if new is not None and isinstance(new, Mapping) and isinstance(new.get("id"), str):
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
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise ValueError("not a JSON object")
    game_id = obj.get("id")
    if not isinstance(game_id, str) or not game_id:
        raise ValueError("missing game id")
    for key in ("createdAt", "status", "variant", "speed"):
        if key not in obj:
            raise ValueError(f"game {game_id}: missing {key}")
    players = obj.get("players")
    if type(players) is not dict and not isinstance(players, Mapping):
        raise ValueError(f"game {game_id}: missing players")
    winner = obj.get("winner")
    if winner not in (None, "white", "black"):
        raise ValueError(f"game {game_id}: bad winner {winner!r}")
    moves = obj.get("moves") or ""
    if not isinstance(moves, str):
        raise ValueError(f"game {game_id}: moves is not a string")
    clock_obj = obj.get("clock")
    clock = None
    if clock_obj is not None and isinstance(clock_obj, Mapping) and "initial" in clock_obj:
        clock = Clock(
            initial=int(clock_obj["initial"]), increment=int(clock_obj.get("increment", 0))
        )
    variant = str(obj["variant"])
    speed = str(obj["speed"])
    try:
        # Each field checked in this order (the first fault is the one named), then the
        # game built positionally, in the order of Game's fields (faster than keywords).
        rated = bool(obj.get("rated", False))
        perf = str(
            obj.get("perf") or (speed if variant in ("standard", "fromPosition") else variant)
        )
        created_at = _millis_to_datetime(obj["createdAt"], "createdAt")
        last_move_at = (
            _millis_to_datetime(obj["lastMoveAt"], "lastMoveAt")
            if obj.get("lastMoveAt") is not None
            else None
        )
        status = str(obj["status"])
        white = _parse_side(players.get("white"), "white")
        black = _parse_side(players.get("black"), "black")
        # SAN tokens repeat across games: interning them keeps 20,000 games' moves
        # at about a tenth of the memory of separate strings.
        move_list = tuple(map(sys.intern, moves.split()))
        initial_fen = _opt_str(obj.get("initialFen"), "initialFen")
        tournament_id = _event_id(obj, "tournament", "arenaTour")
        swiss_id = _event_id(obj, "swiss", "swissTour")
        source = _opt_str(obj.get("source"), "source")
        return Game(
            game_id,  # id
            rated,
            variant,
            speed,
            perf,
            created_at,
            status,
            white,
            black,
            winner,
            last_move_at,
            move_list,  # moves
            initial_fen,
            tournament_id,
            swiss_id,
            clock,
            source,
            LICHESS,  # site
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
        except (ValueError, TypeError, OverflowError) as exc:
            if on_warning is not None:
                on_warning(f"line {number}: skipped malformed game ({exc})")


def parse_games(
    objects: Iterable[Mapping[str, Any]], on_warning: Callable[[str], None] | None = None
) -> Iterator[Game]:
    """Parse already-decoded game objects (e.g. from berserk), skipping malformed ones."""
    for number, obj in enumerate(objects, start=1):
        try:
            yield parse_game(obj)
        except (ValueError, TypeError, OverflowError) as exc:
            if on_warning is not None:
                gid = obj.get("id") if isinstance(obj, Mapping) else None
                where = f"game {gid}" if gid else f"item {number}"
                on_warning(f"{where}: skipped malformed game ({exc})")
