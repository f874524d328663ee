"""Generated dumps in the open database's format: PGN and Parquet give the same lists."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import zstandard

from lichess_elo.app import db as app
from tests.integration.db_helpers import gen_dump, write_dump


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two months of 3,000 games, 2 % spoiled on purpose, as .pgn.zst and Parquet."""
    out = tmp_path_factory.mktemp("dumps")
    return list(
        gen_dump().write_dumps(
            out, players=400, games=3000, months=2, seed=3, bots=4, bad_share=0.02, parquet=True
        )
    )


def test_header_order_is_the_database_s(dumps: list[Path]) -> None:
    text = zstandard.ZstdDecompressor().decompress(dumps[0].read_bytes(), max_output_size=1 << 28)
    first = text.decode().split("\n\n")[0].splitlines()
    tags = [line[1 : line.index(" ")] for line in first]
    # https://database.lichess.org (PGN sample) and shared/reference/lichess exports.
    assert tags[:13] == [
        "Event", "Site", "Date", "Round", "White", "Black", "Result", "UTCDate", "UTCTime",
        "WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff",
    ]  # fmt: skip
    assert tags[-4:] == ["ECO", "Opening", "TimeControl", "Termination"]
    assert dumps[0].name == "lichess_db_standard_rated_2024-01.pgn.zst"


def _lists(db: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db))
    rows = con.execute("SELECT * FROM lists ORDER BY perf, month, name").fetchall()
    con.close()
    return rows


def test_pgn_and_parquet_give_the_same_lists(dumps: list[Path], tmp_path: Path) -> None:
    from_pgn, from_parquet = tmp_path / "pgn.duckdb", tmp_path / "parquet.duckdb"
    pgn = app.ingest(app.IngestSettings(tuple(dumps), from_pgn))
    parquet = app.ingest(app.IngestSettings((dumps[0].parent / "data",), from_parquet))
    # 6,000 games; spoiled ones are counted, never fatal. The mirror stores a bad Elo as
    # null, so there it is a missing rating instead of a malformed one. BOT games are stored
    # (Lichess rated them), from both.
    assert pgn.games + sum(pgn.rejected.values()) == 6000
    assert parquet.games + sum(parquet.rejected.values()) == 6000
    assert "bot" not in pgn.rejected and "bot" not in parquet.rejected
    assert parquet.rejected.get("missing_rating", 0) >= pgn.rejected.get("missing_rating", 0)
    assert pgn.rejected["unfinished"] == parquet.rejected["unfinished"] > 0
    assert pgn.rejected["malformed"] > 0
    assert pgn.games == parquet.games
    for db in (from_pgn, from_parquet):
        app.rate(app.RateSettings(db))
    assert _lists(from_pgn) == _lists(from_parquet)


