"""Bounded waits on the SQLite caches (issue #15): a held lock, ``-wal``/``-shm`` files
another user left, and a read-only cache folder. Each runs the real CLI in a subprocess
with a time limit, because the defect was a hang.

Run as root (as here), "another user" is a real one: the CLI runs as ``nobody`` (uid
65534). Run as a normal user (CI), the files are made read-only instead, which is what
another user's files look like to SQLite.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.fake_lichess import FakeLichess

ROOT = os.geteuid() == 0
NOBODY = 65534
LIMIT = 60  # seconds; each run below takes a few


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LICHESS")}
    env.update({"LICHESS_ELO_RETRY_WAIT": "0.01", "HOME": "/tmp", **extra})
    return env


def _run(
    args: list[str], *, stranger: bool = False, **env: str
) -> subprocess.CompletedProcess[str]:
    def drop() -> None:
        os.setgid(NOBODY)
        os.setuid(NOBODY)

    return subprocess.run(
        [sys.executable, "-m", "lichess_elo", *args],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env=_env(**env),
        preexec_fn=drop if stranger and ROOT else None,
        cwd="/",
    )


@pytest.fixture
def shared_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder every user can reach (pytest's own tmp folders are private to root)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="lichess-elo-locks-"))
    folder.chmod(0o755)
    yield folder
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o777 if path.is_dir() else 0o666)
    shutil.rmtree(folder, ignore_errors=True)


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


def _as_strangers_files(paths: list[Path]) -> None:
    """Make ``paths`` look like another user's: owned by root for ``nobody``, else read-only."""
    for path in paths:
        path.chmod(0o644 if ROOT else 0o444)


def test_foreign_wal_files_are_reported_not_waited_on(
    onboard_server: FakeLichess, shared_dir: Path
) -> None:
    cache = shared_dir / "cache"
    args = _fill(onboard_server, cache)
    cache.chmod(0o777)
    (cache / "http.sqlite").chmod(0o666)
    # another user's run is using the cache: its connection keeps -wal and -shm
    other = sqlite3.connect(cache / "http.sqlite")
    try:
        other.execute("PRAGMA journal_mode=WAL")
        other.execute("SELECT count(*) FROM responses").fetchall()
        sidecars = [cache / "http.sqlite-wal", cache / "http.sqlite-shm"]
        assert all(p.exists() for p in sidecars)
        _as_strangers_files(sidecars)
        result = _run(args, stranger=True)
    finally:
        other.close()
    assert result.returncode == 1
    line = _one_error_line(result.stderr)
    assert "http.sqlite-wal" in line and "another user" in line


def test_offline_with_a_read_only_cache_folder(
    onboard_server: FakeLichess, shared_dir: Path
) -> None:
    cache = shared_dir / "cache"
    args = _fill(onboard_server, cache)
    for path in cache.iterdir():
        path.chmod(0o644 if ROOT else 0o444)
    cache.chmod(0o755 if ROOT else 0o555)
    result = _run([*args, "--offline"], stranger=True)
    assert result.returncode == 0, result.stderr
    assert '"games": 221' in result.stdout  # tests/data/lichess/README.md
    assert sorted(p.name for p in cache.iterdir()) == ["http.sqlite"]  # nothing written
    online = _run(args, stranger=True)  # online needs to write: one line, no wait
    assert online.returncode == 1
    assert str(cache) in _one_error_line(online.stderr)


def test_the_replay_cache_waits_a_bounded_time_too(tmp_path: Path) -> None:
    replay_db = tmp_path / "replay.sqlite"
    ok = _run(
        [
            "report",
            "OnBoard247",
            "--replay",
            str(_cassette()),
            "--cache-dir",
            str(tmp_path),
            "--format",
            "json",
        ]
    )
    assert ok.returncode == 0, ok.stderr
    holder = sqlite3.connect(replay_db, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        slow = _run(
            [
                "report",
                "OnBoard247",
                "--replay",
                str(_cassette()),
                "--cache-dir",
                str(tmp_path),
                "--format",
                "json",
            ],
            LICHESS_ELO_LOCK_TIMEOUT="0.5",
        )
    finally:
        holder.rollback()
        holder.close()
    # the replay cache only saves time: the report is still made, with one warning
    assert slow.returncode == 0, slow.stderr
    assert slow.stdout == ok.stdout
    assert str(replay_db) in slow.stderr and "another run" in slow.stderr


def _cassette() -> Path:
    return Path(__file__).resolve().parents[2] / "cassettes" / "onboard247.yaml"
