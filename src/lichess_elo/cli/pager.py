"""A pager for long output in a terminal, as git and gh have.

When stdout is a terminal, what a command prints is held; once it is done, if it has more
lines than the terminal, it goes through the pager, otherwise straight to the terminal.
Never when stdout is a file or a pipe, never for ``--output``, never with ``--no-pager``.

The pager is ``$LICHESS_ELO_PAGER``, else ``$PAGER``, else ``less``; an empty value or
``cat`` means none. ``less`` gets ``LESS=FRX`` unless ``LESS`` is set (quit if it fits,
keep colours, leave the text on the screen). A pager that cannot be found or started is
skipped: the text is printed as it would be without one. While the pager runs, Ctrl-C is
the pager's (``less`` uses it); quitting the pager early is not an error.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TextIO

#: The variables that name the pager, first found first.
PAGER_VARIABLES = ("LICHESS_ELO_PAGER", "PAGER")
DEFAULT_PAGER = "less"
#: ``LESS`` when it is not set: quit at once if the text fits (-F), pass colours (-R), do
#: not clear the screen on leaving (-X).
DEFAULT_LESS = "FRX"


def pager_command(env: Mapping[str, str]) -> list[str] | None:
    """The pager's command line from ``env``, or ``None`` for no pager (empty, ``cat``,
    or a command that is not found)."""
    value = DEFAULT_PAGER
    for name in PAGER_VARIABLES:
        if name in env:
            value = env[name]
            break
    try:
        words = shlex.split(value)
    except ValueError:
        return None
    if not words or words[0] == "cat" or shutil.which(words[0]) is None:
        return None
    return words


class _Held(io.StringIO):
    """Text held for the pager; it answers as the terminal it stands for (``isatty``,
    encoding), so everything printed into it is laid out for that terminal."""

    def __init__(self, terminal: TextIO) -> None:
        super().__init__()
        self._terminal = terminal

    def isatty(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._terminal.encoding or "utf-8"


def _height(terminal: TextIO) -> int:
    try:
        return os.get_terminal_size(terminal.fileno()).lines
    except (OSError, ValueError):
        return 0


def _through_pager(text: str, command: list[str], terminal: TextIO) -> bool:
    """Show ``text`` in the pager; ``False`` if it could not be started."""
    env = dict(os.environ)
    env.setdefault("LESS", DEFAULT_LESS)
    terminal.flush()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the pager's now
    try:
        try:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, env=env)
        except OSError:
            return False
        assert process.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # the pager was left before the end
            process.stdin.write(text.encode(terminal.encoding or "utf-8", errors="replace"))
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
        process.wait()
        return True
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def paged(enabled: bool = True) -> Iterator[None]:
    """Hold what is printed on stdout and page it if it is longer than the terminal.

    ``enabled`` is ``False`` for ``--no-pager`` or ``--output``. On an error the held text
    is printed as is (no pager) and the error goes on.
    """
    terminal = sys.stdout
    command = pager_command(os.environ) if enabled and terminal.isatty() else None
    if command is None:
        yield
        return
    held = _Held(terminal)
    sys.stdout = held
    try:
        yield
    except BaseException:
        sys.stdout = terminal
        terminal.write(held.getvalue())
        terminal.flush()
        raise
    sys.stdout = terminal
    text = held.getvalue()
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines < _height(terminal) or not _through_pager(text, command, terminal):
        terminal.write(text)
        terminal.flush()
