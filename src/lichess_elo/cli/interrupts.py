"""Ctrl-C for the command line: one exception the CLI turns into one line and exit 130.

typer turns ``KeyboardInterrupt`` into a silent exit 130 and click prints a blank line, so
the CLI raises its own ``Interrupted`` (a ``BaseException``: no ``except Exception`` in the
library swallows it, and every ``finally`` still runs, writing the finished replay batch and
closing the caches). A second Ctrl-C while that cleanup runs is ignored, so the cleanup is
never cut short and no second traceback appears. Pool workers ignore SIGINT themselves
(``sources.replay_cache``).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Interrupted(BaseException):
    """Ctrl-C (SIGINT) reached the command."""


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the cleanup runs to its end
    raise Interrupted


@contextmanager
def interrupts_raise() -> Iterator[None]:
    """Within the block, SIGINT raises ``Interrupted`` once; the old handler comes back after."""
    previous = signal.signal(signal.SIGINT, _raise_interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
