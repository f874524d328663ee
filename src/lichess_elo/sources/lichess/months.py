"""The calendar months of a player's history and the query of one monthly export (pure).

See ``docs/lichess.md`` ("The Lichess API as used"): ``since`` inclusive, ``until`` exclusive,
in epoch milliseconds on ``createdAt``; booleans as the strings "true".
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from lichess_elo.core.months import month_after


def month_start(day: date) -> date:
    """The first day of ``day``'s month."""
    return day.replace(day=1)


def next_month(day: date) -> date:
    """The first day of the month after ``day``'s."""
    return month_after(day)


def _millis(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


def month_windows(
    created_at: datetime, now: datetime, since: date | None = None, until: date | None = None
) -> list[date]:
    """First days of the calendar months to fetch: creation month to now, narrowed."""
    first = month_start(created_at.astimezone(UTC).date())
    if since is not None:
        first = max(first, month_start(since))
    last = now.astimezone(UTC).date()
    if until is not None:
        last = min(last, until - timedelta(days=1))
    months: list[date] = []
    current = first
    while current <= last:
        months.append(current)
        current = next_month(current)
    return months


def export_params(month: date) -> dict[str, Any]:
    """The query of one monthly export, as berserk's keyword arguments."""
    return {
        "since": _millis(month),
        "until": _millis(next_month(month)),
        "moves": "true",
        "opening": "true",
        "clocks": "true",
        "sort": "dateAsc",
    }
