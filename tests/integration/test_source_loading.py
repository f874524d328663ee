"""Where a command's games come from, checked once for every command: the ``--since`` /
``--until`` range, the ``--pgn`` file, the perf and the username (real CLI, real files,
the fake Lichess server over real HTTP)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from lichess_elo.app.games import ListSettings, list_games
from lichess_elo.cli.options import parse_dates
from lichess_elo.core.games import check_date_range
from lichess_elo.errors import BadInput
from lichess_elo.sources.lichess import LichessSettings, fetch_games
from lichess_elo.sources.load import load_games
from tests.fake_lichess import FakeLichess
from tests.helpers import REPO
from tests.runners import invoke

PGN = REPO / "tests" / "data" / "lichess" / "game-export-q7ZvsdUF.pgn"
CASSETTE = REPO / "cassettes" / "onboard247.yaml"


def _run(*args: str) -> Any:
    return invoke(list(args))


# --- 1. an empty or reversed --since/--until, whatever the source ----------------------


@pytest.mark.parametrize("command", ["games", "report", "fetch"])
@pytest.mark.parametrize(
    ("since", "until"), [("2024-05", "2024-01"), ("2024-01", "2024-01"), ("2024-01-02", "2024-01")]
)
def test_empty_or_reversed_range_is_refused_by_every_command(
    command: str, since: str, until: str, tmp_path: Path
) -> None:
    source = ["--pgn", str(PGN)] if command != "fetch" else ["--replay", str(CASSETTE)]
    result = _run(
        command,
        "OnBoard247",
        *source,
        "--cache-dir",
        str(tmp_path),
        "--since",
        since,
        "--until",
        until,
    )
    assert result.exit_code == 2, result.output
    # The message shows both ends as days: a month stands for its first day.
    first, stop = (text if len(text) == 10 else f"{text}-01" for text in (since, until))
    assert result.stderr == (f"lichess-elo: error: --since {first} is not before --until {stop}\n")
    assert result.stdout == ""


def test_a_range_of_one_day_is_fine() -> None:
    assert parse_dates("2024-01-01", "2024-01-02") == (date(2024, 1, 1), date(2024, 1, 2))
    assert parse_dates(None, "2024-01") == (None, date(2024, 1, 1))
    check_date_range(date(2024, 1, 1), date(2024, 1, 2))  # one day: fine
    with pytest.raises(BadInput, match=r"^since 2024-02-01 is not before until 2024-01-15$"):
        check_date_range(*parse_dates(" 2024-02 ", "2024-01-15"))


def test_fetch_games_as_a_library_gives_no_games_for_an_empty_range(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    # The range is checked where the options are parsed; the library call itself just
    # fetches no month for it (the profile is still read: the name is checked).
    source = LichessSettings(api_url=onboard_server.url, cache_dir=tmp_path)
    result = fetch_games("OnBoard247", source, since=date(2023, 2, 1), until=date(2023, 1, 1))
    assert result.games == () and result.months_total == 0
    assert [r.path for r in onboard_server.requests] == ["/api/user/onboard247"]


# --- 2. one loader and one message for a --pgn file that cannot be read ------------------


@pytest.mark.parametrize("command", ["games", "report"])
def test_missing_pgn_file_same_message_in_both_commands(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "nope.pgn"
    result = _run(command, "someone", "--pgn", str(missing), "--cache-dir", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == f"lichess-elo: error: cannot read --pgn {missing}: no such file\n"


@pytest.mark.parametrize("command", ["games", "report"])
def test_pgn_folder_says_it_is_a_folder(command: str, tmp_path: Path) -> None:
    folder = tmp_path / "games.pgn"
    folder.mkdir()
    result = _run(command, "someone", "--pgn", str(folder), "--cache-dir", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == (
        f"lichess-elo: error: cannot read --pgn {folder}: it is a folder, not a file\n"
    )


def test_pgn_below_a_file_names_the_path(tmp_path: Path) -> None:
    # not a missing file nor a folder: the OS's own reason, still one line naming the path
    below = tmp_path / "plain.txt" / "x.pgn"
    below.parent.write_text("", encoding="utf-8")
    for command in ("games", "report"):
        result = _run(command, "someone", "--pgn", str(below), "--cache-dir", str(tmp_path))
        assert result.exit_code == 2
        assert result.stderr == f"lichess-elo: error: cannot read --pgn {below}: Not a directory\n"


def test_load_games_reads_a_pgn_file_oldest_first_each_game_once(tmp_path: Path) -> None:
    # the same export twice: one game
    doubled = tmp_path / "doubled.pgn"
    text = PGN.read_text(encoding="utf-8")
    doubled.write_text(text + "\n" + text, encoding="utf-8")
    loaded = load_games("Lance5500", LichessSettings(cache_dir=tmp_path), pgn_file=doubled)
    assert [g.id for g in loaded.games] == ["q7ZvsdUF"]
    assert (loaded.user, loaded.info) == ("Lance5500", None)
    listed = _run(
        "games",
        "Lance5500",
        "--pgn",
        str(doubled),
        "--cache-dir",
        str(tmp_path),
        "--format",
        "json",
    )
    assert listed.exit_code == 0, listed.output
    assert [g["id"] for g in json.loads(listed.stdout)["games"]] == ["q7ZvsdUF"]


def test_load_games_from_lichess_keeps_the_fetched_order_and_profile(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    source = LichessSettings(api_url=onboard_server.url, cache_dir=tmp_path)
    loaded = load_games("onboard247", source, until=date(2023, 2, 1))
    assert loaded.user == "OnBoard247"  # Lichess's spelling
    assert loaded.info is not None and loaded.info.id == "onboard247"
    keys = [(g.created_at, g.id) for g in loaded.games]
    assert keys == sorted(set(keys)) and len(keys) > 0


# --- 6. perf and username checked once, at the library entry, before any request ---------


def test_list_games_refuses_an_unknown_perf_before_any_request(
    fake_lichess: FakeLichess, tmp_path: Path
) -> None:
    source = LichessSettings(api_url=fake_lichess.url, cache_dir=tmp_path)
    with pytest.raises(BadInput, match="unknown perf 'blits'"):
        list_games("OnBoard247", source, ListSettings(perfs=("blits",)))
    result = _run(
        "games",
        "OnBoard247",
        "--api-url",
        fake_lichess.url,
        "--cache-dir",
        str(tmp_path),
        "--perf",
        "blits",
    )
    assert result.exit_code == 2 and "unknown perf 'blits'" in result.stderr
    assert fake_lichess.requests == []


@pytest.mark.parametrize("pgn", [False, True])
def test_a_bad_username_is_refused_on_both_paths(
    pgn: bool, fake_lichess: FakeLichess, tmp_path: Path
) -> None:
    source = ["--pgn", str(PGN)] if pgn else ["--api-url", fake_lichess.url]
    for command in ("games", "report"):
        result = _run(command, "no/such", *source, "--cache-dir", str(tmp_path))
        assert result.exit_code == 2
        assert result.stderr.startswith(
            "lichess-elo: error: USERNAME 'no/such' is not a Lichess username"
        )
    assert fake_lichess.requests == []
