"""Fixtures for the pseudo-terminal tests: a fake Lichess server holding generated games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fake_lichess import FakeLichess
from tests.helpers import BENCH_CREATED, generated_games


@pytest.fixture
def bench_server() -> Iterator[FakeLichess]:
    """The fake server with ``BenchUser`` and 3,000 generated games (above the pool's
    2,000-game threshold, so the replay runs in worker processes)."""
    server = FakeLichess().start()
    server.add_user("BenchUser", BENCH_CREATED, generated_games(3000))
    yield server
    server.stop()
