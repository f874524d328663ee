"""The two FIDE tables shipped inside the package: 8.1.2 (expected score) and 8.1.1 (dp)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from functools import cache
from importlib import resources

from lichess_elo.core.fide.constants import HUNDREDTH


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("lichess_elo").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@cache
def pd_rows() -> tuple[tuple[int, int | None, Decimal, Decimal], ...]:
    """Table 8.1.2 as (diff_min, diff_max or None for no bound, PD high, PD low)."""
    return tuple(
        (
            int(row["diff_min"]),
            int(row["diff_max"]) if row["diff_max"] else None,
            Decimal(row["pd_high"]).quantize(HUNDREDTH),
            Decimal(row["pd_low"]).quantize(HUNDREDTH),
        )
        for row in _read_csv("expected_score_table.csv")
    )


@cache
def dp_table() -> dict[Decimal, int]:
    """Table 8.1.1 as {p (2 decimals): dp}."""
    return {
        Decimal(row["p"]).quantize(HUNDREDTH): int(row["dp"]) for row in _read_csv("dp_table.csv")
    }
