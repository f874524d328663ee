"""Byte regression pin: the OnBoard247 report's JSON and CSV equal the golden files.

The golden files in tests/data/golden pin the output of main as it was BEFORE the speed
and memory work (see tests/data/golden/README.md). They are not expected
values worked out by hand (test_report_onboard.py has those); they pin the bytes, so the
streaming writers, the parsed-games cache and the fast exit cannot change the output.

Each format is checked both ways a user gets it: printed to stdout by the real program in
a child process (so the fast exit after flushing is exercised), and written with
``--output``; and both with an empty cache and again with everything cached (the second
run reads the caches).
"""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest

from tests.helpers import DATA, REPO
from tests.runners import run_cli, spawn

CASSETTE = REPO / "cassettes" / "onboard247.yaml"
GOLDEN = DATA / "golden"
FORMATS = {
    "onboard247-report.json": ["--format", "json"],
    "onboard247-report.games.csv": ["--format", "csv", "--view", "games"],
    "onboard247-report.periods.csv": ["--format", "csv", "--view", "periods"],
}


def _run(cache: Path, *extra: str) -> subprocess.CompletedProcess[bytes]:
    args = ["OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(cache), "--perf", "all"]
    return run_cli("report", *args, *extra, text=False, timeout=120)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_report_output_is_byte_identical_to_the_golden_file(tmp_path: Path, name: str) -> None:
    golden = (GOLDEN / name).read_bytes()
    cache = tmp_path / "cache"
    for attempt in ("cold", "warm"):
        printed = _run(cache, *FORMATS[name])
        assert printed.returncode == 0, printed.stderr.decode()
        assert printed.stdout == golden, f"{attempt} stdout differs from {name}"
        written = tmp_path / f"{attempt}-{name}"
        result = _run(cache, *FORMATS[name], "--output", str(written))
        assert result.returncode == 0, result.stderr.decode()
        assert result.stdout == b""
        assert written.read_bytes() == golden, f"{attempt} --output differs from {name}"


def test_a_reader_that_goes_away_ends_the_report_quietly(tmp_path: Path) -> None:
    # `lichess-elo report ... --format json | head -2`: the rows are streamed, so the pipe
    # closes while the report is still being written; no traceback, no message, and the
    # process ends as cat or git log do there, by SIGPIPE (141 in the shell; Popen says
    # -13), not with exit 1, which reads as a failed run under `set -o pipefail`.
    args = ["OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(tmp_path), "--perf"]
    child = spawn("report", *args, "all", "--format", "json")
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.read(20) == (GOLDEN / "onboard247-report.json").read_bytes()[:20]
    child.stdout.close()  # the reader goes away after 20 of the 192,096 bytes
    errors = child.stderr.read()
    assert child.wait(timeout=120) == -signal.SIGPIPE
    assert errors == b""
