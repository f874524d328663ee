"""Bounded waits on the SQLite caches: a held lock, ``-wal``/``-shm`` files
another user left, and a read-only cache folder. Each runs the real CLI in a subprocess
with a time limit, because the defect was a hang.

"Another user's files" are files this user cannot write: they are made read-only. Run as
root, the CLI then runs without the capabilities that let root write anyway
(``setpriv --bounding-set -dac_override,-dac_read_search``), so it sees what a normal user
sees.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_lichess import FakeLichess
from tests.runners import run_cli

ROOT = os.geteuid() == 0
SETPRIV = shutil.which("setpriv")
LIMIT = 60  # seconds; each run below takes a few
NO_OVERRIDE = ["--bounding-set", "-dac_override,-dac_read_search"]


def _run(
    args: list[str], *, stranger: bool = False, **env: str
) -> subprocess.CompletedProcess[str]:
    prefix: list[str] = []
    if stranger and ROOT:
        if SETPRIV is None:
            pytest.skip("running as root without setpriv: root writes read-only files")
        prefix = [SETPRIV, *NO_OVERRIDE]
    return run_cli(
        *args, env={"LICHESS_ELO_RETRY_WAIT": "0.01", **env}, prefix=prefix, timeout=LIMIT
    )


@pytest.fixture
def restore_modes(tmp_path: Path) -> Iterator[Path]:
    """``tmp_path``, made writable again after the test (so pytest can clean it)."""
    yield tmp_path
    for path in [tmp_path, *tmp_path.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


def _fill(server: FakeLichess, cache: Path) -> list[str]:
    args = ["fetch", "OnBoard247", "--api-url", server.url, "--cache-dir", str(cache)]
    args += ["--until", "2023-03", "--quiet", "--format", "json"]
    first = _run(args)
    assert first.returncode == 0, first.stderr
    return args


def _one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("lichess-elo: error:") and "unexpected" not in lines[0]
    return lines[0]


def test_a_held_lock_fails_in_one_line_after_the_timeout(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    args = _fill(onboard_server, tmp_path)
    holder = sqlite3.connect(tmp_path / "http.sqlite", isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another run writing, for as long as it likes
        result = _run(args, LICHESS_ELO_LOCK_TIMEOUT="0.5")
    finally:
        holder.rollback()
        holder.close()
    assert result.returncode == 1
    line = _one_error_line(result.stderr)
    assert str(tmp_path / "http.sqlite") in line and "another run" in line


def test_a_bad_lock_timeout_is_refused() -> None:
    result = _run(["fetch", "OnBoard247", "--offline"], LICHESS_ELO_LOCK_TIMEOUT="soon")
    assert result.returncode == 2
    assert "LICHESS_ELO_LOCK_TIMEOUT" in _one_error_line(result.stderr)


def test_foreign_wal_files_are_reported_not_waited_on(
    onboard_server: FakeLichess, restore_modes: Path
) -> None:
    cache = restore_modes / "cache"
    args = _fill(onboard_server, cache)
    # another user's run is using the cache: its connection keeps -wal and -shm
    other = sqlite3.connect(cache / "http.sqlite")
    try:
        other.execute("PRAGMA journal_mode=WAL")
        other.execute("SELECT count(*) FROM responses").fetchall()
        sidecars = [cache / "http.sqlite-wal", cache / "http.sqlite-shm"]
        assert all(p.exists() for p in sidecars)
        for path in sidecars:
            path.chmod(0o444)  # our own files, made read-only
        own = _run(args, stranger=True)
        if ROOT:  # root can give them away: now they are another user's
            for path in sidecars:
                os.chown(path, 65534, 65534)
            foreign = _run(args, stranger=True)
    finally:
        other.close()
    assert own.returncode == 1
    line = _one_error_line(own.stderr)
    # the owner named is the real one: this user, whose file is read-only
    assert "http.sqlite-wal is read-only (mode 0444)" in line and "another user" not in line
    assert "chmod u+w" in line
    if ROOT:
        assert foreign.returncode == 1
        line = _one_error_line(foreign.stderr)
        assert "http.sqlite-wal belongs to another user (" in line and "uid 65534)" in line


def test_offline_with_a_read_only_cache_folder(
    onboard_server: FakeLichess, restore_modes: Path
) -> None:
    cache = restore_modes / "cache"
    args = _fill(onboard_server, cache)
    report = ["report", "OnBoard247", "--api-url", onboard_server.url, "--cache-dir", str(cache)]
    report += ["--until", "2023-03"]
    report += ["--offline", "--format", "json"]
    writable = _run(report)  # fills replay.sqlite
    assert writable.returncode == 0, writable.stderr
    for path in cache.iterdir():
        path.chmod(0o444)
    cache.chmod(0o555)
    result = _run([*args, "--offline"], stranger=True)
    assert result.returncode == 0, result.stderr
    assert '"games": 221' in result.stdout  # tests/data/lichess/README.md
    read_only = _run(report, stranger=True)  # both caches are read, nothing is written
    assert (read_only.returncode, read_only.stderr) == (0, "")
    assert read_only.stdout == writable.stdout
    # the three caches the writable runs made (parsed games too), no -wal/-shm added
    assert sorted(p.name for p in cache.iterdir()) == [
        "games.sqlite",
        "http.sqlite",
        "replay.sqlite",
    ]
    online = _run(args, stranger=True)  # online needs to write: one line, no wait
    assert online.returncode == 1
    assert str(cache) in _one_error_line(online.stderr)


def test_the_replay_cache_waits_a_bounded_time_too(tmp_path: Path) -> None:
    replay_db = tmp_path / "replay.sqlite"
    report = ["report", "OnBoard247", "--replay", str(_cassette()), "--cache-dir", str(tmp_path)]
    report += ["--format", "json"]
    ok = _run(report)
    assert ok.returncode == 0, ok.stderr
    holder = sqlite3.connect(replay_db, isolation_level=None)
    holder.execute("DELETE FROM replay_facts")  # every game must be replayed, written again
    try:
        holder.execute("BEGIN IMMEDIATE")  # another run writing
        slow = _run(report, LICHESS_ELO_LOCK_TIMEOUT="0.5")
    finally:
        holder.rollback()
        holder.close()
    # the replay cache only saves time: the report is still made, with one warning
    assert slow.returncode == 0, slow.stderr
    assert slow.stdout == ok.stdout
    assert str(replay_db) in slow.stderr and "another run" in slow.stderr


def _cassette() -> Path:
    return Path(__file__).resolve().parents[2] / "cassettes" / "onboard247.yaml"
