"""The only differences between DuckDB's SQL and Spark SQL that the stages meet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Engine = Literal["duckdb", "spark"]


@dataclass(frozen=True)
class Dialect:
    """How one engine spells the few things the stages need."""

    engine: Engine

    def idiv(self, a: str, b: str) -> str:
        """Integer division of non-negative integers (DuckDB ``//``, Spark ``div``)."""
        op = "//" if self.engine == "duckdb" else "div"
        return f"(({a}) {op} ({b}))"


DUCKDB = Dialect("duckdb")
SPARK = Dialect("spark")
