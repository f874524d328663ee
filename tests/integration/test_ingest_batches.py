"""``db ingest`` reads a file in one transaction, a batch at a time: no batch is kept alive
until the commit (memory stays flat in the file's size), and the games without a readable
date count in the file's most common month, the earliest of equals."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from lichess_elo.app import db as app
from lichess_elo.sources.population import ingest
from tests.integration.db_helpers import game, write_dump


def _games(month: str, n: int, first: int = 0) -> list[str]:
    return [
        game(f"{month}.{1 + i % 28:02d} 10:00:00", f"W{first + i}", f"B{first + i}", "1-0",
             ("1500", "1500"), ("+5", "-5"))
        for i in range(n)
    ]  # fmt: skip


def test_no_batch_is_held_until_the_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A batch registered with DuckDB inside a transaction stays referenced until the commit,
    # so a 1 M-game file held every batch (peak RSS 492 MB against 295). Checked in batches
    # of 4 games (the reader's batches cut in 4s), the 30 games are 8 batches; when the
    # file's counts are written, before the commit, none of them may still be alive.
    monkeypatch.setattr(ingest, "STAGE_ROWS", 4)
    read = ingest._batches

    def in_fours(*args: Any) -> Iterator[pa.RecordBatch]:
        for batch in read(*args):
            yield from (batch.slice(i, 4) for i in range(0, batch.num_rows, 4))

    monkeypatch.setattr(ingest, "_batches", in_fours)
    refs: list[weakref.ref[pa.Table]] = []
    alive_at_finish: list[int] = []
    check, finish = ingest._check, ingest._finish_file

    def spy_check(con: duckdb.DuckDBPyConnection, table: pa.Table, *rest: Any) -> None:
        refs.append(weakref.ref(table))
        check(con, table, *rest)

    def spy_finish(*args: Any) -> None:
        gc.collect()
        alive_at_finish.append(sum(r() is not None for r in refs))
        finish(*args)

    monkeypatch.setattr(ingest, "_check", spy_check)
    monkeypatch.setattr(ingest, "_finish_file", spy_finish)
    path = write_dump(tmp_path / "b.pgn.zst", _games("2024.03", 30))
    result = app.ingest(app.IngestSettings((path,), tmp_path / "b.duckdb"))
    assert len(refs) == 8  # ceil(30 / 4)
    assert alive_at_finish == [0]
    assert (result.games, [m.month for m in result.months]) == (30, [202403])
    con = duckdb.connect(str(tmp_path / "b.duckdb"), read_only=True)
    stored = con.execute(
        "SELECT COUNT(DISTINCT white), MIN(month), MAX(month) FROM games"
    ).fetchone()
    con.close()
    assert stored == (30, 202403, 202403)


def test_undated_games_count_in_the_earliest_of_equal_months(tmp_path: Path) -> None:
    # 3 games in 2024-02, 3 in 2024-01 (given after them), and 2 with no date: the months
    # are equal, so the 2 count as malformed games of 2024-01, the earlier.
    undated = [
        game("????.??.?? 10:00:00", f"U{i}", f"V{i}", "1-0", ("1500", "1500"), ("+5", "-5"))
        for i in range(2)
    ]
    games = _games("2024.02", 3) + _games("2024.01", 3, first=3) + undated
    path = write_dump(tmp_path / "t.pgn.zst", games)
    result = app.ingest(app.IngestSettings((path,), tmp_path / "t.duckdb"))
    months = {m.month: (m.games, m.rejected) for m in result.months}
    assert months == {202401: (3, {"malformed": 2}), 202402: (3, {})}
    assert result.unplaced == 0
