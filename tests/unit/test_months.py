"""The one calendar-month rule (``core.months``), with values worked out by hand, and the
places that used to spell it themselves giving the same answers."""

from __future__ import annotations

from datetime import UTC, date, datetime

import duckdb
import pytest

from lichess_elo.core import months
from lichess_elo.core.club.rating import months_between as club_months_between
from lichess_elo.core.population import rivals_sql, rulebook_sql, schema
from lichess_elo.core.population.dialect import DUCKDB
from lichess_elo.core.report.rivals import month_index as rivals_month_index
from lichess_elo.output.charts.periods import period_span
from lichess_elo.sources.lichess.months import export_params


@pytest.mark.parametrize(
    ("year", "month", "index"),
    [
        (0, 1, 0),  # January of year 0 is month 0
        (0, 12, 11),
        (1, 1, 12),  # 1 * 12 + 1 - 1
        (2023, 12, 24287),  # 2023 * 12 = 24276, + 12 - 1
        (2024, 1, 24288),  # the next month: one more across December
        (2024, 2, 24289),
    ],
)
def test_month_index_and_its_inverse(year: int, month: int, index: int) -> None:
    assert months.month_index(year, month) == index
    assert months.month_at(index) == (year, month)


@pytest.mark.parametrize(
    ("year", "month", "step", "expected"),
    [
        (2023, 12, 1, (2024, 1)),
        (2024, 1, -1, (2023, 12)),
        (2023, 11, 3, (2024, 2)),  # Nov + 3: Dec, Jan, Feb
        (2024, 3, -15, (2022, 12)),  # 15 back from March 2024: a year to March 2023, 3 more
        (2024, 5, 0, (2024, 5)),
        (2024, 12, 24, (2026, 12)),
    ],
)
def test_add_months(year: int, month: int, step: int, expected: tuple[int, int]) -> None:
    assert months.add_months(year, month, step) == expected


def test_month_after_across_december_and_leap_february() -> None:
    assert months.month_after(date(2023, 12, 31)) == date(2024, 1, 1)
    assert months.month_after(date(2024, 2, 29)) == date(2024, 3, 1)  # 2024 is a leap year
    assert months.month_after(date(2024, 1, 31)) == date(2024, 2, 1)
    assert months.month_after(date(9998, 12, 1)) == date(9999, 1, 1)


def test_months_between_counts_a_month_once_its_day_is_reached() -> None:
    # 2024-01-31 to 2024-02-29: one month apart by month, but the 31st is not reached
    assert months.months_between(date(2024, 1, 31), date(2024, 2, 29)) == 0
    assert months.months_between(date(2023, 11, 15), date(2024, 2, 15)) == 3  # Dec, Jan, Feb
    assert months.months_between(date(2023, 11, 15), date(2024, 2, 14)) == 2
    assert months.months_between(date(2024, 2, 29), date(2025, 2, 28)) == 11  # 28 < 29
    assert club_months_between is months.months_between


def test_yyyymm_add_and_range_across_december() -> None:
    assert months.yyyymm_add(202312, 1) == 202401
    assert months.yyyymm_add(202401, -1) == 202312
    assert months.yyyymm_add(202410, 15) == 202601  # Oct 2024 + 12 = Oct 2025, + 3 = Jan 2026
    assert months.yyyymm_range(202311, 202402) == [202311, 202312, 202401, 202402]
    assert months.yyyymm_range(202405, 202405) == [202405]
    assert months.yyyymm_range(202405, 202401) == [202405]  # first alone, as before


def test_the_former_copies_give_the_rule_s_values() -> None:
    assert schema.next_month(202412) == 202501
    assert schema.month_range(202411, 202502) == [202411, 202412, 202501, 202502]
    assert rulebook_sql.previous_month(202501) == 202412
    assert rulebook_sql.previous_month(202403) == 202402
    assert rivals_month_index is months.month_index
    # the chart's month runs from its first day to the next month's (December -> January)
    when = datetime(2023, 12, 9, tzinfo=UTC)
    assert period_span("2023-12", "month", when) == (
        datetime(2023, 12, 1, tzinfo=UTC),
        datetime(2024, 1, 1, tzinfo=UTC),
    )
    # the export window of December 2023 ends at 2024-01-01T00:00Z: 54 years of 365 days
    # and 13 leap days (1972..2020) = 19723 days x 86400 s = 1704067200 s
    assert export_params(date(2023, 12, 1))["until"] == 1_704_067_200_000


@pytest.mark.parametrize(("yyyymm", "index"), [(202312, 24287), (202401, 24288), (199001, 23880)])
def test_the_sql_is_the_same_rule(yyyymm: int, index: int) -> None:
    # 1990 * 12 = 23880, + 1 - 1
    direct = months.month_index_sql(str(yyyymm // 100), str(yyyymm % 100))
    stage = rivals_sql.month_index_sql(DUCKDB, str(yyyymm))
    with duckdb.connect() as con:
        row = con.execute(f"SELECT {direct}, {stage}").fetchone()
    assert row == (index, index)
