"""``--html FILE`` refused before any work, in one line, like ``--output`` (exit 2), and
written whole through the one writer (no browser needed here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import DATA
from tests.runners import run_cli

REPORT = ["report", "OnBoard247", "--replay", "cassettes/onboard247.yaml", "--quiet"]
CLUB = DATA / "club"


def _env(tmp_path: Path) -> dict[str, str]:
    return {"LICHESS_ELO_CACHE_DIR": str(tmp_path / "cache")}


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("missing/page.html", "the folder {tmp}/missing does not exist"),
        (".", "a folder, not a file; give a file name"),
        ("cassettes/onboard247.yaml", "is the --replay cassette, which this run reads"),
    ],
)
def test_report_refuses_a_path_it_cannot_write(tmp_path: Path, where: str, words: str) -> None:
    target = where if where.startswith("cassettes") else str(tmp_path / where)
    done = run_cli(*REPORT, "--html", target, env=_env(tmp_path))
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"lichess-elo: error: --html {target}")
    assert words.format(tmp=tmp_path) in line
    assert "Traceback" not in done.stderr


def test_report_refuses_the_output_file_as_the_page(tmp_path: Path) -> None:
    same = str(tmp_path / "both")
    done = run_cli(*REPORT, "--format", "json", "--output", same, "--html", same,
                   env=_env(tmp_path))  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        f"lichess-elo: error: --html {same} is also the --output file; give another file name\n"
    )
    assert not Path(same).exists()


def test_report_page_replaces_a_file_whole(tmp_path: Path) -> None:
    page = tmp_path / "me.html"
    page.write_text("old", "utf-8")
    done = run_cli(*REPORT, "--html", str(page), env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    text = page.read_text("utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.endswith("</html>\n")
    # nothing outside the file: no src= or href= to anything but Lichess games and FIDE
    assert " src=" not in text
    assert [p.name for p in tmp_path.iterdir() if p.name != "cache"] == ["me.html"]
    assert "blitz" in done.stdout  # the terminal output is still printed


def test_club_refuses_an_input_as_the_page(tmp_path: Path) -> None:
    games = str(CLUB / "games.csv")
    done = run_cli("club", str(CLUB / "players.csv"), games, "--html", games, env=_env(tmp_path))
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()[-1:]
    assert line.startswith(f"lichess-elo: error: --html {games} is the input")
