"""``db rate``: the settings (checked by themselves), the run on DuckDB or Spark, and what it
built. Re-exported by ``app.db`` with the other commands."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from lichess_elo.core import fide
from lichess_elo.core.population import list_rules, rulebook_sql
from lichess_elo.core.population.dialect import RATE_ENGINES, RateEngine
from lichess_elo.core.population.rows import RateResult
from lichess_elo.core.population.schema import PERFS, check_perf, month_label
from lichess_elo.core.population.stages import OPPONENTS, Opponents
from lichess_elo.errors import AgainWithout, BadInput, Conflict
from lichess_elo.sources.population import duck, list_rules_store, rivals_spark
from lichess_elo.sources.population.duck_faults import named_faults

DEFAULT_DB = Path("lichess.duckdb")


@dataclass(frozen=True)
class RateSettings:
    """``db rate``: build the lists of ``perfs`` (all when empty) with ``engine``.

    The rules: each month's own editions (``rules_as_of`` ``None``) or the editions in force
    on ``rules_as_of`` for every month; opponents at their list rating in the run
    (``opponents="list"``) or at their Lichess rating in the game (``"lichess"``, as
    ``report`` does); FIDE's one-time compression (``fide.COMPRESSION_2024``) applied to
    every listed player when the run crosses it (``adjustments``; never with
    ``rules_as_of``, as in the report).
    """

    db: Path = DEFAULT_DB
    perfs: tuple[str, ...] = ()
    engine: RateEngine = "duckdb"
    master: str = "local[*]"
    warehouse: Path | None = None
    #: Called with each month (YYYYMM) once its lists are built.
    on_month: Callable[[int], None] | None = None
    #: Called with (months done, months in all): once before the first, then after each.
    progress: Callable[[int, int], None] | None = None
    rules_as_of: date | None = None
    opponents: Opponents = "list"
    adjustments: bool = True
    #: The most memory the array engine may take, in bytes (``None``: what the machine has
    #: free); a population that needs more is refused before any work.
    memory: int | None = None

    def checked(self) -> tuple[str, ...]:
        """The perfs to rate, after checking every setting.

        Raises:
            BadInput: an unknown perf or engine, opponents source, or a ``rules_as_of``
                before the first edition of a chapter of the perfs.
        """
        perfs = tuple(check_perf(p) for p in self.perfs) or PERFS
        if self.engine not in RATE_ENGINES:
            raise BadInput("is not duckdb, duckdb-sql or spark", field="engine", value=self.engine)
        if self.opponents not in OPPONENTS:
            raise BadInput("is not list or lichess", field="opponents", value=self.opponents)
        if self.memory is not None and self.memory <= 0:
            raise BadInput("must be more than 0 bytes", field="memory", value=self.memory)
        if self.memory is not None and self.engine != "duckdb":
            raise Conflict(("memory", "engine"), "only the duckdb engine's arrays are counted")
        if self.rules_as_of is not None:
            chapters = {rulebook_sql.chapter_of_perf(p) for p in perfs}
            fide.check_as_of(self.rules_as_of, chapters.pop() if len(chapters) == 1 else None)
        return perfs


def _month_counter(settings: RateSettings, total: int) -> Callable[[int], None]:
    """The engines' ``on_month``: the settings' own, then ``progress`` with the count."""
    done = 0
    if settings.progress is not None:
        settings.progress(0, total)

    def each(month: int) -> None:
        nonlocal done
        done += 1
        if settings.on_month is not None:
            settings.on_month(month)
        if settings.progress is not None:
            settings.progress(done, total)

    return each


def _refuse_unrecorded(con: Any, perfs: tuple[str, ...]) -> None:
    """Refuse to keep another perf's lists made before lists recorded their rules."""
    recorded = list_rules_store.read(con)
    old = [p for p in duck.kept_perfs(con, perfs) if p not in recorded]
    if old:
        raise AgainWithout(
            "perf",
            f"the {', '.join(old)} lists were made before lists recorded their rules and "
            "would be mixed with new ones",
            "rate every perf again",
        )


@named_faults
def rate(settings: RateSettings) -> RateResult:
    """Rebuild the monthly lists of the chosen perfs (every month, again)."""
    perfs = settings.checked()
    con = duck.connect(settings.db)
    try:
        _refuse_unrecorded(con, perfs)
        start = time.perf_counter()
        plan = list_rules.plan(
            duck.game_months(con, perfs),
            rules_as_of=settings.rules_as_of,
            adjustment=settings.adjustments,
        )
        records = [
            list_rules.record(
                p,
                plan,
                rules_as_of=settings.rules_as_of,
                opponents=settings.opponents,
                adjustment=settings.adjustments,
                engine=settings.engine,
            )
            for p in perfs
        ]
        on_month = _month_counter(settings, len(plan))
        if settings.engine == "spark":
            from lichess_elo.sources.population import spark

            warehouse = settings.warehouse or settings.db.with_name(settings.db.name + ".spark")
            months = spark.rate(
                con,
                perfs,
                plan,
                records,
                master=settings.master,
                warehouse=warehouse,
                opponents=settings.opponents,
                on_month=on_month,
            )
            rivals_spark.rate_spark(con, perfs, master=settings.master, warehouse=warehouse)
        elif settings.engine == "duckdb-sql":
            months = duck.rate(
                con, perfs, plan, records, opponents=settings.opponents, on_month=on_month
            )
        else:
            from lichess_elo.sources.population import arrays_run

            months = arrays_run.rate(
                con,
                perfs,
                plan,
                records,
                opponents=settings.opponents,
                on_month=on_month,
                memory=settings.memory,
            )
        seconds = time.perf_counter() - start
        games = duck.rows(
            con, "SELECT COUNT(*) AS n FROM games WHERE perf IN (SELECT UNNEST(?))", [list(perfs)]
        )[0]["n"]
        # Each game is in the lists once per side it rates: without the 600/2600 rule
        # that is every game twice, which this count checks too.
        sides = duck.rows(
            con,
            "SELECT COALESCE(SUM(games), 0) AS n FROM lists WHERE perf IN (SELECT UNNEST(?))",
            [list(perfs)],
        )[0]["n"]
        players = {
            r["perf"]: int(r["n"])
            for r in duck.rows(
                con,
                # A player's first row is the only one with no games before it (every
                # row has games), so counting those counts the players without a DISTINCT.
                "SELECT perf, COUNT(*) AS n FROM lists "
                "WHERE perf IN (SELECT UNNEST(?)) AND games_before = 0 GROUP BY perf",
                [list(perfs)],
            )
        }
    finally:
        con.close()
    return RateResult(
        settings.engine,
        perfs,
        tuple(month_label(m) for m in months),
        int(games),
        {p: players.get(p, 0) for p in perfs},
        seconds,
        2 * int(games) - int(sides),
        tuple(records),
    )
