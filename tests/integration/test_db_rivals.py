"""Glicko-1 and Stephenson over a whole database: the generated population
(``population_gen``) tracked by the Python reference on ``core/report/rivals.py``
(``differential_rivals``) and by ``db rate`` on DuckDB and on Spark (local[2]), 0
differences in every player's monthly ratings and RDs and in ``db compare``'s expected
scores (tolerance 1e-9, explained in ``differential_rivals``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb
import pytest

from lichess_elo.app import db as app
from lichess_elo.errors import NotRated
from lichess_elo.sources.population import compare
from tests.integration.differential import population_db
from tests.integration.differential_rivals import (
    CONTENDERS,
    TOLERANCE,
    reference_expected,
    reference_rows,
    row_differences,
    stored_rows,
)

_NO_JAVA = shutil.which("java") is None and not os.environ.get("JAVA_HOME")
_ALL = ("bullet", "blitz", "rapid", "classical")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The population, ingested and rated on DuckDB."""
    path = population_db(tmp_path_factory.mktemp("rivals") / "pop.duckdb")
    app.rate(app.RateSettings(path))
    return path


@pytest.fixture(scope="module")
def reference(db: Path) -> list[tuple[object, ...]]:
    return reference_rows(db)


def _expected_differences(db: Path) -> tuple[int, list[str]]:
    """How many (game, contender) expected scores ``db compare`` computes over every game,
    and those more than ``TOLERANCE`` from ``rivals.track``'s, as White's expected score."""
    theirs = reference_expected(db)
    con = duckdb.connect(str(db), read_only=True)
    cols = compare.scored_games(con, _ALL, sample=10**9, seed=12)
    con.close()
    checked, bad = 0, []
    for i, ord_ in enumerate(cols["ord"].tolist()):
        white = bool(cols["white_side"][i])
        for r in CONTENDERS:
            side = theirs[(r.key, ord_, "white" if white else "black")]
            want = side if white else 1 - side
            got = float(cols[f"e_{r.key}"][i])
            checked += 1
            if abs(got - want) > TOLERANCE:
                bad.append(f"{r.key} game {ord_}: {got} != {want}")
    return checked, bad


def test_duckdb_tracks_agree_with_the_reference(
    db: Path, reference: list[tuple[object, ...]]
) -> None:
    ours = stored_rows(db)
    # One row per player and month with games: 36 players x 4 perfs play in most of the
    # 49 months, so thousands of rows, each with 8 numbers.
    assert len(ours) > 3000
    assert row_differences(ours, reference) == []


def test_expected_scores_agree_with_rivals_track(db: Path) -> None:
    checked, bad = _expected_differences(db)
    con = duckdb.connect(str(db), read_only=True)
    games = con.execute("SELECT COUNT(*) FROM games").fetchone()
    con.close()
    # Every game is scored (no 600/2600 side without a list row in this population is
    # assumed: the count is at most the games, twice for the two contenders).
    assert games is not None and 0 < checked <= 2 * games[0]
    assert bad == []


