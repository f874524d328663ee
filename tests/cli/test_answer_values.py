"""Values no real game has, in a Lichess answer: an opponent rating of 10^20
skips that game with a warning; so does a timestamp of 10^30 (which berserk cannot
convert), and its month is asked for again. Never "unexpected". Real berserk against the
fake server."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from lichess_elo.sources.lichess.parse import parse_game
from tests.fake_lichess import FakeLichess
from tests.helpers import DATA
from tests.runners import run_cli

GAMES = DATA / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson"


def _games() -> list[dict[str, Any]]:
    return [json.loads(line) for line in GAMES.read_text(encoding="utf-8").splitlines() if line]


def _report(tmp_path: Path, games: list[dict[str, Any]]) -> tuple[int, str, str]:
    server = FakeLichess().start()
    try:
        server.add_user("OnBoard247", datetime(2023, 1, 24, tzinfo=UTC), games)
        args = ["report", "OnBoard247", "--api-url", server.url, "--cache-dir", str(tmp_path)]
        done = run_cli(*args, "--until", "2023-03", "--format", "json", "-q")
    finally:
        server.stop()
    return done.returncode, done.stdout, done.stderr


def test_an_absurd_opponent_rating_skips_that_game(tmp_path: Path) -> None:
    games = copy.deepcopy(_games())
    odd = games[3]
    opponent = next(
        c for c in ("white", "black") if odd["players"][c]["user"]["id"] != "onboard247"
    )
    odd["players"][opponent]["rating"] = 10**20
    code, out, err = _report(tmp_path, games)
    assert code == 0, err
    assert err.splitlines() == [
        f"lichess-elo: warning: game {odd['id']}: skipped malformed game (game {odd['id']}: "
        f"players.{opponent}.rating 100000000000000000000 is outside 0..4000)"
    ]
    assert json.loads(out)  # the report of the other games


@pytest.mark.parametrize("value", [10**30, -(10**30), "soon"])
def test_a_timestamp_berserk_cannot_convert_skips_that_game_only(
    tmp_path: Path, value: object
) -> None:
    # berserk's own date conversion raised on this one game and the whole month
    # was lost (exit 1). Now the game is skipped with one warning naming it, the other
    # games are reported, and the month is not kept as final: the next run asks again.
    games = copy.deepcopy(_games())
    odd = games[3]
    odd["lastMoveAt"] = value
    server = FakeLichess().start()
    try:
        server.add_user("OnBoard247", datetime(2023, 1, 24, tzinfo=UTC), games)
        args = ["report", "OnBoard247", "--api-url", server.url, "--cache-dir", str(tmp_path)]
        args += ["--until", "2023-03", "--format", "json", "-q"]
        first = run_cli(*args)
        asked = len(server.games_requests())
        again = run_cli(*args)
        asked_again = len(server.games_requests()) - asked
    finally:
        server.stop()
    assert first.returncode == 0, first.stderr
    (line,) = first.stderr.splitlines()
    assert line.startswith(f"lichess-elo: warning: game {odd['id']}: skipped malformed game")
    assert "lastMoveAt" in line and "unexpected" not in line
    reported = {g["id"] for r in json.loads(first.stdout)["reports"] for g in r["games"]}
    assert odd["id"] not in reported
    assert {games[2]["id"], games[4]["id"]} <= reported  # its neighbours are there
    assert (again.returncode, again.stdout) == (0, first.stdout)
    assert asked_again == 1  # only the incomplete month (the other one ended and was whole)


@pytest.mark.parametrize("value", [10**30, -(10**30), 1e300])
def test_an_out_of_range_timestamp_is_a_malformed_game(value: float) -> None:
    game = copy.deepcopy(_games()[0])
    game["createdAt"] = value
    with pytest.raises(ValueError, match="createdAt is out of range"):
        parse_game(game)
