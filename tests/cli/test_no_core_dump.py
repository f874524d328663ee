"""No core dump of a run that holds a token: ``RLIMIT_CORE`` is 0 while it runs,
read from ``/proc/PID/limits`` of the real process as it waits for the fake server."""

from __future__ import annotations

import json
import resource
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.fake_lichess import FakeLichess, Fault
from tests.helpers import DATA
from tests.runners import spawn

GAMES = DATA / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson"
HARD = resource.getrlimit(resource.RLIMIT_CORE)[1]


def _core_limit_while_running(tmp_path: Path, env: dict[str, str]) -> str:
    """The soft core-file limit of a ``fetch`` that waits on a slow month, started with core
    dumps allowed (the soft limit raised to the hard one)."""
    server = FakeLichess().start()
    games = [json.loads(line) for line in GAMES.read_text(encoding="utf-8").splitlines() if line]
    server.add_user("OnBoard247", datetime(2023, 1, 24, tzinfo=UTC), games)
    server.faults.append(Fault("slow", month="2023-01", delay=60))
    args = ["fetch", "OnBoard247", "--api-url", server.url, "--cache-dir", str(tmp_path), "-q"]
    process = spawn(
        *args,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE, (HARD, HARD)),
    )
    try:
        deadline = time.monotonic() + 120  # a bound on the wait, not on the speed
        while not server.games_requests() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.games_requests(), "the run never asked for a month"
        limits = Path(f"/proc/{process.pid}/limits").read_text().splitlines()
    finally:
        process.kill()
        process.wait()
        server.stop()
    (line,) = [ln for ln in limits if ln.startswith("Max core file size")]
    return line.split()[4]


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="needs /proc")
@pytest.mark.skipif(HARD == 0, reason="core dumps are forbidden here anyway (hard limit 0)")
def test_a_run_holding_a_token_cannot_dump_core(tmp_path: Path) -> None:
    allowed = "unlimited" if HARD == resource.RLIM_INFINITY else str(HARD)
    # Without a token the run keeps the limit it was given ...
    assert _core_limit_while_running(tmp_path / "a", {}) == allowed
    # ... with one (here from the environment) it allows no core file at all.
    held = _core_limit_while_running(tmp_path / "b", {"LICHESS_TOKEN": "lip_NoCoreDump0Token"})
    assert held == "0"
