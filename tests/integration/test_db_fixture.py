"""The hand-checked fixture (``db_fixture.py``: the games and every list worked out by hand,
derivations from table 8.1.2 written out there) through ingest, rate, list and player."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from lichess_elo.app import db as app
from lichess_elo.errors import BadInput
from tests.integration.db_fixture import EXPECTED, RULES, february, january, march
from tests.integration.db_helpers import write_dump
from tests.runners import Cli


@pytest.fixture()
def dumps(tmp_path: Path) -> list[Path]:
    """The three months as three dumps."""
    return [
        write_dump(tmp_path / f"lichess_db_standard_rated_2024-0{i}.pgn.zst", games)
        for i, games in ((1, january()), (2, february()), (3, march()))
    ]


@pytest.fixture()
def rated_db(tmp_path: Path, dumps: list[Path]) -> Path:
    """A database with the fixture ingested and rated on DuckDB."""
    db = tmp_path / "fixture.duckdb"
    app.ingest(app.IngestSettings(tuple(dumps), db))
    app.rate(app.RateSettings(db, **RULES))
    return db


def test_ingest_counts_every_game_by_reason(tmp_path: Path, dumps: list[Path]) -> None:
    db = tmp_path / "x.duckdb"
    result = app.ingest(app.IngestSettings(tuple(dumps), db))
    # 5 January games (the BOT game counts), 18 + 1 + 1 in February, 12 + 1 + 2 in March.
    assert [(m.month, m.games) for m in result.months] == [(202401, 5), (202402, 20), (202403, 15)]
    # One unusable game per reason, each under its real cause (db_fixture's docstring).
    assert result.rejected == {
        "malformed": 1, "ai_opponent": 1, "aborted": 1, "unfinished": 1, "unrated": 1,
        "missing_rating": 1, "other_perf": 1,
    }  # fmt: skip


@pytest.mark.parametrize(("perf", "month"), sorted(EXPECTED))
def test_every_list_matches_the_hand_computation(rated_db: Path, perf: str, month: str) -> None:
    result = app.rating_list(app.ListSettings(perf, month, rated_db))
    assert result.players == EXPECTED[(perf, month)]


def test_no_rapid_or_bullet_list_and_months_outside_the_data(rated_db: Path) -> None:
    with pytest.raises(BadInput, match="no rapid games"):
        app.rating_list(app.ListSettings("rapid", "2024-02", rated_db))
    with pytest.raises(BadInput, match="lists run from 2024-01 to 2024-04"):
        app.rating_list(app.ListSettings("blitz", "2023-12", rated_db))


def test_player_rows_show_the_700_rule_and_the_rounding(rated_db: Path) -> None:
    erin = {r["month"]: r for r in app.player(app.PlayerSettings("erin", rated_db)).rows}
    # February: 18 games, K 40 reduced to 700 // 18 = 38; 12 points against PD 13.68.
    feb = erin["2024-02"]
    assert (feb["games"], feb["k"], feb["k_used"], feb["change"]) == (18, 40, 38, -64)
    assert (feb["points"], feb["expected"]) == (12, 13.68)
    frank = app.player(app.PlayerSettings("Frank", rated_db, "blitz")).rows
    # +0.5 rounds away from zero to +1.
    assert [(r["month"], r["change"], r["next_rating"]) for r in frank if r["games"]] == [
        ("2024-02", 1, 2417)
    ]


def test_reingest_replaces_the_month(tmp_path: Path, dumps: list[Path]) -> None:
    db = tmp_path / "x.duckdb"
    app.ingest(app.IngestSettings(tuple(dumps), db))
    # The same file unchanged is held in full already: skipped.
    same = app.ingest(app.IngestSettings((dumps[1],), db))
    assert (same.files, same.skipped, same.months) == ((), (dumps[1],), ())
    # Another file of the month (here a copy) replaces it.
    copy = tmp_path / "again" / dumps[1].name
    copy.parent.mkdir()
    shutil.copyfile(dumps[1], copy)
    again = app.ingest(app.IngestSettings((copy,), db))
    assert [(m.month, m.games) for m in again.months] == [(202402, 20)]
    app.rate(app.RateSettings(db, **RULES))
    for key, expected in EXPECTED.items():
        assert app.rating_list(app.ListSettings(*key, db)).players == expected


def test_interrupted_ingest_resumes_without_duplicates(tmp_path: Path, dumps: list[Path]) -> None:
    db = tmp_path / "x.duckdb"
    app.ingest(app.IngestSettings((dumps[0],), db))

    def interrupt(index: int, games: int, done: int, total: int) -> None:
        if index == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        app.ingest(app.IngestSettings(tuple(dumps), db, interrupt))
    # January, committed before, is whole; nothing of the interrupted run is there.
    con = duckdb.connect(str(db))
    assert con.execute("SELECT month, COUNT(*) FROM games GROUP BY 1").fetchall() == [(202401, 5)]
    con.close()
    app.ingest(app.IngestSettings(tuple(dumps), db))
    app.rate(app.RateSettings(db, **RULES))
    for key, expected in EXPECTED.items():
        assert app.rating_list(app.ListSettings(*key, db)).players == expected


def test_cli_list_json_and_csv(cli: Cli, rated_db: Path) -> None:
    out = cli(["db", "list", "--db", str(rated_db), "--perf", "classical", "--month", "2024-04",
         "--format", "json"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["rules"] == {
        "perf": "classical", "editions_by": "rules_as_of", "rules_as_of": "2025-10-01",
        "editions": ["standard-2025-10"], "opponents": "list", "adjustment": False,
        "adjustments": [], "engine": "duckdb",
    }  # fmt: skip
    del doc["rules"]
    assert doc == {
        "perf": "classical", "month": "2024-04", "players": EXPECTED[("classical", "2024-04")]
    }  # fmt: skip
    out = cli(["db", "list", "--db", str(rated_db), "--perf", "blitz", "--month", "2024-02",
         "--format", "csv"],
    )  # fmt: skip
    assert out.output.splitlines()[:2] == [
        "name,rating,games_before,k,lichess_rating",
        "Dave,2451,1,10,2451",
    ]
