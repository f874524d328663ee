"""Conventional help on the pinned typer/click: flags show as flags, usage names
arguments in capitals, validation errors are plain sentences, ``-h`` and shell completion
exist, and every command that prints data takes ``--output``."""

from __future__ import annotations

import subprocess

import pytest

from tests.runners import run_cli

COMMANDS = ("calc", "glicko", "fetch", "games", "report", "club")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    return run_cli(*args, env=env, inherit_env=False)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_is_conventional(command: str) -> None:
    shown = _run(command, "--help")
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert "<bool>" not in text and "<str>" not in text and "<path>" not in text
    assert "{" not in next(ln for ln in text.splitlines() if "Usage:" in ln)  # no {username}
    assert "--output" in text, f"{command} prints data but has no --output"


@pytest.mark.parametrize(
    ("command", "argument"),
    [("report", "USERNAME"), ("games", "USERNAME"), ("fetch", "USERNAME"), ("club", "INPUTS")],
)
def test_usage_names_arguments_in_capitals(command: str, argument: str) -> None:
    usage = next(ln for ln in _run(command, "--help").stdout.splitlines() if "Usage:" in ln)
    usage = usage.strip()
    assert usage.endswith(f"[OPTIONS] {argument}...") or usage.endswith(f"[OPTIONS] {argument}")


def test_argument_help_is_shown() -> None:
    shown = " ".join(_run("report", "--help").stdout.replace("│", " ").split())
    assert "Lichess username, or chess.com:NAME for a Chess.com account, e.g. OnBoard247;" in shown


def test_short_help_flag() -> None:
    assert _run("-h").stdout == _run("--help").stdout
    assert _run("report", "-h").stdout == _run("report", "--help").stdout


def test_shell_completion_is_offered() -> None:
    text = _run("--help").stdout
    assert "--install-completion" in text and "--show-completion" in text


def test_choice_error_is_a_plain_sentence() -> None:
    shown = _run("report", "someone", "--period", "year")
    assert shown.returncode == 2
    assert shown.stderr.strip() == (
        "lichess-elo: error: Invalid value for '--period': 'year' is not one of 'month', "
        "'week', 'day', 'game'. (see 'lichess-elo report --help')"
    )
    assert "Value error" not in shown.stderr


def test_flags_take_no_value_in_help() -> None:
    lines = [ln for ln in _run("report", "--help").stdout.splitlines() if "--formula" in ln]
    # "--formula" is followed straight by its help text, no type placeholder.
    assert lines and lines[0].split("--formula", 1)[1].split()[0] == "Expected"
