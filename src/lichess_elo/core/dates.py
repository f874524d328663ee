"""The accepted date formats and date ranges: the one date parser of every command.

Pure code, no I/O. ``parse_day`` reads a day in any accepted spelling, ``parse_month_or_day``
a month or a day within ``FIRST_DATE``..``LAST_DATE``, ``check_date_range`` refuses an empty
or reversed ``since``/``until``. Re-exported by ``core.games``.
"""

from __future__ import annotations

import re
from datetime import date

from lichess_elo.errors import BadInput, Malformed, NotBefore

_DAY_FORMATS = (
    re.compile(r"(?P<y>\d{4})[-./](?P<m>\d{1,2})[-./](?P<d>\d{1,2})"),
    re.compile(r"(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})"),
)
#: The day formats ``parse_day`` accepts, for messages.
DAY_FORMATS = "YYYY-MM-DD, YYYY.MM.DD, YYYY/MM/DD or DD.MM.YYYY, e.g. 2026-03-07"
#: The formats ``parse_month_or_day`` accepts, for messages.
MONTH_OR_DAY_FORMATS = "YYYY-MM or YYYY-MM-DD, e.g. 2023-01 or 2023-01-25"


def parse_day(text: str, field: str = "date") -> date:
    """A day written ``2026-03-07``, ``2026.03.07``, ``2026/03/07`` or ``07.03.2026``.

    Raises:
        Malformed: anything else (or an impossible day), naming ``field``.
    """
    value = text.strip()
    for pattern in _DAY_FORMATS:
        m = pattern.fullmatch(value)
        if m:
            try:
                return date(int(m["y"]), int(m["m"]), int(m["d"]))
            except ValueError:
                break
    raise Malformed(field, value, DAY_FORMATS, "a date")


#: The dates ``parse_month_or_day`` accepts: Lichess epoch milliseconds start in 1970, and
#: the month after the last one must exist (``date.max`` is 9999-12-31).
FIRST_DATE = date(1970, 1, 1)
LAST_DATE = date(9998, 12, 31)


def parse_month_or_day(text: str, field: str) -> date:
    """``YYYY-MM`` (the first day of that month) or ``YYYY-MM-DD``.

    Raises:
        Malformed: anything else, naming ``field`` and the expected formats.
        BadInput: a date before ``FIRST_DATE`` or after ``LAST_DATE``.
    """
    value = text.strip()
    match = re.fullmatch(r"(\d{4})-(\d{2})(?:-(\d{2}))?", value)
    try:
        if match is None:
            raise ValueError(value)
        year, month, day = match.groups()
        parsed = date(int(year), int(month), int(day) if day else 1)
    except ValueError:
        raise Malformed(field, value, MONTH_OR_DAY_FORMATS, "a date") from None
    if not FIRST_DATE <= parsed <= LAST_DATE:
        raise BadInput(
            f"is out of range; expected a date from {FIRST_DATE:%Y-%m-%d} to {LAST_DATE:%Y-%m-%d}",
            field=field,
            value=value,
        )
    return parsed


def check_date_range(since: date | None, until: date | None) -> None:
    """Refuse an empty or reversed range: ``since`` must be before ``until`` (exclusive).

    Raises:
        NotBefore: naming both ends.
    """
    if since is not None and until is not None and since >= until:
        raise NotBefore("since", since.isoformat(), "until", until.isoformat())
