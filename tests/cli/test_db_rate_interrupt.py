"""``db rate`` stopped in the middle of its months (Ctrl-C, or killed) leaves the lists and
tracks of the run before it whole, and the next run finishes with the same lists: the
array engine writes to build tables that replace the old ones in one transaction at the
end. Real processes on a pseudo-terminal, a real database of a few million games."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import duckdb
import pytest
from benchmarks.bench_db import synthetic

from tests.runners import PtyCli, run_cli

#: 12 months of 250,000 games: the bar shows each month as it is rated (13 with the
#: month after the last), long enough for a signal to land in the middle.
GAMES, PLAYERS = 3_000_000, 40_000
PAST_THREE = re.compile(r"\b([3-9]|1[0-2])/13 months")


def _stored(db: Path) -> tuple[list[tuple[object, ...]], int, list[str]]:
    con = duckdb.connect(str(db), read_only=True)
    lists = con.execute(
        "SELECT perf, name, month, rating, games, change, next_rating FROM lists "
        "ORDER BY perf, name, month"
    ).fetchall()
    ((tracks,),) = con.execute("SELECT COUNT(*) FROM rivals").fetchall()
    tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
    con.close()
    return lists, int(tracks), sorted(tables)


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[object, ...]]:
    db = tmp_path_factory.mktemp("stop") / "year.duckdb"
    synthetic(db, GAMES, PLAYERS)
    assert run_cli("db", "rate", "--db", str(db), "-q", timeout=600).returncode == 0
    return db, _stored(db)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("how", ["ctrl-c", "kill"])
def test_a_rate_stopped_mid_way_keeps_the_lists_and_the_rerun_finishes(
    pty_cli: PtyCli, rated: tuple[Path, tuple[object, ...]], how: str
) -> None:
    db, before = rated
    lists, tracks, tables = before
    assert len(lists) > 100_000 and tracks >= len(lists) and "lists_build" not in tables
    run = pty_cli.start(["db", "rate", "--db", str(db)], width=80)
    assert run.wait_for(lambda text: PAST_THREE.search(text) is not None, timeout=300), run.text
    # Stopped where it stands (the fourth month or later of thirteen), then the signal.
    os.killpg(run.process.pid, signal.SIGSTOP)
    os.killpg(run.process.pid, signal.SIGINT if how == "ctrl-c" else signal.SIGKILL)
    os.killpg(run.process.pid, signal.SIGCONT)
    code = run.finish(timeout=120)
    if how == "ctrl-c":
        assert code == 130 and "lichess-elo: interrupted" in run.text, run.text
    else:
        assert code == -signal.SIGKILL
    after = _stored(db)
    assert after[0] == lists and after[1] == tracks
    # A rerun finishes, to the same lists (and drops what a killed run left).
    assert run_cli("db", "rate", "--db", str(db), "-q", timeout=600).returncode == 0
    again = _stored(db)
    assert again[0] == lists and again[1] == tracks and "lists_build" not in again[2]
