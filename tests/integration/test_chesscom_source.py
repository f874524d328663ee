"""The Chess.com source against the fake Chess.com server (real HTTP on 127.0.0.1):
the recorded month with its recorded headers, months written in the same shape, the cache
(a finished month asked once, the running one revalidated with the recorded validators, a
304 served from the cache), offline, 429 waited out, 404/410 as one line, malformed months
never kept, and the bundled cassette replayed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from lichess_elo.core.chesscom import observed_changes, perf_of
from lichess_elo.errors import (
    AccountClosed,
    CannotConnect,
    DamagedAnswer,
    FetchFailed,
    NotCached,
    NotFound,
    RateLimited,
)
from lichess_elo.sources.chesscom import (
    API_URL_ENV,
    DEFAULT_API_URL,
    ChessComImport,
    ChessComSettings,
    import_games,
    settings_from_env,
)
from tests.fake_chesscom import (
    RECORDED_MONTH,
    Answer,
    FakeChessCom,
    json_answer,
    recorded,
    recorded_games,
    written_game,
)
from tests.helpers import REPO

NAME = "fabianocaruana"
MAY = f"/pub/player/{NAME}/games/2020/05"
JUNE = f"/pub/player/{NAME}/games/2020/06"
ARCHIVES = f"/pub/player/{NAME}/games/archives"
#: The recorded month's validators, as recorded (tests/data/chesscom).
ETAG = 'W/"59035ea262f2b14549892c7ed8166109"'
LAST_MODIFIED = "Thursday, 17-Oct-2024 22:34:57 GMT+0000"
#: "now" after both months (they are finished) and within May 2020 (May is running).
LATER = datetime(2024, 10, 18, tzinfo=UTC)
IN_MAY = datetime(2020, 5, 20, tzinfo=UTC)
JUNE_2 = int(datetime(2020, 6, 2, 12, tzinfo=UTC).timestamp())


@pytest.fixture
def server() -> Iterator[FakeChessCom]:
    """The fake server with the recorded month of FabianoCaruana and its archives list."""
    fake = FakeChessCom().start()
    path, answer = recorded(RECORDED_MONTH)
    assert path == MAY
    fake.answers[MAY] = answer
    fake.archives(NAME, [(2020, 5)])
    yield fake
    fake.stop()


def _settings(server: FakeChessCom, tmp_path: Path, **given: Any) -> ChessComSettings:
    return ChessComSettings(api_url=server.url, cache_dir=tmp_path / "cache", **given)


def _run(
    server: FakeChessCom, tmp_path: Path, now: datetime = LATER, **given: Any
) -> tuple[ChessComImport, list[str]]:
    warnings: list[str] = []
    found = import_games(
        "FabianoCaruana", _settings(server, tmp_path, **given), on_warning=warnings.append, now=now
    )
    return found, warnings


def test_the_recorded_month_through_the_server(server: FakeChessCom, tmp_path: Path) -> None:
    found, warnings = _run(server, tmp_path)
    assert warnings == []
    assert found.months == ((2020, 5),)
    assert len(found.games) == 17  # the recorded month's 17 games
    track = observed_changes(found.games, NAME, found.months)
    # Worked out by hand in tests/unit/test_chesscom_records.py: the rated blitz games'
    # post-game ratings 3047, 3030, 3033, 3052, 3062, 3040, 3027, 3016.
    assert [t.change for t in track if t.game.rated] == [None, -17, 3, 19, 10, -22, -13, -11]
    # the archives list names api.chess.com; both requests came here, with our User-Agent
    assert [r.path for r in server.requests] == [ARCHIVES, MAY]
    assert all(r.headers["user-agent"].startswith("lichess-elo/") for r in server.requests)


def test_a_finished_month_is_asked_once(server: FakeChessCom, tmp_path: Path) -> None:
    first, _ = _run(server, tmp_path)
    again, _ = _run(server, tmp_path)
    assert len(server.asked(MAY)) == 1
    assert len(server.asked(ARCHIVES)) == 2  # the list is asked again by every online run
    assert (first.from_cache, again.from_cache) == (0, 1)
    assert again.games == first.games


def test_the_running_month_is_revalidated(server: FakeChessCom, tmp_path: Path) -> None:
    first, _ = _run(server, tmp_path, now=IN_MAY)
    again, _ = _run(server, tmp_path, now=IN_MAY)
    asked = server.asked(MAY)
    assert len(asked) == 2
    assert "if-none-match" not in asked[0].headers
    # the recorded validators echoed as recorded, never parsed
    assert asked[1].headers["if-none-match"] == ETAG
    assert asked[1].headers["if-modified-since"] == LAST_MODIFIED
    # the server answered 304: the month is the one kept
    assert again.from_cache == 1
    assert again.games == first.games


def test_offline_reads_the_cache_and_names_a_missing_month(
    server: FakeChessCom, tmp_path: Path
) -> None:
    online, _ = _run(server, tmp_path, now=IN_MAY)  # May kept expired: offline still reads it
    before = len(server.requests)
    offline, _ = _run(server, tmp_path, now=IN_MAY, offline=True)
    assert len(server.requests) == before  # nothing asked
    assert offline.games == online.games
    server.archives(NAME, [(2020, 5), (2020, 6)])
    with pytest.raises(FetchFailed, match=r"month 2020-06 of 'fabianocaruana': HTTP 404$"):
        _run(server, tmp_path)  # the new list is kept; June is not on the server...
    with pytest.raises(NotCached) as caught:  # ...nor in the cache
        _run(server, tmp_path, offline=True)
    assert "2020-06" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_429_is_waited_out(server: FakeChessCom, tmp_path: Path) -> None:
    limited = json_answer({"code": 0, "message": "Too many requests"}, status=429)
    limited.headers.append(("Retry-After", "0"))
    server.queue(MAY, limited, limited)
    found, warnings = _run(server, tmp_path)
    assert len(found.games) == 17
    assert len(server.asked(MAY)) == 3  # two 429s, then the month
    assert len(warnings) == 2
    assert all("HTTP 429" in w and "2020-05" in w for w in warnings)


def test_429_without_end_gives_up_after_the_retries(server: FakeChessCom, tmp_path: Path) -> None:
    limited = json_answer({"code": 0, "message": "Too many requests"}, status=429)
    server.queue(MAY, *[limited] * 3)  # no Retry-After: the backoff (0 s here)
    with pytest.raises(RateLimited, match="after 2 retries"):
        _run(server, tmp_path, max_retries=2, backoff=0)
    assert len(server.asked(MAY)) == 3


def test_an_unknown_account_is_one_line(server: FakeChessCom, tmp_path: Path) -> None:
    with pytest.raises(NotFound) as caught:
        import_games("nobody_here", _settings(server, tmp_path), now=LATER)
    assert (
        str(caught.value) == "Chess.com has no account 'nobody_here' (HTTP 404: unknown or closed)"
    )


def test_a_closed_account_is_one_line(server: FakeChessCom, tmp_path: Path) -> None:
    server.closed.add("gone_player")
    with pytest.raises(AccountClosed) as caught:
        import_games("Gone_Player", _settings(server, tmp_path), now=LATER)
    assert str(caught.value) == "the Chess.com account 'gone_player' is closed (HTTP 410)"


def test_a_month_not_json_is_never_kept(server: FakeChessCom, tmp_path: Path) -> None:
    _, answer = recorded(RECORDED_MONTH)
    cut = Answer(200, answer.headers, answer.body[:1000])  # an answer cut in the middle
    server.answers[MAY] = cut
    with pytest.raises(DamagedAnswer) as caught:
        _run(server, tmp_path)
    assert "2020-05" in str(caught.value)
    assert "not JSON" in str(caught.value)
    server.answers[MAY] = answer
    found, _ = _run(server, tmp_path)  # the finished month is asked again, not the cut one
    assert len(server.asked(MAY)) == 2
    assert len(found.games) == 17


def test_a_month_with_a_bad_game_keeps_the_rest_and_is_asked_again(
    server: FakeChessCom, tmp_path: Path
) -> None:
    games = recorded_games()
    games[9] = written_game(games[9], pgn=None)  # a game without its pgn
    games[10] = written_game(games[10], white={"rating": "3091"})  # a rating not a number
    server.answers[MAY] = json_answer({"games": games}, etag=ETAG)
    found, warnings = _run(server, tmp_path)
    assert len(found.games) == 15
    assert len(warnings) == 2
    assert "https://www.chess.com/game/live/4860634174: no pgn" in warnings[0]
    assert "https://www.chess.com/game/live/4860674282: the white rating '3091'" in warnings[1]
    _run(server, tmp_path)  # a finished month, but not final: asked again
    assert len(server.asked(MAY)) == 2


def _june(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The June 2020 archive written for the tests, from copies of recorded games."""
    base = games[9]  # rated blitz, Caruana white, 3047, resigned
    daily = written_game(
        base,
        url="https://www.chess.com/game/daily/1000000001",
        time_control="1/259200",
        time_class="daily",
        start_time=int(datetime(2020, 5, 28, tzinfo=UTC).timestamp()),  # began in May
        end_time=JUNE_2,  # ended in June: it is June's
        white={"rating": 2500, "result": "win"},
        black={"username": "someone", "rating": 2400, "result": "abandoned"},
    )
    chess960 = written_game(
        base,
        url="https://www.chess.com/game/live/1000000002",
        rules="chess960",
        end_time=JUNE_2 + 60,
        white={"rating": 2600, "result": "timevsinsufficient"},
        black={"username": "someone", "rating": 2500, "result": "timevsinsufficient"},
    )
    unknown = written_game(
        base,
        url="https://www.chess.com/game/live/1000000003",
        end_time=JUNE_2 + 120,
        white={"result": "aborted"},  # not a documented code
    )
    return [daily, chess960, unknown]


