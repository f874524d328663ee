"""``pair_index.PairIndex`` holds each (perf, name) pair of ``player_ids`` by two hashes, a
64-bit key and a 32-bit check; a pair whose key is held with another check is a clash,
and ``ids.pair_ids`` then finds it by its name in ``player_ids``. Two different pairs are
given the same key here by hand (a real 64-bit collision cannot be found), so the exact
path runs on real rows. Every expected id is worked out by hand below."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from lichess_elo.app import db as app
from lichess_elo.sources.population import duck, ids, ingest, ledger
from lichess_elo.sources.population.pair_index import CHECK_SQL, KEY_SQL, PairIndex
from tests.integration.db_helpers import game, write_dump

#: Keys by hand: A and C share one key (segment 1, the key's top byte), D is in the same
#: segment below them, B is in the last segment.
KEY_A = 0x0100_0000_0000_0005
KEY_B = 0xFF00_0000_0000_0001
KEY_D = 0x0100_0000_0000_0003


def _find(index: PairIndex, pairs: list[tuple[int, int]]) -> list[tuple[int, bool]]:
    keys = np.array([k for k, _ in pairs], np.uint64)
    checks = np.array([c for _, c in pairs], np.uint32)
    found, clash = index.find(keys, checks)
    return list(zip(found.tolist(), clash.tolist(), strict=True))


@pytest.mark.parametrize("recent_max", [2, 100])
def test_a_key_held_with_another_check_is_a_clash(recent_max: int) -> None:
    # recent_max 2: the third add (C) moves A, B and C into the segments and D stays in
    # ``recent``; 100: all four stay in ``recent``. The answers are the same.
    index = PairIndex(recent_max)
    index.add(np.array([KEY_A, KEY_B], np.uint64), np.array([7, 9], np.uint32), np.array([0, 1]))
    index.add(np.array([KEY_A], np.uint64), np.array([8], np.uint32), np.array([2]))
    index.add(np.array([KEY_D], np.uint64), np.array([1], np.uint32), np.array([3]))
    assert index.size == 4
    assert _find(
        index,
        [
            (KEY_B, 9),  # B: held with its check -> 1
            (KEY_A, 7),  # A: its key is held first by A (C came after) -> 0
            (KEY_A, 8),  # C: the first pair of its key is A, check 7 -> a clash
            (KEY_B, 10),  # B's key with another check -> a clash
            (KEY_D, 1),  # D -> 3
            (KEY_D + 1, 1),  # a key nobody holds -> not held, no clash
            (0x0200_0000_0000_0000, 7),  # another empty segment -> not held
        ],
    ) == [(1, False), (0, False), (-1, True), (-1, True), (3, False), (-1, False), (-1, False)]


def test_an_empty_index_holds_nothing() -> None:
    assert _find(PairIndex(), [(KEY_A, 7)]) == [(-1, False)]
    assert _find(PairIndex(), []) == []


def _hashes(con: duckdb.DuckDBPyConnection, pairs: list[tuple[str, str]]) -> tuple[Any, Any]:
    """The key and check of each (perf, name), as ``KEY_SQL`` and ``CHECK_SQL`` give them."""
    rel = con.from_arrow(pa.table({"perf": [p for p, _ in pairs], "name": [n for _, n in pairs]}))
    table = rel.query("_p", f"SELECT {KEY_SQL} AS k, {CHECK_SQL} AS c FROM _p").to_arrow_table()
    keys = np.asarray(table.column("k").to_numpy(), np.uint64)
    return keys, np.asarray(table.column("c").to_numpy(), np.uint32)


@pytest.mark.parametrize("batch_rows", [500, 1 << 20])
def test_load_holds_every_pair_of_player_ids(tmp_path: Path, batch_rows: int) -> None:
    con = duck.connect(tmp_path / "ids.duckdb", create=True)
    # 3,000 pairs (ids 0-2999: name "p<i>", blitz for even i, bullet for odd), spread
    # over the 256 segments, read at once or 500 rows at a time.
    con.execute(
        "INSERT INTO player_ids SELECT i, CASE WHEN i % 2 = 0 THEN 'blitz' ELSE 'bullet' END,"
        " 'p' || i FROM range(3000) t(i)"
    )
    index = PairIndex.load(con, batch_rows=batch_rows)
    assert index.size == 3000
    # p7 is bullet (odd) -> 7; p8 blitz -> 8; p2999 bullet -> 2999; p7 blitz and p3000
    # blitz are no pair of player_ids.
    asked = [("bullet", "p7"), ("blitz", "p8"), ("bullet", "p2999"), ("blitz", "p7")]
    keys, checks = _hashes(con, [*asked, ("blitz", "p3000")])
    found, clash = index.find(keys, checks)
    assert found.tolist() == [7, 8, 2999, -1, -1]
    assert not clash.any()
    con.close()


def _pairs(rows: list[tuple[str, int, int, int]]) -> pa.Table:
    """A batch's pairs (all blitz): name, first place ``o``, key and check."""
    return pa.table(
        {
            "perf": ["blitz"] * len(rows),
            "name": [r[0] for r in rows],
            "o": pa.array([r[1] for r in rows], pa.int64()),
            "key": pa.array([r[2] for r in rows], pa.uint64()),
            "check": pa.array([r[3] for r in rows], pa.uint32()),
        }
    )