def test_sides_are_picked_by_the_seed(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    a = compare.scored_games(con, _ALL, sample=10**9, seed=12)["white_side"]
    b = compare.scored_games(con, _ALL, sample=10**9, seed=13)["white_side"]
    con.close()
    # About half of the games from White's side (3,000+ games: 0.4 to 0.6 is > 10 sigma),
    # and another seed picks other sides.
    assert 0.4 < a.mean() < 0.6
    assert (a != b).any()


def test_a_game_without_a_track_is_left_out_of_every_system(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "cut.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    perf, month = "blitz", 202406
    # The month's busiest player: their games are the ones to be left out.
    row = con.execute(
        """SELECT name, COUNT(*) FROM (SELECT white AS name FROM games WHERE perf = ? AND
           month = ? UNION ALL SELECT black FROM games WHERE perf = ? AND month = ?)
           GROUP BY name ORDER BY 2 DESC, 1 LIMIT 1""",
        [perf, month, perf, month],
    ).fetchone()
    assert row is not None and row[1] > 0
    name, played = str(row[0]), int(row[1])
    con.close()
    before = {(s.perf, s.month): s for s in app.compare(app.CompareSettings(copy)).scores}
    con = duckdb.connect(str(copy))
    con.execute("DELETE FROM rivals WHERE perf = ? AND month = ? AND name = ?", [perf, month, name])
    con.close()
    after = {(s.perf, s.month): s for s in app.compare(app.CompareSettings(copy)).scores}
    was, now = before[(perf, month)], after[(perf, month)]
    assert now.left_out == was.left_out + played
    assert now.games == was.games - played
    assert now.fide.games == now.lichess.games == now.rivals["glicko1"].games == now.sampled
    con = duckdb.connect(str(copy))
    con.execute("DROP TABLE rivals")
    con.close()
    with pytest.raises(NotRated, match="rate again"):
        app.compare(app.CompareSettings(copy))


#: The Spark check's slice of the population: twelve months (Spark runs a few jobs a
#: month, about a second each on two cores), with the gaps and first months of every perf.
SPARK_LAST_MONTH = 202210


@pytest.mark.spark
@pytest.mark.slow
@pytest.mark.skipif(_NO_JAVA, reason="Spark needs a Java runtime (.ci/run installs one)")
def test_spark_tracks_agree_with_the_reference(db: Path, tmp_path: Path) -> None:
    # The lists on Spark are checked by test_db_spark.py; here the tracks' stages alone run
    # there (rivals_spark.rate_spark, as db rate --engine spark calls it).
    from lichess_elo.sources.population import rivals_spark

    copy = tmp_path / "spark.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    con.execute("DELETE FROM games WHERE month > ?", [SPARK_LAST_MONTH])
    con.execute("DELETE FROM rivals")  # so every row checked below is Spark's
    months = rivals_spark.rate_spark(con, _ALL, master="local[2]", warehouse=tmp_path / "wh")
    con.close()
    assert len(months) == 12
    ours = stored_rows(copy)
    assert len(ours) > 800
    assert row_differences(ours, reference_rows(copy)) == []
    # db compare's expected scores on Spark's tracks (the lists kept are DuckDB's).
    checked, bad = _expected_differences(copy)
    assert checked > 0 and bad == []


def test_json_table_and_chart_name_the_contenders(db: Path, tmp_path: Path) -> None:
    import matplotlib

    from lichess_elo.output.charts.compare import write_compare_chart
    from lichess_elo.output.db import results as render

    result = app.compare(app.CompareSettings(db, perfs=("blitz",)))
    doc = render.compare_document(result)
    # The constants the tracks ran with, from the core, and how a database runs them.
    assert doc["assumptions"]["stephenson"]["neighbourhood"] == 0.02
    assert doc["assumptions"]["glicko1"]["c"] == pytest.approx(34.641016, abs=1e-6)
    first = doc["scores"][0]
    assert {"glicko1", "stephenson", "left_out"} <= first.keys()
    # Four systems: six pairs, the first FIDE rules against Lichess as before.
    pairs = [(c["first"], c["second"]) for c in first["comparisons"]]
    assert len(pairs) == 6 and pairs[0] == ("FIDE rules", "Lichess Glicko-2")
    text = render.compare_text(result, 80)
    assert "blitz: Glicko-1 (G) and Stephenson (S) against Lichess (L)" in text
    assert "blitz, against Lichess's rating month by month: Glicko-1 better in" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    path = tmp_path / "c.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        write_compare_chart(result, path)
    svg = path.read_text(encoding="utf-8")
    for label in ("FIDE rules", "Lichess Glicko-2", "Glicko-1", "Stephenson"):
        assert f">{label}<" in svg, label
    assert "blitz: binomial deviance of each month" in svg
