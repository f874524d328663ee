"""An offline report served whole by the caches never imports the HTTP libraries.

The real program in a child process (``python -X importtime`` lists every module it
imports) against caches filled from the fake Lichess server on 127.0.0.1.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date
from pathlib import Path

from lichess_elo.sources.lichess.api import fetch_games
from lichess_elo.sources.lichess.source import Source
from tests.fake_lichess import FakeLichess

HTTP = ("berserk", "requests", "requests_cache", "urllib3")


def _imported(*args: str) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LICHESS")}
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "lichess_elo", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [line.split("|")[-1].strip() for line in result.stderr.splitlines() if "|" in line]
    return {name.split(".")[0] for name in lines}


def test_an_offline_report_from_the_caches_imports_no_http_library(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    # an online run fills the HTTP cache and the parsed-games cache (months and profile)
    fetch_games(
        "OnBoard247", Source(api_url=onboard_server.url, cache_dir=cache), until=date(2023, 3, 1)
    )
    args = ["report", "OnBoard247", "--offline", "--api-url", onboard_server.url]
    args += ["--cache-dir", str(cache), "--until", "2023-03-01", "--format", "json"]
    imported = _imported(*args)
    assert "lichess_elo" in imported  # the listing is real
    assert not imported & set(HTTP), imported & set(HTTP)
    # the same offline run without the parsed-games cache must read the HTTP cache
    for name in ("games.sqlite", "games.sqlite-wal", "games.sqlite-shm"):
        (cache / name).unlink(missing_ok=True)
    assert {"berserk", "requests_cache"} <= _imported(*args)
