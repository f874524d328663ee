"""Progress bars on stderr for fetching (or reading a file) and replaying (an edge module).

One rich ``Progress`` (one live display) holds both bars, so they never redraw over each
other. A bar appears only once its total is known (no ``0/?`` placeholder frame) and shows
the count, the total and an ETA once an honest one can be made (``output.progress.eta``). Nothing
is shown when quiet or when stderr is not a terminal. The bars vanish when the command ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
from rich.text import Text

from lichess_elo.output.common import err_console
from lichess_elo.output.progress.eta import Eta, clock_text


class EtaColumn(ProgressColumn):
    """``ETA 0:01:23`` once an honest estimate can be made (``output.progress.eta``: after 10 % of
    the work and 2 s, from the recent rate), nothing before (no ``-:--:--``)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._clock = clock
        self._etas: dict[Any, Eta] = {}

    def render(self, task: Any) -> Text:
        """The ETA of ``task`` (one estimate per task, fed at every redraw)."""
        eta = self._etas.setdefault(task.id, Eta(self._clock))
        remaining = eta.remaining(task.completed, task.total)
        if task.finished or remaining is None:
            return Text("")
        return Text(f"ETA {clock_text(remaining)}", style="progress.remaining")


class FetchBar:
    """Months done of the total, games so far, the last month and any wait; or, for a file,
    how much of it is read."""

    def __init__(self, bars: Bars | None) -> None:
        self._bars = bars
        self._task: Any = None
        self._reading: Any = None

    def start(self, total_months: int) -> None:
        """Show the bar with ``total_months`` steps."""
        if self._bars is not None:
            self._task = self._bars.add("fetching", total_months, "months")

    def month(self, label: str, done: int, games_so_far: int, from_cache: bool) -> None:
        """Advance to ``done`` months; ``label`` is the month just read."""
        if self._bars is not None and self._task is not None:
            self._bars.progress.update(
                self._task,
                completed=done,
                description=label,
                count=f"{games_so_far:,} games",
                note="(cache)" if from_cache else "",
            )

    def waiting(self, seconds: float, reason: str) -> None:
        """Show a wait (HTTP 429 or a retry backoff), drawn at once."""
        if self._bars is not None and self._task is not None:
            self._bars.progress.update(
                self._task, note=f"waiting {seconds:.3g} s: {reason}", refresh=True
            )

    def reading(self, done: int, total: int, unit: str) -> None:
        """Show ``done`` of ``total`` ``unit`` of a file read (its own bar, from the first
        call)."""
        if self._bars is None:
            return
        if self._reading is None:
            self._reading = self._bars.add("reading", total, unit)
        self._bars.progress.update(self._reading, completed=done, total=total)


class Bars:
    """The live display; tasks are added when their totals are known."""

    def __init__(self, console: Console) -> None:
        self.progress = Progress(
            TextColumn("{task.description:>9}"),
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            TextColumn("{task.fields[unit]}"),
            TextColumn("{task.fields[count]}"),
            TextColumn("{task.fields[note]}"),
            EtaColumn(),
            console=console,
            transient=True,
        )
        self._started = False

    def add(self, description: str, total: int, unit: str) -> Any:
        """A new bar of ``total`` steps (the display starts with the first bar)."""
        if not self._started:
            self.progress.start()
            self._started = True
        return self.progress.add_task(description, total=total, unit=unit, count="", note="")

    def replay_callback(self) -> Callable[[int, int], None]:
        """``(done, total)`` for the replay: the bar appears at the first call."""
        task: list[Any] = []

        def update(done: int, total: int) -> None:
            if not task:
                task.append(self.add("replaying", total, "games"))
            self.progress.update(task[0], completed=done, total=total)

        return update

    def stop(self) -> None:
        """Remove the display (if it was ever shown)."""
        if self._started:
            self.progress.stop()


@contextmanager
def progress_bars(quiet: bool) -> Iterator[tuple[FetchBar, Callable[[int, int], None] | None]]:
    """The fetch bar and the replay callback (``None`` when nothing is shown)."""
    console = err_console()
    if quiet or not console.is_terminal:
        yield FetchBar(None), None
        return
    bars = Bars(console)
    try:
        yield FetchBar(bars), bars.replay_callback()
    finally:
        bars.stop()
