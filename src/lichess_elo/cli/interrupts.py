"""Ctrl-C for the command line: one exception the CLI turns into one line and exit 130.

typer turns ``KeyboardInterrupt`` into a silent exit 130 and click prints a blank line, so
the CLI raises its own ``Interrupted`` (a ``BaseException``: no ``except Exception`` in the
library swallows it, and every ``finally`` still runs, writing the finished replay batch and
closing the caches). A second Ctrl-C while that cleanup runs is ignored, so the cleanup is
never cut short and no second traceback appears. Pool workers ignore SIGINT themselves
(``sources.cache.replay``).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import typer


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


@contextmanager
def interruptible() -> Iterator[None]:
    """For the ``db`` commands: Ctrl-C (or DuckDB's own interrupt of a running query): one
    line, exit 130.

    Every month is committed in one transaction, so what was committed stays whole and the
    month being written is rolled back.
    """
    try:
        yield
    except KeyboardInterrupt:
        typer.echo("lichess-elo: interrupted", err=True)
        raise typer.Exit(130) from None
    except Exception as exc:
        import duckdb

        interrupted = isinstance(exc, duckdb.InterruptException) or (
            isinstance(exc, RuntimeError) and "interrupted" in str(exc).lower()
        )
        if not interrupted:
            raise
        typer.echo("lichess-elo: interrupted", err=True)
        raise typer.Exit(130) from None
