"""The Arrow dump reader (``sources/dump/arrow.py``, the one ``db ingest`` uses) against the
numpy reader it replaced (kept as ``tests/integration/numpy_dump_reader.py``): the same
batches on awkward text at chunk sizes that cut it everywhere, and the same database,
table by table, from the test dumps and from an awkward dump."""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest
import zstandard

from lichess_elo.app import db as app
from lichess_elo.core.population.schema import HEADERS
from lichess_elo.sources.dump import arrow as dump_arrow
from lichess_elo.sources.dump import parse as dump_parse
from lichess_elo.sources.population import ingest
from tests.integration import numpy_dump_reader as headers
from tests.integration.db_helpers import awkward_games, db_tables, game, gen_dump, write_dump


def _write(path: Path, crlf: bool) -> Path:
    text = b"".join(awkward_games())
    if crlf:
        text = text.replace(b"\n", b"\r\n")
    path.write_bytes(zstandard.ZstdCompressor().compress(text))
    return path


@pytest.mark.parametrize("chunk_bytes", [64, 333, 4096, 1 << 20])
@pytest.mark.parametrize("crlf", [False, True])
def test_the_same_batches_as_the_numpy_reader(tmp_path: Path, chunk_bytes: int, crlf: bool) -> None:
    path = _write(tmp_path / "awkward.pgn.zst", crlf)
    old = pa.Table.from_batches(list(headers.read_pgn_zst(path, chunk_bytes=chunk_bytes)))
    new = pa.Table.from_batches(
        list(dump_arrow.read_pgn_zst(path, HEADERS, chunk_bytes=chunk_bytes))
    )
    # The old reader reads headers only; the new one counts each game's plies too.
    plies = new.column(dump_parse.PLIES).to_pylist()
    new = new.drop_columns([dump_parse.PLIES])
    assert new.schema == old.schema
    assert new.to_pylist() == old.to_pylist()
    # Pinned by hand from awkward_games, so that a wrong old reader cannot hide a wrong new one.
    # Plies up to 2: Eve's game has no movetext (0); every other game has "1. e4 ... 1... e5"
    # (the garbage block after Ingrid's game is her movetext: she has 2 already).
    assert plies == [2, 2, 2, 0] + [2] * 13
    rows = new.to_pylist()
    assert [r["White"] for r in rows] == [
        "Ann", 'A\\"nn', "Cy", "Eve", "Gus", "Ingr\ufffdd", "", "lichess AI level 3", "Zed",
        "Arn", "Swi", "Cas", "Clb", "Clc", "Imp", "Nev", "Nen",
    ]  # fmt: skip
    assert rows[1]["Event"] == 'Rated "Blitz"] game' and rows[1]["Black"] == "B]en"
    assert rows[2]["Result"] is None and rows[2]["Event"] == "Casual Blitz game"
    assert rows[4]["BlackTitle"] == "BOT" and rows[3]["Termination"] == "Normal"
    assert rows[5]["Event"] == "Rated Blitz game \ufffd" and rows[5]["BlackElo"] == "1904"
    assert rows[6]["Black"] == "Kim" and rows[6]["Variant"] == "" and rows[6]["WhiteTitle"] is None
    assert rows[7]["Variant"] == "Chess960" and rows[7]["Black"] == "Łukasz"


def _old_batches(
    path: Path, kind: str, progress: ingest.FileProgress | None
) -> Iterator[pa.RecordBatch]:
    reader = {"pgn.zst": headers.read_pgn_zst, "pgn": headers.read_pgn_plain}[kind]
    return reader(path, progress=progress)  # type: ignore[arg-type]


def _both(
    files: tuple[Path, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, list[tuple[object, ...]]], dict[str, list[tuple[object, ...]]]]:
    """The database ingested from ``files`` by the new reader, then by the old one."""
    new_db, old_db = tmp_path / "new.duckdb", tmp_path / "old.duckdb"
    new = app.ingest(app.IngestSettings(files, new_db))
    with monkeypatch.context() as patch:
        patch.setattr(ingest, "_batches", _old_batches)
        old = app.ingest(app.IngestSettings(files, old_db))
    assert dataclasses.replace(new, seconds=0) == dataclasses.replace(old, seconds=0)
    return db_tables(new_db), db_tables(old_db)


