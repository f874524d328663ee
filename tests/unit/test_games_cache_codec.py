"""The parsed-games cache's payloads: games come back exactly as they went in (pure)."""

from __future__ import annotations

import marshal
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lichess_elo.core.games import Clock, Game, Side
from lichess_elo.sources.cache import games as games_cache
from lichess_elo.sources.lichess.parse import parse_ndjson
from lichess_elo.sources.pgn import read_pgn

_text = st.none() | st.text(max_size=12)
_int = st.none() | st.integers(-(2**40), 2**40)
sides = st.builds(Side, _text, _text, _text, _int, _int, st.booleans(), _int)
moments = st.datetimes(
    min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
)
games = st.builds(
    Game,
    id=st.text(min_size=1, max_size=8),
    rated=st.booleans(),
    variant=st.text(max_size=8),
    speed=st.text(max_size=8),
    perf=st.text(max_size=8),
    created_at=moments,
    status=st.text(max_size=8),
    white=sides,
    black=sides,
    winner=st.sampled_from([None, "white", "black"]),
    last_move_at=st.none() | moments,
    moves=st.lists(st.text(max_size=6), max_size=8).map(tuple),  # kept as they are
    initial_fen=_text,
    tournament_id=_text,
    swiss_id=_text,
    clock=st.none() | st.builds(Clock, st.integers(0, 10**6), st.integers(0, 10**4)),
    source=_text,
)


@settings(max_examples=100, deadline=None)
@given(st.lists(games, max_size=5), st.lists(st.text(max_size=20), max_size=3))
def test_any_games_and_warnings_come_back_equal(items: list[Game], warnings: list[str]) -> None:
    payload = games_cache.encode_games(items, warnings)
    assert games_cache.decode_games(payload) == (items, warnings)


def test_real_games_come_back_equal(data_dir: Path) -> None:
    lichess = data_dir / "lichess"
    lines = (lichess / "games-user-export-onboard247-2023-01-02.ndjson").read_text().splitlines()
    parsed = list(parse_ndjson(lines))
    parsed += read_pgn((lichess / "game-export-q7ZvsdUF.pgn").read_text())
    assert len(parsed) == 222
    decoded = games_cache.decode_games(games_cache.encode_games(parsed, []))
    assert decoded == (parsed, [])
    # the times keep their microseconds and their UTC zone
    assert decoded is not None
    assert [g.created_at.tzinfo for g in decoded[0]] == [UTC] * 222


def test_a_time_keeps_every_microsecond() -> None:
    when = datetime(2023, 1, 27, 23, 59, 4, 999_999, tzinfo=UTC)
    game = Game("abcdefgh", True, "standard", "blitz", "blitz", when, "mate", Side(), Side())
    decoded = games_cache.decode_games(games_cache.encode_games([game], []))
    assert decoded is not None
    assert decoded[0][0].created_at - when == timedelta(0)


def test_anything_else_is_a_miss() -> None:
    good = games_cache.encode_games([], ["w"])
    assert games_cache.decode_games(good) == ([], ["w"])
    assert games_cache.decode_games(b"") is None
    assert games_cache.decode_games(b"\x00garbage") is None
    assert games_cache.decode_games(good[: len(good) // 2]) is None
    # another format version: never trusted
    version, warnings, rows = marshal.loads(good)
    assert games_cache.decode_games(marshal.dumps((version + 1000, warnings, rows))) is None
    # a row of the wrong shape
    assert games_cache.decode_games(marshal.dumps((version, [], [("id", True)]))) is None


def test_a_request_is_named_by_server_path_sorted_query_and_accept() -> None:
    a = games_cache.request_id("https://h/", "/p", {"b": 2, "a": "x y"}, "text/plain")
    b = games_cache.request_id("https://h", "/p", {"a": "x y", "b": 2}, "text/plain")
    assert a == b == "GET https://h/p?a=x+y&b=2 Accept: text/plain"
    assert games_cache.request_id("https://h", "/p", {"a": 1}, "application/json") != (
        games_cache.request_id("https://h", "/p", {"a": 1}, "text/plain")
    )
