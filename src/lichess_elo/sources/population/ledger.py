"""Which dump files the database holds in full: the ``ingested`` table.

``db ingest`` commits each file as it completes, in one transaction with its row here:
a row means every game of that file is stored. A Ctrl-C or a kill keeps the files already
finished, and the rerun skips them (same path, size and modification time). A row goes
when one of its months is replaced by another file, so a row never outlives its games.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

INGESTED_DDL = """
CREATE TABLE IF NOT EXISTS ingested (path VARCHAR PRIMARY KEY, size BIGINT NOT NULL,
    mtime_ns BIGINT NOT NULL, games_read BIGINT NOT NULL, months INTEGER[] NOT NULL)"""


@dataclass(frozen=True)
class FileKey:
    """A dump file as the ledger knows it: its absolute path, size and modification time."""

    path: str
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class Ingested:
    """What the ledger holds of a finished file: the games read and the months they fill."""

    games_read: int
    months: frozenset[int]


def file_key(path: Path) -> FileKey:
    """The key of ``path`` now (a file changed since its ingest has another key)."""
    info = path.stat()
    return FileKey(str(path.resolve()), info.st_size, info.st_mtime_ns)


def finished(con: duckdb.DuckDBPyConnection, key: FileKey) -> Ingested | None:
    """The ledger's row for ``key``, or ``None`` when that file is not held in full."""
    row = con.execute(
        "SELECT games_read, months FROM ingested WHERE path = ? AND size = ? AND mtime_ns = ?",
        [key.path, key.size, key.mtime_ns],
    ).fetchone()
    if row is None:
        return None
    return Ingested(int(row[0]), frozenset(int(m) for m in row[1]))


def forget_months(con: duckdb.DuckDBPyConnection, months: list[int]) -> None:
    """Drop the rows of files whose games in ``months`` are being replaced (in the
    caller's transaction)."""
    if months:
        con.execute("DELETE FROM ingested WHERE list_has_any(months, ?)", [months])


def record(
    con: duckdb.DuckDBPyConnection, key: FileKey, games_read: int, months: list[int]
) -> None:
    """Note ``key`` as held in full (in the caller's transaction, with its games)."""
    con.execute("DELETE FROM ingested WHERE path = ?", [key.path])
    con.execute(
        "INSERT INTO ingested VALUES (?, ?, ?, ?, ?)",
        [key.path, key.size, key.mtime_ns, games_read, months],
    )
