"""``db rate`` on DuckDB: the seed order across months, a rerun of one perf, an interrupted
run, and the players it reports (the hand-checked fixture of ``db_fixture.py`` and a small
hand-checked set of games written straight into the database)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from lichess_elo.app import db as app
from tests.integration.db_fixture import EXPECTED, RULES, february, january, march
from tests.integration.db_helpers import write_dump
from tests.integration.db_rated import (
    RULE_600_LEFT_OUT,
    RULE_600_LISTS,
    SEED_GAMES,
    SEED_LISTS,
    as_of,
    blitz_list,
    rule_600_db,
    seed_db,
    seed_lists,
)


def test_seed_is_the_first_game_by_month_then_by_order(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "seed.duckdb")
    app.rate(app.RateSettings(db, adjustments=False))
    assert seed_lists(db) == SEED_LISTS


#: The March list with the compression of 1 March 2024 (the default: the run crosses it):
#: every listed player under 2000 is raised by 0.4 x (2000 - R), rounded half away from
#: zero (QC24). Z 1670: 0.4 x 330 = 132 -> 1802; X 1527: 0.4 x 473 = 189.2 -> 189 -> 1716;
#: Y 1453: 0.4 x 547 = 218.8 -> 219 -> 1672; W 1450: 0.4 x 550 = 220 -> 1670. January and
#: February are rated by rapid-blitz-2022-10 (K 40 under 30 games, as derived above; no
#: gap over 400, so the once-per-event rule of that edition changes nothing).
COMPRESSED_MARCH = [("Z", 1802, 1), ("X", 1716, 2), ("Y", 1672, 2), ("W", 1670, 1)]


def test_the_compression_of_march_2024_raises_the_march_list(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "seed.duckdb")
    result = app.rate(app.RateSettings(db))
    assert seed_lists(db) == {"2024-02": SEED_LISTS["2024-02"], "2024-03": COMPRESSED_MARCH}
    rules = {r.perf: r for r in result.rules}["blitz"]
    assert rules.adjustments == ("compression-2024-03",)
    assert rules.editions == ("rapid-blitz-2022-10", "rapid-blitz-2024-03")


@pytest.mark.parametrize("engine", ["duckdb", "duckdb-sql"])
def test_rate_reports_its_progress_month_by_month(tmp_path: Path, engine: str) -> None:
    db = seed_db(tmp_path / "seed.duckdb")
    calls: list[tuple[int, int]] = []
    games: list[tuple[int, int]] = []
    app.rate(
        app.RateSettings(
            db,
            engine=engine,  # type: ignore[arg-type]
            progress=lambda done, total: calls.append((done, total)),
            progress_games=lambda done, total: games.append((done, total)),
        )
    )
    # Games in January and February: the lists of January, February and March are built.
    assert calls == [(0, 3), (1, 3), (2, 3), (3, 3)]
    # The games bar: January's games, then February's, then March's (none).
    jan = sum(1 for g in SEED_GAMES if g[0] == 202401)
    feb = sum(1 for g in SEED_GAMES if g[0] == 202402)
    total = jan + feb
    assert games == [(0, total), (jan, total), (total, total), (total, total)]


@pytest.fixture()
def fixture_db(tmp_path: Path) -> Path:
    """The hand-checked fixture, ingested."""
    dumps = [
        write_dump(tmp_path / f"lichess_db_standard_rated_2024-0{i}.pgn.zst", games)
        for i, games in ((1, january()), (2, february()), (3, march()))
    ]
    db = tmp_path / "fixture.duckdb"
    app.ingest(app.IngestSettings(tuple(dumps), db))
    return db


def _rate(db: Path, **more: object) -> app.RateResult:
    """``db rate`` under the fixture's rules (``db_fixture.RULES``)."""
    return app.rate(app.RateSettings(db, **{**RULES, **more}))  # type: ignore[arg-type]


def _all_lists_match(db: Path) -> None:
    for key, expected in EXPECTED.items():
        assert app.rating_list(app.ListSettings(*key, db)).players == expected


def test_rate_reports_the_players_of_each_perf(fixture_db: Path) -> None:
    result = _rate(fixture_db)
    # Blitz: Alice, Bob, Carol, Dave, SomeBot (January), Erin, Frank (February); Gina's one
    # blitz game is not rated (600/2600); classical: Gina, Hank, Ivan (March); no bullet or
    # rapid, ultraBullet or correspondence (every speed is rated).
    assert result.players == {
        "ultraBullet": 0, "bullet": 0, "blitz": 7, "rapid": 0, "classical": 3,
        "correspondence": 0,
    }  # fmt: skip
    assert result.games == 40  # 5 + 20 + 15 usable games
    assert result.left_out == 2  # Gina-Alice, both sides


def test_rating_one_perf_keeps_the_others(fixture_db: Path) -> None:
    _rate(fixture_db)
    result = _rate(fixture_db, perfs=("classical",))
    assert result.players == {"classical": 3}
    _all_lists_match(fixture_db)  # the blitz lists of the first run are still there


def test_interrupted_rate_leaves_the_previous_lists_whole(fixture_db: Path) -> None:
    _rate(fixture_db)

    def interrupt(month: int) -> None:
        if month == 202402:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _rate(fixture_db, on_month=interrupt)
    _all_lists_match(fixture_db)
    con = duckdb.connect(str(fixture_db))
    tables = {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    con.close()
    assert "lists_build" not in tables


@pytest.mark.parametrize("rules", sorted(RULE_600_LISTS))
def test_the_600_2600_rule_follows_the_edition(tmp_path: Path, rules: str) -> None:
    db = rule_600_db(tmp_path / "rule600.duckdb")
    result = app.rate(app.RateSettings(db, rules_as_of=as_of(rules)))
    assert result.left_out == RULE_600_LEFT_OUT[rules]
    for month, expected in RULE_600_LISTS[rules].items():
        assert blitz_list(db, month) == expected
