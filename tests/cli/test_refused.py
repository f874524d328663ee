"""A refused connection fails fast, names the URL, and suggests --offline only when the
cache holds that user. Real subprocesses against the fake server's port."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from tests.fake_lichess import FakeLichess
from tests.helpers import REPO
from tests.runners import run_cli

DATA = REPO / "tests" / "data" / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson"


def _run(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    # LICHESS_ELO_RETRY_WAIT of an hour scales the backoff: a run that retried a refused
    # connection five times would end in the (generous) subprocess timeout, so the test
    # needs no assertion on how long the run took (none depends on the machine).
    env = {
        "LICHESS_ELO_CACHE_DIR": str(cache),
        "LICHESS_ELO_RETRY_WAIT": "3600",
        "PATH": "/usr/bin:/bin",
    }
    return run_cli(*args, "-q", env=env, inherit_env=False, timeout=300)


def test_refused_connection_fails_fast_and_offers_offline_only_for_a_cached_user(
    tmp_path: Path,
) -> None:
    server = FakeLichess().start()
    games = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    server.add_user("OnBoard247", datetime(2023, 1, 24, tzinfo=UTC), games)
    url = server.url
    first = _run("fetch", "OnBoard247", "--api-url", url, "--until", "2023-03", cache=tmp_path)
    assert first.returncode == 0, first.stderr
    server.stop()  # nothing listens on the port any more: connections are refused

    cached = _run("report", "OnBoard247", "--api-url", url, cache=tmp_path)
    assert cached.returncode == 1
    assert cached.stderr == (
        f"lichess-elo: error: cannot connect to {url} (connection refused); "
        "the cache holds this user: add --offline to work from it\n"
    )
    # One quick retry (1 s), not five backoffs: those would say "failed after 5 retries".

    unknown = _run("report", "SomeoneElse", "--api-url", url, cache=tmp_path)
    assert unknown.returncode == 1
    assert unknown.stderr == f"lichess-elo: error: cannot connect to {url} (connection refused)\n"

    offline = _run(
        "report", "OnBoard247", "--api-url", url, "--offline", "--until", "2023-03", cache=tmp_path
    )
    assert offline.returncode == 0, offline.stderr
