"""Tests of ``lichess-elo glicko`` through typer's CliRunner and one real subprocess.

Expected numbers are the derived examples of notes section 8 (see tests/unit/test_glicko.py
for their derivation).
"""

from __future__ import annotations

import json

import pytest

from tests.runners import Cli, run_cli

# notes section 8: White 1500/60 (last game 2 days ago), Black 1600/80 (30 days ago),
# volatility 0.06, standard blitz, White wins -> 1512.31 (+12) / 1576.30 (-24).
EXAMPLE = ["glicko", "1500/60/0.06", "1600/80/0.06", "1-0", "--perf", "blitz"]
EXAMPLE += ["--days-white", "2", "--days-black", "30"]


def test_table_output(cli: Cli) -> None:
    result = cli(EXAMPLE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "perf blitz (gains x1.005)" in out
    assert "colour advantage 11.782457 (standard)" in out
    white = next(line for line in out.splitlines() if line.startswith("White"))
    black = next(line for line in out.splitlines() if line.startswith("Black"))
    # before: rating, live RD (60.39 / 84.25), volatility; after; what Lichess shows
    assert white.split()[:4] == ["White", "1500.00", "60.39", "0.060000"]
    assert "1512.31" in white and white.endswith("1512 (+12)")
    assert black.split()[:4] == ["Black", "1600.00", "84.25", "0.060000"]
    assert "1576.30" in black and black.endswith("1576 (-24)")


def test_json_output_shape_and_unrounded_numbers(cli: Cli) -> None:
    result = cli([*EXAMPLE, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"white", "black"}
    for side in data.values():
        assert set(side) == {"before", "after", "rating_diff"}
        assert set(side["before"]) == set(side["after"]) == {"rating", "deviation", "volatility"}
    assert data["white"]["rating_diff"] == 12
    assert data["black"]["rating_diff"] == -24
    after = data["white"]["after"]["rating"]
    assert isinstance(after, float)
    assert after == pytest.approx(1512.31, abs=0.005)
    assert after != round(after, 2)  # unrounded
    assert data["white"]["before"] == {
        "rating": 1500,
        "deviation": pytest.approx(60.39, abs=0.005),
        "volatility": 0.06,
    }


def test_chess960_truncation_and_half_half(cli: Cli) -> None:
    # notes section 8: two new players in chess960, no advantage -> +241 / -242.
    result = cli(
        [
            "glicko",
            "1500/500",
            "1500/500",
            "1-0",
            "--perf",
            "chess960",
            "--advantage",
            "none",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["white"]["rating_diff"], data["black"]["rating_diff"]) == (241, -242)
    assert data["white"]["before"]["volatility"] == 0.09  # the default volatility
    # the symmetric draw changes nothing and both notations are accepted
    for res in ("1/2-1/2", "½-½"):
        drawn = cli(
            ["glicko", "1500/500", "1500/500", res, "--advantage", "none", "--format", "json"]
        )
        assert drawn.exit_code == 0, drawn.output
        assert json.loads(drawn.stdout)["white"]["after"]["rating"] == 1500


def test_bot_option_halves_the_human(cli: Cli) -> None:
    # notes section 8: human 1500/60 beats a BOT 1500/60 in blitz -> +4 / -10.
    result = cli(
        [
            "glicko",
            "1500/60/0.06",
            "1500/60/0.06",
            "1-0",
            "--perf",
            "blitz",
            "--bot",
            "black",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["white"]["rating_diff"], data["black"]["rating_diff"]) == (4, -10)


def test_crazyhouse_advantage_option(cli: Cli) -> None:
    # vectors.md table 2: 1500/350/0.06 each, black wins, crazyhouse advantage ->
    # White 1331.3665, Black 1668.6335 (no regulator without --perf, no clamp reached).
    result = cli(
        [
            "glicko",
            "1500/350/0.06",
            "1500/350/0.06",
            "0-1",
            "--advantage",
            "crazyhouse",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["white"]["after"]["rating"] == pytest.approx(1331.3665, abs=1e-3)
    assert data["black"]["after"]["rating"] == pytest.approx(1668.6335, abs=1e-3)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["4001/60", "1500/60", "1-0"], "WHITE"),
        (["--", "1500/60", "-5/60", "1-0"], "BLACK"),  # "--": "-5/60" is no option
        (["1500/0", "1500/60", "1-0"], "WHITE"),
        (["1500/60", "1500/-3", "1-0"], "BLACK"),
        (["1500", "1500/60", "1-0"], "WHITE"),
        (["1500/60", "1500/60", "2-0"], "RESULT"),
        (["1500/60", "1500/60", "1-0", "--perf", "speed"], "perf"),
        (["1500/60", "1500/60", "1-0", "--advantage", "big"], "--advantage"),
        (["1500/60", "1500/60", "1-0", "--days-white", "soon"], "--days-white"),
        (["1500/60", "1500/60", "1-0", "--days-black", "-1"], "--days-black"),
        (["1500/60", "1500/60", "1-0", "--bot", "red"], "--bot"),
        (["1500/60", "1500/60", "1-0", "--format", "xml"], "--format"),
    ],
)
def test_bad_input(cli: Cli, args: list[str], named: str) -> None:
    result = cli(["glicko", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("lichess-elo: error: ")
    assert named in lines[0]
    assert "Traceback" not in result.output


def test_unknown_perf_lists_the_valid_ones(cli: Cli) -> None:
    result = cli(["glicko", "1500/60", "1500/60", "1-0", "--perf", "speed"])
    assert result.exit_code == 2
    assert "blitz" in result.stderr and "correspondence" in result.stderr


def test_missing_argument(cli: Cli) -> None:
    result = cli(["glicko", "1500/60", "1500/60"])
    assert result.exit_code == 2
    assert "RESULT" in result.output.upper()
    assert "Traceback" not in result.output


def test_help_explains_every_option_with_an_example(cli: Cli) -> None:
    result = cli(["glicko", "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    text = result.stdout
    for option in ("--perf", "--advantage", "--days-white", "--days-black", "--bot", "--format"):
        assert option in text
    assert "Example: lichess-elo glicko 1500/60 1600/80 1-0" in text
    assert "1/2-1/2" in text and "VOLATILITY" in text


def test_real_subprocess() -> None:
    # The command as a user runs it: python -m lichess_elo, in a separate process.
    proc = run_cli(*EXAMPLE, "--format", "json", timeout=60)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["white"]["rating_diff"], data["black"]["rating_diff"]) == (12, -24)
    bad = run_cli("glicko", "1500/60", "1500/60", "1-O", timeout=60)
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith(
        "lichess-elo: error: RESULT '1-O' is not a result; expected 1, 0.5, 0"
    )
    assert "1-0" in bad.stderr and "1/2-1/2" in bad.stderr and bad.stderr.count("\n") == 1
