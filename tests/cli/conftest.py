"""Fixtures for the pseudo-terminal tests: a fake Lichess server holding generated games."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.fake_lichess import FakeLichess

REPO = Path(__file__).resolve().parent.parent.parent
#: Account creation of the generated user (games start 2021-01-01, gen_games.START).
BENCH_CREATED = datetime(2020, 12, 1, tzinfo=UTC)


def generated_games(n: int, seed: int = 7, user: str = "BenchUser") -> list[dict[str, Any]]:
    """``n`` realistic games from benchmarks/gen_games.py (spread over 2021-2024)."""
    spec = importlib.util.spec_from_file_location("gen_games", REPO / "benchmarks" / "gen_games.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    games: list[dict[str, Any]] = module.generate_games(n, seed=seed, user=user)
    return games


@pytest.fixture
def bench_server() -> Iterator[FakeLichess]:
    """The fake server with ``BenchUser`` and 3,000 generated games (above the pool's
    2,000-game threshold, so the replay runs in worker processes)."""
    server = FakeLichess().start()
    server.add_user("BenchUser", BENCH_CREATED, generated_games(3000))
    yield server
    server.stop()
