"""``lichess-elo fetch`` through typer's CliRunner (and one real subprocess), against the
fake Lichess server and the bundled cassettes. Exit codes: 2 bad input, 1 runtime.
"""

from __future__ import annotations

import io
import json
import subprocess
from datetime import date
from pathlib import Path

import pytest
from rich.console import Console

from tests import helpers
from tests.fake_lichess import FakeLichess, Fault
from tests.runners import Cli, invoke, run_cli

REPO = helpers.REPO
ONBOARD = REPO / "cassettes" / "onboard247.yaml"
TOKEN = "lip_CliSecretToken987"


def _no_traceback(text: str) -> None:
    assert "Traceback" not in text


def test_replay_json_document(cli: Cli, tmp_path: Path) -> None:
    result = cli(
        [
            "fetch",
            "OnBoard247",
            "--replay",
            str(ONBOARD),
            "--cache-dir",
            str(tmp_path),
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"user", "games", "perfs", "months", "cache", "split"}
    assert doc["user"] == "OnBoard247"
    assert doc["games"] == 221
    # per-perf counts from tests/data/lichess/README.md; all 221 games are rated
    assert doc["perfs"] == {
        "blitz": 130,
        "bullet": 57,
        "rapid": 15,
        "classical": 8,
        "correspondence": 6,
        "chess960": 5,
    }
    assert doc["months"] == {"total": 2, "from_network": 2, "from_cache": 0}
    assert doc["split"]["blitz"] == {"rated": 130, "casual": 0}
    assert doc["cache"] == str(ONBOARD)


def test_table_output_from_the_fake_server(
    cli: Cli, onboard_server: FakeLichess, tmp_path: Path
) -> None:
    args = ["fetch", "OnBoard247", "--api-url", onboard_server.url]
    args += ["--cache-dir", str(tmp_path), "--until", "2023-03"]
    first = cli(args)
    assert first.exit_code == 0, first.output
    assert "OnBoard247: 221 games in 2 months (2 fetched, 0 from the cache)" in first.stdout
    assert f"cache: {tmp_path / 'http.sqlite'}" in first.stdout
    second = cli([*args, "--quiet"])
    assert "(0 fetched, 2 from the cache)" in second.stdout


def test_bad_username_exits_2(cli: Cli) -> None:
    result = cli(["fetch", "no spaces allowed"])
    assert result.exit_code == 2
    assert "not a Lichess username" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    _no_traceback(result.output)


def test_bad_date_exits_2_and_shows_the_format(cli: Cli, tmp_path: Path) -> None:
    result = cli(["fetch", "OnBoard247", "--since", "2023/01", "--cache-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert "--since '2023/01' is not a date; expected YYYY-MM or YYYY-MM-DD" in result.stderr
    impossible = cli(["fetch", "OnBoard247", "--until", "2023-02-30"])
    assert impossible.exit_code == 2
    _no_traceback(result.output + impossible.output)


def test_unknown_user_exits_1(cli: Cli, fake_lichess: FakeLichess, tmp_path: Path) -> None:
    result = cli(["fetch", "nobody", "--api-url", fake_lichess.url, "--cache-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.strip() == "lichess-elo: error: no Lichess user 'nobody'"


def test_token_never_in_output_or_errors(
    cli: Cli, onboard_server: FakeLichess, tmp_path: Path
) -> None:
    onboard_server.faults.append(Fault("500", month="2023-02", times=99))
    result = cli(
        [
            "fetch",
            "OnBoard247",
            "--api-url",
            onboard_server.url,
            "--cache-dir",
            str(tmp_path),
            "--until",
            "2023-03",
        ],
        env={"LICHESS_TOKEN": TOKEN},
    )
    assert result.exit_code == 1
    assert "month 2023-02 of OnBoard247 failed after 5 retries" in result.stderr
    assert onboard_server.requests[0].headers["Authorization"] == f"Bearer {TOKEN}"
    assert TOKEN not in result.output
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"onboard247" in stored
    assert TOKEN.encode() not in stored
    _no_traceback(result.output)


def test_offline_miss_exits_1_naming_the_command(cli: Cli, tmp_path: Path) -> None:
    result = cli(
        ["fetch", "OnBoard247", "--cache-dir", str(tmp_path)],
        env={"LICHESS_ELO_OFFLINE": "1"},
    )
    assert result.exit_code == 1
    assert "the Lichess user 'OnBoard247' is not in the cache" in result.stderr
    assert f"lichess-elo fetch OnBoard247 --cache-dir {tmp_path}" in result.stderr


def test_missing_cassette_file_exits_2(cli: Cli, tmp_path: Path) -> None:
    result = cli(["fetch", "OnBoard247", "--replay", str(tmp_path / "no.yaml")])
    assert result.exit_code == 2
    assert "not a readable vcrpy cassette" in result.stderr


def test_real_command_line_replay(tmp_path: Path) -> None:
    # the README's main command, as a user runs it (stderr is not a terminal: no bar)
    done = run_cli(
        "fetch", "OnBoard247", "--replay", str(ONBOARD), "--cache-dir", str(tmp_path), timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "OnBoard247: 221 games in 2 months" in done.stdout
    assert done.stderr == ""


def test_progress_bar_shows_months_games_and_the_429_wait(
    onboard_server: FakeLichess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lichess_elo.output.progress import bars as progress
    from lichess_elo.sources.lichess import LichessSettings, fetch_games

    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=160, color_system=None)
    monkeypatch.setattr(progress, "err_console", lambda: terminal)
    onboard_server.faults.append(Fault("429", month="2023-02"))
    source = LichessSettings(api_url=onboard_server.url, cache_dir=tmp_path)
    with progress.progress_bars(quiet=False) as (bar, _):
        fetch_games("OnBoard247", source, until=date(2023, 3, 1), progress=bar)
    drawn = screen.getvalue()
    assert "1/2 months 83 games" in drawn  # 83 of the 221 games are from January 2023
    # the wait is drawn when it starts (LICHESS_ELO_RETRY_WAIT=0.01 from conftest: no real wait)
    assert "waiting 0.01 s: Lichess rate limit (HTTP 429) on month 2023-02" in drawn

    screen.truncate(0)
    with progress.progress_bars(quiet=True) as (bar, _):
        fetch_games("OnBoard247", source, until=date(2023, 3, 1), progress=bar)
    assert screen.getvalue() == ""


def _help_lines(*command: str) -> dict[str, str]:
    """The help screen of ``command``, one line per option (wide enough not to wrap)."""
    shown = invoke([*command, "--help"], env={"COLUMNS": "250"})
    assert shown.exit_code == 0, shown.output
    lines: dict[str, str] = {}
    for line in shown.stdout.splitlines():
        words = line.strip("│ ").split()
        if words and words[0].startswith("--"):
            lines[words[0]] = line
    return lines


def test_fetch_format_offers_only_table_and_json(tmp_path: Path) -> None:
    assert "table|json" in _help_lines("fetch")["--format"]
    assert "csv" not in _help_lines("fetch")["--format"]
    refused = _real_command("fetch", "OnBoard247", "--replay", str(ONBOARD), "--format", "csv")
    assert refused.returncode == 2
    assert refused.stderr == (
        "lichess-elo: error: --format: unknown format 'csv'; valid: table, json\n"
    )
    assert refused.stderr.count("\n") == 1
    assert len(refused.stderr.splitlines()) == 1
    assert refused.stdout == ""


@pytest.mark.parametrize("command", ["fetch", "games"])
def test_shared_options_show_an_example(command: str) -> None:
    lines = _help_lines(command)
    assert "e.g. 2023-01 or 2023-01-25" in lines["--since"]
    assert "e.g. 2023-01 or 2023-01-25" in lines["--until"]
    assert "e.g. ~/.cache/lichess-elo" in lines["--cache-dir"]
    assert "e.g. lip_abc123 (or LICHESS_TOKEN" in lines["--token"]
    assert "e.g. http://localhost:9663" in lines["--api-url"]
    assert "e.g. cassettes/onboard247.yaml" in lines["--replay"]
    if command == "games":
        assert "e.g. --pgn my_games.pgn" in lines["--pgn"]


def _real_command(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args)


@pytest.mark.parametrize("where", ["before", "after", "middle"])
def test_debug_is_accepted_anywhere_on_the_command_line(tmp_path: Path, where: str) -> None:
    missing = str(tmp_path / "no.yaml")
    command = ["fetch", "OnBoard247", "--replay", missing]
    args = {
        "before": ["--debug", *command],
        "after": [*command, "--debug"],
        "middle": ["fetch", "--debug", "OnBoard247", "--replay", missing],
    }[where]
    done = _real_command(*args)
    # --debug shows the traceback of the library error instead of the one-line message
    assert "No such option" not in done.stderr
    assert "Traceback" in done.stderr
    assert f"BadFile: cassette {missing}: not a readable vcrpy cassette" in done.stderr
    assert done.returncode == 1


def test_without_debug_the_same_error_is_one_line(tmp_path: Path) -> None:
    missing = str(tmp_path / "no.yaml")
    done = _real_command("fetch", "OnBoard247", "--replay", missing)
    assert done.returncode == 2
    assert done.stderr == (
        f"lichess-elo: error: --replay {missing}: not a readable vcrpy cassette "
        "(No such file or directory)\n"
    )


def test_debug_after_the_command_still_runs_it(tmp_path: Path) -> None:
    done = _real_command(
        "fetch", "OnBoard247", "--replay", str(ONBOARD), "--cache-dir", str(tmp_path), "--debug"
    )
    assert done.returncode == 0, done.stderr
    assert "OnBoard247: 221 games in 2 months" in done.stdout


def test_a_token_echoed_by_the_parser_is_redacted(tmp_path: Path) -> None:
    # The option parser repeats a stray argument in its message; when that argument is the
    # token (pasted twice by mistake), the one-line error must not show it.
    secret = "lip_SeCrEt0123456789"
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path)}  # run_cli drops the caller's LICHESS*
    done = run_cli("fetch", "OnBoard247", f"--token={secret}", secret, env=env)
    assert done.returncode == 2
    assert secret not in done.stdout + done.stderr
    assert "***" in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_short_token_does_not_mangle_messages(
    cli: Cli, fake_lichess: FakeLichess, tmp_path: Path
) -> None:
    # a 4-letter "token" is not a secret worth scrubbing: "user" stays "user"
    args = ["fetch", "nobody", "--api-url", fake_lichess.url, "--cache-dir", str(tmp_path)]
    result = cli([*args, "--token", "user"])
    assert result.exit_code == 1
    assert result.stderr == "lichess-elo: error: no Lichess user 'nobody'\n"
    assert fake_lichess.requests[0].headers["Authorization"] == "Bearer user"
