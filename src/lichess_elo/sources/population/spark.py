"""Apache Spark: the same stages (``stages.py``) as Spark SQL, reading and writing Parquet.

The games leave DuckDB as Parquet in the warehouse (``games/``), Spark numbers the players
once (``names/``, ``players/``), runs one month after another, writes each month's
``step`` to ``step/mYYYYMM/``, its rows with games to ``lists/mYYYYMM/`` and the next
month's ``cur`` to ``cur/mYYYYMM/``, reading them back (so the plan never grows), and the
lists are loaded back into the DuckDB file, where ``db list``, ``db player`` and ``db compare``
read them. On a cluster the warehouse must be storage every executor reaches (HDFS, S3,
a shared mount).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb

from lichess_elo.core.population import stages
from lichess_elo.core.population.dialect import SPARK
from lichess_elo.core.population.list_rules import ListRules
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import LISTS_COLUMNS
from lichess_elo.core.population.stages import Opponents
from lichess_elo.errors import EngineUnavailable
from lichess_elo.sources.population import duck

#: The warehouse folders of the run's state besides ``games/`` and ``lists/``.
_STATE_DIRS = ("names", "players", "cur", "step")


#: Spark's own logging: errors only, so a run prints its one summary and nothing else.
_LOG4J = """status = error
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = spark: %p %c{1}: %m%n
"""


def session(master: str, *, logs: Path | None = None) -> Any:
    """A SparkSession on ``master`` (an active one is reused); ``logs`` is a folder for the
    log configuration that keeps Spark's start-up chatter off the terminal.

    Raises:
        EngineUnavailable: pyspark is not installed or Spark (Java) does not start.
    """
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise EngineUnavailable(
            "the spark engine needs pyspark: pip install 'lichess-elo[spark]'"
        ) from None
    builder = SparkSession.builder.master(master)
    if logs is not None and master.startswith("local"):  # a cluster keeps its own options
        logs.mkdir(parents=True, exist_ok=True)
        config = logs / "log4j2.properties"
        config.write_text(_LOG4J, encoding="utf-8")
        builder = builder.config(
            "spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{config}"
        )
    try:
        spark = (
            builder.appName("lichess-elo")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "4" if master.startswith("local") else "200")
            .config("spark.sql.adaptive.enabled", "true")
            .getOrCreate()
        )
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise EngineUnavailable(
            f"Spark did not start on {master} (Java 17+ needed): {first}"
        ) from None
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def stored(spark: Any, sql: str, path: Path, view: str) -> None:
    """Write the result of ``sql`` as Parquet at ``path`` and name it ``view`` (read back,
    so each month's plan starts from files and never grows)."""
    spark.sql(sql).write.mode("overwrite").parquet(str(path))
    spark.read.parquet(str(path)).createOrReplaceTempView(view)


def rate(
    con: duckdb.DuckDBPyConnection,
    perfs: Sequence[str],
    plan: Sequence[MonthRules],
    records: Sequence[ListRules],
    *,
    master: str,
    warehouse: Path,
    opponents: Opponents = "list",
    on_month: Callable[[int], None] | None = None,
) -> list[int]:
    """Rebuild the lists of ``perfs`` on Spark, month by month under ``plan``, and store
    them (with ``records``) in the DuckDB file, as ``duck.rate`` does."""
    months = [rules.month for rules in plan]
    games_dir, lists_dir = warehouse / "games", warehouse / "lists"
    for stale in (games_dir, lists_dir, *(warehouse / d for d in _STATE_DIRS)):
        shutil.rmtree(stale, ignore_errors=True)
    warehouse.mkdir(parents=True, exist_ok=True)
    in_perfs = ", ".join(f"'{p}'" for p in perfs)
    con.execute(
        f"COPY (SELECT * FROM games WHERE perf IN ({in_perfs}) ORDER BY month) "
        f"TO '{games_dir}' (FORMAT parquet, PARTITION_BY (month))"
    )
    spark = session(master, logs=warehouse)
    if months:
        spark.read.option("basePath", str(games_dir)).parquet(
            str(games_dir)
        ).createOrReplaceTempView("games")
    spark.createDataFrame(
        list(stages.pd_rows()), "d INT, pd_high INT, pd_low INT"
    ).createOrReplaceTempView("pd_table")
    written: list[str] = []
    if months:
        # The ids come from monotonically_increasing_id(): stored once, read back.
        stored(spark, stages.names_sql(SPARK), warehouse / "names", "names")
        stored(spark, stages.players_sql(), warehouse / "players", "players")
        stored(spark, stages.INITIAL, warehouse / "cur" / "initial", "cur")
    for rules in plan:
        month = rules.month
        if rules.compressions:
            stored(spark, stages.compress_sql(SPARK, rules), warehouse / "cur" / f"a{month}", "cur")
        step = stages.step_sql(SPARK, rules, opponents=opponents)
        stored(spark, step, warehouse / "step" / f"m{month}", "step")
        target = str(lists_dir / f"m{month}")
        spark.sql(stages.listed_sql(SPARK)).write.mode("overwrite").parquet(target)
        written.append(target)
        stored(spark, stages.ADVANCE, warehouse / "cur" / f"m{month}", "cur")
        if on_month:
            on_month(month)
    con.execute(f"DROP TABLE IF EXISTS {duck.BUILD}")
    con.execute(duck.LISTS_DDL.replace("TABLE lists", f"TABLE {duck.BUILD}"))
    try:
        cols = ", ".join(LISTS_COLUMNS)
        for target in written:
            con.execute(
                f"INSERT INTO {duck.BUILD} ({cols}) "
                f"SELECT {cols} FROM read_parquet('{target}/*.parquet')"
            )
        duck.swap_lists(con, perfs, records)
    finally:
        con.execute(f"DROP TABLE IF EXISTS {duck.BUILD}")
    return months
