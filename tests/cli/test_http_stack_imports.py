"""A run that fetches nothing never imports the HTTP stack (its import is a fixed
cost of every warm report). Checked on the real program in a real process: Python's own
import log (``PYTHONPROFILEIMPORTTIME``, one stderr line per module imported) must name
none of requests, requests-cache, urllib3, berserk or vcrpy."""

from __future__ import annotations

from pathlib import Path

from tests.fake_lichess import FakeLichess
from tests.helpers import DATA
from tests.runners import run_cli

HTTP_STACK = ("requests", "requests_cache", "urllib3", "berserk", "vcr")
IMPORT_LOG = {"PYTHONPROFILEIMPORTTIME": "1"}


def _imported(stderr: str) -> set[str]:
    """The top-level packages named in an import log."""
    return {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def test_a_pgn_report_never_imports_the_http_stack(tmp_path: Path) -> None:
    pgn = DATA / "lichess" / "game-export-q7ZvsdUF.pgn"
    run = run_cli(
        "report", "lance5500", "--pgn", str(pgn), "--cache-dir", str(tmp_path), env=IMPORT_LOG
    )
    assert run.returncode == 0, run.stderr[-2000:]
    imported = _imported(run.stderr)
    assert "lichess_elo" in imported  # the log is there
    assert imported.isdisjoint(HTTP_STACK), imported & set(HTTP_STACK)


def test_an_offline_report_from_the_parsed_cache_never_imports_it(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    args = ["report", "OnBoard247", "--api-url", onboard_server.url, "--until", "2023-03-01"]
    args += ["--cache-dir", str(tmp_path), "--perf", "all"]
    online = run_cli(*args, env=IMPORT_LOG)
    assert online.returncode == 0, online.stderr[-2000:]
    assert {"requests_cache", "berserk"} <= _imported(online.stderr)  # it fetched
    offline = run_cli(*args, "--offline", env=IMPORT_LOG)
    assert offline.returncode == 0, offline.stderr[-2000:]
    assert offline.stdout == online.stdout  # the same report
    imported = _imported(offline.stderr)
    assert "lichess_elo" in imported
    assert imported.isdisjoint(HTTP_STACK), imported & set(HTTP_STACK)


def test_an_offline_json_report_imports_no_console_and_no_masked_arrays(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    """The quiet JSON report into a file draws nothing (no ``rich.console``), its intervals need
    no ``numpy.ma`` (``np.quantile`` imports it) and an offline run reads no cassette
    dates (``email.utils``): each was a fixed cost of every warm report."""
    args = ["report", "OnBoard247", "--api-url", onboard_server.url, "--until", "2023-03-01"]
    args += ["--cache-dir", str(tmp_path), "--perf", "all", "--format", "json", "--quiet"]
    online = run_cli(*args)
    assert online.returncode == 0, online.stderr[-2000:]
    offline = run_cli(*args, "--offline", env=IMPORT_LOG)
    assert offline.returncode == 0, offline.stderr[-2000:]
    assert offline.stdout == online.stdout
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in offline.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert {"lichess_elo.output.report.json", "numpy"} <= modules  # the log is there
    unused = modules & {"rich.console", "numpy.ma", "email.utils"}
    assert not unused, sorted(unused)
