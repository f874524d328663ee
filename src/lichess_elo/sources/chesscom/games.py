"""A player's Chess.com games as the tool's own ``Game`` records (python-chess reads the PGN).

Each game of an import (``archives.import_games``) becomes one ``core.games.Game``, and
every field says only what Chess.com said or what the tool works out openly
(``docs/chesscom.md``):

- ``id``: the game page's path after ``/game/`` (``live/4860634174``, ``daily/...``), so
  ``Game.url`` is the page itself; ``site``: ``chesscom``;
- ``created_at`` and ``last_move_at``: ``end_time``. A Chess.com archive holds the games
  that *ended* in its month, and a live game carries no start time, so a Chess.com game's
  rating period is the one it ended in (``docs/rules.md``);
- ``moves``: the main line of the game's PGN as written (clock comments and the other
  comments left out, as for a Lichess PGN: ``sources.pgn.main_line``); the replay then
  validates them as it does Lichess's; ``initial_fen``: ``initial_setup`` when it is not the
  standard start (a chess960 game), else the PGN's ``FEN`` with ``SetUp "1"``;
- ``clock``: ``time_control`` (``180+2`` is 180 s + 2 s); a daily game (``1/259200``) has
  none: its speed and perf are ``correspondence``, as a Lichess correspondence game's;
- ``perf``: ``core.chesscom.perf_of`` (by ``time_control``, never by ``time_class``);
  ``variant``: ``standard`` for ``rules: chess`` (``fromPosition`` from another position),
  else the Lichess variant; bughouse has no perf and is left out with a warning;
- ``status`` and ``winner``: from the documented result codes (``checkmated`` is ``mate``,
  ``resigned`` ``resign``, ``timeout`` ``outoftime``, the draw codes ``draw`` or
  ``stalemate``...);
- the player's ``Side``: ``rating`` the rating before the game where the import shows it
  (the player's previous rated post-game rating in the same pool, ``observed_changes``),
  else ``None``; ``rating_diff`` the observed change or ``None``; ``rating_after`` the
  published post-game rating;
- the opponent's ``Side``: ``rating`` the *estimated* rating before the game
  (``opponent_after + change``) with ``rating_estimated`` set, else ``None``;
  ``rating_after`` their published post-game rating; ``rating_diff`` ``None`` (never
  published, never made up).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterable

import chess
import chess.pgn

from lichess_elo.core.chesscom import ChessComGame, ObservedChange, perf_of
from lichess_elo.core.chesscom.pools import is_daily
from lichess_elo.core.clock import parse_time_control, speed_of
from lichess_elo.core.games import CHESSCOM, Color, Game, Side

#: Chess.com's ``rules`` -> the Lichess variant key (bughouse has none: left out).
VARIANTS = {
    "chess": "standard",
    "chess960": "chess960",
    "crazyhouse": "crazyhouse",
    "kingofthehill": "kingOfTheHill",
    "threecheck": "threeCheck",
}
#: The loser's (or a drawn game's) result code -> the tool's status.
STATUSES = {
    "checkmated": "mate",
    "resigned": "resign",
    "timeout": "outoftime",
    "abandoned": "timeout",
    "lose": "resign",
    "kingofthehill": "variantEnd",
    "threecheck": "variantEnd",
    "bughousepartnerlose": "variantEnd",
    "agreed": "draw",
    "repetition": "draw",
    "50move": "draw",
    "insufficient": "draw",
    "timevsinsufficient": "outoftime",
    "stalemate": "stalemate",
}
#: The prefix of every game page; the id is the path after it.
PAGE = "https://www.chess.com/game/"


def game_id(url: str) -> str:
    """The id of a game page: its path after ``/game/`` (``live/4860634174``), else the
    URL as given (a page in another form keeps its identity).

    >>> game_id("https://www.chess.com/game/live/4860634174")
    'live/4860634174'
    """
    return url[len(PAGE) :] if url.startswith(PAGE) and len(url) > len(PAGE) else url


def _start(record: ChessComGame, headers: chess.pgn.Headers | None) -> str | None:
    """The starting FEN: ``initial_setup`` unless it is the standard start, else the PGN's
    ``FEN`` with ``SetUp "1"``; ``None`` for the standard start."""
    setup = (record.initial_setup or "").strip()
    if not setup and headers is not None and headers.get("SetUp") == "1":
        setup = headers.get("FEN", "").strip()
    if not setup or setup == chess.STARTING_FEN:
        return None
    return setup


def _status_and_winner(record: ChessComGame) -> tuple[str, Color | None]:
    """The tool's status and the winner of a game (its codes are documented ones)."""
    if record.white.outcome == "win":
        return STATUSES[record.black.result], "white"
    if record.black.outcome == "win":
        return STATUSES[record.white.result], "black"
    return STATUSES[record.white.result], None


def to_game(record: ChessComGame, change: ObservedChange, player_color: Color) -> Game:
    """The ``Game`` of one Chess.com game of the player (``change``: its observed change).

    Raises:
        ValueError: a variant without a Lichess perf (bughouse), or a live
            ``time_control`` that is not ``seconds[+increment]``.
    """
    variant = VARIANTS.get(record.rules)
    perf = perf_of(record.rules, record.time_class, record.time_control)
    if variant is None or perf is None:
        raise ValueError(f"{record.rules} has no perf here; left out")
    daily = is_daily(record.time_control, record.time_class)
    clock = None if daily else parse_time_control(record.time_control)
    headers = chess.pgn.read_headers(io.StringIO(record.pgn))
    initial_fen = _start(record, headers)
    if variant == "standard" and initial_fen is not None:
        variant = "fromPosition"
    from lichess_elo.sources.pgn import main_line

    moves = tuple(map(sys.intern, main_line(record.pgn)))
    status, winner = _status_and_winner(record)
    mine, theirs = record.side(player_color), record.side(_other(player_color))
    me = Side(
        user_id=mine.username.lower(),
        name=mine.username,
        rating=change.rating_before,
        rating_diff=change.change,
        rating_after=mine.rating_after,
    )
    estimated = change.opponent_before is not None and change.opponent_before_estimated
    them = Side(
        user_id=theirs.username.lower(),
        name=theirs.username,
        rating=change.opponent_before,
        rating_after=theirs.rating_after,
        rating_estimated=estimated,
    )
    white, black = (me, them) if player_color == "white" else (them, me)
    return Game(
        id=game_id(record.url),
        rated=record.rated,
        variant=variant,
        speed="correspondence" if daily else speed_of(clock),
        perf=perf,
        created_at=record.end_time,
        status=status,
        white=white,
        black=black,
        winner=winner,
        last_move_at=record.end_time,
        moves=moves,
        initial_fen=initial_fen,
        clock=clock,
        site=CHESSCOM,
    )


def _other(color: Color) -> Color:
    return "black" if color == "white" else "white"


def to_games(
    changes: Iterable[ObservedChange],
    player: str,
    on_warning: Callable[[str], None] | None = None,
) -> list[Game]:
    """The ``Game`` of each of ``player``'s games (``observed_changes``'s order: by end
    time), oldest first; a game that cannot be one is left out with a warning naming it."""
    games: list[Game] = []
    for change in changes:
        record = change.game
        color = record.color_of(player)
        if color is None:
            continue
        try:
            games.append(to_game(record, change, color))
        except (ValueError, KeyError) as exc:
            if on_warning is not None:
                on_warning(f"Chess.com game {record.url}: left out ({exc})")
    return games
