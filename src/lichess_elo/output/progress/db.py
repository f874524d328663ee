"""Progress of the ``db`` commands on stderr (an edge module): ingest, rate, compare.

Shown only when stderr is a terminal and not ``--quiet``; never in a pipe or a file. The
bars vanish when the command ends. ETAs come from ``output.progress.eta`` (hidden until honest).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from lichess_elo.core.population.rows import FileProgress
from lichess_elo.output.common import err_console
from lichess_elo.output.progress.bars import EtaColumn

#: A file name longer than this shows only its last words (``…2024-01.pgn.zst``), so a
#: bar of 99,999,999 games at 999,999 games/s with its ETA fits 80 columns.
NAME_WIDTH = 16


def short_name(name: str, width: int = NAME_WIDTH) -> str:
    """``name``, or ``…`` and its last ``_``-separated words that fit in ``width``."""
    if len(name) <= width:
        return name
    words = name.split("_")
    kept = words[-1]
    for word in reversed(words[:-1]):
        if len(word) + len(kept) + 2 > width:
            break
        kept = f"{word}_{kept}"
    return f"…{kept}"


class IngestBar:
    """A bar per file: bytes of the file read (for ``.zst`` the compressed bytes), games,
    games/s and an ETA."""

    def __init__(self, progress: Progress | None, names: list[str]) -> None:
        self._progress = progress
        self._tasks: dict[int, TaskID] = {}
        self._names = names

    def update(self, index: int, games: int, done: int, total: int) -> None:
        """Show ``games`` read from file ``index`` (``done`` of ``total`` bytes)."""
        if self._progress is None:
            return
        if index not in self._tasks:
            self._tasks[index] = self._progress.add_task(
                short_name(self._names[index]), total=total or None, games="0", rate=""
            )
        task = self._tasks[index]
        elapsed = self._progress.tasks[task].elapsed or 0.0
        rate = f"{games / elapsed:,.0f} games/s" if elapsed > 0 else ""
        self._progress.update(task, completed=done, games=f"{games:,}", rate=rate)

    @property
    def callback(self) -> FileProgress | None:
        """The callback for ``IngestSettings.progress`` (``None`` when silent)."""
        return self.update if self._progress is not None else None


def _bar(quiet: bool, *columns: ProgressColumn) -> Progress | None:
    """A transient progress display on stderr with ``columns``; ``None`` when ``quiet`` or
    stderr is not a terminal."""
    err = err_console()
    if quiet or not err.is_terminal:
        return None
    return Progress(*columns, console=err, transient=True)


def ingest_columns(clock: Callable[[], float] = time.monotonic) -> list[ProgressColumn]:
    """The columns of an ingest bar: file, bar, percent of the bytes, games, games/s, ETA."""
    return [
        TextColumn("{task.description}"),
        BarColumn(bar_width=10),
        TextColumn("{task.percentage:>3.0f}%"),
        TextColumn("{task.fields[games]} games {task.fields[rate]}"),
        EtaColumn(clock),
    ]


@contextmanager
def ingest_progress(quiet: bool, names: list[str]) -> Iterator[IngestBar]:
    """Progress bars on stderr; silent when ``quiet`` or stderr is not a terminal."""
    bar = _bar(quiet, *ingest_columns())
    if bar is None:
        yield IngestBar(None, names)
        return
    with bar:
        yield IngestBar(bar, names)


@contextmanager
def rate_progress(quiet: bool) -> Iterator[RateBar | None]:
    """A bar of the games rated on stderr (``RateSettings.progress_games``), the months done
    beside it (``RateSettings.progress``), with an ETA from the games: a month's time
    follows its games, so the ETA holds when the months differ in size (or there is one);
    ``None`` when ``quiet`` or stderr is not a terminal."""
    bar = _bar(
        quiet,
        TextColumn("rating"),
        BarColumn(bar_width=24),
        TextColumn("{task.percentage:>3.0f}%"),
        TextColumn("{task.fields[months]}"),
        TimeElapsedColumn(),
        EtaColumn(),
    )
    if bar is None:
        yield None
        return
    with bar:
        task = bar.add_task("rate", total=None, months="")

        def months(done: int, total: int) -> None:
            bar.update(task, months=f"{done}/{total} months")

        def games(done: int, total: int) -> None:
            bar.update(task, completed=done, total=max(total, 1))

        yield RateBar(months, games)


@dataclass(frozen=True)
class RateBar:
    """The two callbacks of ``rate_progress``: ``months`` for ``RateSettings.progress``,
    ``games`` for ``RateSettings.progress_games``."""

    months: Callable[[int, int], None]
    games: Callable[[int, int], None]


@contextmanager
def compare_progress(quiet: bool) -> Iterator[Callable[[str, int, int], None] | None]:
    """The step ``db compare`` is at (``CompareSettings.progress``: step, done, steps) and
    the time elapsed; no ETA (the steps take very different times). ``None`` when ``quiet``
    or stderr is not a terminal."""
    bar = _bar(
        quiet,
        TextColumn("comparing:"),
        TextColumn("{task.fields[step]}"),
        TimeElapsedColumn(),
    )
    if bar is None:
        yield None
        return
    with bar:
        task = bar.add_task("compare", total=None, step="")

        def update(step: str, done: int, total: int) -> None:
            bar.update(task, step=f"{step} ({done + 1}/{total})", refresh=True)

        yield update
