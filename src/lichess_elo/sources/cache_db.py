"""Open a SQLite cache file in the cache folder (an edge module), shared by every cache.

A cache is only ever worth time: it runs in WAL mode without an fsync per commit (a crash
can only cost work done again), waits ``BUSY_TIMEOUT`` seconds for another run's lock, and
a file that is damaged (not a database, malformed) is started again. A locked, read-only
or full file is never deleted: the error goes to the caller, which works without it.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

#: Seconds to wait for another run's lock on a cache before working without it.
BUSY_TIMEOUT = 30.0
#: Primary result codes of a damaged file (extended codes such as SQLITE_CORRUPT_INDEX
#: share them in the low byte); only these reset a cache.
_DAMAGED = frozenset({sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT})


def damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether ``exc`` says the file itself is damaged (not a lock, I/O error, full disk)."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in _DAMAGED


def _connect(path: Path, schema: str, timeout: float) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=timeout)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(schema)
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def open_cache_db(path: Path, schema: str, timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    """Open (or create) the cache file ``path`` with its one-table ``schema``.

    Raises:
        sqlite3.Error: the cache cannot be used (locked by another run, I/O error, full
            disk...); the file is left as it is.
        OSError: the folder cannot be made.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return _connect(path, schema, timeout)
    except sqlite3.DatabaseError as exc:
        # OperationalError ("database is locked", "disk I/O error", "database or disk is
        # full") is a DatabaseError too: only a file that is not a database, or is
        # malformed, is thrown away; anything else leaves the cache alone.
        if not damaged(exc):
            raise
        for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            stale.unlink(missing_ok=True)
        return _connect(path, schema, timeout)
