"""Long output goes through a pager in a terminal, as git and gh do.

The pager is a small script that records what it was given (and ``LESS``); the runs are
real ``lichess-elo`` processes in a pseudo-terminal of 50 lines. The games list of the
OnBoard247 cassette (221 games) is a line a game and more (longer than the terminal); its
summary report is under 30 lines.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from lichess_elo.cli.pager import pager_command
from tests import terminal
from tests.runners import PtyCli, run_cli

REPO = Path(__file__).resolve().parent.parent.parent
CASSETTE = str(REPO / "cassettes" / "onboard247.yaml")
GAMES = ["games", "OnBoard247", "--replay", CASSETTE, "-q"]
SUMMARY = ["report", "OnBoard247", "--replay", CASSETTE, "--view", "summary", "-q"]


@pytest.fixture()
def recorder(tmp_path: Path) -> Path:
    """A pager that writes what it reads to ``paged.txt`` and ``$LESS`` to ``less.txt``."""
    script = tmp_path / "record-pager"
    script.write_text(
        "#!/bin/sh\n"
        f'cat > "{tmp_path}/paged.txt"\n'
        f'printf "%s" "${{LESS-unset}}" > "{tmp_path}/less.txt"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.update(more)
    return env


def test_long_output_in_a_terminal_goes_through_the_pager(
    pty_cli: PtyCli, recorder: Path, tmp_path: Path
) -> None:
    # (PAGER is read too, after LICHESS_ELO_PAGER: test_pager_command)
    env = _env(tmp_path, LICHESS_ELO_PAGER=str(recorder))
    code, screen = pty_cli(GAMES, width=80, env=env, timeout=180)
    assert code == 0, screen
    paged = (tmp_path / "paged.txt").read_text()
    # What the pager got is the table laid out for the 80-column terminal...
    assert len(paged.splitlines()) > 50
    assert max(len(line) for line in terminal.strip_ansi(paged).splitlines()) <= 80
    # ...and the same as the run without a pager shows; none of it reached the screen.
    code, direct = pty_cli([*GAMES, "--no-pager"], width=80, env=env, timeout=180)
    assert code == 0
    assert terminal.strip_ansi(paged).splitlines() == direct.splitlines()
    assert direct.splitlines()[-1] not in screen


def test_less_gets_frx_unless_less_is_set(pty_cli: PtyCli, recorder: Path, tmp_path: Path) -> None:
    env = _env(tmp_path, LICHESS_ELO_PAGER=str(recorder))
    assert pty_cli(GAMES, width=80, env=env, timeout=180)[0] == 0
    assert (tmp_path / "less.txt").read_text() == "FRX"
    env["LESS"] = "-S"
    assert pty_cli(GAMES, width=80, env=env, timeout=180)[0] == 0
    assert (tmp_path / "less.txt").read_text() == "-S"


def test_short_output_no_pager_option_and_output_file_skip_the_pager(
    pty_cli: PtyCli, recorder: Path, tmp_path: Path
) -> None:
    env = _env(tmp_path, LICHESS_ELO_PAGER=str(recorder))
    code, screen = pty_cli(SUMMARY, width=80, env=env, timeout=180)
    assert code == 0 and "Under FIDE rules your 130 blitz games" in screen  # it fits: shown
    code, screen = pty_cli([*GAMES, "--no-pager"], width=80, env=env, timeout=180)
    assert code == 0 and len(screen.splitlines()) > 221
    out = tmp_path / "games.txt"
    code, screen = pty_cli([*GAMES, "--output", str(out)], width=80, env=env, timeout=180)
    assert code == 0 and len(out.read_text().splitlines()) > 221
    assert not (tmp_path / "paged.txt").exists()


def test_a_pipe_never_pages(recorder: Path, tmp_path: Path) -> None:
    done = run_cli(*GAMES, env=_env(tmp_path, LICHESS_ELO_PAGER=str(recorder)), timeout=180)
    assert done.returncode == 0 and len(done.stdout.splitlines()) > 221
    assert not (tmp_path / "paged.txt").exists()


def test_a_missing_pager_prints_directly(pty_cli: PtyCli, tmp_path: Path) -> None:
    env = _env(tmp_path, LICHESS_ELO_PAGER=str(tmp_path / "no-such-pager"))
    code, screen = pty_cli(GAMES, width=80, env=env, timeout=180)
    assert code == 0 and len(screen.splitlines()) > 221, screen
    assert "no-such-pager" not in screen


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, ["less"]),
        ({"PAGER": "less -R"}, ["less", "-R"]),
        ({"PAGER": "less", "LICHESS_ELO_PAGER": "cat"}, None),  # ours first: none
        ({"PAGER": ""}, None),
        ({"PAGER": "cat"}, None),
        ({"PAGER": "/no/such/pager"}, None),
        ({"PAGER": "'unclosed"}, None),
    ],
)
def test_pager_command(env: dict[str, str], expected: list[str] | None) -> None:
    if expected is not None and not os.access("/usr/bin/less", os.X_OK):
        pytest.skip("needs less")
    assert pager_command(env) == expected
