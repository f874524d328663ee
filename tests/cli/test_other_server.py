"""Offline, "not in the cache" says when the cache holds the user from another --api-url.

The cache keys every answer on the server it came from, so a player fetched from one
server (here the fake Lichess on 127.0.0.1) is not in the cache for another (lichess.org).
The message names the server the cache does hold them from.
"""

from __future__ import annotations

from pathlib import Path

from tests.fake_lichess import FakeLichess
from tests.runners import Cli


def test_offline_names_the_server_the_user_was_fetched_from(
    cli: Cli, onboard_server: FakeLichess, tmp_path: Path
) -> None:
    cache = ["--cache-dir", str(tmp_path)]
    fetched = cli(["fetch", "OnBoard247", "--api-url", onboard_server.url, *cache, "-q"])
    assert fetched.exit_code == 0, fetched.output
    offline = cli(["report", "OnBoard247", "--offline", *cache])
    assert offline.exit_code == 1
    assert offline.stderr.strip() == (
        "lichess-elo: error: the Lichess user 'OnBoard247' is not in the cache (the cache "
        f"holds it from {onboard_server.url}: add --api-url {onboard_server.url} to read it "
        "offline); or fetch it from this server with: lichess-elo fetch OnBoard247 "
        f"--cache-dir {tmp_path}"
    )
    # the command the message gives reads it: from the same server it is there
    same = cli(["report", "OnBoard247", "--offline", "--api-url", onboard_server.url, *cache])
    assert same.exit_code == 0, same.output


def test_a_user_cached_nowhere_gets_the_plain_message(cli: Cli, tmp_path: Path) -> None:
    result = cli(["report", "Nobody_here", "--offline", "--cache-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "(the cache holds it from" not in result.stderr
    assert "is not in the cache; fetch it with: lichess-elo fetch Nobody_here" in result.stderr
