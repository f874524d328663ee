"""Spark (local[2]) runs the same stages as DuckDB and gives identical lists."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from lichess_elo.app import db as app
from lichess_elo.core.population.schema import LISTS_COLUMNS
from tests.integration.db_fixture import EXPECTED, RULES, february, january, march
from tests.integration.db_helpers import gen_dump, write_dump
from tests.integration.db_rated import (
    RULE_600_LISTS,
    SEED_LISTS,
    blitz_list,
    rule_600_db,
    seed_db,
    seed_lists,
)
from tests.integration.differential import (
    differences,
    population_db,
    reference_rows,
    stored_rows,
)

#: Spark needs a Java runtime. On a machine with only python3 and pip (the README's
#: Quickstart) these tests are skipped and say why; CI installs Java in .ci/run and sets
#: LICHESS_ELO_REQUIRE_SPARK=1, so there a missing Java fails instead of skipping.
_NO_JAVA = shutil.which("java") is None and not os.environ.get("JAVA_HOME")
if _NO_JAVA and os.environ.get("LICHESS_ELO_REQUIRE_SPARK") == "1":
    raise RuntimeError("LICHESS_ELO_REQUIRE_SPARK=1 but no Java runtime is on PATH")
pytestmark = [
    pytest.mark.spark,
    pytest.mark.slow,
    pytest.mark.skipif(_NO_JAVA, reason="Spark needs a Java runtime (.ci/run installs one)"),
]
MASTER = "local[2]"


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """One SparkSession for the module (the engine reuses the active one)."""
    from lichess_elo.sources.population.spark import session

    s = session(MASTER)
    yield s
    s.stop()


def _lists(db: Path) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db))
    cols = ", ".join(LISTS_COLUMNS)
    rows = con.execute(f"SELECT {cols} FROM lists ORDER BY perf, month, name").fetchall()
    con.close()
    return rows


def _both(
    db: Path, tmp_path: Path, **rules: Any
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    app.rate(app.RateSettings(db, **rules))
    on_duckdb = _lists(db)
    app.rate(
        app.RateSettings(db, engine="spark", master=MASTER, warehouse=tmp_path / "wh", **rules)
    )
    return on_duckdb, _lists(db)


def test_fixture_lists_identical_and_hand_checked(spark: Any, tmp_path: Path) -> None:
    dumps = [
        write_dump(tmp_path / f"m{i}.pgn.zst", games)
        for i, games in enumerate((january(), february(), march()))
    ]
    db = tmp_path / "f.duckdb"
    app.ingest(app.IngestSettings(tuple(dumps), db))
    on_duckdb, on_spark = _both(db, tmp_path, **RULES)
    assert on_spark == on_duckdb
    for key, expected in EXPECTED.items():  # the Spark lists, as stored, against the hand
        assert app.rating_list(app.ListSettings(*key, db)).players == expected


def test_generated_dumps_lists_identical(spark: Any, tmp_path: Path) -> None:
    paths = gen_dump().write_dumps(
        tmp_path / "dumps", players=300, games=1500, months=3, seed=7, bots=3, bad_share=0.01
    )
    db = tmp_path / "g.duckdb"
    app.ingest(app.IngestSettings(tuple(paths), db))
    on_duckdb, on_spark = _both(db, tmp_path)
    assert len(on_duckdb) > 900  # about 300 players x 4 perfs x 4 lists, less late entrants
    assert on_spark == on_duckdb


def test_seed_order_across_months_on_spark(spark: Any, tmp_path: Path) -> None:
    # Spark orders the first game with struct(month, ord), DuckDB with one 128-bit key
    # (dialect.pair): the hand-checked lists of test_db_rate.SEED_LISTS on both.
    db = seed_db(tmp_path / "seed.duckdb")
    on_duckdb, on_spark = _both(db, tmp_path, adjustments=False)
    assert on_spark == on_duckdb
    assert seed_lists(db) == SEED_LISTS


def test_the_600_2600_rule_on_spark(spark: Any, tmp_path: Path) -> None:
    # The hand-checked lists of test_db_rate.RULE_600_LISTS, each month's edition, on both.
    db = rule_600_db(tmp_path / "rule600.duckdb")
    on_duckdb, on_spark = _both(db, tmp_path)
    assert on_spark == on_duckdb
    for month, expected in RULE_600_LISTS["month"].items():
        assert blitz_list(db, month) == expected


def test_the_population_on_spark_agrees_with_the_engine(spark: Any, tmp_path: Path) -> None:
    # The generated population of test_db_differential (2021-11 to 2025-11: every edition
    # date, events, gaps over 400, 2650+, 600/2600 pairs, 40-game months), each month's
    # editions and the compression: Spark against the Python reference on the FIDE
    # engine, 0 differences per player per month (the other settings on DuckDB only: the
    # SQL is the same text on both engines but for ``Dialect``).
    db = population_db(tmp_path / "pop.duckdb")
    settings = app.RateSettings(db, engine="spark", master=MASTER, warehouse=tmp_path / "wh")
    app.rate(settings)
    ours = stored_rows(db)
    assert ours and differences(ours, reference_rows(db, settings)) == []
