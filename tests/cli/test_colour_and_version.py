"""Colour where it helps: on a terminal errors are red and warnings
yellow, never with ``NO_COLOR`` or ``--no-color`` or on a pipe; ``-V`` is ``--version``;
a command typo gets its suggestion once."""

from __future__ import annotations

import pytest

from lichess_elo import __version__
from tests.runners import Cli, pty_run, run_cli

RED = "\x1b[1;31merror:\x1b[0m"


@pytest.fixture(autouse=True)
def _colour_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller's ``NO_COLOR`` does not reach the runs below."""
    monkeypatch.delenv("NO_COLOR", raising=False)


def _pty(args: list[str], env: dict[str, str]) -> str:
    """stderr and stdout of ``lichess-elo ARGS`` on a pseudo-terminal, escapes kept."""
    proc = pty_run.start(args, width=100, env=env)
    proc.finish(60)
    return proc.raw.decode("utf-8", errors="replace")


def test_error_is_red_on_a_terminal() -> None:
    screen = _pty(["calc", "1500", "1400:x"], {})
    assert f"lichess-elo: {RED} game '1400:x'" in screen


@pytest.mark.parametrize(
    ("args", "env"),
    [(["--no-color", "calc", "1500", "1400:x"], {}),
     (["calc", "1500", "1400:x", "--no-color"], {}),
     (["calc", "1500", "1400:x"], {"NO_COLOR": "1"})],
)  # fmt: skip
def test_no_colour_when_asked(args: list[str], env: dict[str, str]) -> None:
    screen = _pty(args, env)
    assert "lichess-elo: error: game '1400:x'" in screen
    assert "\x1b[" not in screen


def test_no_colour_on_a_pipe() -> None:
    done = run_cli("calc", "1500", "1400:x", env={"TERM": "xterm"})
    assert done.returncode == 2
    assert done.stderr.startswith("lichess-elo: error: game '1400:x'")


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_short_version(cli: Cli, flag: str) -> None:
    out = cli([flag])
    assert out.exit_code == 0 and out.output == f"lichess-elo {__version__}\n"


@pytest.mark.parametrize(
    ("args", "suggestion"), [(["reprot"], "'report'"), (["db", "lsit"], "'list'")]
)
def test_typo_suggested_once(args: list[str], suggestion: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stderr.count("Did you mean") == 1, done.stderr
    assert f"Did you mean {suggestion}?" in done.stderr