def test_every_command_runs_on_the_generated_dumps(dumps: list[Path], tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    app.ingest(app.IngestSettings(tuple(dumps), db))
    rated = app.rate(app.RateSettings(db))
    assert rated.months == ("2024-01", "2024-02", "2024-03")
    march = app.rating_list(app.ListSettings("blitz", "2024-03", db))
    assert len(march.players) > 300
    ratings = [p["rating"] for p in march.players]
    assert ratings == sorted(ratings, reverse=True)
    name = march.players[0]["name"]
    assert app.player(app.PlayerSettings(name, db, "blitz")).rows
    result = app.compare(app.CompareSettings(db, resamples=20))
    assert {s.perf for s in result.scores} == {"bullet", "blitz", "rapid", "classical"}


def test_bad_bytes_and_broken_headers_are_counted_not_fatal(tmp_path: Path) -> None:
    from tests.integration.db_helpers import game

    good = game("2024.06.01 10:00:00", "Ann", "Ben", "1-0", ("1500", "1500"), ("+5", "-5"))
    # Invalid UTF-8 in a name (replaced, the game is kept), a header line cut short (its
    # Black tag is lost: malformed) and a block of garbage without a header (skipped).
    latin = good.replace("Ann", "Andr\udce9", 1).encode("utf-8", "surrogateescape")
    cut = good.replace('[Black "Ben"]', '[Black "Ben').encode()
    garbage = b"this is not a game at all\n\n"
    path = tmp_path / "odd.pgn.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(latin + cut + garbage + good.encode()))
    result = app.ingest(app.IngestSettings((path,), tmp_path / "odd.duckdb"))
    assert (result.games, result.rejected) == (2, {"malformed": 1})
    con = duckdb.connect(str(tmp_path / "odd.duckdb"))
    names = sorted(r[0] for r in con.execute("SELECT white FROM games").fetchall())
    con.close()
    assert names == ["Andr\ufffd", "Ann"]


@pytest.mark.parametrize("bad_date", ["2999.12.31", "0000.01.01", "2262.04.12", "1999.12.31"])
def test_an_out_of_range_date_is_malformed_and_the_rest_is_stored(
    tmp_path: Path, bad_date: str
) -> None:
    # one game dated 2999.12.31 or 0000.01.01 overflowed the game order (epoch
    # seconds x 10^9 in a BIGINT) and stored nothing of the dump. A date that parses but
    # cannot be a Lichess game's (before 2010, after tomorrow) is malformed instead.
    from tests.integration.db_helpers import game

    good = [
        game(f"2024.06.0{day} 10:00:00", "Ann", "Ben", "1-0", ("1500", "1500"), ("+5", "-5"))
        for day in (1, 2, 3)
    ]
    odd = game(f"{bad_date} 10:00:00", "Cid", "Dee", "0-1", ("1500", "1500"), ("-5", "+5"))
    path = write_dump(tmp_path / "dates.pgn.zst", [good[0], odd, good[1], good[2]])
    result = app.ingest(app.IngestSettings((path,), tmp_path / "dates.duckdb"))
    assert (result.games, result.rejected) == (3, {"malformed": 1})
    assert [m.month for m in result.months] == [202406]
    con = duckdb.connect(str(tmp_path / "dates.duckdb"))
    names = con.execute("SELECT white, black FROM games ORDER BY ord").fetchall()
    con.close()
    assert names == [("Ann", "Ben")] * 3


def test_two_files_of_one_month_add_up_also_across_an_interrupt(tmp_path: Path) -> None:
    # Each file is committed as it completes. A month in two files of one run
    # holds both; after an interrupt between them, the rerun skips the first and adds the
    # second to the month instead of replacing it.
    from tests.integration.db_helpers import game

    def june(names: tuple[str, str], day: int) -> str:
        return game(f"2024.06.{day:02d} 10:00:00", *names, "1-0", ("1500", "1500"))

    one = write_dump(tmp_path / "a.pgn.zst", [june(("Ann", "Ben"), 1), june(("?", "Ben"), 2)])
    two = write_dump(tmp_path / "b.pgn.zst", [june(("Cid", "Dee"), 3), june(("Eve", "?"), 4)])
    whole = app.ingest(app.IngestSettings((one, two), tmp_path / "whole.duckdb"))
    assert [(m.month, m.games, m.rejected) for m in whole.months] == [(202406, 2, {"malformed": 2})]

    def interrupt(index: int, games: int, done: int, total: int) -> None:
        if index == 1:
            raise KeyboardInterrupt

    db = tmp_path / "cut.duckdb"
    with pytest.raises(KeyboardInterrupt):
        app.ingest(app.IngestSettings((one, two), db, interrupt))
    again = app.ingest(app.IngestSettings((one, two), db))
    assert (again.files, again.skipped) == ((two,), (one,))
    assert again.months == whole.months
    for path in (db, tmp_path / "whole.duckdb"):
        con = duckdb.connect(str(path))
        rows = con.execute("SELECT white, black, ord FROM games ORDER BY ord").fetchall()
        months = con.execute("SELECT month, games, rejected, sources FROM months").fetchall()
        con.close()
        assert [r[:2] for r in rows] == [("Ann", "Ben"), ("Cid", "Dee")]
        assert months == [(202406, 2, 2, "a.pgn.zst, b.pgn.zst")]
