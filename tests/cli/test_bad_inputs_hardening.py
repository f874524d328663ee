"""Bad input is exit 2 in one line: dates out of range, files that are not
UTF-8 (named with the line, and the accepted encodings); cassettes that record a 429 or
5xx, or carry a damaged interaction, fail at once naming the cassette and the request;
the token can come from a file.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.fake_lichess import FakeLichess
from tests.runners import Cli, run_cli

REPO = Path(__file__).resolve().parents[2]
CASSETTE = REPO / "cassettes" / "onboard247.yaml"
CLUB = REPO / "tests" / "data" / "club"
JANUARY = "since=1672531200000"  # 2023-01-01 00:00 UTC in ms


def _one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("lichess-elo: error:") and "unexpected" not in lines[0]
    return lines[0]


@pytest.mark.parametrize("option", ["--until", "--since"])
@pytest.mark.parametrize("value", ["0001-01", "9999-12"])
def test_dates_out_of_range_are_exit_2(cli: Cli, tmp_path: Path, option: str, value: str) -> None:
    args = ["fetch", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(tmp_path)]
    result = cli([*args, option, value])
    assert result.exit_code == 2, result.output
    line = _one_error_line(result.stderr)
    assert f"{option} {value}" in line and "out of range" in line


def test_a_100_kb_username_is_shown_cut_with_its_length(cli: Cli, tmp_path: Path) -> None:
    # It was echoed whole: a 100,000-character line. The first 60 characters are shown,
    # then "…" and the length, so the line stays readable and still says what was wrong.
    name = "a" * 100_000
    result = cli(["report", name, "--offline", "--cache-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert _one_error_line(result.stderr) == (
        "lichess-elo: error: USERNAME '" + "a" * 60 + "…' (100,000 characters) is not a "
        "Lichess username; expected 2-30 letters, digits, '_' or '-'"
    )
    # a value as long as the limit is shown whole (60 characters: not a username either)
    result = cli(["report", "b" * 60, "--offline", "--cache-dir", str(tmp_path)])
    assert "'" + "b" * 60 + "' is not a Lichess username" in _one_error_line(result.stderr)


LATIN1_NAME = "Zo\xeb Brontë".encode("latin-1")  # 0xeb is "ë" in Latin-1, not UTF-8


def test_a_latin1_club_csv_names_file_and_line(cli: Cli, tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    text = (CLUB / "games.csv").read_bytes().splitlines(keepends=True)
    text.insert(3, b"2026-03-07," + LATIN1_NAME + b",Bartek Lis,1-0,Spring Club Cup,15+10,,\n")
    games.write_bytes(b"".join(text))
    result = cli(["club", str(CLUB / "players.csv"), str(games)])
    assert result.exit_code == 2, result.output
    line = _one_error_line(result.stderr)
    assert f"{games}:4:" in line and "not UTF-8" in line and "0xeb" in line
    assert "with or without a byte-order mark" in line


def test_a_latin1_club_toml_names_file_and_line(cli: Cli, tmp_path: Path) -> None:
    config = tmp_path / "club.toml"
    config.write_bytes(b'update = "event"\n# Tr\xe9sorier: Zo\xeb\nmethod = "formula"\n')
    result = cli(
        ["club", str(CLUB / "players.csv"), str(CLUB / "games.csv"), "--config", str(config)]
    )
    assert result.exit_code == 2, result.output
    line = _one_error_line(result.stderr)
    assert f"{config}:2:" in line and "not UTF-8" in line


def test_a_latin1_club_pgn_names_file_and_line(cli: Cli, tmp_path: Path) -> None:
    pgn = tmp_path / "event.pgn"
    pgn.write_bytes((CLUB / "seed-event.pgn").read_bytes().replace(b"Ania", LATIN1_NAME, 1))
    result = cli(["club", str(pgn)])
    assert result.exit_code == 2, result.output
    assert f"{pgn}:5:" in _one_error_line(result.stderr)  # [White "..."] is line 5


def test_a_latin1_pgn_option_file_names_file_and_line(
    cli: Cli, tmp_path: Path, data_dir: Path
) -> None:
    pgn = tmp_path / "games.pgn"
    source = (data_dir / "lichess" / "game-export-q7ZvsdUF.pgn").read_bytes()
    lines = source.splitlines(keepends=True)
    lines.insert(1, b'[Annotator "' + LATIN1_NAME + b'"]\n')
    pgn.write_bytes(b"".join(lines))
    result = cli(["games", "Lance5500", "--pgn", str(pgn)])
    assert result.exit_code == 2, result.output
    line = _one_error_line(result.stderr)
    assert f"{pgn}:2:" in line and "UTF-8" in line


def _cassette_with(tmp_path: Path, change: Any) -> Path:
    data = yaml.safe_load(CASSETTE.read_text(encoding="utf-8"))
    for item in data["interactions"]:
        if JANUARY in item["request"]["uri"]:
            change(item)
    path = tmp_path / "changed.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _replay(cassette: Path, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    args = ["fetch", "OnBoard247", "--replay", str(cassette), "--cache-dir", str(tmp_path)]
    return run_cli(*args, env=env)


@pytest.mark.parametrize(("code", "message"), [(429, "Too Many Requests"), (503, "Unavailable")])
def test_a_recorded_429_or_5xx_fails_at_once(tmp_path: Path, code: int, message: str) -> None:
    def status(item: dict[str, Any]) -> None:
        item["response"]["status"] = {"code": code, "message": message}

    cassette = _cassette_with(tmp_path, status)
    # An hour's wait: a cassette never answers differently, so it must not be waited on. A
    # run that waited would end in the subprocess timeout, not in this assertion's answer.
    result = _replay(cassette, tmp_path, LICHESS_ELO_RETRY_WAIT="3600")
    assert result.returncode == 1
    line = _one_error_line(result.stderr)
    assert str(cassette) in line and f"HTTP {code}" in line and "month 2023-01" in line


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (lambda item: item["response"].update(body={"string": '{"id": "cut'}), "not valid JSON"),
        (lambda item: item["response"]["status"].update(code="two hundred"), "status"),
        (lambda item: item["response"].update(body=7), "body"),
    ],
)
def test_a_damaged_interaction_names_the_cassette(
    cli: Cli, tmp_path: Path, change: Any, fault: str
) -> None:
    cassette = _cassette_with(tmp_path, change)
    args = ["fetch", "OnBoard247", "--replay", str(cassette), "--cache-dir", str(tmp_path)]
    result = cli(args)
    assert result.exit_code in (1, 2)
    line = _one_error_line(result.stderr)
    assert str(cassette) in line and fault in line


def test_token_help_warns_about_the_process_list(cli: Cli) -> None:
    result = cli(["fetch", "--help"], env={"COLUMNS": "200"})
    assert "process list" in result.stdout and "--token-file" in result.stdout


def test_token_file(cli: Cli, onboard_server: FakeLichess, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("lip_FromAFile12345\n")  # the line break an editor leaves
    cache = tmp_path / "cache"
    args = ["fetch", "OnBoard247", "--api-url", onboard_server.url, "--cache-dir", str(cache)]
    result = cli([*args, "--until", "2023-03", "--token-file", str(token_file)])
    assert result.exit_code == 0, result.output
    assert onboard_server.requests[0].headers["Authorization"] == "Bearer lip_FromAFile12345"
    assert "lip_FromAFile12345" not in result.output
    stored = b"".join(p.read_bytes() for p in cache.iterdir() if p.is_file())
    assert b"OnBoard247" in stored  # the cache holds the answers, not the token
    assert b"lip_FromAFile12345" not in stored  # never written anywhere


def test_a_missing_token_file_is_exit_2(cli: Cli, tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    result = cli(["fetch", "OnBoard247", "--token-file", str(missing)])
    assert result.exit_code == 2
    assert str(missing) in _one_error_line(result.stderr)
