"""Tables fit the terminal: in a real pseudo-terminal of 80, 100 and 200 columns every
number the JSON output holds appears whole on screen, and no line is wider than the
terminal. The games come from the recorded OnBoard247 cassette."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.runners import PtyCli, run_cli

REPO = Path(__file__).resolve().parent.parent.parent
CASSETTE = str(REPO / "cassettes" / "onboard247.yaml")
WIDTHS = (80, 100, 200)


def _json(args: list[str], tmp_path: Path) -> dict[str, Any]:
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = run_cli(*args, "--format", "json", env=env, inherit_env=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _shown_whole(number: int | float, screen: str) -> bool:
    """``number`` appears with no digit cut off on either side (a sign may precede it)."""
    text = str(abs(number))
    return re.search(rf"(?<![\d.]){re.escape(text)}(?![\d…])", screen) is not None


def _check_screen(screen: str, width: int, numbers: list[int | float]) -> None:
    assert "…" not in screen, "a cell was cut"
    for line in screen.splitlines():
        assert len(line) <= width, f"{len(line)} > {width}: {line!r}"
        assert line == line.rstrip(), f"trailing space: {line!r}"
    missing = [n for n in numbers if not _shown_whole(n, screen)]
    assert not missing, f"not shown whole at {width} columns: {missing[:10]}"


@pytest.fixture(scope="module")
def report_json(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("json")
    return _json(["report", "OnBoard247", "--replay", CASSETTE], tmp)


@pytest.mark.parametrize("width", WIDTHS)
def test_report_periods_fit(
    pty_cli: PtyCli, width: int, report_json: dict[str, Any], tmp_path: Path
) -> None:
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path)}
    code, screen = pty_cli(
        ["report", "OnBoard247", "--replay", CASSETTE, "-q"], width=width, env=env
    )
    assert code == 0, screen
    numbers: list[int | float] = []
    for report in report_json["reports"]:
        for p in report["periods"]:
            numbers += [p["games"], p["score"], p["k"], p["difference"]]
            numbers += [p["elo"][k] for k in ("start", "change", "end")]
            numbers += [p["lichess"][k] for k in ("start", "change", "end")]
            numbers += [p["performance"]] if p["performance"] is not None else []
    _check_screen(screen, width, numbers)


@pytest.mark.parametrize("width", WIDTHS)
def test_report_games_fit(
    pty_cli: PtyCli, width: int, report_json: dict[str, Any], tmp_path: Path
) -> None:
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path)}
    args = ["report", "OnBoard247", "--replay", CASSETTE, "--view", "games", "-q"]
    code, screen = pty_cli(args, width=width, env=env)
    assert code == 0, screen
    numbers: list[int | float] = []
    for report in report_json["reports"]:
        for g in report["games"]:
            numbers += [g["opponent_rating"], g["lichess"]["rating"], g["lichess"]["diff"]]
            numbers += [g["elo"]["rating"], g["elo"]["k"]]
    _check_screen(screen, width, numbers)


@pytest.mark.parametrize("width", WIDTHS)
def test_games_list_fits(pty_cli: PtyCli, width: int, tmp_path: Path) -> None:
    args = ["games", "OnBoard247", "--replay", CASSETTE]
    shown = [*args, "-q"]
    listed = _json(args, tmp_path)
    code, screen = pty_cli(shown, width=width, env={"LICHESS_ELO_CACHE_DIR": str(tmp_path)})
    assert code == 0, screen
    numbers: list[int | float] = []
    for g in listed["games"]:
        numbers += [g["opponent_rating"], g["lichess"]["rating"], g["replay"]["plies"]]
        numbers += [g["lichess"]["diff"]] if g["lichess"]["diff"] is not None else []
        assert g["id"] in screen, f"game {g['id']} cut or missing"
    _check_screen(screen, width, numbers)


@pytest.mark.parametrize("width", WIDTHS)
def test_club_tables_fit(pty_cli: PtyCli, width: int, tmp_path: Path) -> None:
    club = REPO / "tests" / "data" / "club"
    args = ["club", "players.csv", "games.csv", "--config", "club.toml", "-q"]
    done = run_cli(*args, "--format", "json", cwd=club)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path)}
    code, screen = pty_cli(args, width=width, env=env, cwd=club)
    assert code == 0, screen
    numbers: list[int | float] = []
    for p in doc["players"]:
        numbers += [p["rating"], p["change"], p["games"]]
        assert p["name"] in screen
    _check_screen(screen, width, numbers)
    code, screen = pty_cli([*args, "--view", "excluded"], width=width, env=env, cwd=club)
    assert code == 0, screen
    _check_screen(screen, width, [])
    for x in doc["excluded"]:
        # The rule may wrap between words at 80 columns, never inside one.
        assert " ".join(screen.split()).count(x["rule"]) == 1, x["rule"]
        assert x["event"] in screen and x["date"] in screen
