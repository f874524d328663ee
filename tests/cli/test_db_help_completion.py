"""``db`` help names what each value is, and shell completion offers the perfs and formats.

Every ``db`` subcommand's ``--help`` at 80 columns shows a metavar that says what to type
(``FILE``, ``PERF``, ``YYYY-MM``, ``N``), never click's type names ``TEXT``, ``INTEGER``
or ``PATH``, and fits the width. Completion is driven as bash drives it: the program run
with ``_LICHESS_ELO_COMPLETE=complete_bash`` and the words typed so far in
``COMP_WORDS``/``COMP_CWORD`` prints one candidate a line.
"""

from __future__ import annotations

import re

import click
import pytest
import typer

from lichess_elo.cli.db import db_app
from tests.runners import run_cli


def _db_commands() -> list[str]:
    """Every db subcommand, read from the app so a new one is checked too."""
    group = typer.main.get_command(db_app)
    assert isinstance(group, click.Group)
    return sorted(group.commands)


DB_COMMANDS = _db_commands()


def test_the_db_commands_are_all_seen() -> None:
    assert {"ingest", "rate", "list", "player", "compare", "months"} <= set(DB_COMMANDS)


@pytest.mark.parametrize("command", DB_COMMANDS)
def test_db_help_shows_real_metavars_at_80_columns(command: str) -> None:
    shown = run_cli("db", command, "--help", env={"COLUMNS": "80", "TERM": "dumb"})
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    left = re.findall(r"\b(TEXT|INTEGER|PATH|FLOAT)\b", text)
    assert not left, f"db {command} --help still shows {left}"
    for line in text.splitlines():
        assert len(line) <= 80, f"{len(line)} > 80: {line!r}"
    if command in ("list", "player", "compare", "rate"):
        assert "PERF" in text  # the --perf option's metavar
    if command != "rate":
        assert re.search(r"--format\s+-f\s+table\|", text)  # the registry's formats


def _complete(*typed: str) -> list[str]:
    """The candidates bash gets for the last of ``typed`` (the words after the program)."""
    words = ["lichess-elo", *typed]
    done = run_cli(
        env={
            "_LICHESS_ELO_COMPLETE": "complete_bash",
            "COMP_WORDS": " ".join(words),
            "COMP_CWORD": str(len(words) - 1),
        }
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        # "bl" starts only blitz among the perfs (bullet is "bu", ultraBullet "ul")
        (("report", "OnBoard247", "--perf", "bl"), ["blitz"]),
        (("games", "OnBoard247", "--perf", "cl"), ["classical"]),
        (("report", "OnBoard247", "--perf", "ultra"), ["ultraBullet"]),
        (("report", "OnBoard247", "--perf", "a"), ["all", "antichess", "atomic"]),
        (("db", "list", "--perf", "bl"), ["blitz"]),
        # db rates speeds only: no variant is offered
        (("db", "compare", "--perf", "c"), ["classical", "correspondence"]),
        (("glicko", "1500/60", "1600/80", "1-0", "--perf", "ra"), ["rapid", "racingKings"]),
    ],
)
def test_completion_offers_the_perfs(typed: tuple[str, ...], offered: list[str]) -> None:
    assert _complete(*typed) == offered


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        (("report", "OnBoard247", "--format", "j"), ["json"]),
        (("report", "OnBoard247", "-f", "c"), ["csv"]),
        (("db", "player", "someone", "--format", "j"), ["json"]),
        (("db", "ingest", "x.pgn.zst", "--format", "c"), []),  # ingest writes no CSV
        (("db", "months", "--format", ""), ["table", "csv", "json"]),
    ],
)
def test_completion_offers_the_formats(typed: tuple[str, ...], offered: list[str]) -> None:
    assert _complete(*typed) == offered
