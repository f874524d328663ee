"""A Chess.com game as Chess.com's public API (PubAPI) gives it, read into a record.

Pure code, no I/O. ``ChessComGame`` keeps what the monthly archive says, unchanged in
meaning: each side's ``rating`` is the rating **after** the game (the API documentation's
current text and what the recorded archives show), and unrated games repeat the current
rating. ``parse_game`` reads one game of a monthly archive; ``parse_month`` reads a whole
archive answer and names each game that could not be read (``docs/chesscom.md``).

Results follow the documented codes: ``win``; the six draw codes of ``DRAW_CODES``; every
code of ``LOSS_CODES`` is the loser's. A code not documented is a fault of that game
(``GameFault``), never a draw.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

#: The winner's code.
WIN_CODE = "win"
#: The documented draw codes.
DRAW_CODES = frozenset(
    {"agreed", "repetition", "stalemate", "insufficient", "50move", "timevsinsufficient"}
)
#: Every other documented code: the loser's.
LOSS_CODES = frozenset(
    {
        "checkmated",
        "resigned",
        "timeout",
        "lose",
        "abandoned",
        "kingofthehill",
        "threecheck",
        "bughousepartnerlose",
    }
)
#: The documented ``rules`` values.
RULES = ("chess", "chess960", "bughouse", "kingofthehill", "threecheck", "crazyhouse")
#: The documented ``time_class`` values.
TIME_CLASSES = ("bullet", "blitz", "rapid", "daily")

Outcome = Literal["win", "draw", "loss"]
Color = Literal["white", "black"]


class GameFault(ValueError):
    """One game of an archive that cannot be read; the message names the game (its url)."""


class MonthFault(ValueError):
    """A monthly archive answer that is not an archive at all (not JSON, no ``games`` list)."""


def outcome_of(code: str) -> Outcome | None:
    """``win``, ``draw`` or ``loss`` for a documented result code; ``None`` for another.

    >>> outcome_of("win"), outcome_of("50move"), outcome_of("timeout"), outcome_of("x")
    ('win', 'draw', 'loss', None)
    """
    if code == WIN_CODE:
        return "win"
    if code in DRAW_CODES:
        return "draw"
    if code in LOSS_CODES:
        return "loss"
    return None


@dataclass(frozen=True, slots=True)
class ChessComSide:
    """One player of a Chess.com game.

    Attributes:
        username: The account's name as Chess.com spells it.
        rating_after: The published rating after the game (repeated unchanged when the
            game is unrated).
        result: The documented result code (``win``, ``resigned``, ``agreed``...).
    """

    username: str
    rating_after: int
    result: str

    @property
    def outcome(self) -> Outcome:
        """``win``, ``draw`` or ``loss`` (a record only holds documented codes)."""
        found = outcome_of(self.result)
        assert found is not None  # parse_game refuses another code
        return found


@dataclass(frozen=True, slots=True)
class ChessComGame:
    """One game of a Chess.com monthly archive.

    Attributes:
        url: The game's page, ``https://www.chess.com/game/live/...`` (its identity).
        end_time: When the game ended (UTC); the archive's month is this month.
        rated: Whether the game was rated.
        rules: ``chess``, ``chess960`` or another variant (``RULES``).
        time_class: Chess.com's own label: ``bullet``, ``blitz``, ``rapid`` or ``daily``.
        time_control: The raw time control: ``"180+2"``, ``"600"``, daily ``"1/259200"``.
        white, black: The two players, with their post-game ratings and result codes.
        pgn: The game's PGN text as the archive gives it.
        start_time: When a daily game started (UTC); live games carry none.
        eco: The opening page's URL, where given.
        initial_setup: The starting FEN (``""`` for the standard start in older live games).
    """

    url: str
    end_time: datetime
    rated: bool
    rules: str
    time_class: str
    time_control: str
    white: ChessComSide
    black: ChessComSide
    pgn: str
    start_time: datetime | None = None
    eco: str | None = None
    initial_setup: str | None = None

    @property
    def white_score(self) -> float:
        """White's score: 1, 0.5 or 0."""
        return {"win": 1.0, "draw": 0.5, "loss": 0.0}[self.white.outcome]

    @property
    def month(self) -> tuple[int, int]:
        """The ``(year, month)`` of the archive the game belongs in (its end, UTC)."""
        return self.end_time.year, self.end_time.month

    def color_of(self, username: str) -> Color | None:
        """Which side ``username`` played (case-insensitive), or ``None``."""
        name = username.casefold()
        if self.white.username.casefold() == name:
            return "white"
        if self.black.username.casefold() == name:
            return "black"
        return None

    def side(self, color: Color) -> ChessComSide:
        """The side of ``color``."""
        return self.white if color == "white" else self.black


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise GameFault(f"{where}: no {key}" if value is None else f"{where}: {key} is not text")
    return value


