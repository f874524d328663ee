"""Shared fixtures: the reference data, a clean environment, the fake Lichess server and
(tests/runners.py) the CLI runners."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.fake_lichess import FakeLichess
from tests.helpers import DATA, ONBOARD_CREATED, ONBOARD_FILE

# No per-example deadline (hypothesis's default is 200 ms): no test depends on the
# machine's speed (tests/unit/test_suite_structure.py).
settings.register_profile("lichess-elo", deadline=None)
settings.load_profile("lichess-elo")

#: The shared runners: the ``cli``, ``subprocess_cli`` and ``pty_cli`` fixtures.
pytest_plugins = ["tests.runners"]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The folder of reference data copied from ``shared/reference``."""
    return DATA


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test depends on the caller's environment; rate-limit waits take 10 ms."""
    for name in (
        "LICHESS_TOKEN",
        "LICHESS_ELO_OFFLINE",
        "LICHESS_API_URL",
        "LICHESS_ELO_CACHE_DIR",
        "LICHESS_ELO_TIMEOUT",
        "LICHESS_ELO_DEBUG",
        "LICHESS_ELO_LOCK_TIMEOUT",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LICHESS_ELO_RETRY_WAIT", "0.01")


@pytest.fixture(scope="session")
def onboard_games(data_dir: Path) -> list[dict[str, Any]]:
    """The 221 real OnBoard247 games as raw API dicts (fresh copies per test below)."""
    text = (data_dir / "lichess" / ONBOARD_FILE).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture
def fake_lichess() -> Iterator[FakeLichess]:
    """A fake Lichess server on 127.0.0.1, stopped after the test."""
    server = FakeLichess().start()
    yield server
    server.stop()


@pytest.fixture
def onboard_server(fake_lichess: FakeLichess, onboard_games: list[dict[str, Any]]) -> FakeLichess:
    """The fake server holding OnBoard247 and their 221 games."""
    fake_lichess.add_user(
        "OnBoard247", ONBOARD_CREATED, (json.loads(json.dumps(g)) for g in onboard_games)
    )
    return fake_lichess


@pytest.fixture
def club_server(fake_lichess: FakeLichess) -> FakeLichess:
    """The fake server holding the made-up club arena and swiss of tests/data/club."""
    for info in sorted((DATA / "club").glob("*-info.json")):
        kind, tid = info.name.split("-")[:2]
        games = info.with_name(f"{kind}-{tid}-games.ndjson").read_bytes()
        fake_lichess.add_tournament(
            "arena" if kind == "arena" else "swiss", tid, info.read_bytes(), games
        )
    return fake_lichess
