"""The parsed-games cache's payloads and keys: pure code, no I/O (see ``games_cache``).

- ``request_id`` names one GET request (server root, path, sorted query, ``Accept``);
- ``digest`` ties an entry to the exact bytes the HTTP cache stores;
- ``encode_games``/``decode_games`` and ``encode_user``/``decode_user``: one response's
  games and parse warnings (a profile) as a compact ``marshal`` payload tagged with
  ``FORMAT`` and the interpreter's marshal version (``VERSION``); anything else, or a
  payload that does not decode, decodes to ``None`` (a miss).
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from lichess_elo.core.games import Clock, Game, PerfStats, Side, UserInfo
from lichess_elo.core.value import plain_twin

#: Bump when the payload layout changes: every entry is then parsed again.
FORMAT = 3
#: The tag of every payload (and the ``version`` column of its entry).
VERSION = FORMAT * 1000 + marshal.version
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)
_DECODE_ERRORS = (ValueError, EOFError, TypeError, IndexError, KeyError)


SideRow = tuple[
    str | None, str | None, str | None, int | None, int | None, bool, int | None, int | None
]


def request_id(api_url: str, path: str, params: dict[str, Any], accept: str) -> str:
    """The identity of one GET request: server root, path, sorted query and ``Accept``."""
    query = urlencode(sorted((k, str(v)) for k, v in params.items()))
    return f"GET {api_url.rstrip('/')}{path}?{query} Accept: {accept}"


def digest(blob: bytes) -> bytes:
    """The digest that ties an entry to the exact bytes the HTTP cache stores."""
    return hashlib.blake2b(blob, digest_size=20).digest()


def _micros(when: datetime | None) -> int | None:
    return None if when is None else (when - _EPOCH) // _MICRO


def _when(micros: int | None) -> datetime | None:
    return None if micros is None else _EPOCH + timedelta(microseconds=micros)


def _side_row(s: Side) -> SideRow:
    intern = sys.intern
    return (
        s.user_id if s.user_id is None else intern(s.user_id),
        s.name if s.name is None else intern(s.name),
        s.title if s.title is None else intern(s.title),
        s.rating,
        s.rating_diff,
        s.provisional,
        s.ai_level,
        s.rating_after,
    )


def encode_games(games: Sequence[Game], warnings: Sequence[str]) -> bytes:
    """One response's games and parse warnings as a compact payload (``decode_games``).

    Every label (perf, status, names...) goes in ``sys.intern``'d: one string object for
    equal labels, so ``marshal`` writes each once a payload and the decoded games share it,
    instead of a copy per game.
    """
    intern, micros, side = sys.intern, _micros, _side_row
    rows = [
        (
            g.id,
            g.rated,
            intern(g.variant),
            intern(g.speed),
            intern(g.perf),
            micros(g.created_at),
            intern(g.status),
            side(g.white),
            side(g.black),
            g.winner if g.winner is None else intern(g.winner),
            micros(g.last_move_at),
            g.moves,
            g.initial_fen,
            g.tournament_id if g.tournament_id is None else intern(g.tournament_id),
            g.swiss_id if g.swiss_id is None else intern(g.swiss_id),
            None if g.clock is None else (g.clock.initial, g.clock.increment),
            g.source if g.source is None else intern(g.source),
        )
        for g in games
    ]
    return marshal.dumps((VERSION, list(warnings), rows))


def _clock(clocks: dict[tuple[int, int], Clock], pair: tuple[int, int]) -> Clock:
    clock = clocks.get(pair)
    if clock is None:
        clock = clocks[pair] = Clock(*pair)
    return clock


def decode_games(payload: bytes) -> tuple[list[Game], list[str]] | None:
    """The games and warnings of an ``encode_games`` payload; ``None`` if it is not one."""
    try:
        version, warnings, rows = marshal.loads(payload)
        if version != VERSION:
            return None
        epoch, micro = _EPOCH, _MICRO
        clocks: dict[tuple[int, int], Clock] = {}  # one (immutable) Clock per time control
        # each value made as its plain twin, then given its class (what ``Game(...)`` does,
        # without a Python call a value: 60,000 of them at 20,000 games)
        game_of, side_of = plain_twin(Game), plain_twin(Side)
        games: list[Game] = []
        for r in rows:
            white, black = side_of(*r[7]), side_of(*r[8])
            white.__class__ = black.__class__ = Side
            game = game_of(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                epoch + micro * r[5],
                r[6],
                white,
                black,
                r[9],
                None if r[10] is None else epoch + micro * r[10],
                r[11],
                r[12],
                r[13],
                r[14],
                None if r[15] is None else _clock(clocks, r[15]),
                r[16],
            )
            game.__class__ = Game
            games.append(game)
    except _DECODE_ERRORS:
        return None
    return games, [str(w) for w in warnings]


def encode_user(user: UserInfo) -> bytes:
    """A player's profile as a compact payload (``decode_user``)."""
    perfs = [(k, p.games, p.rating, p.rd, p.provisional) for k, p in user.perfs.items()]
    created = _micros(user.created_at)
    row = (user.id, user.username, created, user.disabled, perfs, user.fide_id)
    return marshal.dumps((VERSION, row))


def decode_user(payload: bytes) -> UserInfo | None:
    """The profile of an ``encode_user`` payload; ``None`` if it is not one."""
    try:
        version, (user_id, username, created, disabled, perfs, fide_id) = marshal.loads(payload)
        if version != VERSION:
            return None
        return UserInfo(
            id=user_id,
            username=username,
            created_at=_EPOCH + _MICRO * created,
            disabled=disabled,
            perfs={k: PerfStats(games, rating, rd, prov) for k, games, rating, rd, prov in perfs},
            fide_id=fide_id,
        )
    except _DECODE_ERRORS:
        return None
