"""The parsed-games cache (games.sqlite) against a real SQLite HTTP cache file.

The HTTP cache here is a real SQLite file with requests-cache's ``responses`` table (key,
value, expires); the end-to-end tests through the fake server are in test_fetch_parsed.py.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from lichess_elo.sources.cache import games as games_cache
from lichess_elo.sources.cache.games import ParsedCache, request_id

REQUEST = request_id("http://x", "/api/games/user/a", {"since": 1, "until": 2}, "text/plain")


def _http(folder: Path, key: str, value: bytes, expires: int | None = None) -> None:
    with sqlite3.connect(folder / games_cache.HTTP_FILE) as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value BLOB, "
            "expires INTEGER)"
        )
        conn.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?)", (key, value, expires))
    conn.close()


def _stored(folder: Path, payload: bytes = b"parsed") -> ParsedCache:
    cache = ParsedCache(folder)
    assert cache.store(REQUEST, "k1", lambda blob: blob == b"response body", payload)
    return cache


def test_an_entry_is_used_while_the_http_cache_holds_the_same_bytes(tmp_path: Path) -> None:
    _http(tmp_path, "k1", b"response body")
    _stored(tmp_path).close()
    again = ParsedCache(tmp_path)
    assert again.lookup(REQUEST, stale_ok=False) == b"parsed"
    # another request, same server: no entry
    other = request_id("http://x", "/api/games/user/a", {"since": 2, "until": 3}, "text/plain")
    assert again.lookup(other, stale_ok=True) is None


def test_a_changed_or_removed_response_makes_the_entry_a_miss(tmp_path: Path) -> None:
    _http(tmp_path, "k1", b"response body")
    cache = _stored(tmp_path)
    _http(tmp_path, "k1", b"response body, fetched again")  # same key, other bytes
    assert cache.lookup(REQUEST, stale_ok=True) is None
    with sqlite3.connect(tmp_path / games_cache.HTTP_FILE) as conn:
        conn.execute("DELETE FROM responses")
    conn.close()
    assert cache.lookup(REQUEST, stale_ok=True) is None


def test_a_response_that_expires_is_only_used_when_stale_is_fine(tmp_path: Path) -> None:
    _http(tmp_path, "k1", b"response body", expires=int(time.time()) - 10)
    cache = _stored(tmp_path)
    assert cache.lookup(REQUEST, stale_ok=False) is None  # online: fetched again
    assert cache.lookup(REQUEST, stale_ok=True) == b"parsed"  # offline serves it
    # stored a moment ago as already expired: the column's whole seconds may round it up
    _http(tmp_path, "k1", b"response body", expires=int(time.time()) + 1)
    assert cache.lookup(REQUEST, stale_ok=False) is None
    _http(tmp_path, "k1", b"response body", expires=None)  # a month that had ended
    assert cache.lookup(REQUEST, stale_ok=False) == b"parsed"


def test_nothing_is_stored_unless_the_stored_response_is_the_parsed_one(tmp_path: Path) -> None:
    _http(tmp_path, "k1", b"another run's body")
    cache = ParsedCache(tmp_path)
    assert not cache.store(REQUEST, "k1", lambda blob: blob == b"response body", b"parsed")
    assert not cache.store(REQUEST, "missing", lambda blob: True, b"parsed")
    assert cache.lookup(REQUEST, stale_ok=True) is None


def test_without_an_http_cache_nothing_is_created(tmp_path: Path) -> None:
    cache = ParsedCache(tmp_path)
    assert cache.lookup(REQUEST, stale_ok=True) is None
    assert not cache.store(REQUEST, "k1", lambda blob: True, b"parsed")
    assert not (tmp_path / games_cache.FILE_NAME).exists()


@pytest.mark.parametrize(
    "damage", [b"not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 4000]
)
def test_a_damaged_file_is_started_again(tmp_path: Path, damage: bytes) -> None:
    _http(tmp_path, "k1", b"response body")
    (tmp_path / games_cache.FILE_NAME).write_bytes(damage)
    _stored(tmp_path).close()
    assert ParsedCache(tmp_path).lookup(REQUEST, stale_ok=True) == b"parsed"


def test_a_locked_file_only_costs_the_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _http(tmp_path, "k1", b"response body")
    _stored(tmp_path).close()
    monkeypatch.setenv("LICHESS_ELO_LOCK_TIMEOUT", "0.1")  # sqlite_open's bounded wait
    holder = sqlite3.connect(tmp_path / games_cache.FILE_NAME, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another run in the middle of a write
    warnings: list[str] = []
    try:
        cache = ParsedCache(tmp_path, on_warning=warnings.append)
        # WAL: reading goes on while another run writes
        assert cache.lookup(REQUEST, stale_ok=True) == b"parsed"
        # writing waits the lock timeout, then gives up: the cache is off for this run
        assert not cache.store(REQUEST, "k1", lambda blob: True, b"other")
        assert cache.lookup(REQUEST, stale_ok=True) is None
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(warnings) == 1 and "parsed-games cache" in warnings[0]
    assert "locked" in warnings[0]
    # the file was left alone: once the lock is gone the entry is there again
    assert ParsedCache(tmp_path).lookup(REQUEST, stale_ok=True) == b"parsed"


def test_two_runs_storing_the_same_month_leave_one_good_entry(tmp_path: Path) -> None:
    _http(tmp_path, "k1", b"response body")
    first, second = ParsedCache(tmp_path), ParsedCache(tmp_path)
    assert first.store(REQUEST, "k1", lambda blob: True, b"parsed")
    assert second.store(REQUEST, "k1", lambda blob: True, b"parsed")
    assert first.lookup(REQUEST, stale_ok=False) == second.lookup(REQUEST, stale_ok=False)
    with sqlite3.connect(tmp_path / games_cache.FILE_NAME) as conn:
        assert conn.execute("SELECT count(*) FROM parsed").fetchone() == (1,)
    conn.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only folder")
def test_a_read_only_folder_is_read_and_never_written(tmp_path: Path) -> None:
    _http(tmp_path, "k1", b"response body")
    _stored(tmp_path).close()
    tmp_path.chmod(0o555)
    try:
        cache = ParsedCache(tmp_path)
        assert cache.lookup(REQUEST, stale_ok=True) == b"parsed"
        assert not cache.store(REQUEST, "k1", lambda blob: True, b"other")
        cache.close()
    finally:
        tmp_path.chmod(0o755)
