"""Progress bars on stderr: the monthly fetch and the replay (silent when not a terminal)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from lichess_elo.output.common import err_console


@contextmanager
def replay_progress(
    quiet: bool,
) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar for replaying games (``None`` when quiet or not a terminal)."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    with Progress(
        TextColumn("replaying games"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err_console(),
        transient=True,
    ) as bar:
        task = bar.add_task("replay", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


class FetchBar:
    """Months done of the total, games so far, the last month and any wait (on stderr)."""

    def __init__(self, bar: Progress | None) -> None:
        self._bar = bar
        self._task: Any = None

    def start(self, total_months: int) -> None:
        """Show the bar with ``total_months`` steps."""
        if self._bar is not None:
            self._task = self._bar.add_task("months", total=total_months, games=0, note="")

    def month(self, label: str, done: int, games_so_far: int, from_cache: bool) -> None:
        """Advance to ``done`` months; ``label`` is the month just read."""
        if self._bar is not None and self._task is not None:
            note = "(cache)" if from_cache else ""
            self._bar.update(
                self._task, completed=done, games=games_so_far, description=label, note=note
            )

    def waiting(self, seconds: float, reason: str) -> None:
        """Show a wait (HTTP 429 or a retry backoff)."""
        if self._bar is not None and self._task is not None:
            # drawn at once: the wait is shown even before the next timed redraw
            self._bar.update(self._task, note=f"waiting {seconds:.3g} s: {reason}", refresh=True)


@contextmanager
def fetch_progress(quiet: bool) -> Iterator[FetchBar]:
    """A progress bar on stderr; silent when ``quiet`` or stderr is not a terminal."""
    err = err_console()
    if quiet or not err.is_terminal:
        yield FetchBar(None)
        return
    bar = Progress(
        TextColumn("{task.description:>8}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("months  {task.fields[games]} games {task.fields[note]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )
    with bar:
        yield FetchBar(bar)