def test_written_months_daily_chess960_and_an_unknown_code(
    server: FakeChessCom, tmp_path: Path
) -> None:
    server.archives(NAME, [(2020, 5), (2020, 6)])
    server.answers[JUNE] = json_answer({"games": _june(recorded_games())})
    found, warnings = _run(server, tmp_path)
    assert found.months == ((2020, 5), (2020, 6))
    june = [g for g in found.games if g.month == (2020, 6)]
    assert [g.url.rsplit("/", 1)[1] for g in june] == ["1000000001", "1000000002"]
    daily, chess960 = june
    assert daily.start_time == datetime(2020, 5, 28, tzinfo=UTC)
    assert perf_of(daily.rules, daily.time_class, daily.time_control) == "correspondence"
    assert daily.white_score == 1.0  # "win" against "abandoned"
    assert perf_of(chess960.rules, chess960.time_class, chess960.time_control) == "chess960"
    assert chess960.white_score == 0.5  # "timevsinsufficient" is a draw
    assert len(warnings) == 1
    assert "https://www.chess.com/game/live/1000000003" in warnings[0]
    assert "unknown result code 'aborted'" in warnings[0]
    track = observed_changes(found.games, NAME, found.months)
    # Each is the first game of its pool (chess_daily, chess960_blitz): no change.
    assert [(t.pool, t.change) for t in track if t.game.month == (2020, 6)] == [
        ("chess_daily", None),
        ("chess960_blitz", None),
    ]


