"""``lichess.fetch_games`` against the fake Lichess server: the real berserk client, a real
requests-cache SQLite file in tmp_path, real HTTP on 127.0.0.1.

Reference numbers: the OnBoard247 export holds 221 games between 2023-01-25 and
2023-02-19, blitz 130, bullet 57, rapid 15, classical 8, correspondence 6, chess960 5
(tests/data/lichess/README.md).
"""

from __future__ import annotations

import json
import socket
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests

from lichess_elo.cli.errors import message_for
from lichess_elo.errors import (
    AccountClosed,
    BadInput,
    CannotConnect,
    FetchFailed,
    NotCached,
    RateLimited,
    UserNotFound,
)
from lichess_elo.sources.lichess import LichessSettings, fetch_games, fetch_user, open_client
from tests.fake_lichess import FakeLichess, Fault

# Month boundaries in epoch ms: 2023-01-01 is day 19358 after 1970-01-01
# (53 years x 365 + 13 leap days), x 86,400,000 ms; February starts 31 days later,
# March 28 days after that.
JAN_2023 = 19358 * 86_400_000  # 1672531200000
FEB_2023 = (19358 + 31) * 86_400_000  # 1675209600000
MAR_2023 = (19358 + 31 + 28) * 86_400_000  # 1677628800000
UNTIL_MARCH = date(2023, 3, 1)  # keeps OnBoard247 (created 2023-01-24) to two months
TOKEN = "lip_SecretTokenForTests123"


