"""The suite's one way to run ``lichess-elo``, as fixtures (registered by tests/conftest.py).

* ``cli`` — in-process, typer's ``CliRunner`` (:func:`invoke`): exit code, ``stdout`` and
  ``stderr`` apart (``output`` is both, interleaved); ``env``, ``cwd`` and ``input``.
* ``subprocess_cli`` — a real ``python -m lichess_elo`` with pipes (:func:`run_cli`), for
  what only a process shows: exit codes of signals, ``os._exit``, start-up imports; and
  :func:`spawn` for one that runs beside the test.
* ``pty_cli`` — a real process in a pseudo-terminal of a given width and height
  (``tests/terminal.py``): the screen text, Ctrl-C to the process group.

No test module builds a ``CliRunner``, opens a pty or starts the program itself
(tests/unit/test_suite_structure.py checks it): a special need is a parameter here. The
plain functions are for module-level helpers and hypothesis tests (which cannot take
function-scoped fixtures). Under ``coverage run`` every child process measures itself
(``[tool.coverage.run] patch`` in pyproject.toml; an explicit environment keeps coverage's
variables, see :func:`_environment`).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from tests import terminal
from tests.helpers import REPO

#: The type of the ``cli`` fixture (:func:`invoke`), for test signatures.
Cli = Callable[..., Result]

#: ``python -m lichess_elo``: the installed package, as the ``lichess-elo`` script runs it.
PROGRAM = (sys.executable, "-m", "lichess_elo")


def invoke(
    args: Sequence[str],
    *,
    env: Mapping[str, str | None] | None = None,
    input: str | bytes | None = None,
    cwd: Path | None = None,
    catch_exceptions: bool = True,
    **extra: Any,
) -> Result:
    """``lichess-elo ARGS`` in this process (typer's ``CliRunner``); ``env`` is added to
    (``None`` values remove) this process's environment for the call; ``cwd`` is the
    working folder during the call; ``extra`` goes to click's ``main`` (``terminal_width``,
    ``color``)."""
    from lichess_elo.cli import app

    chdir = contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext()
    with chdir:
        return CliRunner().invoke(
            app, list(args), env=env, input=input, catch_exceptions=catch_exceptions, **extra
        )


def _environment(env: Mapping[str, str] | None, inherit: bool) -> dict[str, str]:
    """The child's environment: this one without ``LICHESS*`` and ``COLUMNS`` plus ``env``;
    or (``inherit=False``) ``env`` alone, plus coverage's variables when they are set."""
    if inherit:
        base = {k: v for k, v in os.environ.items() if not k.startswith(("LICHESS", "COLUMNS"))}
    else:
        base = {k: v for k, v in os.environ.items() if k.startswith("COVERAGE_PROCESS_")}
    return {**base, **(env or {})}


def run_cli(
    *args: str,
    env: Mapping[str, str] | None = None,
    inherit_env: bool = True,
    prefix: Sequence[str] = (),
    cwd: Path | None = REPO,
    input: str | bytes | None = None,
    text: bool = True,
    timeout: float = 60,
) -> subprocess.CompletedProcess[Any]:
    """``python -m lichess_elo ARGS`` in a real process (from the repository unless ``cwd``),
    to its end: exit code, stdout and stderr (``str``, or ``bytes`` with ``text=False``).
    The environment is :func:`_environment`'s; ``prefix`` goes before the interpreter
    (e.g. ``setpriv ...``); stdin is ``input`` (else the test's own)."""
    return subprocess.run(
        [*prefix, *PROGRAM, *args],
        capture_output=True,
        text=text,
        input=input,
        timeout=timeout,
        cwd=cwd,
        env=_environment(env, inherit_env),
        check=False,
    )


def spawn(
    *args: str,
    env: Mapping[str, str] | None = None,
    inherit_env: bool = True,
    cwd: Path | None = REPO,
    stdin: int | IO[Any] | None = None,
    stdout: int | IO[Any] | None = subprocess.PIPE,
    stderr: int | IO[Any] | None = subprocess.PIPE,
    text: bool = False,
    **popen: Any,
) -> subprocess.Popen[Any]:
    """``python -m lichess_elo ARGS`` started beside the test (the caller reads, signals and
    waits for it); environment as :func:`run_cli`'s; ``popen`` goes to ``Popen``
    (``preexec_fn``...)."""
    return subprocess.Popen(
        [*PROGRAM, *args],
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        text=text,
        cwd=cwd,
        env=_environment(env, inherit_env),
        **popen,
    )


class PtyCli:
    """The ``pty_cli`` fixture: ``pty_cli(args, width=...)`` runs to the end and returns
    (exit code, screen text); ``pty_cli.start(...)`` returns the running
    :class:`terminal.PtyRun` (``wait_for``, ``interrupt`` for Ctrl-C, ``finish``)."""

    def start(
        self,
        args: Sequence[str],
        *,
        width: int,
        height: int = 50,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        on_pty: terminal.Streams = "all",
    ) -> terminal.PtyRun:
        """Start ``lichess-elo ARGS`` in a ``width`` × ``height`` pty (see
        :func:`terminal.start`)."""
        return terminal.start(
            args, width=width, height=height, env=dict(env or {}), cwd=cwd, on_pty=on_pty
        )

    def __call__(
        self,
        args: Sequence[str],
        *,
        width: int,
        height: int = 50,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        on_pty: terminal.Streams = "all",
        timeout: float = 120.0,
    ) -> tuple[int, str]:
        """Run to the end in a pty: (exit code, screen text without escapes)."""
        run = self.start(args, width=width, height=height, env=env, cwd=cwd, on_pty=on_pty)
        code = run.finish(timeout)
        return code, run.text


#: The one :class:`PtyCli` (it holds no state).
pty_run = PtyCli()


@pytest.fixture
def cli() -> Cli:
    """The in-process runner, :func:`invoke`."""
    return invoke


@pytest.fixture
def subprocess_cli() -> Callable[..., subprocess.CompletedProcess[Any]]:
    """The real-process runner, :func:`run_cli`."""
    return run_cli


@pytest.fixture
def pty_cli() -> Iterator[PtyCli]:
    """The pseudo-terminal runner, :class:`PtyCli`."""
    yield pty_run
