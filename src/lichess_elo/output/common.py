"""The pieces every command's output shares (an edge module: it writes text, no maths).

Consoles, JSON and CSV writing, the one atomic file writer and its path check, and the one
implementation of each small format: signed numbers, plurals, UTC timestamps. Each command
has its own renderer beside this module (``calc``, ``glicko``, ``fetch``, ``games``,
``report``, ``club``), and the charts share ``charts``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import secrets
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

from lichess_elo.core.words import plural
from lichess_elo.errors import BadInput, WriteFailed

__all__ = [
    "atomic_writer",
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
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


def err_console() -> Console:
    """Return a rich Console writing to stderr (progress bars, warnings)."""
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


def write_csv(rows: Iterable[Mapping[str, Any]], fieldnames: Sequence[str]) -> str:
    """Return ``rows`` as CSV text with a header line (``\\n`` line endings)."""
    buffer = io.StringIO()
    stream_csv(buffer, rows, fieldnames)
    return buffer.getvalue()


def stream_csv(out: TextIO, rows: Iterable[Mapping[str, Any]], fieldnames: Sequence[str]) -> None:
    """Write ``rows`` to ``out`` as CSV with a header line (``\\n`` line endings), row by row."""
    writer = csv.DictWriter(out, fieldnames=list(fieldnames), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename,
    so a failure never leaves a half-written file behind (``atomic_writer``).

    Raises:
        OSError: the write failed (disk full, no permission...); its ``filename`` is
            ``path``, never the temporary file.
    """
    with atomic_writer(path, binary=isinstance(data, bytes)) as handle:
        handle.write(data)


@contextmanager
def atomic_writer(path: Path, *, binary: bool = False) -> Iterator[Any]:
    """A file to write ``path`` through, bit by bit: a temporary file in the same folder,
    synced and renamed over ``path`` when the block ends without an error, removed when it
    ends with one (an interruption included), so ``path`` is never left half-written.

    Text is UTF-8 with no newline translation. The file gets the permissions a plain write
    would give it: an existing file keeps its mode, a new one gets 0666 less the umask.

    Raises:
        OSError: the write failed (disk full, no permission...); its ``filename`` is
            ``path``, never the temporary file.
    """
    folder = path.parent if str(path.parent) else Path(".")
    try:
        while True:
            tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                break
            except FileExistsError:
                continue
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    try:
        encoding, newline = (None, None) if binary else ("utf-8", "")
        mode = "wb" if binary else "w"
        with os.fdopen(fd, mode, 1 << 16, encoding, None, newline) as handle:
            with contextlib.suppress(OSError):  # no file yet: the umask already applied
                os.fchmod(handle.fileno(), stat.S_IMODE(os.stat(path).st_mode))
            yield handle
            # On disk before the rename: a power loss cannot leave an empty ``path``.
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise


def check_output_path(path: Path) -> None:
    """Check that ``--output`` can be written to ``path`` (before any work is done).

    Raises:
        BadInput: ``path`` is a folder, its folder is missing or not writable, or the file
            exists and is not writable.
    """
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise BadInput("cannot write there", field="output", value=path)
    if path.exists() and not os.access(path, os.W_OK):
        raise BadInput("not writable", field="output", value=path)


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
    """Let ``write`` write, bit by bit, to ``path`` (atomically) or to stdout (``None``).

    Raises:
        WriteFailed: the file could not be written; it names ``path``, never a temporary
            file.
    """
    if path is None:
        write(sys.stdout)
        sys.stdout.flush()
        return
    try:
        with atomic_writer(path) as handle:
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
