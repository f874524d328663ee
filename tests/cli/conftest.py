"""Fixtures for the pseudo-terminal tests: a fake Lichess server holding generated games."""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.fake_lichess import FakeLichess

REPO = Path(__file__).resolve().parent.parent.parent
#: Account creation of the generated user (games start 2021-01-01, gen_games.START).
BENCH_CREATED = datetime(2020, 12, 1, tzinfo=UTC)


@functools.cache
def _generated(n: int, seed: int, user: str) -> str:
    spec = importlib.util.spec_from_file_location("gen_games", REPO / "benchmarks" / "gen_games.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return json.dumps(module.generate_games(n, seed=seed, user=user))


def generated_games(n: int, seed: int = 7, user: str = "BenchUser") -> list[dict[str, Any]]:
    """``n`` realistic games from benchmarks/gen_games.py (spread over 2021-2024), fresh
    copies of one generation per (n, seed, user)."""
    games: list[dict[str, Any]] = json.loads(_generated(n, seed, user))
    return games


@pytest.fixture
def bench_server() -> Iterator[FakeLichess]:
    """The fake server with ``BenchUser`` and 3,000 generated games (above the pool's
    2,000-game threshold, so the replay runs in worker processes)."""
    server = FakeLichess().start()
    server.add_user("BenchUser", BENCH_CREATED, generated_games(3000))
    yield server
    server.stop()
