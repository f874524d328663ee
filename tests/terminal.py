"""Run the real ``lichess-elo`` in a pseudo-terminal of a given size (the ``pty_cli`` fixture
of tests/runners.py).

The child gets a pty as stdin, stdout and stderr, in its own session and process group
(so ``os.killpg`` reaches it and its workers as Ctrl-C in a shell would). Output is read
from the pty master; ANSI escapes (colours, progress-bar redraws) are removed for checks.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

#: Which of the child's streams are the pty (:func:`start`).
Streams = Literal["all", "stdout", "stdin+stderr"]

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>]")


def strip_ansi(text: str) -> str:
    """``text`` without escape sequences and carriage returns."""
    return _ANSI.sub("", text).replace("\r", "")


@dataclass
class PtyRun:
    """A running ``lichess-elo`` in a pty: ``wait_for`` output, ``interrupt``, ``finish``."""

    process: subprocess.Popen[bytes]
    master: int
    raw: bytearray = field(default_factory=bytearray)

    @property
    def text(self) -> str:
        """Everything shown so far, escapes removed."""
        return strip_ansi(self.raw.decode("utf-8", errors="replace"))

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not chunk:
            return False
        self.raw.extend(chunk)
        return True

    def wait_for(self, found: Callable[[str], bool], timeout: float) -> bool:
        """Read until ``found(text)`` holds or ``timeout`` seconds pass (or the child ends)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if found(self.text):
                return True
            if not self._read(0.05) and self.process.poll() is not None:
                return found(self.text)
        return found(self.text)

    def interrupt(self) -> None:
        """SIGINT to the child's whole process group, as Ctrl-C in a terminal sends it."""
        os.killpg(self.process.pid, signal.SIGINT)

    def finish(self, timeout: float = 60.0) -> int:
        """Read to the end and return the exit code."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(0.1):
            pass
        code = self.process.wait(timeout=max(1.0, deadline - time.monotonic()))
        with contextlib.suppress(OSError):
            os.close(self.master)
        return code


def start(
    args: Sequence[str],
    *,
    width: int,
    env: dict[str, str],
    cwd: Path | None = None,
    height: int = 50,
    on_pty: Streams = "all",
) -> PtyRun:
    """Start ``lichess-elo ARGS`` (the installed package, via ``python -m``) in a pty of
    ``width`` columns and ``height`` lines; no pager unless ``env`` names one
    (``LICHESS_ELO_PAGER``), so long output is read whole from the pty. ``on_pty``: which
    streams are the pty: ``"all"``; ``"stdout"`` (stdin and stderr are ``/dev/null``: no
    progress shows); ``"stdin+stderr"`` (stdout is a pipe, ``process.stdout``, read after
    the end: for small outputs only)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
    full_env = {**os.environ, "LICHESS_ELO_PAGER": "cat", **env, "TERM": "xterm-256color"}
    full_env.pop("COLUMNS", None)
    full_env.pop("LINES", None)
    other = subprocess.DEVNULL if on_pty == "stdout" else slave
    process = subprocess.Popen(
        [sys.executable, "-m", "lichess_elo", *args],
        stdin=other,
        stdout=subprocess.PIPE if on_pty == "stdin+stderr" else slave,
        stderr=other,
        env=full_env,
        cwd=cwd,
        start_new_session=True,  # its own session: the pty is its controlling terminal
    )
    os.close(slave)
    return PtyRun(process, master)


def run(
    args: Sequence[str],
    *,
    width: int,
    env: dict[str, str],
    cwd: Path | None = None,
    timeout: float = 120.0,
) -> tuple[int, str]:
    """Run to the end in a pty of ``width`` columns: (exit code, screen text)."""
    proc = start(args, width=width, env=env, cwd=cwd)
    code = proc.finish(timeout)
    return code, proc.text
