"""Pure parts of ``lichess_elo.core.population``: months, perfs, table 8.1.2 for SQL, dialects."""

from __future__ import annotations

import pytest

from lichess_elo.core.population import stages
from lichess_elo.core.population.dialect import DUCKDB, SPARK
from lichess_elo.core.population.rulebook_sql import chapter_of_perf
from lichess_elo.core.population.schema import (
    PERFS,
    check_perf,
    month_label,
    month_range,
    next_month,
    parse_month,
)
from lichess_elo.errors import BadInput


def test_months() -> None:
    assert parse_month("2024-02") == 202402
    assert parse_month(" 1999-12 ") == 199912
    assert month_label(202402) == "2024-02"
    assert next_month(202412) == 202501
    assert month_range(202411, 202502) == [202411, 202412, 202501, 202502]


@pytest.mark.parametrize("text", ["2024-13", "2024-00", "2024-2", "24-02", "2024/02", ""])
def test_bad_months(text: str) -> None:
    with pytest.raises(BadInput, match="is not YYYY-MM"):
        parse_month(text)


def test_perfs() -> None:
    assert check_perf("classical") == "classical"
    # db rates every speed report rates (core.games.SPEEDS), ultraBullet and correspondence
    # included; a variant perf is not a speed.
    assert check_perf("ultraBullet") == "ultraBullet"
    assert check_perf("correspondence") == "correspondence"
    with pytest.raises(
        BadInput, match="use one of ultraBullet, bullet, blitz, rapid, classical, correspondence"
    ):
        check_perf("chess960")


def test_the_chapter_of_each_perf_is_report_s() -> None:
    # core.fide's SPEED_CHAPTERS: ultraBullet to rapid the Rapid & Blitz chapter, classical
    # and correspondence the standard one.
    assert [chapter_of_perf(p) for p in PERFS] == [
        "rapid-blitz", "rapid-blitz", "rapid-blitz", "rapid-blitz", "standard", "standard",
    ]  # fmt: skip


def test_pd_rows_are_table_8_1_2_in_hundredths() -> None:
    rows = {d: (high, low) for d, high, low in stages.pd_rows()}
    # Rows of table 8.1.2: 0-3 .50/.50, 99-106 .64/.36, 392-411 .92/.08, 620-735 .99/.01,
    # > 735 1.00/.00 (row 736 stands for every larger |D|).
    assert rows[0] == rows[3] == (50, 50)
    assert rows[4] == (51, 49)
    assert rows[100] == (64, 36)
    assert rows[400] == (92, 8)
    assert rows[735] == (99, 1)
    assert rows[736] == (100, 0)
    assert sorted(rows) == list(range(737))


def test_dialects_differ_only_in_integer_division() -> None:
    assert DUCKDB.idiv("700", "n") == "((700) // (n))"
    assert SPARK.idiv("700", "n") == "((700) div (n))"