class Recorder:
    """A ``lichess.Progress`` that keeps every event."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def start(self, total_months: int) -> None:
        self.events.append(("start", total_months))

    def month(self, label: str, done: int, games_so_far: int, from_cache: bool) -> None:
        self.events.append(("month", label, done, games_so_far, from_cache))

    def waiting(self, seconds: float, reason: str) -> None:
        self.events.append(("waiting", seconds, reason))


def _source(server: FakeLichess, tmp_path: Path, **kwargs: Any) -> LichessSettings:
    return LichessSettings(api_url=server.url, cache_dir=tmp_path / "cache", **kwargs)


def test_full_fetch_counts_windows_and_parameters(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    progress = Recorder()
    result = fetch_games(
        "OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH, progress=progress
    )
    assert len(result.games) == 221
    assert len({g.id for g in result.games}) == 221
    assert [g.created_at for g in result.games] == sorted(g.created_at for g in result.games)
    perfs = Counter(g.perf for g in result.games)
    assert perfs == {
        "blitz": 130,
        "bullet": 57,
        "rapid": 15,
        "classical": 8,
        "correspondence": 6,
        "chess960": 5,
    }
    assert (result.months_total, result.months_from_network, result.months_from_cache) == (2, 2, 0)
    assert result.cache_path == tmp_path / "cache" / "http.sqlite"
    assert result.cache_path.stat().st_size > 0

    exports = onboard_server.games_requests()
    assert [(r.query["since"], r.query["until"]) for r in exports] == [
        (str(JAN_2023), str(FEB_2023)),
        (str(FEB_2023), str(MAR_2023)),
    ]
    for request in exports:
        assert request.path == "/api/games/user/onboard247"
        assert request.query["moves"] == "true"
        assert request.query["opening"] == "true"
        assert request.query["clocks"] == "true"
        assert request.query["sort"] == "dateAsc"
        assert not {"perfType", "rated", "color", "analysed"} & set(request.query)
        assert request.headers["Accept"] == "application/x-ndjson"
    assert progress.events[0] == ("start", 2)
    assert [e[1] for e in progress.events if e[0] == "month"] == ["2023-01", "2023-02"]
    assert progress.events[-1][3] == 221


def test_every_request_has_the_user_agent(onboard_server: FakeLichess, tmp_path: Path) -> None:
    fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert len(onboard_server.requests) == 3  # user + two months
    assert all(r.headers["User-Agent"] == "lichess-elo/0.1.0" for r in onboard_server.requests)
    # ... and the fake server really refuses an anonymous client, like Lichess (HTML 404):
    anonymous = requests.get(f"{onboard_server.url}/api/user/onboard247", timeout=5)
    assert anonymous.status_code == 404
    assert anonymous.headers["Content-Type"].startswith("text/html")


def test_since_until_narrow_whole_months_then_filter_games(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    result = fetch_games(
        "OnBoard247",
        _source(onboard_server, tmp_path),
        since=date(2023, 2, 10),
        until=date(2023, 2, 15),
    )
    # only the February window is requested (whole month, so the cache entry is reusable)
    assert [r.query["since"] for r in onboard_server.games_requests()] == [str(FEB_2023)]
    low = datetime(2023, 2, 10, tzinfo=UTC)
    high = datetime(2023, 2, 15, tzinfo=UTC)
    expected = {
        g["id"]
        for g in onboard_server.games
        if low.timestamp() * 1000 <= g["createdAt"] < high.timestamp() * 1000
    }
    assert expected  # the data has games in that span
    assert {g.id for g in result.games} == expected


def test_cut_stream_is_retried_without_dupes_or_loss(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    onboard_server.faults.append(Fault("drop", month="2023-02", after_lines=5))
    warnings: list[str] = []
    result = fetch_games(
        "OnBoard247",
        _source(onboard_server, tmp_path),
        until=UNTIL_MARCH,
        on_warning=warnings.append,
    )
    assert len(result.games) == 221
    assert len({g.id for g in result.games}) == 221
    assert [r.query["since"] for r in onboard_server.games_requests()] == [
        str(JAN_2023),
        str(FEB_2023),
        str(FEB_2023),
    ]
    assert len(warnings) == 1
    assert "month 2023-02" in warnings[0]
    assert "cut" in warnings[0]


def test_rerun_resumes_after_failure(onboard_server: FakeLichess, tmp_path: Path) -> None:
    onboard_server.faults.append(Fault("drop", month="2023-02", times=6))
    with pytest.raises(FetchFailed, match="month 2023-02 of OnBoard247 failed after 5 retries"):
        fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    onboard_server.requests.clear()
    result = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert len(result.games) == 221
    assert (result.months_from_cache, result.months_from_network) == (1, 1)
    assert [r.query["since"] for r in onboard_server.games_requests()] == [str(FEB_2023)]


def test_429_waits_then_retries_the_same_month(onboard_server: FakeLichess, tmp_path: Path) -> None:
    onboard_server.faults.append(Fault("429", month="2023-01", times=2))
    progress = Recorder()
    warnings: list[str] = []
    result = fetch_games(
        "OnBoard247",
        _source(onboard_server, tmp_path),
        until=UNTIL_MARCH,
        progress=progress,
        on_warning=warnings.append,
    )
    assert len(result.games) == 221
    waits = [e for e in progress.events if e[0] == "waiting"]
    assert [w[1] for w in waits] == [0.01, 0.01]  # LICHESS_ELO_RETRY_WAIT from conftest
    assert all("429" in w[2] and "2023-01" in w[2] for w in waits)
    assert len(warnings) == 2 and all("429" in w for w in warnings)
    assert [r.query["since"] for r in onboard_server.games_requests()] == [str(JAN_2023)] * 3 + [
        str(FEB_2023)
    ]


def test_429_forever_gives_up(onboard_server: FakeLichess, tmp_path: Path) -> None:
    onboard_server.faults.append(Fault("429", times=99))
    with pytest.raises(RateLimited, match="month 2023-01"):
        fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)


def test_5xx_retries_then_succeeds(onboard_server: FakeLichess, tmp_path: Path) -> None:
    onboard_server.faults.append(Fault("500", month="2023-01", times=2))
    result = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert len(result.games) == 221
    assert len(onboard_server.games_requests()) == 4  # 2023-01 three times, 2023-02 once


def test_5xx_five_retries_then_failure_naming_the_month(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    onboard_server.faults.append(Fault("500", month="2023-02", times=99))
    with pytest.raises(FetchFailed, match=r"month 2023-02 of OnBoard247 .*HTTP 500"):
        fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    # 1 try of January, then 1 try + 5 retries of February
    assert len(onboard_server.games_requests()) == 7


def test_slow_response_times_out_and_is_retried(
    onboard_server: FakeLichess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LICHESS_ELO_TIMEOUT", "0.3")
    onboard_server.faults.append(Fault("slow", month="2023-01", delay=1.0))
    warnings: list[str] = []
    result = fetch_games(
        "OnBoard247",
        _source(onboard_server, tmp_path),
        until=UNTIL_MARCH,
        on_warning=warnings.append,
    )
    assert len(result.games) == 221
    assert len(warnings) == 1 and "timeout" in warnings[0] and "2023-01" in warnings[0]


def test_offline_serves_everything_from_the_cache(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    online = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    onboard_server.requests.clear()
    offline = fetch_games(
        "OnBoard247", _source(onboard_server, tmp_path, offline=True), until=UNTIL_MARCH
    )
    assert onboard_server.requests == []
    assert offline.games == online.games
    assert (offline.months_from_cache, offline.months_from_network) == (2, 0)


def test_offline_miss_names_the_user_and_the_command(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    with pytest.raises(NotCached) as caught:
        fetch_games("OnBoard247", _source(onboard_server, tmp_path, offline=True))
    message = str(caught.value)
    assert "'OnBoard247'" in message
    # The library says what is missing and carries the hint; the command line words it.
    assert caught.value.hint.user == "OnBoard247"
    assert caught.value.hint.api_url == onboard_server.url
    worded = message_for(caught.value)
    assert f"lichess-elo fetch OnBoard247 --api-url {onboard_server.url}" in worded
    assert onboard_server.requests == []


def test_offline_miss_names_the_month_and_the_command(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    fetch_games(
        "OnBoard247", _source(onboard_server, tmp_path), since=date(2023, 2, 1), until=UNTIL_MARCH
    )
    with pytest.raises(NotCached) as caught:
        fetch_games(
            "OnBoard247", _source(onboard_server, tmp_path, offline=True), until=UNTIL_MARCH
        )
    message = str(caught.value)
    assert "month 2023-01 of OnBoard247 is not in the cache" in message
    assert (caught.value.hint.since, caught.value.hint.until) == (
        date(2023, 1, 1),
        date(2023, 2, 1),
    )
    assert "lichess-elo fetch OnBoard247 --since 2023-01 --until 2023-02" in message_for(
        caught.value
    )


def test_refresh_ignores_the_cache(onboard_server: FakeLichess, tmp_path: Path) -> None:
    fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    onboard_server.requests.clear()
    again = fetch_games(
        "OnBoard247", _source(onboard_server, tmp_path, refresh=True), until=UNTIL_MARCH
    )
    assert (again.months_from_network, again.months_from_cache) == (2, 0)
    assert len(onboard_server.games_requests()) == 2


def test_token_is_sent_but_never_stored(onboard_server: FakeLichess, tmp_path: Path) -> None:
    onboard_server.faults.append(Fault("500", month="2023-02", times=99))
    with pytest.raises(FetchFailed) as caught:
        fetch_games("OnBoard247", _source(onboard_server, tmp_path, token=TOKEN), until=UNTIL_MARCH)
    assert TOKEN not in str(caught.value)
    assert all(r.headers["Authorization"] == f"Bearer {TOKEN}" for r in onboard_server.requests)
    cache_dir = tmp_path / "cache"
    stored = b"".join(p.read_bytes() for p in cache_dir.iterdir() if p.is_file())
    assert b"onboard247" in stored  # the cache did store the responses ...
    assert TOKEN.encode() not in stored  # ... but not the token
    assert b"SecretTokenForTests" not in stored


def _shifted(game: dict[str, Any], new_id: str, created: datetime) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(game))
    copy["id"] = new_id
    copy["createdAt"] = int(created.timestamp() * 1000)
    copy["lastMoveAt"] = copy["createdAt"] + 60_000
    return copy


def test_running_month_is_fetched_again_but_ended_months_are_not(
    fake_lichess: FakeLichess, onboard_games: list[dict[str, Any]], tmp_path: Path
) -> None:
    now = datetime.now(UTC)
    this_month = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    last_month = (this_month - timedelta(days=1)).replace(day=1)
    fake_lichess.add_user(
        "OnBoard247",
        last_month + timedelta(hours=1),
        [
            _shifted(onboard_games[0], "past0001", last_month + timedelta(days=1)),
            _shifted(onboard_games[1], "now00001", max(this_month, now - timedelta(seconds=5))),
        ],
    )
    first = fetch_games("OnBoard247", _source(fake_lichess, tmp_path))
    assert [g.id for g in first.games] == ["past0001", "now00001"]
    assert (first.months_total, first.months_from_network) == (2, 2)

    # a new game arrives in the running month; the next online run must see it
    fake_lichess.games.append(
        _shifted(onboard_games[2], "now00002", max(this_month, now - timedelta(seconds=1)))
    )
    fake_lichess.requests.clear()
    second = fetch_games("OnBoard247", _source(fake_lichess, tmp_path))
    assert {g.id for g in second.games} == {"past0001", "now00001", "now00002"}
    assert (second.months_from_cache, second.months_from_network) == (1, 1)
    assert [r.query["since"] for r in fake_lichess.games_requests()] == [
        str(int(this_month.timestamp() * 1000))
    ]
    # offline still serves the (expired) running month from the cache
    offline = fetch_games("OnBoard247", _source(fake_lichess, tmp_path, offline=True))
    assert {g.id for g in offline.games} == {"past0001", "now00001", "now00002"}


def test_unknown_user(fake_lichess: FakeLichess, tmp_path: Path) -> None:
    with pytest.raises(UserNotFound, match="no Lichess user 'nobody'"):
        fetch_games("nobody", _source(fake_lichess, tmp_path))


def test_closed_account(fake_lichess: FakeLichess, tmp_path: Path) -> None:
    fake_lichess.add_user("Gone", datetime(2020, 1, 1, tzinfo=UTC), disabled=True)
    assert fetch_user("Gone", _source(fake_lichess, tmp_path)).disabled
    with pytest.raises(AccountClosed, match="'Gone' is closed"):
        fetch_games("Gone", _source(fake_lichess, tmp_path))
    assert fake_lichess.games_requests() == []


@pytest.mark.parametrize("name", ["a", "x" * 31, "bad name", "../etc", "é-user", ""])
def test_bad_username_is_refused_before_any_request(
    fake_lichess: FakeLichess, tmp_path: Path, name: str
) -> None:
    with pytest.raises(BadInput, match="not a Lichess username"):
        fetch_games(name, _source(fake_lichess, tmp_path))
    assert fake_lichess.requests == []


def test_fetch_user_reads_perfs(onboard_server: FakeLichess, tmp_path: Path) -> None:
    user = fetch_user("onboard247", _source(onboard_server, tmp_path))
    assert user.username == "OnBoard247"
    assert user.created_at == datetime(2023, 1, 24, tzinfo=UTC)
    # the fake server counts rated games per perf, like lila (all 221 games are rated)
    assert user.perfs["blitz"].games == 130
    assert not user.disabled


def test_empty_rating_history_without_token_is_not_cached(
    fake_lichess: FakeLichess, tmp_path: Path
) -> None:
    def history_requests() -> int:
        return sum(r.path.endswith("/rating-history") for r in fake_lichess.requests)

    with open_client(_source(fake_lichess, tmp_path)) as client:
        assert client.users.get_rating_history("someone") == []
        assert client.users.get_rating_history("someone") == []
    assert history_requests() == 2  # the anonymous [] was not kept
    with open_client(_source(fake_lichess, tmp_path, token=TOKEN)) as client:
        assert len(client.users.get_rating_history("someone")) == 1
        assert len(client.users.get_rating_history("someone")) == 1
    assert history_requests() == 3  # the authenticated answer was cached


def test_offline_and_refresh_together_are_refused(
    fake_lichess: FakeLichess, tmp_path: Path
) -> None:
    with pytest.raises(BadInput, match=r"^offline does not apply with refresh"):
        fetch_games("OnBoard247", _source(fake_lichess, tmp_path, offline=True, refresh=True))
    assert fake_lichess.requests == []


def test_refused_token_is_said_without_showing_it(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    onboard_server.bad_tokens.add(TOKEN)
    with pytest.raises(FetchFailed) as caught:
        fetch_games("OnBoard247", _source(onboard_server, tmp_path, token=TOKEN))
    expected = "the Lichess user 'OnBoard247': HTTP 401 (Lichess refused the token)"
    assert str(caught.value) == expected
    assert len(onboard_server.requests) == 1  # a 401 is not retried


def test_server_down_fails_fast_naming_the_url(tmp_path: Path) -> None:
    # A refused connection is retried once, not five times: the error names the
    # server and says whether the cache could serve the user (here: an empty cache, no).
    with socket.socket() as probe:  # a port nobody listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    source = LichessSettings(api_url=f"http://127.0.0.1:{port}", cache_dir=tmp_path)
    with pytest.raises(CannotConnect) as caught:
        fetch_games("OnBoard247", source)
    assert str(caught.value) == f"cannot connect to http://127.0.0.1:{port} (connection refused)"
    assert caught.value.connection_error and not caught.value.cached
    assert isinstance(caught.value, FetchFailed)