def test_a_pair_whose_key_clashes_is_found_by_its_name(tmp_path: Path) -> None:
    con = duck.connect(tmp_path / "ids.duckdb", create=True)
    con.execute("INSERT INTO player_ids VALUES (0, 'blitz', 'Ann'), (1, 'blitz', 'Ben')")
    index = PairIndex.load(con)
    (key_ann, key_dee), (check_ann, check_dee) = _hashes(con, [("blitz", "Ann"), ("blitz", "Dee")])
    batch = _pairs(
        [
            ("Ann", 1, key_ann, check_ann),  # held: 0
            ("Dee", 2, key_dee, check_dee),  # new
            ("Cid", 3, key_ann, check_ann ^ 1),  # Ann's key, another check: a clash, new
            ("Ben", 5, key_ann, check_ann ^ 2),  # Ann's key: a clash, Ben by name is 1
        ]
    )
    con.execute("BEGIN")
    rel, added = ids.pair_ids(con, batch, 2, index)
    # The new pairs by first place: Dee (o 2) gets 2, Cid (o 3) gets 3.
    assert added == 2
    assert sorted(rel.fetchall()) == [
        ("blitz", "Ann", 0),
        ("blitz", "Ben", 1),
        ("blitz", "Cid", 3),
        ("blitz", "Dee", 2),
    ]
    # Again (a later batch): Cid is now held under Ann's key after Ann, so it clashes
    # again and is found by its name, 3; nothing is added.
    rel, added = ids.pair_ids(con, batch, 4, index)
    assert added == 0
    assert sorted(rel.fetchall())[2:] == [("blitz", "Cid", 3), ("blitz", "Dee", 2)]
    con.execute("COMMIT")
    assert con.execute("SELECT * FROM player_ids ORDER BY id").fetchall() == [
        (0, "blitz", "Ann"),
        (1, "blitz", "Ben"),
        (2, "blitz", "Dee"),
        (3, "blitz", "Cid"),
    ]
    con.close()


def _game(when: str, white: str, black: str) -> str:
    return game(when, white, black, "1-0", ("1500", "1500"), ("+5", "-5"))


def test_a_file_rolled_back_in_a_run_leaves_the_index_as_player_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One run (one ``Seen``): June fails after its first batch, which gave Cid and Dee ids
    # 2 and 3 in the file's transaction and the index; July then comes in the same run.
    db = tmp_path / "run.duckdb"
    may = write_dump(tmp_path / "may.pgn.zst", [_game("2024.05.10 10:00:00", "Ann", "Ben")])
    app.ingest(app.IngestSettings((may,), db))
    june = write_dump(
        tmp_path / "june.pgn.zst",
        [_game("2024.06.01 10:00:00", "Cid", "Dee"), _game("2024.06.01 10:01:00", "Eve", "Ann")],
    )
    july = write_dump(tmp_path / "july.pgn.zst", [_game("2024.07.01 10:00:00", "Dee", "Ann")])
    monkeypatch.setattr(ingest, "STAGE_ROWS", 1)
    read = ingest._batches

    def one_at_a_time(*args: Any) -> Iterator[pa.RecordBatch]:
        for batch in read(*args):
            yield from (batch.slice(i, 1) for i in range(batch.num_rows))

    monkeypatch.setattr(ingest, "_batches", one_at_a_time)
    check = ingest._check

    def cut(*args: Any) -> None:
        check(*args)
        raise KeyboardInterrupt

    con = duck.connect(db)
    known = ingest.prepare(con)
    monkeypatch.setattr(ingest, "_check", cut)
    with pytest.raises(KeyboardInterrupt):
        ingest.read_file(con, june, ledger.file_key(june), None, 0, 0, known, set())
    monkeypatch.setattr(ingest, "_check", check)
    ingest.read_file(con, july, ledger.file_key(july), None, 1, 2, known, set())
    # June left nothing: July's Dee is new, 2 (not June's 3), and Ann keeps 0.
    assert con.execute("SELECT * FROM player_ids ORDER BY id").fetchall() == [
        (0, "blitz", "Ann"),
        (1, "blitz", "Ben"),
        (2, "blitz", "Dee"),
    ]
    assert con.execute("SELECT white_id, black_id FROM games WHERE month = 202407").fetchall() == [
        (2, 0)
    ]
    con.close()
