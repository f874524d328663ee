"""``db rate``'s array engine counts its memory before any work: a population that needs
more than the machine has free (or than ``--memory`` allows) is one named line, exit 1,
and the lists already built stay as they were. Real files, real processes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import duckdb
import pytest

from lichess_elo.cli.db import parse_size
from lichess_elo.sources.population.arrays_run import BYTES_PER_GAME, BYTES_PER_KEY
from tests.integration.db_fixture import january
from tests.integration.db_helpers import write_dump
from tests.runners import run_cli


def _error(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "unexpected" not in lines[0], lines[0]
    return lines[0]


def _lists(db: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT * FROM lists ORDER BY perf, name, month").fetchall()
    con.close()
    return rows


def test_a_population_beyond_the_memory_allowed_is_refused_before_any_work(
    tmp_path: Path,
) -> None:
    dump = write_dump(tmp_path / "jan.pgn.zst", january())
    db = tmp_path / "jan.duckdb"
    assert run_cli("db", "ingest", str(dump), "--db", str(db), "-q").returncode == 0
    assert run_cli("db", "rate", "--db", str(db), "-q").returncode == 0
    before = _lists(db)
    con = duckdb.connect(str(db), read_only=True)
    ((keys,),) = con.execute("SELECT COUNT(*) FROM player_ids").fetchall()
    ((games,),) = con.execute(
        "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM games GROUP BY month)"
    ).fetchall()
    con.close()
    # What the run needs: every key's arrays and the largest month's games.
    needed = keys * BYTES_PER_KEY + games * BYTES_PER_GAME
    result = run_cli("db", "rate", "--db", str(db), "--memory", str(needed - 1))
    line = _error(result)
    assert result.returncode == 1
    assert f"rating {keys:,} players needs about" in line
    assert "is allowed: rate it with --engine spark" in line
    assert _lists(db) == before and before
    # One byte more and the run goes through, to the same lists.
    assert run_cli("db", "rate", "--db", str(db), "--memory", str(needed), "-q").returncode == 0
    assert _lists(db) == before


@pytest.mark.parametrize(
    ("text", "size"),
    [("4G", 4 * 2**30), ("500M", 500 * 2**20), ("2GiB", 2 * 2**30), ("1.5GB", 3 * 2**29),
     ("1024", 1024), ("64k", 64 * 2**10)],
)  # fmt: skip
def test_sizes_are_read_in_powers_of_1024(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize(
    ("args", "words"),
    [(("--memory", "4X"), "--memory 4X is not a size such as 4G, 500M or 2GiB"),
     (("--memory", "0"), "--memory 0 is not a size such as 4G, 500M or 2GiB"),
     (("--memory", "4G", "--engine", "duckdb-sql"), "--memory does not apply with --engine")],
)  # fmt: skip
def test_a_wrong_memory_setting_is_named(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    dump = write_dump(tmp_path / "jan.pgn.zst", january())
    db = tmp_path / "jan.duckdb"
    assert run_cli("db", "ingest", str(dump), "--db", str(db), "-q").returncode == 0
    result = run_cli("db", "rate", "--db", str(db), *args)
    assert result.returncode == 2
    assert words in _error(result)


@pytest.mark.parametrize(
    ("damage", "words"),
    [("white_id = 1000000", "a white player id (1,000,000) that player_ids does not hold"),
     ("black_id = -1", "a black player id (-1) that player_ids does not hold")],
)  # fmt: skip
def test_a_month_that_cannot_all_be_rated_is_named_and_the_lists_stay(
    tmp_path: Path, damage: str, words: str
) -> None:
    # A game whose player id player_ids does not hold (a database changed by hand, or
    # damaged): the month is named with the reason, exit 1, the lists before stay whole.
    dump = write_dump(tmp_path / "jan.pgn.zst", january())
    db = tmp_path / "jan.duckdb"
    assert run_cli("db", "ingest", str(dump), "--db", str(db), "-q").returncode == 0
    assert run_cli("db", "rate", "--db", str(db), "-q").returncode == 0
    before = _lists(db)
    con = duckdb.connect(str(db))
    con.execute(f"UPDATE games SET {damage} WHERE ord = (SELECT MIN(ord) FROM games)")
    con.close()
    result = run_cli("db", "rate", "--db", str(db))
    line = _error(result)
    assert result.returncode == 1
    assert line.startswith("lichess-elo: error: the games of 2024-01 cannot all be rated (")
    assert words in line and line.endswith("nothing was changed: ingest that month again")
    assert _lists(db) == before
