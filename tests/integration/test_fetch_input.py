"""Bad input and a bad environment around a fetch: a token that cannot go into a header,
out-of-range LICHESS_ELO_* seconds, a damaged cache file, a cache folder that is a file.

Each is refused before any request with one line (exit 2 for bad input, 1 for a damaged
cache), against the fake Lichess server with the real berserk client and a real SQLite
cache in tmp_path.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from lichess_elo.errors import BadInput, CacheUnusable
from lichess_elo.sources.lichess import LichessSettings, fetch_games
from tests.fake_lichess import FakeLichess
from tests.runners import Cli

UNTIL_MARCH = date(2023, 3, 1)  # OnBoard247 (created 2023-01-24): two months


def _source(server: FakeLichess, tmp_path: Path, **kwargs: Any) -> LichessSettings:
    return LichessSettings(api_url=server.url, cache_dir=tmp_path / "cache", **kwargs)


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


# --- 1. the token ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token", ["lip_Secret987\n", "lip_Secret987\r\n", "lip_Secret987\r", "lip_ Secret987"]
)
def test_token_with_whitespace_is_refused_before_any_request(
    onboard_server: FakeLichess, tmp_path: Path, token: str
) -> None:
    with pytest.raises(BadInput) as caught:
        fetch_games("OnBoard247", _source(onboard_server, tmp_path, token=token))
    assert str(caught.value).startswith("token contains whitespace or a line break")
    assert caught.value.field == "token"
    assert "Secret987" not in str(caught.value)
    assert onboard_server.requests == []


def test_token_that_is_not_ascii_is_refused(onboard_server: FakeLichess, tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="not printable ASCII") as caught:
        fetch_games("OnBoard247", _source(onboard_server, tmp_path, token="lip_Secrét987"))
    assert "Secr" not in str(caught.value)
    assert onboard_server.requests == []


def test_cli_token_with_a_line_break_exits_2_at_once(
    cli: Cli, onboard_server: FakeLichess, tmp_path: Path
) -> None:
    # before the fix this was retried for 31 s and then blamed on the network
    args = ["fetch", "OnBoard247", "--api-url", onboard_server.url, "--cache-dir", str(tmp_path)]
    result = cli(args, env={"LICHESS_TOKEN": "lip_CliSecret\n"})
    assert result.exit_code == 2
    line = _one_line(result.stderr)
    assert line.startswith("lichess-elo: error: --token contains whitespace or a line break")
    assert "lip_CliSecret" not in result.output
    assert onboard_server.requests == []


# --- 3. LICHESS_ELO_RETRY_WAIT and LICHESS_ELO_TIMEOUT ------------------------------------


@pytest.mark.parametrize("value", ["-5", "nan", "inf", "-inf", "1e308", "3601", "soon"])
def test_bad_retry_wait_is_refused_naming_the_variable(
    onboard_server: FakeLichess,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    value: str,
) -> None:
    monkeypatch.setenv("LICHESS_ELO_RETRY_WAIT", value)
    with pytest.raises(BadInput) as caught:
        fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert str(caught.value) == (
        f"LICHESS_ELO_RETRY_WAIT must be a number of seconds from 0 up to 3600, not {value!r}"
    )
    assert onboard_server.requests == []


@pytest.mark.parametrize("value", ["0", "-1", "nan", "1e308"])
def test_bad_timeout_is_refused_naming_the_variable(
    onboard_server: FakeLichess,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    value: str,
) -> None:
    monkeypatch.setenv("LICHESS_ELO_TIMEOUT", value)
    with pytest.raises(BadInput) as caught:
        fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert str(caught.value) == (
        f"LICHESS_ELO_TIMEOUT must be a number of seconds above 0 up to 3600, not {value!r}"
    )
    assert onboard_server.requests == []


def test_zero_retry_wait_and_a_small_timeout_are_accepted(
    onboard_server: FakeLichess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LICHESS_ELO_RETRY_WAIT", "0")
    monkeypatch.setenv("LICHESS_ELO_TIMEOUT", "5")
    result = fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert len(result.games) == 221  # tests/data/lichess/README.md


@pytest.mark.parametrize(
    ("name", "value"), [("LICHESS_ELO_RETRY_WAIT", "-5"), ("LICHESS_ELO_TIMEOUT", "0")]
)
def test_cli_bad_seconds_exit_2_not_unexpected(
    cli: Cli, onboard_server: FakeLichess, tmp_path: Path, name: str, value: str
) -> None:
    args = ["fetch", "OnBoard247", "--api-url", onboard_server.url, "--cache-dir", str(tmp_path)]
    result = cli(args, env={name: value})
    assert result.exit_code == 2
    line = _one_line(result.stderr)
    assert line.startswith(f"lichess-elo: error: {name} must be a number of seconds")
    assert "unexpected" not in line


# --- 4. a damaged HTTP cache ---------------------------------------------------------------


def test_garbage_cache_file_is_named_with_the_remedy_and_kept(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    cache_file = tmp_path / "cache" / "http.sqlite"
    cache_file.parent.mkdir()
    garbage = b"this is not an SQLite file\n" * 200
    cache_file.write_bytes(garbage)
    with pytest.raises(CacheUnusable) as caught:
        fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    assert str(caught.value) == (
        f"the cache file {cache_file} is damaged (file is not a database); "
        "move it aside or delete it, and run again"
    )
    assert cache_file.read_bytes() == garbage  # the user's file is not thrown away
    assert onboard_server.requests == []


def test_half_copied_cache_file_is_named_not_a_traceback(
    cli: Cli, onboard_server: FakeLichess, tmp_path: Path
) -> None:
    fetch_games("OnBoard247", _source(onboard_server, tmp_path), until=UNTIL_MARCH)
    cache_file = tmp_path / "cache" / "http.sqlite"
    whole = cache_file.read_bytes()
    cache_file.write_bytes(whole[: len(whole) // 2])  # a copy cut off halfway
    for extra in ("http.sqlite-wal", "http.sqlite-shm"):
        (cache_file.parent / extra).unlink(missing_ok=True)
    args = ["fetch", "OnBoard247", "--offline", "--cache-dir", str(cache_file.parent)]
    result = cli([*args, "--until", "2023-03"])
    assert result.exit_code == 1
    line = _one_line(result.stderr)
    assert line.startswith(f"lichess-elo: error: the cache file {cache_file} is damaged (")
    assert line.endswith("); move it aside or delete it, and run again")


def test_cli_garbage_cache_exits_1_in_one_line(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "http.sqlite").write_text("garbage\n", encoding="utf-8")
    result = cli(["fetch", "OnBoard247", "--offline", "--cache-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert _one_line(result.stderr) == (
        f"lichess-elo: error: the cache file {tmp_path / 'http.sqlite'} is damaged "
        "(file is not a database); move it aside or delete it, and run again"
    )


# --- 5. --cache-dir is a file --------------------------------------------------------------


def test_cache_dir_that_is_a_file_exits_2(
    cli: Cli, onboard_server: FakeLichess, tmp_path: Path
) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine\n", encoding="utf-8")
    args = ["fetch", "OnBoard247", "--api-url", onboard_server.url, "--cache-dir", str(a_file)]
    result = cli(args)
    assert result.exit_code == 2
    assert _one_line(result.stderr) == (
        f"lichess-elo: error: --cache-dir {a_file} is a file, not a folder"
    )
    below = cli([*args[:-1], str(a_file / "sub")])
    assert below.exit_code == 2
    assert _one_line(below.stderr) == (
        f"lichess-elo: error: --cache-dir {a_file / 'sub'}: {a_file} is a file, not a folder"
    )
    assert a_file.read_text(encoding="utf-8") == "mine\n"
    assert onboard_server.requests == []
