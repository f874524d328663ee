"""Output of the ``db`` commands: tables for people, CSV and JSON for programs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from lichess_elo.population.app import IngestResult, PlayerRows, RateResult, RatingList
from lichess_elo.population.ingest import FileProgress
from lichess_elo.population.schema import month_label
from lichess_elo.render import dump_json, err_console, write_csv

LIST_FIELDS = ("name", "rating", "games_before", "k", "lichess_rating")


class IngestBar:
    """A progress bar per file: bytes of the file read, games and games/s."""

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
                self._names[index], total=total, games=0, rate=""
            )
        task = self._tasks[index]
        elapsed = self._progress.tasks[task].elapsed or 0.0
        rate = f"{games / elapsed:,.0f} games/s" if elapsed > 0 else ""
        self._progress.update(task, completed=done, games=f"{games:,}", rate=rate)

    @property
    def callback(self) -> FileProgress | None:
        """The callback for ``IngestSettings.progress`` (``None`` when silent)."""
        return self.update if self._progress is not None else None


@contextmanager
def ingest_progress(quiet: bool, names: list[str]) -> Iterator[IngestBar]:
    """Progress bars on stderr; silent when ``quiet`` or stderr is not a terminal."""
    err = err_console()
    if quiet or not err.is_terminal:
        yield IngestBar(None, names)
        return
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[games]} games  {task.fields[rate]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )
    with bar:
        yield IngestBar(bar, names)


def ingest_document(result: IngestResult) -> dict[str, Any]:
    """The JSON of ``db ingest``."""
    return {
        "files": [str(f) for f in result.files],
        "games": result.games,
        "rejected": result.rejected,
        "months": [
            {"month": month_label(m.month), "games": m.games, "rejected": m.rejected}
            for m in result.months
        ],
        "seconds": round(result.seconds, 3),
    }


def print_ingest(result: IngestResult, out: Console) -> None:
    """The summary of ``db ingest``: games per month and unusable games by reason."""
    table = Table(title=f"Ingested {len(result.files)} file(s) in {result.seconds:.1f} s")
    table.add_column("month")
    table.add_column("games", justify="right")
    table.add_column("unusable", justify="right")
    for m in result.months:
        reasons = ", ".join(f"{k} {v:,}" for k, v in m.rejected.items()) or "-"
        table.add_row(month_label(m.month), f"{m.games:,}", reasons)
    out.print(table)
    if result.unplaced:
        out.print(f"{result.unplaced:,} malformed games had no readable date (not stored)")
    rate = result.games / result.seconds if result.seconds else 0.0
    out.print(f"{result.games:,} games stored ({rate:,.0f} games/s)")


def print_rate(result: RateResult, out: Console) -> None:
    """The summary of ``db rate``."""
    span = f"{result.months[0]} to {result.months[-1]}" if result.months else "no months"
    out.print(
        f"Rated {result.games:,} games with {result.engine}: lists {span} in {result.seconds:.1f} s"
    )
    for perf, n in result.players.items():
        out.print(f"  {perf:<10} {n:>9,} players")


def list_table(result: RatingList) -> Table:
    """``db list`` as a table."""
    table = Table(title=f"FIDE-rules {result.perf} list, {result.month}")
    for name in ("#", "player", "rating", "games before", "K", "Lichess"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for i, p in enumerate(result.players, 1):
        lichess = "-" if p["lichess_rating"] is None else str(p["lichess_rating"])
        table.add_row(
            str(i), p["name"], str(p["rating"]), str(p["games_before"]), str(p["k"]), lichess
        )
    return table


def list_output(result: RatingList, fmt: str) -> str | Table:
    """``db list`` in ``fmt``: a rich table, CSV text or JSON text."""
    if fmt == "json":
        return dump_json(result.document())
    if fmt == "csv":
        return write_csv(result.players, LIST_FIELDS)
    return list_table(result)


PLAYER_FIELDS = (
    "perf", "month", "rating", "games_before", "k", "lichess_rating", "games", "points",
    "expected", "k_used", "change", "next_rating",
)  # fmt: skip


def player_output(result: PlayerRows, fmt: str) -> str | Table:
    """``db player`` in ``fmt``."""
    if fmt == "json":
        return dump_json({"name": result.name, "rows": result.rows})
    if fmt == "csv":
        return write_csv(result.rows, PLAYER_FIELDS)
    table = Table(title=f"{result.name}: FIDE-rules lists")
    heads = ("perf", "month", "list", "games before", "K", "Lichess", "games", "score", "PD",
             "K used", "change")  # fmt: skip
    for h in heads:
        table.add_column(h, justify="left" if h in ("perf", "month") else "right")
    for r in result.rows:
        table.add_row(
            r["perf"], r["month"], str(r["rating"]), str(r["games_before"]), str(r["k"]),
            "-" if r["lichess_rating"] is None else str(r["lichess_rating"]),
            str(r["games"]), f"{r['points']:g}", f"{r['expected']:.2f}",
            str(r["k_used"]) if r["games"] else "-", f"{r['change']:+d}" if r["games"] else "-",
        )  # fmt: skip
    return table
