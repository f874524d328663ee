"""calc, glicko and club --player fit the terminal: in a real
pseudo-terminal of 80 and 100 columns no line is wider than the terminal, and every word
and number the piped output prints appears whole on screen (the lines only wrap between
words; the tables may take their compact headers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runners import PtyCli, pty_run, run_cli

REPO = Path(__file__).resolve().parent.parent.parent
CLUB = REPO / "tests" / "data" / "club"
WIDTHS = (80, 100)


def _piped(args: list[str], cwd: Path) -> str:
    done = run_cli(*args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _check(args: list[str], width: int, tmp_path: Path, headers: set[str]) -> str:
    cwd = CLUB if args[0] == "club" else REPO
    piped = _piped(args, cwd)
    code, screen = pty_run(args, width=width, env={"LICHESS_ELO_CACHE_DIR": str(tmp_path)}, cwd=cwd)
    assert code == 0, screen
    for line in screen.splitlines():
        assert len(line) <= width, f"{len(line)} > {width}: {line!r}"
        assert line == line.rstrip(), f"trailing space: {line!r}"
    shown = set(screen.split())
    words = [w for w in piped.split() if w.strip("─") and w not in headers]  # rules differ
    missing = [w for w in words if w not in shown]
    assert not missing, f"cut or missing at {width} columns: {missing[:10]}"
    return screen


@pytest.mark.parametrize("width", WIDTHS)
def test_calc_period_fits(width: int, tmp_path: Path) -> None:
    args = ["calc", "1500", "1000:1", "2900:d", "1450:l", "--games", "12"]
    screen = _check(args, width, tmp_path, set())
    # The title is wider than 80 columns: "400-point" stays one word on the screen.
    assert "400-point" in screen.split()
    # FIDE 8.3.3: K 40 (fewer than 30 games); 1000 is 500 below, counted as 400 (8.3.1),
    # so PD 0.92 and +0.08 x 40 = +3.2; the rounded total -2.8 gives 1500 - 3 = 1497.
    assert "+3.2" in screen.split() and "1497" in screen.split()


@pytest.mark.parametrize("width", WIDTHS)
def test_calc_initial_fits(width: int, tmp_path: Path) -> None:
    args = ["calc", "--unrated", "1902:0.5", "1877:0.5", "1884:1", "2012:0", "1832:1"]
    screen = _check(args, width, tmp_path, set())
    # FIDE 8.2 (2024): (9507 + 2 x 1800) / 7 = 1872.43; p = 4/7 = 0.57 -> dp +50 -> 1922.
    assert "1872.43" in screen.split() and "1922" in screen.split()


# Compact headers the glicko table takes at 80 columns instead of the long ones.
_GLICKO_HEADERS = {"Volatility", "after", "Lichess", "shows", "→", "Rating", "RD"}


@pytest.mark.parametrize("width", WIDTHS)
def test_glicko_fits(width: int, tmp_path: Path) -> None:
    args = ["glicko", "1500/60/0.06", "1600/80/0.06", "1-0", "--perf", "blitz",
            "--days-white", "2", "--days-black", "30"]  # fmt: skip
    screen = _check(args, width, tmp_path, _GLICKO_HEADERS)
    # "Lichess shows" keeps the rating and its ratingDiff together on one line.
    assert "1512 (+12)" in screen and "1576 (-24)" in screen


@pytest.mark.parametrize("width", WIDTHS)
def test_club_player_fits(width: int, tmp_path: Path) -> None:
    args = ["club", "players.csv", "games.csv", "--config", "club.toml", "-q",
            "--player", "Ania Nowak"]  # fmt: skip
    screen = _check(args, width, tmp_path, set())
    assert "Spring Club Cup" in screen


HELP_COMMANDS = [["report"], ["club"], ["calc"], ["games"], ["fetch"], ["glicko"],
                 ["db", "rate"], ["db", "compare"], ["db", "list"]]  # fmt: skip


@pytest.mark.parametrize("command", HELP_COMMANDS)
def test_help_keeps_option_names_whole(pty_cli: PtyCli, command: list[str], tmp_path: Path) -> None:
    # At 80 columns rich cut "--count-time-control" to "--count-time-cont…" and env var
    # names and URLs in the help text the same way.
    code, screen = pty_cli([*command, "--help"], width=80, env={}, cwd=REPO)
    assert code == 0, screen
    assert "…" not in screen
    for line in screen.splitlines():
        assert len(line) <= 80, line
    if command == ["club"]:
        assert "--count-time-control " in screen


def test_notes_split_between_words_on_a_terminal(pty_cli: PtyCli, tmp_path: Path) -> None:
    args = ["club", "players.csv", "games.csv", "--config", "club.toml", "--player", "Ania Nowak"]
    code, screen = pty_cli(args, width=80, env={"LICHESS_ELO_CACHE_DIR": str(tmp_path)},
                                cwd=CLUB)  # fmt: skip
    assert code == 0, screen
    assert all(len(line) <= 80 for line in screen.splitlines())
    # The 150-column note is whole once its lines are joined, and each word stays whole.
    note = ("lichess-elo: note: games.csv: ignored the rating columns (white rating, black "
            "rating); ratings come from the players file and the games")  # fmt: skip
    assert note in " ".join(screen.split())
    assert set(note.split()) <= set(screen.split())
    # In a pipe the note stays one line.
    done = run_cli(*args, cwd=CLUB)
    assert done.returncode == 0, done.stderr
    assert note in done.stderr.splitlines()
