"""``db ingest`` gives every (name, perf) pair one integer id in ``player_ids``, dense from 0
in the order the pairs first arrive (by the game's ``ord``, White before Black), and stores
each game's ``white_id`` and ``black_id``; ``ids.ensure_ids`` fills a database ingested
before the ids were kept. Every expected id below is counted by hand from the games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from lichess_elo.app import db as app
from lichess_elo.sources.population import duck, ids, ingest
from tests.integration.db_helpers import game, write_dump

BULLET = {"event": "Rated Bullet game", "tc": "60+0"}


def _game(when: str, white: str, black: str, **kw: str) -> str:
    """A rated game White won (blitz unless ``kw`` says otherwise)."""
    return game(when, white, black, "1-0", ("1500", "1500"), ("+5", "-5"), **kw)


def _player_ids(db: Path) -> list[tuple[int, str, str]]:
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT id, perf, name FROM player_ids ORDER BY id").fetchall()
    con.close()
    return rows


def _games(db: Path) -> list[tuple[str, str, str, int | None, int | None]]:
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT perf, white, black, white_id, black_id FROM games ORDER BY ord"
    ).fetchall()
    con.close()
    return rows


def _in_batches_of(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Check the games ``size`` at a time (the reader's batches cut to that size)."""
    monkeypatch.setattr(ingest, "STAGE_ROWS", size)
    read = ingest._batches

    def cut(*args: Any) -> Iterator[pa.RecordBatch]:
        for batch in read(*args):
            yield from (batch.slice(i, size) for i in range(0, batch.num_rows, size))

    monkeypatch.setattr(ingest, "_batches", cut)


#: Four games of 2024-06; the last is malformed (White "?"), so Dee gets no id.
JUNE = [
    _game("2024.06.01 10:00:00", "Ann", "Ben"),
    _game("2024.06.01 10:01:00", "Ben", "Cid"),
    _game("2024.06.01 10:02:00", "Ann", "Cid", **BULLET),
    _game("2024.06.01 10:03:00", "?", "Dee"),
]
#: By first arrival: game 1 gives (Ann, blitz) 0 and (Ben, blitz) 1, game 2 (Cid, blitz)
#: 2 (Ben has one), game 3 (Ann, bullet) 3 and (Cid, bullet) 4: a name has one id per perf.
JUNE_IDS = [
    (0, "blitz", "Ann"),
    (1, "blitz", "Ben"),
    (2, "blitz", "Cid"),
    (3, "bullet", "Ann"),
    (4, "bullet", "Cid"),
]
JUNE_GAMES = [
    ("blitz", "Ann", "Ben", 0, 1),
    ("blitz", "Ben", "Cid", 1, 2),
    ("bullet", "Ann", "Cid", 3, 4),
]


@pytest.mark.parametrize("batch", [None, 1, 2])
def test_each_pair_has_one_id_in_order_of_arrival(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int | None
) -> None:
    # The same ids whether the games are checked at once or one or two at a time (then
    # a later batch finds Ann and Ben in player_ids and adds only its new pairs).
    if batch:
        _in_batches_of(monkeypatch, batch)
    db = tmp_path / "june.duckdb"
    app.ingest(app.IngestSettings((write_dump(tmp_path / "june.pgn.zst", JUNE),), db))
    assert _player_ids(db) == JUNE_IDS
    assert _games(db) == JUNE_GAMES
    con = duck.connect(db, read_only=True)
    perf, name = ids.names_by_id(con)
    assert ids.id_count(con) == 5
    # names_by_id is indexed by id: taking ids 4, 0, 1 gives Cid bullet, Ann and Ben blitz.
    taken = pa.array([4, 0, 1])
    assert perf.take(taken).to_pylist() == ["bullet", "blitz", "blitz"]
    assert name.take(taken).to_pylist() == ["Cid", "Ann", "Ben"]
    con.close()


def test_a_player_keeps_the_id_across_months_and_a_month_ingested_again(
    tmp_path: Path,
) -> None:
    db = tmp_path / "two.duckdb"
    may = write_dump(tmp_path / "may.pgn.zst", [_game("2024.05.10 10:00:00", "Ann", "Ben")])
    june = write_dump(tmp_path / "june.pgn.zst", [_game("2024.06.10 10:00:00", "Cid", "Ann")])
    app.ingest(app.IngestSettings((may,), db))
    app.ingest(app.IngestSettings((june,), db))
    # May gives Ann 0 and Ben 1; June's new pair, Cid, gets 2, and Ann (Black) keeps 0.
    assert _player_ids(db) == [(0, "blitz", "Ann"), (1, "blitz", "Ben"), (2, "blitz", "Cid")]
    assert _games(db) == [("blitz", "Ann", "Ben", 0, 1), ("blitz", "Cid", "Ann", 2, 0)]
    # May again, from another file (so it replaces the month): Ben-Ann keeps their ids
    # (Ben 1, Ann 0), Eve is new (3); Cid's row stays though May never had Cid.
    again = write_dump(
        tmp_path / "may2.pgn.zst",
        [_game("2024.05.11 10:00:00", "Ben", "Ann"), _game("2024.05.12 10:00:00", "Eve", "Ben")],
    )
    app.ingest(app.IngestSettings((again,), db))
    assert _player_ids(db) == [
        (0, "blitz", "Ann"),
        (1, "blitz", "Ben"),
        (2, "blitz", "Cid"),
        (3, "blitz", "Eve"),
    ]
    assert _games(db) == [
        ("blitz", "Ben", "Ann", 1, 0),
        ("blitz", "Eve", "Ben", 3, 1),
        ("blitz", "Cid", "Ann", 2, 0),
    ]


