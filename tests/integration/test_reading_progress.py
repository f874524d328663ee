"""A file source says how far it has read: a PGN export by games, a dump by megabytes.

A 5,000-game export takes seconds to read, and a month's dump minutes; before, nothing was
shown until the replay bar. The expected counts come from the files: the real thibault
export holds 50 games (50 ``[Event`` header blocks, see tests/data/lichess/real/README.md).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import zstandard
from rich.console import Console

from lichess_elo.output.progress import bars
from lichess_elo.sources import pgn
from lichess_elo.sources.base import GameQuery, LoadHooks
from lichess_elo.sources.game_sources import DumpFile, PgnFile

REAL = Path(__file__).resolve().parents[1] / "data" / "lichess" / "real"
EXPORT = REAL / "export-thibault-2025-05-07.pgn"
DUMP_GAME = REAL / "dump-2025-03-first-game.pgn"


class Recorder:
    """A ``Progress`` that keeps what it is told."""

    def __init__(self) -> None:
        self.read: list[tuple[int, int, str]] = []

    def start(self, total_months: int) -> None:
        raise AssertionError("a file has no months")

    def month(self, label: str, done: int, games_so_far: int, from_cache: bool) -> None:
        raise AssertionError("a file has no months")

    def waiting(self, seconds: float, reason: str) -> None:
        raise AssertionError("a file makes no one wait")

    def reading(self, done: int, total: int, unit: str) -> None:
        self.read.append((done, total, unit))


def test_a_pgn_export_is_counted_by_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pgn, "READ_STEP", 20)
    seen = Recorder()
    loaded = PgnFile(EXPORT).load(GameQuery("thibault"), LoadHooks(progress=seen))
    assert len(loaded.games) == 50
    # before games 1, 21 and 41 (0, 20 and 40 read), then the end: 50 of 50
    assert seen.read == [(0, 50, "games"), (20, 50, "games"), (40, 50, "games"), (50, 50, "games")]


def test_a_dump_is_counted_by_megabytes_of_the_file(tmp_path: Path) -> None:
    game = DUMP_GAME.read_bytes()
    path = tmp_path / "lichess_db_standard_rated_2025-03.pgn.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(game))
    assert path.stat().st_size < 1 << 20  # under a megabyte: shown as 1, rounded up
    seen = Recorder()
    white = next(
        line.split('"')[1] for line in game.decode().splitlines() if line.startswith("[White ")
    )
    loaded = DumpFile(path).load(GameQuery(white), LoadHooks(progress=seen))
    assert len(loaded.games) == 1
    assert seen.read[0] == (0, 1, "MB") and seen.read[-1] == (1, 1, "MB")
    assert all(unit == "MB" and total == 1 for _, total, unit in seen.read)


def test_the_bar_shows_the_games_read(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100, color_system=None)
    monkeypatch.setattr(bars, "err_console", lambda: terminal)
    monkeypatch.setattr(pgn, "READ_STEP", 20)
    with bars.progress_bars(quiet=False) as (bar, _):
        PgnFile(EXPORT).load(GameQuery("thibault"), LoadHooks(progress=bar))
    drawn = screen.getvalue()
    assert "reading" in drawn and "50/50 games" in drawn
    screen.truncate(0)
    with bars.progress_bars(quiet=True) as (bar, _):
        PgnFile(EXPORT).load(GameQuery("thibault"), LoadHooks(progress=bar))
    assert screen.getvalue() == ""
