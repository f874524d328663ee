"""The pieces every command's output shares (an edge module: it writes text, no maths).

Consoles, JSON and CSV writing, the one atomic file writer and its path check, and the one
implementation of each small format: signed numbers, plurals, UTC timestamps. Each command
has its own renderer beside this module (``calc``, ``glicko``, ``fetch``, ``games``,
``report``, ``club``), and the charts share ``charts``.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from lichess_elo.core.words import plural
from lichess_elo.errors import WriteFailed
from lichess_elo.output.writer import check_target, open_output, write_file

if TYPE_CHECKING:
    from rich.console import Console

    from lichess_elo.core.fide.editions import Edition

__all__ = [
    "check_output_path",
    "console",
    "dump_json",
    "err_console",
    "iso_utc",
    "json_default",
    "plural",
    "signed",
    "stream_csv",
    "stream_output",
    "write_atomic",
    "write_csv",
    "write_output",
]


def console() -> Console:
    """Return a rich Console writing to stdout (plain text when stdout is not a terminal)."""
    from rich.console import Console  # rich only where a console is used (not the JSON path)

    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


def err_console() -> Console:
    """Return a rich Console writing to stderr (progress bars, warnings)."""
    from rich.console import Console

    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def dump_json(obj: Any) -> str:
    """Serialise ``obj`` as indented JSON; numbers stay numbers (Decimal becomes a number too)."""
    return json.dumps(obj, indent=2, ensure_ascii=False, default=json_default)


def json_default(value: Any) -> Any:
    """``json.dumps`` ``default``: Decimal as a number, dates as ISO text."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__} as JSON")


def csv_value(value: Any) -> Any:
    """One cell as every command writes it: ``true``/``false`` (as in the JSON), numbers
    as in the JSON (``1``, ``0.5``, ``0``: a whole float or Decimal loses its ``.0``),
    ``None`` empty."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float | Decimal):
        return json_default(Decimal(str(value)))
    return value


def write_csv(rows: Iterable[Mapping[str, Any]], fieldnames: Sequence[str]) -> str:
    """Return ``rows`` as CSV text with a header line (``\\n`` line endings); every cell
    goes through ``csv_value``, so booleans and scores read the same in every command."""
    buffer = io.StringIO()
    stream_csv(buffer, rows, fieldnames)
    return buffer.getvalue()


def stream_csv(out: TextIO, rows: Iterable[Mapping[str, Any]], fieldnames: Sequence[str]) -> None:
    """``write_csv`` to ``out``, row by row (the rows are never held together)."""
    writer = csv.DictWriter(out, fieldnames=list(fieldnames), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_value(v) for k, v in row.items()})


#: The one output writer (``output.writer``): atomic for files, straight through for a
#: FIFO, a device or standard output, through a symbolic link to its target.
write_atomic = write_file


def check_output_path(path: Path) -> None:
    """Check that an output file can be written to ``path`` (before any work is done).

    Raises:
        BadInput: see ``output.writer.check_target``.
    """
    check_target(path, "output")


def write_output(path: Path | None, text: str) -> None:
    """Write ``text`` to ``path`` atomically, or to stdout when ``path`` is ``None``.

    Raises:
        WriteFailed: the file could not be written; it names ``path``, never a temporary
            file.
    """
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise WriteFailed(path, exc.strerror or str(exc)) from None


def stream_output(path: Path | None, write: Callable[[TextIO], object]) -> None:
    """Let ``write`` write, bit by bit, to ``path`` (``output.writer.open_output``: whole or
    not at all) or to stdout when ``path`` is ``None``.

    Raises:
        WriteFailed: the file could not be written; it names ``path``, never a temporary
            file.
    """
    if path is None:
        write(sys.stdout)
        sys.stdout.flush()
        return
    try:
        with open_output(path) as handle:
            write(handle)
    except OSError as exc:
        raise WriteFailed(path, exc.strerror or str(exc)) from None


def signed(value: float | Decimal, places: int = 0) -> str:
    """``+3``, ``-2.5``, ``0``: a change with its sign, rounded half away from zero."""
    number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    exponent = Decimal(1).scaleb(-places)
    rounded = number.quantize(exponent, rounding=ROUND_HALF_UP)
    if rounded == 0:
        return f"{Decimal(0).quantize(exponent)}"
    return f"{rounded:+}"


def iso_utc(when: datetime) -> str:
    """``2023-01-26T21:33:03Z``: a timestamp in UTC, to the second."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def edition_json(edition: Edition) -> dict[str, Any]:
    """The FIDE regulation edition applied, for JSON: chapter, key, title, first day, floor
    and its sources (key, title, section, URL)."""
    return {
        "chapter": edition.chapter,
        "regulations_key": edition.key,
        "regulations": edition.title,
        "effective_from": edition.effective_from.isoformat(),
        "floor": edition.floor,
        "before_first_edition": edition.before_first,
        "sources": [
            {"key": src.key, "title": src.title, "section": src.section, "url": src.url}
            for src in edition.source_list
        ],
    }
