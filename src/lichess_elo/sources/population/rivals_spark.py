"""``db rate``'s second part on Spark: the Glicko-1 and Stephenson tracks (``rivals_sql``)
of every player, month after month on Spark, stored in the DuckDB file's ``rivals`` table
as ``rivals_run`` stores DuckDB's (its own module: ``spark`` imports ``duck``, which
imports ``rivals_run``)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import duckdb

from lichess_elo.core.population import stages
from lichess_elo.core.population.dialect import SPARK
from lichess_elo.core.population.rivals_sql import (
    rivals_advance_sql,
    rivals_columns,
    rivals_initial_sql,
    rivals_listed_sql,
    rivals_step_sql,
)
from lichess_elo.sources.population.rivals_run import BUILD, build_table, game_months, swap


def rate_spark(
    con: duckdb.DuckDBPyConnection, perfs: Sequence[str], *, master: str, warehouse: Path
) -> list[int]:
    """Rebuild the perfs' tracks on Spark (Parquet under ``warehouse/rivals``, each month's
    state read back so the plan never grows) and store them in the DuckDB file."""
    from lichess_elo.sources.population.spark import session, stored

    months = game_months(con, perfs)
    home = warehouse / "rivals"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True, exist_ok=True)
    games_dir = home / "games"
    in_perfs = ", ".join(f"'{p}'" for p in perfs)
    con.execute(
        f"COPY (SELECT * FROM games WHERE perf IN ({in_perfs}) ORDER BY month) "
        f"TO '{games_dir}' (FORMAT parquet, PARTITION_BY (month))"
    )
    spark = session(master, logs=warehouse)
    written: list[str] = []
    if months:
        spark.read.option("basePath", str(games_dir)).parquet(
            str(games_dir)
        ).createOrReplaceTempView("games")
        stored(spark, stages.names_sql(SPARK), home / "names", "names")
        stored(spark, stages.players_sql(), home / "players", "players")
        stored(spark, rivals_initial_sql(), home / "cur" / "initial", "rcur")
    for month in months:
        stored(spark, rivals_step_sql(SPARK, month), home / "step" / f"m{month}", "rstep")
        target = str(home / "rows" / f"m{month}")
        spark.sql(rivals_listed_sql(SPARK)).write.mode("overwrite").parquet(target)
        written.append(target)
        stored(spark, rivals_advance_sql(), home / "cur" / f"m{month}", "rcur")
    build_table(con)
    try:
        cols = ", ".join(rivals_columns())
        for target in written:
            con.execute(
                f"INSERT INTO {BUILD} ({cols}) "
                f"SELECT {cols} FROM read_parquet('{target}/*.parquet')"
            )
        swap(con, perfs)
    finally:
        con.execute(f"DROP TABLE IF EXISTS {BUILD}")
    return months
