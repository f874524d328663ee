"""``--help`` of every command explains every option with an example (``db`` in
test_db_cli)."""

from __future__ import annotations

import pytest

from tests.runners import PtyCli, invoke


def _option_lines(command: str) -> dict[str, str]:
    """The help screen of ``command``, one line per option (wide enough not to wrap)."""
    shown = invoke([command, "--help"], env={"COLUMNS": "300"})
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
            | {"--output", "--peak", "--rules", "--rules-as-of", "--time-control"},
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
            | {"--peak", "--rules", "--rules-as-of", "--fide-id", "--no-adjustment", "--html"}
            | {"--no-pager", "--chesscom-url"},
        ),
        (
            "club",
            {"--config", "--k", "--start", "--update", "--method", "--rounding", "--cap"}
            | {"--newcomers", "--provisional", "--return-k", "--count-event", "--view"}
            | {"--count-time-control", "--exclude-event", "--player", "--format", "--output"}
            | {"--chart", "--top", "--quiet", "--token", "--token-file", "--offline"}
            | {"--replay", "--api-url", "--cache-dir", "--html", "--no-pager"}
            | {"--junior", "--min-games", "--hide-provisional", "--show-provisional"},
        ),
        (
            "games",
            {"--perf", "--rated", "--since", "--until", "--pgn", "--format", "--output"}
            | {"--quiet", "--token", "--token-file", "--offline", "--refresh", "--replay"}
            | {"--api-url", "--cache-dir", "--no-pager", "--chesscom-url"},
        ),
        (
            "fetch",
            {"--since", "--until", "--format", "--output", "--quiet", "--token"}
            | {"--token-file", "--offline", "--refresh", "--replay", "--api-url", "--cache-dir"}
            | {"--chesscom-url"},
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


def test_report_help_is_grouped_and_short_at_80_columns(pty_cli: PtyCli) -> None:
    # report --help was one panel of ~300 lines (946 in a real 80-column
    # terminal, where a 44-character metavar left 5 columns for the help text). Now the
    # options stand in panels, each its own table, with short metavars.
    code, screen = pty_cli(["report", "--help"], width=80, env={"NO_COLOR": "1"})
    assert code == 0, screen
    lines = screen.splitlines()
    assert len(lines) < 134, len(lines)  # 2.7 screens of 50 lines (946 before)
    assert all(len(line) <= 80 for line in lines)
    titles = [line.strip("╭─ ").split(" ─")[0] for line in lines if line.startswith("╭─")]
    assert titles == ["Arguments", "Options", "Which games", "Rules", "Output", "Cache and network"]
    panel = ""
    where: dict[str, str] = {}
    for line in lines:
        if line.startswith("╭─"):
            panel = line.strip("╭─ ").split(" ─")[0]
        words = line.strip("│ ").split()
        if words and words[0].startswith("--"):
            where[words[0]] = panel
    assert where["--since"] == where["--pgn"] == "Which games"
    assert where["--k"] == where["--rules-as-of"] == where["--fide-id"] == "Rules"
    assert where["--format"] == where["--no-pager"] == where["--view"] == "Output"
    assert where["--token"] == where["--offline"] == "Cache and network"
