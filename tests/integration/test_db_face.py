"""``db`` like the other commands: ``db months`` says what a database
holds, ``db list --top``/``--limit`` with its note, ``--output`` through the one writer,
and ``--format`` refused by the parser where a command has no such format. On the
hand-checked fixture (``db_fixture.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lichess_elo.app import db as app
from tests.integration.db_fixture import january, rated_fixture
from tests.integration.db_helpers import write_dump
from tests.runners import invoke


@pytest.fixture(scope="module")
def rated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture ingested and rated on DuckDB."""
    return rated_fixture(tmp_path_factory.mktemp("face"))


def _db(*args: str) -> tuple[int, str, str]:
    out = invoke(["db", *args])
    return out.exit_code, out.stdout, out.stderr


def test_months_json(rated_db: Path) -> None:
    code, out, err = _db("months", "--db", str(rated_db), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    # db_fixture: January 5 games and 7 unusable (one per reason); February 18 Erin-Bob +
    # Frank-Dave + Alice-Carol = 20; March 12 Erin-Bob + Gina-Alice blitz, 2 classical.
    # Rated: January Alice, Bob, Carol, Dave, SomeBot; February those but SomeBot, with
    # Erin and Frank; March Erin and Bob (Gina-Alice is unrated, 600/2600), and in
    # classical Gina, Hank and Ivan.
    assert doc == {
        "rated": True,
        "months": [
            {"month": "2024-01", "games": 5, "unusable": 7, "games_by_perf": {"blitz": 5},
             "players_rated": {"blitz": 5}},
            {"month": "2024-02", "games": 20, "unusable": 0, "games_by_perf": {"blitz": 20},
             "players_rated": {"blitz": 6}},
            {"month": "2024-03", "games": 15, "unusable": 0,
             "games_by_perf": {"blitz": 13, "classical": 2},
             "players_rated": {"blitz": 2, "classical": 3}},
        ],
    }  # fmt: skip


def test_months_table_and_csv(rated_db: Path) -> None:
    code, out, _ = _db("months", "--db", str(rated_db))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{rated_db}: 3 month(s), 2024-01 to 2024-03, 40 games stored"
    assert lines[-1].split() == ["2024-03", "15", "0", "13", "2", "blitz", "2,", "classical", "3"]
    code, out, _ = _db("months", "--db", str(rated_db), "--format", "csv")
    assert out.splitlines()[0] == "month,games,unusable,blitz,classical,rated_blitz,rated_classical"
    assert out.splitlines()[3] == "2024-03,15,0,13,2,2,3"


def test_months_of_an_unrated_database(tmp_path: Path) -> None:
    db = tmp_path / "u.duckdb"
    app.ingest(app.IngestSettings((write_dump(tmp_path / "m.pgn.zst", january()),), db))
    code, out, _ = _db("months", "--db", str(db))
    assert code == 0
    assert out.splitlines()[-1] == "not rated yet: lichess-elo db rate builds the lists"


def test_list_top_and_limit(rated_db: Path) -> None:
    base = ["list", "--db", str(rated_db), "--perf", "blitz", "--month", "2024-04"]
    # Piped (CliRunner is not a terminal): all 7 players of the April list by default.
    code, out, _ = _db(*base, "--format", "csv")
    assert code == 0 and len(out.splitlines()) == 1 + 7
    code, out, _ = _db(*base, "--limit", "2", "--format", "csv")
    assert out.splitlines()[1:] == ["Dave,2450,2,10,2455", "Frank,2417,1,10,2416"]
    code, out, _ = _db(*base, "--top", "3")
    assert "4 more players; --top 0 for all" in out.splitlines()
    assert "SomeBot" in out and "Carol" not in out
    code, _, err = _db(*base, "--top", "-1")
    assert code == 2 and "--top -1: must be 0 (all) or more" in err


def test_output_files(rated_db: Path, tmp_path: Path) -> None:
    target = tmp_path / "erin.csv"
    code, out, err = _db("player", "Erin", "--db", str(rated_db), "-f", "csv", "--output",
                         str(target))  # fmt: skip
    assert code == 0 and out == "", err
    # Erin: February 18 games 12 points (db_fixture), then March.
    assert target.read_text().splitlines()[1].startswith("blitz,Erin,2024-02,1600,0,40,,18,12,")
    compare = tmp_path / "compare.json"
    code, out, err = _db("compare", "--db", str(rated_db), "-f", "json", "--output", str(compare))
    assert code == 0 and out == "", err
    assert json.loads(compare.read_text())["bands"]
    code, _, err = _db("list", "--db", str(rated_db), "--perf", "blitz", "--month", "2024-04",
                       "--output", str(rated_db))  # fmt: skip
    assert code == 2 and "is the --db database" in err


@pytest.mark.parametrize("command", [["compare"], ["ingest", "x.pgn.zst"]])
def test_csv_refused_by_the_parser(command: list[str], rated_db: Path) -> None:
    # The one --format message of every command (choose_format's), before any work.
    code, _, err = _db(*command, "--db", str(rated_db), "--format", "csv")
    assert code == 2
    assert err == "lichess-elo: error: --format: unknown format 'csv'; valid: table, json\n"
