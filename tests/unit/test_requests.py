"""The monthly export's request, pinned as the API notes give it (not as the code builds it).

The cassette builder (scripts/build_cassettes.py) writes the same queries on its own, so a
drift in ``export_params`` or ``month_windows`` fails here and in every cassette replay.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from urllib.parse import urlencode

from lichess_elo.sources.lichess import export_params, month_windows


def test_one_month_is_since_inclusive_until_exclusive_in_epoch_ms() -> None:
    # 2023-01-01T00:00:00Z = 1,672,531,200 s (53 years of days since 1970 incl. 13 leap
    # days: 19,358 days x 86,400); 31 January days later, 2023-02-01 = 1,675,209,600 s.
    assert export_params(date(2023, 1, 1)) == {
        "since": 1_672_531_200_000,
        "until": 1_675_209_600_000,
        "moves": "true",
        "opening": "true",
        "clocks": "true",
        "sort": "dateAsc",
    }
    # December rolls over to January of the next year: 2024-12-01 = 1,733,011,200 s,
    # 2025-01-01 = 1,735,689,600 s (31 days later).
    query = export_params(date(2024, 12, 1))
    assert (query["since"], query["until"]) == (1_733_011_200_000, 1_735_689_600_000)


def test_the_query_string_sent() -> None:
    # 2023-02-01 = 1,675,209,600 s; + 28 February days = 1,677,628,800 s (2023-03-01).
    # Booleans go as the strings "true": Python's True would be sent as "True".
    assert urlencode(export_params(date(2023, 2, 1))) == (
        "since=1675209600000&until=1677628800000&moves=true&opening=true&clocks=true&sort=dateAsc"
    )


def test_months_from_the_account_creation_to_now() -> None:
    created = datetime(2023, 1, 24, 10, tzinfo=UTC)
    now = datetime(2023, 2, 19, 23, tzinfo=UTC)
    assert month_windows(created, now) == [date(2023, 1, 1), date(2023, 2, 1)]
    # since/until narrow the months; until is exclusive (a window ending on March 1 has no
    # March month).
    assert month_windows(created, now, since=date(2023, 2, 10)) == [date(2023, 2, 1)]
    assert month_windows(created, datetime(2023, 5, 2, tzinfo=UTC), until=date(2023, 3, 1)) == [
        date(2023, 1, 1),
        date(2023, 2, 1),
    ]
