"""Same games, same numbers: the generated population (``population_gen``) rated by the
Python reference on the FIDE engine and by ``db rate`` on DuckDB (the array step and the
generated SQL), 0 differences per player
per month under every combination of the rules' settings (Spark: ``test_db_spark.py``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import pytest

from lichess_elo.app import db as app
from lichess_elo.core.population import list_rules
from lichess_elo.sources.population import arrays_run, duck
from tests.integration.differential import (
    differences,
    population_db,
    reference_rows,
    stored_rows,
)
from tests.integration.differential_rivals import reference_rows as rival_reference_rows
from tests.integration.differential_rivals import row_differences as rival_differences
from tests.integration.differential_rivals import stored_rows as stored_rival_rows


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The population, ingested."""
    return population_db(tmp_path_factory.mktemp("diff") / "pop.duckdb")


def test_the_population_meets_every_rule(db: Path) -> None:
    # The generator's promises, checked on the stored games (not on any rating).
    con = duckdb.connect(str(db))
    months = {r[0] for r in con.execute("SELECT DISTINCT month FROM games").fetchall()}
    events = con.execute(
        "SELECT COUNT(*) FILTER (WHERE event LIKE 'arena:%'), "
        "COUNT(*) FILTER (WHERE event LIKE 'swiss:%'), COUNT(*) FILTER (WHERE event IS NULL) "
        "FROM games"
    ).fetchone()
    burst = con.execute(
        "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM games GROUP BY month, perf, "
        "least(white, black), greatest(white, black))"
    ).fetchone()
    con.close()
    assert {
        202112,
        202201,
        202209,
        202210,
        202402,
        202403,
        202411,
        202412,
        202509,
        202510,
    } <= months
    assert events is not None and min(events) > 100
    assert burst is not None and burst[0] >= 40


SETTINGS = {
    "by month": {},
    "lichess opponents": {"opponents": "lichess"},
    "no adjustment": {"adjustments": False},
    "as of 2023-01-01": {"rules_as_of": date(2023, 1, 1)},
    "as of 2012-03-01": {"rules_as_of": date(2012, 3, 1)},
    "classical as of 2010-01-01": {"rules_as_of": date(2010, 1, 1), "perfs": ("classical",)},
}


@pytest.mark.parametrize("name", ["by month", "lichess opponents", "as of 2023-01-01"])
def test_the_array_engine_in_chunks_agrees_with_the_engine(db: Path, name: str) -> None:
    # Every month read in chunks of 37 games (a real month's 92 M games are read 4 M at a
    # time): the seeds found across chunks, the once-per-event upgrade settled across them
    # (2022-01 to 2024-02 here) and the tracks' sums gathered chunk by chunk.
    settings = app.RateSettings(db, **SETTINGS[name])  # type: ignore[arg-type]
    perfs = settings.checked()
    con = duck.connect(db)
    plan = list_rules.plan(
        duck.game_months(con, perfs),
        rules_as_of=settings.rules_as_of,
        adjustment=settings.adjustments,
    )
    chunks: list[int] = []
    arrays_run.rate(
        con, perfs, plan, [], opponents=settings.opponents, chunk_rows=37, on_chunk=chunks.append
    )
    months = duck.games_by_month(con, perfs)
    con.close()
    # The progress of the months read in chunks: every game of them, 37 at a time, half of
    # each chunk at each of its two reads (18 then 19).
    assert sum(chunks) == sum(n for n in months.values() if n > 37) > 0
    assert max(chunks) == 19 and 18 in chunks
    ours = [r for r in stored_rows(db) if r[0] in perfs]
    assert ours and differences(ours, reference_rows(db, settings)) == []
    assert rival_differences(stored_rival_rows(db), rival_reference_rows(db)) == []


@pytest.mark.parametrize("engine", ["duckdb", "duckdb-sql"])
@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_duckdb_agrees_with_the_engine(db: Path, name: str, engine: str) -> None:
    # ``duckdb``: the array step; ``duckdb-sql``: the generated SQL, as Spark runs it.
    settings = app.RateSettings(db, **SETTINGS[name], engine=engine)  # type: ignore[arg-type]
    result = app.rate(settings)
    ours = [r for r in stored_rows(db) if r[0] in (settings.perfs or r[0])]
    assert ours and differences(ours, reference_rows(db, settings)) == []
    if name == "by month":
        # The default crossed the 600/2600 rule (Dec 2024 on) and the compression.
        assert result.left_out > 0
        rules = {r.perf: r for r in result.rules}
        assert rules["blitz"].adjustments == ("compression-2024-03",)
        assert rules["classical"].editions == (
            "standard-2014-07",
            "standard-2022-01",
            "standard-2024-03",
            "standard-2025-10",
        )
