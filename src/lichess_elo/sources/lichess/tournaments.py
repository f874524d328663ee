"""Lichess tournaments (arena and swiss) for the club ladder, through berserk.

One client module per API area: this one reads ``/api/tournament/{id}`` and
``/api/swiss/{id}`` (the info) and their ``/games`` NDJSON exports, through the session of
``session.py`` (cache, offline, cassette, token) and the retries of ``retries.py``, and
turns the finished games into ``ClubGame`` records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal
from functools import partial
from typing import Any

from lichess_elo.core.club.model import ClubGame
from lichess_elo.core.games import Game
from lichess_elo.errors import CassetteMissing, FetchFailed, FetchHint, NotCached, NotFound
from lichess_elo.sources.club.files import time_control
from lichess_elo.sources.lichess.session import LichessSettings

#: ``fetch(kind, id, seq_start)``: a tournament's games (``kind`` ``None``: try both kinds).
Fetch = Callable[[str | None, str, int], Iterator[ClubGame]]


def games_from_lichess(
    games: Sequence[Game], *, name: str, where: str, seq_start: int = 0
) -> Iterator[ClubGame]:
    """Turn a tournament's ``games.Game`` list into ``ClubGame`` records (finished only)."""
    for number, g in enumerate(sorted(games, key=lambda g: (g.created_at, g.id))):
        white = g.white.name or g.white.user_id
        black = g.black.name or g.black.user_id
        score = g.score("white")
        if not white or not black or score is None:
            continue
        # a game without a clock is matched by its speed (``correspondence``)
        tc = time_control(g.clock.initial, g.clock.increment) if g.clock else g.speed
        yield ClubGame(
            white=white,
            black=black,
            score=Decimal(str(score)),
            day=g.created_at.date(),
            event=name,
            time_control=tc,
            game_id=g.id,
            where=f"{where} game {g.id}",
            seq=seq_start + number,
        )


def info_name(info: Mapping[str, Any], fallback: str) -> str:
    """A tournament's name from its info object (arena ``fullName``, swiss ``name``)."""
    for key in ("fullName", "name"):
        value = info.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return fallback


def tournament_fetcher(
    source: LichessSettings, on_warning: Callable[[str], None] | None = None
) -> Fetch:
    """A ``fetch`` for ``club_files.read_inputs`` that reads arenas and swisses.

    Uses ``session.connect`` (cache, offline mode, cassette, token),
    ``retries.call_with_retries`` and ``answers.read_whole`` (a damaged answer is removed
    from the cache). A bare id is tried as an arena, then as a swiss.

    The fetch raises ``NotFound`` for an unknown tournament, ``FetchFailed`` for another
    HTTP error; ``NotCached``/``CassetteMissing`` pass through.
    """
    import berserk

    from lichess_elo.sources.lichess.answers import read_whole
    from lichess_elo.sources.lichess.parse import parse_games
    from lichess_elo.sources.lichess.retries import call_with_retries
    from lichess_elo.sources.lichess.session import connect

    def fetch(kind: str | None, tid: str, seq: int) -> Iterator[ClubGame]:
        hint = FetchHint(tid, tournament=True)
        with connect(source) as conn:
            client = conn.client

            def call(what: str, action: Callable[[], Any]) -> Any:
                """``action`` read whole (a damaged answer is not kept), with retries."""
                return call_with_retries(
                    lambda: read_whole(conn, action, what, hint),
                    what=what,
                    source=source,
                    hint=hint,
                    on_warning=on_warning,
                )

            kinds = [kind] if kind else ["arena", "swiss"]
            info: Mapping[str, Any] | None = None
            for current in kinds:
                getter = (
                    client.tournaments.get_tournament
                    if current == "arena"
                    else client.tournaments.get_swiss
                )
                try:
                    info = call(f"the {current} {tid}", partial(getter, tid))
                except berserk.exceptions.ResponseError as exc:
                    if int(exc.status_code) == 404 and current != kinds[-1]:
                        continue
                    if int(exc.status_code) == 404:
                        raise NotFound(f"{tid}: no Lichess tournament with this id") from None
                    raise FetchFailed(f"{tid}: Lichess answered HTTP {exc.status_code}") from None
                except (NotCached, CassetteMissing):
                    if current != kinds[-1]:
                        continue  # a bare id offline: the cache may hold it as a swiss
                    raise
                kind = current
                break
            assert info is not None and kind is not None
            exporter = (
                client.tournaments.export_arena_games
                if kind == "arena"
                else client.tournaments.export_swiss_games
            )
            raw = call(
                f"the games export of the {kind} {tid}",
                lambda: list(exporter(tid, moves=False, evals=False)),
            )
        games = list(parse_games(raw, on_warning))
        name = info_name(info, tid)
        yield from games_from_lichess(games, name=name, where=f"{kind} {tid}", seq_start=seq)

    return fetch
