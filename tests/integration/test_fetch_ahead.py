"""The next month asked while the last one is read (``sources/lichess/prefetch.py``),
against the fake Lichess server: still one request at a time, each month asked once,
and a failure of the month asked ahead handled as the failure of that month.

The player: OnBoard247's 221 real games, four times, each copy 61 days later than the one
before (new ids), so eight months from 2023-01 to 2023-08 hold games.
"""

from __future__ import annotations

import copy
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from lichess_elo.errors import FetchFailed
from lichess_elo.sources.lichess import LichessSettings, fetch_games
from tests.fake_lichess import FakeLichess, Fault
from tests.helpers import ONBOARD_CREATED

UNTIL = date(2023, 9, 1)
DAY_MS = 86_400_000
#: The first of each month from 2023-01 to 2023-08, in epoch ms (as the ``since`` sent).
MONTHS = [str(int(datetime(2023, m, 1, tzinfo=UTC).timestamp() * 1000)) for m in range(1, 9)]


@pytest.fixture
def server(fake_lichess: FakeLichess, onboard_games: list[dict[str, Any]]) -> FakeLichess:
    games = []
    for copy_number in range(4):
        for game in onboard_games:
            moved = copy.deepcopy(game)
            moved["id"] = f"{game['id']}{copy_number}"
            for key in ("createdAt", "lastMoveAt"):
                if key in moved:
                    moved[key] += copy_number * 61 * DAY_MS
            games.append(moved)
    fake_lichess.add_user("OnBoard247", ONBOARD_CREATED, games)
    return fake_lichess


def _fetch(server: FakeLichess, tmp_path: Path) -> Any:
    source = LichessSettings(api_url=server.url, cache_dir=tmp_path / "cache")
    return fetch_games("OnBoard247", source, until=UNTIL)


def _asked(server: FakeLichess) -> list[str]:
    return [r.query["since"] for r in server.games_requests()]


def test_a_cold_fetch_asks_each_month_once_in_order_one_at_a_time(
    server: FakeLichess, tmp_path: Path
) -> None:
    result = _fetch(server, tmp_path)
    assert len(result.games) == 4 * 221
    assert len({g.id for g in result.games}) == 4 * 221
    assert _asked(server) == MONTHS
    assert server.most_in_flight == 1
    assert (result.months_from_network, result.months_from_cache) == (8, 0)


def test_a_failed_month_asked_ahead_is_asked_again_and_the_fetch_is_whole(
    server: FakeLichess, tmp_path: Path
) -> None:
    server.faults.append(Fault("500", month="2023-04"))
    server.faults.append(Fault("drop", month="2023-06", after_lines=3))
    result = _fetch(server, tmp_path)
    assert len(result.games) == 4 * 221
    assert _asked(server) == [*MONTHS[:4], MONTHS[3], MONTHS[4], MONTHS[5], *MONTHS[5:]]
    assert server.most_in_flight == 1


def test_a_rerun_after_a_month_that_never_came_whole_asks_only_what_is_missing(
    server: FakeLichess, tmp_path: Path
) -> None:
    server.faults.append(Fault("drop", month="2023-05", times=6))
    with pytest.raises(FetchFailed, match="month 2023-05 of OnBoard247"):
        _fetch(server, tmp_path)
    before = _asked(server)
    assert before[:4] == MONTHS[:4]  # nothing after the failed month is asked ahead twice
    assert set(before) <= set(MONTHS[:5])
    server.requests.clear()
    result = _fetch(server, tmp_path)
    assert len(result.games) == 4 * 221
    assert _asked(server) == MONTHS[4:]  # the cached months are not asked, nor ahead
    assert result.months_from_cache == 4
