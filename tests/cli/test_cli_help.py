"""``--help`` of every command explains every option with an example (issue 2; ``db`` in
test_db_cli)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from lichess_elo.cli.root import app

runner = CliRunner()


def _option_lines(command: str) -> dict[str, str]:
    """The help screen of ``command``, one line per option (wide enough not to wrap)."""
    shown = runner.invoke(app, [command, "--help"], env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    lines: dict[str, str] = {}
    for line in shown.stdout.splitlines():
        words = line.strip("│ ").split()
        if words and words[0].startswith("--") and words[0] != "--help":
            lines[words[0]] = line
    return lines


@pytest.mark.parametrize(
    ("command", "options"),
    [
        (
            "calc",
            {"--k", "--games", "--born", "--formula", "--no-cap", "--unrated", "--format"}
            | {"--output", "--peak", "--rules", "--rules-as-of"},
        ),
        (
            "glicko",
            {"--perf", "--advantage", "--days-white", "--days-black", "--bot", "--format"}
            | {"--output"},
        ),
        (
            "report",
            {"--perf", "--track", "--period", "--start-rating", "--k", "--games-before", "--born"}
            | {"--formula", "--no-cap", "--view", "--format", "--output", "--chart", "--pgn"}
            | {"--token", "--token-file", "--offline", "--refresh", "--replay", "--api-url"}
            | {"--cache-dir", "--since", "--until", "--quiet", "--fit-k"}
            | {"--peak", "--rules", "--rules-as-of", "--fide-id", "--no-adjustment", "--html"},
        ),
        (
            "club",
            {"--config", "--k", "--start", "--update", "--method", "--rounding", "--cap"}
            | {"--newcomers", "--provisional", "--return-k", "--count-event", "--view"}
            | {"--count-time-control", "--exclude-event", "--player", "--format", "--output"}
            | {"--chart", "--top", "--quiet", "--token", "--token-file", "--offline"}
            | {"--replay", "--api-url", "--cache-dir", "--html"}
            | {"--junior", "--min-games", "--hide-provisional", "--show-provisional"},
        ),
        (
            "games",
            {"--perf", "--rated", "--since", "--until", "--pgn", "--format", "--output"}
            | {"--quiet", "--token", "--token-file", "--offline", "--refresh", "--replay"}
            | {"--api-url", "--cache-dir"},
        ),
        (
            "fetch",
            {"--since", "--until", "--format", "--output", "--quiet", "--token"}
            | {"--token-file", "--offline", "--refresh", "--replay", "--api-url", "--cache-dir"},
        ),
    ],
)
def test_every_option_has_an_example(command: str, options: set[str]) -> None:
    lines = _option_lines(command)
    assert set(lines) == options
    for option, line in lines.items():
        assert "e.g." in line, f"{command} {option} has no example: {line.strip()}"


def test_calc_flag_examples_are_whole_commands() -> None:
    lines = _option_lines("calc")
    assert "e.g. --games 12" in lines["--games"] and "e.g. --born 2010" in lines["--born"]
    assert "e.g. lichess-elo calc 1500 1000:1 --formula" in lines["--formula"]
    assert "e.g. lichess-elo calc 1500 1000:1 --no-cap" in lines["--no-cap"]
    assert "e.g. --format json" in lines["--format"]