def test_ensure_ids_fills_an_old_database_once(tmp_path: Path) -> None:
    # A database of before the ids: games without the two columns, no player_ids.
    db = tmp_path / "old.duckdb"
    app.ingest(app.IngestSettings((write_dump(tmp_path / "june.pgn.zst", JUNE),), db))
    con = duckdb.connect(str(db))
    for column in ("white_id", "black_id"):
        con.execute(f"ALTER TABLE games DROP COLUMN {column}")
    con.execute("DROP TABLE player_ids")
    con.close()
    con = duck.connect(db)  # adds the columns (NULL) and an empty player_ids
    assert ids.id_count(con) == 0
    assert ids.ensure_ids(con) == 3  # the three stored games (the malformed one is not)
    assert ids.ensure_ids(con) == 0  # nothing left to fill
    con.close()
    # The same ids ingest gives: by first arrival, White before Black.
    assert _player_ids(db) == JUNE_IDS
    assert _games(db) == JUNE_GAMES


def test_ensure_ids_adds_only_the_missing_pairs(tmp_path: Path) -> None:
    # May has its ids (Ann 0, Ben 1); June's one game (Cid-Ann) lost them, and player_ids
    # lacks Cid: ensure_ids adds Cid as 2 and gives the game (2, 0).
    db = tmp_path / "half.duckdb"
    may = write_dump(tmp_path / "may.pgn.zst", [_game("2024.05.10 10:00:00", "Ann", "Ben")])
    june = write_dump(tmp_path / "june.pgn.zst", [_game("2024.06.10 10:00:00", "Cid", "Ann")])
    app.ingest(app.IngestSettings((may, june), db))
    con = duck.connect(db)
    con.execute("UPDATE games SET white_id = NULL, black_id = NULL WHERE month = 202406")
    con.execute("DELETE FROM player_ids WHERE name = 'Cid'")
    assert ids.ensure_ids(con) == 1
    assert ids.ensure_ids(con) == 0
    con.close()
    assert _player_ids(db) == [(0, "blitz", "Ann"), (1, "blitz", "Ben"), (2, "blitz", "Cid")]
    assert _games(db) == [("blitz", "Ann", "Ben", 0, 1), ("blitz", "Cid", "Ann", 2, 0)]


def test_a_file_that_fails_midway_leaves_player_ids_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "cut.duckdb"
    may = write_dump(tmp_path / "may.pgn.zst", [_game("2024.05.10 10:00:00", "Ann", "Ben")])
    app.ingest(app.IngestSettings((may,), db))
    before = _player_ids(db)
    assert before == [(0, "blitz", "Ann"), (1, "blitz", "Ben")]
    # June checked one game at a time; the interrupt comes after its first two games
    # (which added Cid, Dee and Eve to player_ids inside the file's transaction).
    _in_batches_of(monkeypatch, 1)
    check = ingest._check
    calls = []

    def interrupted(*args: Any) -> None:
        check(*args)
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(ingest, "_check", interrupted)
    june_games = [
        _game("2024.06.01 10:00:00", "Cid", "Dee"),
        _game("2024.06.01 10:01:00", "Eve", "Ann"),
        _game("2024.06.01 10:02:00", "Fay", "Ann"),
    ]
    june = write_dump(tmp_path / "june.pgn.zst", june_games)
    with pytest.raises(KeyboardInterrupt):
        app.ingest(app.IngestSettings((june,), db))
    assert len(calls) == 2
    assert _player_ids(db) == before
    assert _games(db) == [("blitz", "Ann", "Ben", 0, 1)]
    # The rerun numbers on from 2 with no gap: Cid 2, Dee 3, Eve 4, Fay 5.
    monkeypatch.setattr(ingest, "_check", check)
    app.ingest(app.IngestSettings((june,), db))
    assert _player_ids(db) == [
        *before,
        (2, "blitz", "Cid"),
        (3, "blitz", "Dee"),
        (4, "blitz", "Eve"),
        (5, "blitz", "Fay"),
    ]
    assert _games(db)[1:] == [
        ("blitz", "Cid", "Dee", 2, 3),
        ("blitz", "Eve", "Ann", 4, 0),
        ("blitz", "Fay", "Ann", 5, 0),
    ]
