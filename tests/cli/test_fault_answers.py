"""Broken answers from the server, the cache and cassettes: a month whose whole
answer did not parse is never kept, the error names the month and the fault, the next
online run asks again, and offline says what to run. Real berserk, requests-cache and
SQLite against the fake Lichess server.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from tests.fake_lichess import FakeLichess, Fault
from tests.runners import Cli, invoke

ONBOARD_GAMES = 221  # tests/data/lichess/README.md: 221 games in 2023-01 and 2023-02
# OnBoard247's games per month in the export (counted from the file's createdAt values:
# 2023-01-25 .. 2023-01-31 and 2023-02-01 .. 2023-02-19).


def _fetch(server: FakeLichess, cache: Path, *extra: str) -> object:
    args = ["fetch", "OnBoard247", "--api-url", server.url, "--cache-dir", str(cache)]
    return invoke([*args, "--until", "2023-03", "--quiet", *extra])


def _one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("lichess-elo: error:")]
    assert len(lines) == 1, stderr
    assert "unexpected" not in stderr and "Traceback" not in stderr
    return lines[0]


@pytest.mark.parametrize(
    ("kind", "fault_text"),
    [
        ("broken", "line 3 is not valid JSON"),
        ("latin1", "line 3 is not UTF-8"),
        ("html", "is not NDJSON (content type text/html)"),
    ],
)
def test_broken_month_is_not_kept_and_the_next_run_asks_again(
    onboard_server: FakeLichess, tmp_path: Path, kind: str, fault_text: str
) -> None:
    onboard_server.faults.append(Fault(kind, month="2023-02"))  # type: ignore[arg-type]
    first = _fetch(onboard_server, tmp_path)
    assert first.exit_code == 1, first.output
    line = _one_error_line(first.stderr)
    assert "month 2023-02 of OnBoard247" in line and fault_text in line
    # offline: the month is not in the cache, and the message says what to run
    offline = _fetch(onboard_server, tmp_path, "--offline")
    assert offline.exit_code == 1
    hint = _one_error_line(offline.stderr)
    assert "2023-02" in hint and "lichess-elo fetch OnBoard247" in hint
    # the next online run asks for 2023-02 again without any flag, and gets every game
    asked = len(onboard_server.games_requests())
    again = _fetch(onboard_server, tmp_path, "--format", "json")
    assert again.exit_code == 0, again.output
    assert f'"games": {ONBOARD_GAMES}' in again.stdout
    months = [r.query["since"] for r in onboard_server.games_requests()[asked:]]
    assert months == ["1675209600000"]  # 2023-02-01 00:00 UTC in ms; 2023-01 was kept


def test_the_other_months_are_fetched_and_kept(onboard_server: FakeLichess, tmp_path: Path) -> None:
    onboard_server.faults.append(Fault("broken", month="2023-01", after_lines=0))
    first = _fetch(onboard_server, tmp_path)
    assert first.exit_code == 1
    assert "month 2023-01 of OnBoard247: line 1 is not valid JSON" in first.stderr
    # 2023-02 was still fetched (the run went on) and kept
    assert [r.query["since"] for r in onboard_server.games_requests()] == [
        "1672531200000",  # 2023-01-01
        "1675209600000",  # 2023-02-01
    ]
    asked = len(onboard_server.games_requests())
    assert _fetch(onboard_server, tmp_path).exit_code == 0
    assert [r.query["since"] for r in onboard_server.games_requests()[asked:]] == ["1672531200000"]


def test_another_players_games_are_left_out_with_a_warning(
    onboard_server: FakeLichess, tmp_path: Path, onboard_games: list[dict[str, object]]
) -> None:
    from datetime import UTC, datetime

    stranger = []
    for number, game in enumerate(onboard_games[:3]):
        copy = pickle.loads(pickle.dumps(game))
        copy["id"] = f"strngr{number:02d}"
        for side in copy["players"].values():  # type: ignore[union-attr]
            if side.get("user", {}).get("id") == "onboard247":
                side["user"] = {"id": "someoneelse", "name": "SomeoneElse"}
        stranger.append(copy)
    onboard_server.add_user("SomeoneElse", datetime(2023, 1, 1, tzinfo=UTC), stranger)
    onboard_server.faults.append(Fault("foreign", times=2, other="SomeoneElse"))
    result = _fetch(onboard_server, tmp_path, "--format", "json")
    assert result.exit_code == 0, result.output
    assert f'"games": {ONBOARD_GAMES}' in result.stdout  # the 3 strangers' games left out
    assert "not OnBoard247's" in result.stderr
    # the month with them was not kept: the next run asks for it again
    asked = len(onboard_server.games_requests())
    assert _fetch(onboard_server, tmp_path).exit_code == 0
    assert len(onboard_server.games_requests()) == asked + 1


def test_redirect_to_another_server_is_not_followed(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    other = FakeLichess().start()
    try:
        onboard_server.faults.append(Fault("redirect", target=other.url))
        result = _fetch(onboard_server, tmp_path, "--token", "lip_RedirectSecret123")
        assert result.exit_code == 1, result.output
        line = _one_error_line(result.stderr)
        assert "redirect" in line and other.url in line
        assert other.requests == []  # nothing, and no token, went to the other server
    finally:
        other.stop()


def test_a_line_over_the_limit_is_refused(
    onboard_server: FakeLichess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lichess_elo.sources.lichess import ndjson as ndjson_lines

    monkeypatch.setattr(ndjson_lines, "MAX_LINE_BYTES", 1024 * 1024)
    onboard_server.faults.append(Fault("huge", month="2023-01", size=2 * 1024 * 1024))
    result = _fetch(onboard_server, tmp_path)
    assert result.exit_code == 1
    line = _one_error_line(result.stderr)
    assert "month 2023-01 of OnBoard247: line 1 is longer than the 1 MB limit" in line


def test_a_long_line_under_the_limit_is_read(onboard_server: FakeLichess, tmp_path: Path) -> None:
    onboard_server.faults.append(Fault("huge", month="2023-01", size=4 * 1024 * 1024))
    result = _fetch(onboard_server, tmp_path, "--format", "json")
    assert result.exit_code == 0, result.output
    assert f'"games": {ONBOARD_GAMES}' in result.stdout


def _damage_cached_month(cache: Path, since_ms: str, body: bytes) -> None:
    """Replace the cached body of one month, as an older version could have kept it."""
    from requests_cache.backends.sqlite import SQLiteCache

    backend = SQLiteCache(str(cache / "http.sqlite"))
    hits = 0
    for key in list(backend.responses.keys()):
        response = backend.responses[key]
        if f"since={since_ms}" in response.url:
            response._content = body
            backend.responses[key] = response
            hits += 1
    backend.responses.close()
    backend.redirects.close()
    assert hits == 1


def test_an_entry_damaged_by_an_older_version_is_fetched_again(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    assert _fetch(onboard_server, tmp_path).exit_code == 0
    _damage_cached_month(tmp_path, "1672531200000", b'{"id":"x",\n\xff\xfe\n')
    offline = _fetch(onboard_server, tmp_path, "--offline")
    assert offline.exit_code == 1
    line = _one_error_line(offline.stderr)
    assert "2023-01" in line and "damaged" in line and "lichess-elo fetch OnBoard247" in line
    asked = len(onboard_server.games_requests())
    online = _fetch(onboard_server, tmp_path, "--format", "json")
    assert online.exit_code == 0, online.output
    assert f'"games": {ONBOARD_GAMES}' in online.stdout
    assert len(onboard_server.games_requests()) == asked + 1  # only the damaged month


@pytest.mark.parametrize("seed", range(6))
def test_damaged_pages_in_the_cache_file(
    onboard_server: FakeLichess, tmp_path: Path, seed: int
) -> None:
    import random

    assert _fetch(onboard_server, tmp_path).exit_code == 0
    path = tmp_path / "http.sqlite"
    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    page = 4096
    # random bytes over a few pages after the header page (the header is whole-file damage)
    for _ in range(3):
        start = rng.randrange(page, max(page + 1, len(data) - 512))
        data[start : start + 256] = rng.randbytes(256)
    path.write_bytes(bytes(data))
    for extra in (("--offline",), ()):
        result = _fetch(onboard_server, tmp_path, *extra)
        if result.exit_code != 0:
            line = _one_error_line(result.stderr)
            assert str(path) in line or "2023-0" in line, line
            assert result.exit_code == 1


def test_an_html_page_for_the_profile_is_not_kept(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    # /api/user answers 200 with an HTML page (a proxy's error page): one line naming the
    # answer; nothing is cached, so offline the profile is simply not in the cache, and the
    # next online run gets the real profile.
    onboard_server.user_html = 1
    first = _fetch(onboard_server, tmp_path)
    assert first.exit_code == 1
    line = _one_error_line(first.stderr)
    assert "the Lichess user 'OnBoard247'" in line and "is not valid JSON" in line
    offline = _fetch(onboard_server, tmp_path, "--offline")
    assert offline.exit_code == 1
    assert "damaged" not in offline.stderr and "not in the cache" in offline.stderr
    again = _fetch(onboard_server, tmp_path, "--format", "json")
    assert again.exit_code == 0, again.output
    assert f'"games": {ONBOARD_GAMES}' in again.stdout


@pytest.mark.parametrize("damage", ["random bytes", "damaged pages"])
def test_a_damaged_http_cache_is_named_alone(
    cli: Cli, onboard_server: FakeLichess, tmp_path: Path, damage: str
) -> None:
    # the parsed-games cache reads http.sqlite too; its failure there warned
    # about games.sqlite, sending the user to the wrong file. Now the one line names
    # http.sqlite and nothing else is said.
    report = ["report", "OnBoard247", "--api-url", onboard_server.url, "--cache-dir"]
    report += [str(tmp_path), "--until", "2023-03", "--format", "json"]
    assert cli(report).exit_code == 0  # fills http.sqlite and games.sqlite
    assert (tmp_path / "games.sqlite").is_file()
    path = tmp_path / "http.sqlite"
    data = bytearray(path.read_bytes())
    if damage == "random bytes":
        data = bytearray(b"\xa5" * len(data))
    else:
        data[8192:16384] = b"\xff" * 8192  # pages after the header page
    path.write_bytes(bytes(data))
    result = cli([*report, "--offline"])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1, result.stderr
    line = _one_error_line(result.stderr)
    assert line.startswith(f"lichess-elo: error: the cache file {path} is damaged (")
    assert "games.sqlite" not in result.stderr