def _instant(value: object, key: str, where: str) -> datetime:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameFault(f"{where}: {key} {value!r} is not a time in seconds")
    try:
        return datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError):
        raise GameFault(f"{where}: {key} {value!r} is out of range") from None


def _side(data: Mapping[str, Any], color: str, where: str) -> ChessComSide:
    side = data.get(color)
    if not isinstance(side, Mapping):
        raise GameFault(f"{where}: no {color} player")
    name = side.get("username")
    if not isinstance(name, str) or not name:
        raise GameFault(f"{where}: the {color} player has no username")
    rating = side.get("rating")
    if isinstance(rating, bool) or not isinstance(rating, int):
        raise GameFault(f"{where}: the {color} rating {rating!r} is not a whole number")
    result = side.get("result")
    if not isinstance(result, str):
        raise GameFault(f"{where}: the {color} player has no result code")
    if outcome_of(result) is None:
        raise GameFault(f"{where}: unknown result code {result!r} ({color}); left out")
    return ChessComSide(name, rating, result)


def parse_game(data: object) -> ChessComGame:
    """One game of a monthly archive's ``games`` list.

    Raises:
        GameFault: a field is missing or of the wrong type (no ``pgn``, a rating that is
            not a whole number), an unknown result code, results that disagree (two
            winners, a win against a draw), or ``rules``/``time_class`` not documented;
            the message names the game by its url.
    """
    if not isinstance(data, Mapping):
        raise GameFault(f"a game that is not an object ({type(data).__name__})")
    where = data.get("url")
    if not isinstance(where, str) or not where:
        raise GameFault("a game without its url")
    pgn = _text(data, "pgn", where)
    rated = data.get("rated")
    if not isinstance(rated, bool):
        raise GameFault(f"{where}: rated {rated!r} is not true or false")
    rules = _text(data, "rules", where)
    if rules not in RULES:
        raise GameFault(f"{where}: unknown rules {rules!r}; left out")
    time_class = _text(data, "time_class", where)
    if time_class not in TIME_CLASSES:
        raise GameFault(f"{where}: unknown time_class {time_class!r}; left out")
    white, black = _side(data, "white", where), _side(data, "black", where)
    pair = {white.outcome, black.outcome}
    if pair not in ({"win", "loss"}, {"draw"}):
        raise GameFault(f"{where}: the results {white.result!r} and {black.result!r} disagree")
    start = data.get("start_time")
    eco, setup = data.get("eco"), data.get("initial_setup")
    return ChessComGame(
        url=where,
        end_time=_instant(data.get("end_time"), "end_time", where),
        rated=rated,
        rules=rules,
        time_class=time_class,
        time_control=_text(data, "time_control", where),
        white=white,
        black=black,
        pgn=pgn,
        start_time=None if start is None else _instant(start, "start_time", where),
        eco=eco if isinstance(eco, str) else None,
        initial_setup=setup if isinstance(setup, str) else None,
    )


@dataclass(frozen=True)
class MonthRead:
    """A monthly archive read: its whole games (in the archive's order) and one line for
    each game left out. A month with any line is not final (it is asked for again)."""

    games: tuple[ChessComGame, ...]
    faults: tuple[str, ...]


def parse_month(body: bytes | str, year: int, month: int, player: str | None = None) -> MonthRead:
    """The games of the archive of ``year``-``month`` (``{"games": [...]}``).

    Each game that cannot be read (``parse_game``), that did not end in that month, or
    (when ``player`` is given) that ``player`` did not play is left out with a line naming
    it; the other games are kept.

    Raises:
        MonthFault: the body is not JSON (or not UTF-8), or not an object with a
            ``games`` list.
    """
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, UnicodeDecodeError
        raise MonthFault(f"not JSON ({type(exc).__name__})") from None
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, list):
        raise MonthFault("not an archive (no games list)")
    kept: list[ChessComGame] = []
    faults: list[str] = []
    for item in games:
        try:
            game = parse_game(item)
        except GameFault as fault:
            faults.append(str(fault))
            continue
        if game.month != (year, month):
            ended = f"{game.end_time:%Y-%m-%d %H:%M:%S} UTC"
            faults.append(f"{game.url}: ended {ended}, not in {year:04d}-{month:02d}")
        elif player is not None and game.color_of(player) is None:
            faults.append(f"{game.url}: not a game of {player}")
        else:
            kept.append(game)
    return MonthRead(tuple(kept), tuple(faults))
