"""The only differences between DuckDB's SQL and Spark SQL that the stages meet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Engine = Literal["duckdb", "spark"]
#: Where ``db rate`` rates the months: ``duckdb`` (numpy arrays on this machine, DuckDB for
#: the storage), ``duckdb-sql`` (the generated SQL run by DuckDB, as before; kept for one
#: release) or ``spark`` (the same SQL on Spark).
RateEngine = Literal["duckdb", "duckdb-sql", "spark"]
RATE_ENGINES: tuple[RateEngine, ...] = ("duckdb", "duckdb-sql", "spark")


@dataclass(frozen=True)
class Dialect:
    """How one engine spells the few things the stages need."""

    engine: Engine

    def idiv(self, a: str, b: str) -> str:
        """Integer division of non-negative integers (DuckDB ``//``, Spark ``div``)."""
        op = "//" if self.engine == "duckdb" else "div"
        return f"(({a}) {op} ({b}))"

    def row_id(self) -> str:
        """A distinct BIGINT for each row of a query (DuckDB ``row_number() OVER ()``, Spark
        ``monotonically_increasing_id()``, which needs no single-partition window).

        Neither is stable between two runs of the query: store the result before using it.
        """
        if self.engine == "duckdb":
            return "row_number() OVER ()"
        return "monotonically_increasing_id()"

    def pair(self, a: str, b: str) -> str:
        """A value ordered by the integers ``a``, then ``b`` (a key for ``min_by``).

        DuckDB: one 128-bit integer, ``a`` above ``b`` (a BIGINT ``b`` spans less than
        2^64), three times faster in ``min_by`` than a struct; Spark: ``struct(a, b)``.
        """
        if self.engine == "duckdb":
            return f"((CAST({a} AS HUGEINT) << 64) + ({b}))"
        return f"struct({a}, {b})"


DUCKDB = Dialect("duckdb")
SPARK = Dialect("spark")
