"""``--output`` and ``--chart`` never overwrite what the run reads: the ``--pgn``
input, the ``--replay`` cassette, club inputs and the cache's own files are refused in one
line, exit 2, before any work, and left as they were."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.runners import Cli, invoke

REPO = Path(__file__).resolve().parents[2]
CASSETTE = REPO / "cassettes" / "onboard247.yaml"
PGN = REPO / "tests" / "data" / "lichess" / "game-export-q7ZvsdUF.pgn"
CLUB = REPO / "tests" / "data" / "club"


def _refused(args: list[str], option: str, path: Path, what: str) -> None:
    before = path.read_bytes() if path.exists() else None
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"lichess-elo: error: {option} {path} is {what}, which this run reads; "
        "give another file name\n"
    )
    assert (path.read_bytes() if path.exists() else None) == before


@pytest.mark.parametrize("command", ["report", "games"])
def test_the_pgn_input_is_refused_as_output(tmp_path: Path, command: str) -> None:
    pgn = tmp_path / "mine.pgn"
    shutil.copyfile(PGN, pgn)
    args = [command, "Lance5500", "--pgn", str(pgn), "--cache-dir", str(tmp_path / "c")]
    _refused([*args, "--output", str(pgn)], "--output", pgn, "the --pgn input")


def test_the_cassette_is_refused_as_output(tmp_path: Path) -> None:
    cassette = tmp_path / "rec.yaml"
    shutil.copyfile(CASSETTE, cassette)
    args = ["fetch", "OnBoard247", "--replay", str(cassette), "--cache-dir", str(tmp_path)]
    _refused([*args, "--output", str(cassette)], "--output", cassette, "the --replay cassette")


@pytest.mark.parametrize("name", ["http.sqlite", "replay.sqlite", "games.sqlite-wal"])
def test_the_cache_files_are_refused_as_output(cli: Cli, tmp_path: Path, name: str) -> None:
    cache = tmp_path / "cache"
    base = ["report", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(cache)]
    assert cli(base).exit_code == 0  # the cache is filled
    target = cache / name
    _refused([*base, "--output", str(target)], "--output", target, f"the cache's {name}")


def test_a_chart_linked_to_a_cache_file_is_refused(cli: Cli, tmp_path: Path) -> None:
    # The writer writes through a symbolic link: a chart name that links into the cache
    # would overwrite the cache's file.
    cache = tmp_path / "cache"
    base = ["report", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(cache)]
    assert cli(base).exit_code == 0
    link = tmp_path / "chart.png"
    link.symlink_to(cache / "replay.sqlite")
    before = (cache / "replay.sqlite").read_bytes()
    result = cli([*base, "--chart", str(link)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"lichess-elo: error: --chart {link} is the cache's replay.sqlite, which this run "
        "reads; give another file name\n"
    )
    assert (cache / "replay.sqlite").read_bytes() == before


def test_a_club_input_and_its_rules_are_refused_as_output(tmp_path: Path) -> None:
    players, games, rules = (tmp_path / n for n in ("players.csv", "games.csv", "club.toml"))
    for path in (players, games, rules):
        shutil.copyfile(CLUB / path.name, path)
    args = ["club", str(players), str(games), "--config", str(rules)]
    _refused([*args, "--output", str(games)], "--output", games, f"the input {games}")
    _refused([*args, "--output", str(rules)], "--output", rules, "the --config file")