def test_since_and_until_choose_the_months(server: FakeChessCom, tmp_path: Path) -> None:
    server.archives(NAME, [(2020, 5), (2020, 6)])
    server.answers[JUNE] = json_answer({"games": []})
    warnings: list[str] = []
    found = import_games(
        NAME,
        _settings(server, tmp_path),
        since=datetime(2020, 6, 1).date(),
        on_warning=warnings.append,
        now=LATER,
    )
    assert found.months == ((2020, 6),)
    assert server.asked(MAY) == []


def test_the_bundled_cassette_replays(tmp_path: Path) -> None:
    cassette = REPO / "cassettes" / "chesscom-fabianocaruana-2020-05.yaml"
    found = import_games(NAME, ChessComSettings(replay=cassette, cache_dir=tmp_path))
    assert found.months == ((2020, 5),)
    assert len(found.games) == 17
    track = observed_changes(found.games, NAME, found.months)
    assert [t.change for t in track if t.game.rated] == [None, -17, 3, 19, 10, -22, -13, -11]
    assert not (tmp_path / "http.sqlite").exists()  # nothing cached from a cassette


def test_the_api_address_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(API_URL_ENV, raising=False)
    assert settings_from_env().api_url == DEFAULT_API_URL
    monkeypatch.setenv(API_URL_ENV, "http://127.0.0.1:9")
    assert settings_from_env().api_url == "http://127.0.0.1:9"
    assert settings_from_env("http://127.0.0.1:8").api_url == "http://127.0.0.1:8"  # given wins
    assert settings_from_env(offline=True).offline


def test_the_recorded_headers_are_served(server: FakeChessCom, tmp_path: Path) -> None:
    import requests

    answer = requests.get(
        f"{server.url}{MAY}", headers={"User-Agent": "lichess-elo/test"}, timeout=10
    )
    assert answer.headers["etag"] == ETAG
    assert answer.headers["last-modified"] == LAST_MODIFIED
    assert answer.headers["Cache-Control"] == "public, max-age=5"
    assert len(json.loads(answer.content)["games"]) == 17
    refused = requests.get(f"{server.url}{MAY}", headers={"User-Agent": ""}, timeout=10)
    assert refused.status_code == 403  # no program named: Chess.com's 403


def test_a_server_not_there_is_one_line(tmp_path: Path) -> None:
    # port 9 (discard) on 127.0.0.1: nothing listens there on the test machines
    settings = ChessComSettings(api_url="http://127.0.0.1:9", cache_dir=tmp_path, backoff=0)
    with pytest.raises(CannotConnect) as caught:
        import_games(NAME, settings, now=LATER)
    assert str(caught.value) == "cannot connect to http://127.0.0.1:9 (connection refused)"
