"""The import's parsed-games cache end to end: the fake Lichess server on 127.0.0.1, the
real berserk client, real requests-cache and parsed-games SQLite files in tmp_path.

OnBoard247's 221 games fall in two months that have ended, 2023-01 and 2023-02
(tests/data/lichess/README.md: 2023-01-25 .. 2023-02-19; blitz 130, bullet 57, rapid 15,
classical 8, correspondence 6, chess960 5, all rated).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from lichess_elo.errors import AccountClosed, NotCached
from lichess_elo.sources.lichess import api, export
from lichess_elo.sources.lichess.api import LichessSettings, fetch_games
from tests.fake_lichess import FakeLichess, Fault
from tests.helpers import ONBOARD_CREATED

UNTIL_MARCH = date(2023, 3, 1)
# 2023-02-01 in epoch ms: 19,389 days after 1970-01-01 (53 x 365 + 13 leap days + 31)
FEB_2023 = (19358 + 31) * 86_400_000


def _source(server: FakeLichess, tmp_path: Path, **kwargs: Any) -> LichessSettings:
    return LichessSettings(api_url=server.url, cache_dir=tmp_path / "cache", **kwargs)


def _counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """The calls of ``module``'s ``name``, counted (the real function still runs)."""
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many months were parsed from JSON (the real parser, counted)."""
    return _counted(monkeypatch, export, "parse_games")


def _entries(tmp_path: Path, kind: str = "/api/games/user/") -> int:
    """The entries of the parsed-games cache for ``kind`` of request (months by default)."""
    with sqlite3.connect(tmp_path / "cache" / "games.sqlite") as conn:
        (count,) = conn.execute(
            "SELECT count(*) FROM parsed WHERE request LIKE ?", (f"%{kind}%",)
        ).fetchone()
    conn.close()
    return int(count)


def test_a_second_run_reads_the_parsed_months_and_gets_the_same_games(
    onboard_server: FakeLichess, tmp_path: Path, parses: list[int]
) -> None:
    # One malformed line in the month of the first game: a month with a game skipped is
    # not kept as final, so only the other month is read from the parse.
    broken = json.loads(json.dumps(onboard_server.games[0]))
    broken["id"] = "broken01"
    del broken["status"]
    onboard_server.games.append(broken)
    cold = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert len(parses) == 2 and len(cold.games) == 221
    assert len([w for w in cold.warnings if "broken01" in w]) == 1
    assert _entries(tmp_path) == 1  # the whole month kept parsed; the incomplete one not
    month = "2023-02" if broken["createdAt"] >= FEB_2023 else "2023-01"
    incomplete = (
        f"month {month} of OnBoard247 is incomplete in the cache (1 game(s) skipped); run "
        "online to ask Lichess for it again"
    )
    for offline, network in ((False, 1), (True, 0)):
        parses.clear()
        asked = len(onboard_server.games_requests())
        warm = fetch_games(
            "OnBoard247", _source(onboard_server, tmp_path, offline=offline), until=UNTIL_MARCH
        )
        assert parses == [1]  # the incomplete month decoded again (online: asked again)
        assert len(onboard_server.games_requests()) - asked == network
        assert warm.games == cold.games
        assert warm.warnings == ((*cold.warnings, incomplete) if offline else cold.warnings)
        assert (warm.months_from_cache, warm.months_from_network) == (2 - network, network)


def test_a_refreshed_month_is_never_read_from_an_older_parse(
    onboard_server: FakeLichess, tmp_path: Path, parses: list[int]
) -> None:
    fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    # Lichess's answer for January changes (a game removed); --refresh fetches it again
    removed = next(g for g in onboard_server.games if g["createdAt"] < 1675209600000)
    onboard_server.games.remove(removed)
    refreshed = fetch_games(
        "OnBoard247", _source(onboard_server, tmp_path, refresh=True), until=UNTIL_MARCH
    )
    assert len(refreshed.games) == 220
    parses.clear()
    offline = fetch_games(
        "OnBoard247", _source(onboard_server, tmp_path, offline=True), until=UNTIL_MARCH
    )
    assert parses == []  # the refreshed responses were parsed and kept again
    assert offline.games == refreshed.games
    assert removed["id"] not in {g.id for g in offline.games}


def test_a_response_gone_from_the_http_cache_is_never_served_from_the_parse(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    with sqlite3.connect(tmp_path / "cache" / "games.sqlite") as conn:
        keys = [
            key
            for (key,) in conn.execute("SELECT http_key FROM parsed WHERE request LIKE '%games%'")
        ]
    conn.close()
    with sqlite3.connect(tmp_path / "cache" / "http.sqlite") as conn:  # the months' answers
        conn.executemany("DELETE FROM responses WHERE key = ?", [(k,) for k in keys])
    conn.close()
    with pytest.raises(NotCached, match="2023-01"):
        fetch_games(
            "OnBoard247", _source(onboard_server, tmp_path, offline=True), until=UNTIL_MARCH
        )


def test_a_damaged_parsed_cache_is_started_again(
    onboard_server: FakeLichess, tmp_path: Path, parses: list[int]
) -> None:
    first = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    (tmp_path / "cache" / "games.sqlite").write_bytes(b"this is not a database" * 200)
    for suffix in ("-wal", "-shm"):
        (tmp_path / "cache" / f"games.sqlite{suffix}").unlink(missing_ok=True)
    parses.clear()
    second = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert len(parses) == 2 and second.games == first.games
    assert _entries(tmp_path) == 2


def test_a_month_holding_another_players_game_is_never_kept(
    onboard_server: FakeLichess, tmp_path: Path, parses: list[int]
) -> None:
    # January's answer also holds a game of another account (the server's "foreign"
    # fault): not the answer asked for, so neither the HTTP cache nor the parsed-games
    # cache keeps it; February is kept.
    january = next(g for g in onboard_server.games if g["createdAt"] < FEB_2023)
    stranger = json.loads(json.dumps(january))
    stranger["id"] = "strange1"
    for side in stranger["players"].values():
        if side.get("user", {}).get("id") == "onboard247":
            side["user"] = {"id": "someoneelse", "name": "SomeoneElse"}
    onboard_server.add_user("SomeoneElse", datetime(2023, 1, 1, tzinfo=UTC), [stranger])
    onboard_server.faults.append(Fault("foreign", times=1, month="2023-01", other="SomeoneElse"))
    first = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert "strange1" not in {g.id for g in first.games} and len(first.games) == 221
    assert _entries(tmp_path) == 1
    parses.clear()
    second = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert len(parses) == 1  # January asked and parsed again, February from the parse
    assert second.games == first.games
    assert _entries(tmp_path) == 2  # January's answer was whole this time


@pytest.fixture
def sessions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the import opened the Lichess session (the real ``connect``, counted)."""
    return _counted(monkeypatch, api, "connect")


def test_an_offline_run_served_by_the_parsed_cache_opens_no_session(
    onboard_server: FakeLichess, tmp_path: Path, sessions: list[int]
) -> None:
    cold = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert sessions == [1] and _entries(tmp_path, "/api/user/") == 1  # the profile is kept
    sessions.clear()
    warm = fetch_games(
        "OnBoard247", _source(onboard_server, tmp_path, offline=True), until=UNTIL_MARCH
    )
    assert sessions == []  # profile and both months from games.sqlite
    assert warm.user == cold.user and warm.games == cold.games
    # online, the profile is asked again (the HTTP cache stores it already expired)
    fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert sessions == [1]


def test_a_kept_profile_is_never_used_once_the_http_cache_holds_another(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    # the account is closed; an online run stores the new profile in the HTTP cache
    onboard_server.add_user("OnBoard247", ONBOARD_CREATED, disabled=True)
    with pytest.raises(AccountClosed):
        fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    # offline, the kept (open) profile no longer matches the stored answer: not used
    with pytest.raises(AccountClosed):
        fetch_games(
            "OnBoard247", _source(onboard_server, tmp_path, offline=True), until=UNTIL_MARCH
        )
