"""A symbolic link to nothing in the cache folder never makes the tool create a database
where it points, outside the cache folder. Real processes, the fake server."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.fake_lichess import FakeLichess
from tests.helpers import DATA
from tests.runners import run_cli

GAMES = DATA / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson"


@pytest.mark.parametrize(
    ("name", "code"),
    # the HTTP cache is needed (exit 1); without the other two the run goes on (exit 0);
    # a -wal or -shm link to nothing beside the HTTP cache was worded "unable to open
    # database file", naming neither the link nor where it points
    [
        ("http.sqlite", 1),
        ("games.sqlite", 0),
        ("replay.sqlite", 0),
        ("http.sqlite-wal", 1),
        ("http.sqlite-shm", 1),
    ],
)
def test_a_dangling_link_in_the_cache_makes_nothing_outside(
    tmp_path: Path, name: str, code: int
) -> None:
    cache, outside = tmp_path / "cache", tmp_path / "outside"
    cache.mkdir()
    outside.mkdir()
    (cache / name).symlink_to(outside / name)
    server = FakeLichess().start()
    try:
        games = [json.loads(line) for line in GAMES.read_text(encoding="utf-8").splitlines()]
        server.add_user("OnBoard247", datetime(2023, 1, 24, tzinfo=UTC), games)
        args = ["report", "OnBoard247", "--api-url", server.url, "--cache-dir", str(cache)]
        result = run_cli(*args, "--until", "2023-03", "-q")
    finally:
        server.stop()
    assert list(outside.iterdir()) == []
    assert "Traceback" not in result.stderr and "unexpected" not in result.stderr
    (line,) = result.stderr.splitlines()  # one line, naming the link
    assert line.startswith("lichess-elo: ")
    assert f"{cache / name} is a symbolic link to a missing file" in line
    assert result.returncode == code, result.stderr
