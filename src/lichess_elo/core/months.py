"""Calendar-month arithmetic, once for every command: months as (year, month), as dates and
as the population database's ``YYYYMM`` integers.

Pure code, no I/O. The one rule: a month's *index* is ``year * 12 + month - 1`` (months
since January of year 0), so consecutive months differ by 1 across December; every other
function here is that index and its inverse. ``month_index_sql`` writes the same rule as
SQL, for the SQL stages.
"""

from __future__ import annotations

from datetime import date

#: Months in a year.
MONTHS_PER_YEAR = 12


def month_index(year: int, month: int) -> int:
    """Months since January of year 0: consecutive months differ by 1 (December to January
    too).

    >>> month_index(2023, 12), month_index(2024, 1)
    (24287, 24288)
    """
    return year * MONTHS_PER_YEAR + month - 1


def month_at(index: int) -> tuple[int, int]:
    """The ``(year, month)`` of a ``month_index``.

    >>> month_at(24288)
    (2024, 1)
    """
    year, month = divmod(index, MONTHS_PER_YEAR)
    return year, month + 1


def add_months(year: int, month: int, months: int) -> tuple[int, int]:
    """The ``(year, month)`` ``months`` months after (before, when negative) ``year``-``month``.

    >>> add_months(2023, 12, 1), add_months(2024, 1, -1)
    ((2024, 1), (2023, 12))
    """
    return month_at(month_index(year, month) + months)


def month_after(day: date) -> date:
    """The first day of the month after ``day``'s.

    >>> month_after(date(2023, 12, 31))
    datetime.date(2024, 1, 1)
    """
    return date(*add_months(day.year, day.month, 1), 1)


def months_between(earlier: date, later: date) -> int:
    """Whole calendar months from ``earlier`` to ``later`` (a month counts once its day of
    the month is reached)."""
    months = month_index(later.year, later.month) - month_index(earlier.year, earlier.month)
    return months - 1 if later.day < earlier.day else months


def yyyymm_add(month: int, months: int) -> int:
    """The ``YYYYMM`` integer ``months`` months after (before, when negative) ``month``.

    >>> yyyymm_add(202312, 1), yyyymm_add(202401, -1)
    (202401, 202312)
    """
    year, mon = add_months(month // 100, month % 100, months)
    return year * 100 + mon


def yyyymm_range(first: int, last: int) -> list[int]:
    """Every ``YYYYMM`` month from ``first`` to ``last`` inclusive; ``first`` alone when
    ``last`` is not after it."""
    start = month_index(first // 100, first % 100)
    end = max(start, month_index(last // 100, last % 100))
    return [year * 100 + mon for year, mon in map(month_at, range(start, end + 1))]


def month_index_sql(year: str, month: str) -> str:
    """``month_index`` as SQL, of two SQL integer expressions (the year and the month)."""
    return f"({year} * {MONTHS_PER_YEAR} + {month} - 1)"
