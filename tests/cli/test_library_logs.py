"""What the libraries log reaches the user as ``lichess-elo: warning:`` lines:
requests-cache printed "Unable to deserialize response ..." bare when ``http.sqlite`` held
damaged answers. Real processes, a real damaged cache, the fake server."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from tests.fake_lichess import FakeLichess
from tests.helpers import DATA
from tests.runners import run_cli

GAMES = DATA / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson"


def test_requests_cache_log_lines_carry_the_prefix(tmp_path: Path) -> None:
    server = FakeLichess().start()
    try:
        games = [json.loads(line) for line in GAMES.read_text(encoding="utf-8").splitlines()]
        server.add_user("OnBoard247", datetime(2023, 1, 24, tzinfo=UTC), games)
        args = ["fetch", "OnBoard247", "--api-url", server.url, "--cache-dir", str(tmp_path)]
        args += ["--until", "2023-03", "-q"]
        assert run_cli(*args).returncode == 0
        # Every stored answer damaged, and the parsed games gone: requests-cache meets the
        # damage, logs it and fetches again.
        with sqlite3.connect(tmp_path / "http.sqlite") as http:
            http.execute("UPDATE responses SET value = randomblob(200)")
        with sqlite3.connect(tmp_path / "games.sqlite") as parsed:
            parsed.execute("DELETE FROM parsed")
        again = run_cli(*args)
    finally:
        server.stop()
    assert again.returncode == 0, again.stderr
    lines = again.stderr.splitlines()
    assert any("Unable to deserialize response" in line for line in lines), again.stderr
    for line in lines:
        assert line.startswith("lichess-elo: warning: requests-cache: "), line
