"""The drifts the restructure found, each now with one answer: one speed rule,
one birth-year check, one K check and one exit code for a token Lichess refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from lichess_elo.core.club.rating import time_control_speed as club_speed
from lichess_elo.core.games import Clock, speed_of
from lichess_elo.sources.pgn import read_pgn
from tests.fake_lichess import FakeLichess
from tests.helpers import REPO
from tests.runners import Cli

PGN = REPO / "tests" / "data" / "lichess" / "game-export-q7ZvsdUF.pgn"


def test_a_six_hour_clock_is_correspondence_in_pgn_and_in_the_club() -> None:
    # lila Speed.scala: classical is an estimate (initial + 40 x increment) below 21,600 s;
    # six hours and more is correspondence. 360+0 in a club file is 360 minutes = 21,600 s.
    assert speed_of(Clock(21_600, 0)) == "correspondence"
    assert club_speed("360+0") == "correspondence"
    # One second less is still classical, in both.
    assert speed_of(Clock(21_599, 0)) == "classical"
    assert club_speed("359+0") == "classical"  # 21,540 s
    pgn = PGN.read_text(encoding="utf-8").replace('"300+3"', '"21600+0"')
    (game,) = read_pgn(pgn)
    assert game.speed == "correspondence"


@pytest.mark.parametrize(
    "command", [["calc", "1500", "1400:1"], ["report", "Lance5500", "--pgn", str(PGN)]]
)
def test_a_birth_year_in_the_future_is_refused_the_same_way(cli: Cli, command: list[str]) -> None:
    result = cli([*command, "--born", "2099"])
    assert result.exit_code == 2
    assert result.stderr.startswith("lichess-elo: error: --born 2099 is outside 1900..")
    assert result.stdout == ""


@pytest.mark.parametrize(
    "command", [["calc", "1500", "1400:1"], ["report", "Lance5500", "--pgn", str(PGN)]]
)
def test_k_800_gives_one_message(cli: Cli, command: list[str]) -> None:
    result = cli([*command, "--k", "800"])
    assert result.exit_code == 2
    assert result.stderr == "lichess-elo: error: --k 800 is outside 1..700\n"


@pytest.mark.parametrize("command", ["fetch", "club"])
def test_a_refused_token_exits_1_in_every_command(
    cli: Cli, command: str, club_server: FakeLichess, tmp_path: Path
) -> None:
    # HTTP 401 is the server's answer: a run-time failure (exit 1), whatever the command.
    club_server.bad_tokens.add("lip_RefusedToken123")
    target = {"fetch": "OnBoard247", "club": "arena:clubAr26"}[command]
    options = ["--api-url", club_server.url, "--cache-dir", str(tmp_path)]
    result = cli([command, target, *options, "--token", "lip_RefusedToken123"])
    assert result.exit_code == 1, result.output
    assert "HTTP 401 (Lichess refused the token)" in result.stderr
    assert "lip_RefusedToken123" not in result.output