@pytest.mark.parametrize("crlf", [False, True])
def test_an_awkward_dump_gives_the_same_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crlf: bool
) -> None:
    path = _write(tmp_path / "lichess_db_standard_rated_2024-06.pgn.zst", crlf)
    new, old = _both((path,), tmp_path, monkeypatch)
    assert new == old
    # 10 blocks, 9 games (the garbage is no game), then the 8 Event games. Of the first:
    # Ann, A\"nn, Eve and Zed are stored.
    # Cy has no Result (malformed); Gus has a rating diff but a BOT title, which is still a
    # rated game (stored); Ingrid's BlackElo line is cut but given again (stored); Kim has
    # an empty White (malformed); the AI game is an ai_opponent.
    # Of the Event games (db_helpers.event_games), Arn, Swi, Clc and Nev are stored and the
    # other four are unrated.
    whites = sorted(r[2] for r in new["games"])
    assert whites == sorted(
        ['A\\"nn', "Ann", "Eve", "Gus", "Ingr\ufffdd", "Zed", "Arn", "Swi", "Clc", "Nev"]
    )
    assert sorted(new["rejects"]) == [
        (202406, "ai_opponent", 1), (202406, "malformed", 2), (202406, "unrated", 4),
    ]  # fmt: skip
    events = {r[2]: r[10] for r in new["games"] if r[10] is not None}
    assert events == {"Arn": "arena:abc123", "Swi": "swiss:xyz789"}


def test_the_generated_dumps_give_the_same_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "dumps"
    dumps = gen_dump().write_dumps(out, players=200, games=1500, months=2, seed=5, bad_share=0.03)
    new, old = _both(tuple(dumps), tmp_path, monkeypatch)
    assert new == old
    assert len(new["games"]) > 2000 and new["rejects"]


@pytest.mark.parametrize("taken", [0, 1, 3])
def test_a_reader_left_early_stops_its_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: int
) -> None:
    monkeypatch.setattr(dump_arrow, "AHEAD_BYTES", 0)  # the filling thread waits on the caller
    path = _write(tmp_path / "awkward.pgn.zst", False)
    batches = dump_arrow.read_pgn_zst(path, HEADERS, chunk_bytes=64)
    for _ in range(taken + 1):
        next(batches)
    time.sleep(0.05)  # the filling thread runs ahead until it waits
    closing = threading.Thread(target=batches.close)
    closing.start()
    closing.join(10)
    assert not closing.is_alive()
    assert not [t for t in threading.enumerate() if t.name.startswith("pgn-")]


_IMPORTS_OF_AN_INGEST = """
import sys
from pathlib import Path
from lichess_elo.app import db as app
app.ingest(app.IngestSettings((Path(sys.argv[1]),), Path(sys.argv[2])))
print("pandas" in sys.modules)
"""


@pytest.mark.skipif(importlib.util.find_spec("pandas") is None, reason="pandas not installed")
def test_an_ingest_does_not_import_pandas(tmp_path: Path) -> None:
    # pa.array of a numpy array or of Python objects imports pandas when it is there
    # (0.25-0.5 s); the reader and the checks build their Arrow data without it.
    games = [
        game("2024.06.01 10:00:00", "Ann", "Ben", "1-0", ("1500", "1501"), ("+5", "-5")),
        game("2024.06.01 10:01:00", "Łukasz", "Ben", "0-1", ("1500", "1501"), ("-5", "+5")),
    ]
    path = write_dump(tmp_path / "lichess_db_standard_rated_2024-06.pgn.zst", games)
    out = subprocess.run(
        [sys.executable, "-c", _IMPORTS_OF_AN_INGEST, str(path), str(tmp_path / "db.duckdb")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out == "False\n"
