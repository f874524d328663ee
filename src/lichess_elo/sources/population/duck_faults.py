"""The faults of the DuckDB file, each named in one line.

Before DuckDB opens a file, ``check_file`` refuses one that is not a DuckDB database (its
header lacks DuckDB's magic bytes: a SQLite file, random bytes, an empty file), so DuckDB
never guesses what it is; extensions are never installed or loaded (no network, no
native code from elsewhere). ``open_waiting`` waits for another run's lock as long as the
SQLite cache does (``LICHESS_ELO_LOCK_TIMEOUT``, 30 s). ``named_faults`` turns what DuckDB
says while a command works (cut short, bad checksums, permission denied, disk full) into
``DatabaseFault``.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

import duckdb

from lichess_elo.errors import BadInput, DatabaseFault, NotADatabase
from lichess_elo.sources.cache.sqlite import LOCK_TIMEOUT_ENV, lock_timeout

#: A DuckDB file's header: 8 bytes of checksum, then these 4 (storage format of DuckDB).
MAGIC = b"DUCK"
MAGIC_AT = 8
#: Before its blocks, a DuckDB file holds three 4 KiB headers (the main one and two
#: database headers, written in turn); its blocks follow, ``block_size`` bytes each
#: (block n at ``HEADERS_BYTES + n * block_size``).
HEADERS_BYTES = 3 * 4096
#: DuckDB stays offline and loads nothing it was not built with.
CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
_PID = re.compile(r"\(PID (\d+)\)")


def check_file(path: Path) -> None:
    """Refuse a ``path`` that cannot hold the database (before DuckDB reads it).

    Raises:
        BadInput: its folder does not exist, or it is not a regular file.
        NotADatabase: it exists and is not a DuckDB database (or is empty).
    """
    if not path.parent.is_dir():
        problem = f"cannot be made: the folder {path.parent} does not exist"
        raise BadInput(problem, field="db", value=path)
    if not path.exists():
        return
    if not path.is_file():
        raise BadInput("is not a database file", field="db", value=path)
    try:
        with path.open("rb") as file:
            head = file.read(MAGIC_AT + len(MAGIC))
    except PermissionError as exc:
        raise DatabaseFault("read_only", path, exc.strerror or "permission denied") from None
    if head[MAGIC_AT:] != MAGIC:
        raise NotADatabase(path)


def open_waiting(path: Path, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect`` with extensions off, waiting up to ``lock_timeout()`` seconds
    for another run's lock.

    Raises:
        DatabaseFault: still locked (with the PID DuckDB names), or another fault.
    """
    limit = lock_timeout()
    deadline = time.monotonic() + limit
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=dict(CONFIG))
        except duckdb.Error as exc:
            text = str(exc)
            if "Could not set lock" not in text:
                raise fault(exc, path) or exc from None
            if time.monotonic() >= deadline:
                found = _PID.search(text)
                reason = f"waited {limit:g} s; {LOCK_TIMEOUT_ENV} changes how long"
                pid = int(found.group(1)) if found else None
                raise DatabaseFault("locked", path, reason, pid) from None
            time.sleep(0.2)
            continue
        try:
            check_whole(con, path)
        except BaseException:
            con.close()
            raise
        return con


def check_whole(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Refuse a file shorter than the blocks its tables are stored in (a copy or a
    download cut short, a disk that filled while it was copied): DuckDB opens such a file
    when what it reads first survived, and its tables (the ledger among them) then read as
    whole while the games' blocks are gone. The blocks are read from the tables' own
    storage records (``pragma_storage_info``: metadata, no data is read); the file must
    reach past the last one, after its three 4 KiB headers.

    Raises:
        DatabaseFault: ``damaged``, with both sizes.
    """
    row = con.execute("PRAGMA database_size").fetchone()
    if row is None:
        return
    block_size = int(row[2])
    tables = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
    ).fetchall()
    last = -1
    for (table,) in tables:
        quoted = str(table).replace("'", "''")
        found = con.execute(
            f"SELECT max(block_id) FROM pragma_storage_info('{quoted}') WHERE persistent"
        ).fetchone()
        if found is not None and found[0] is not None:
            last = max(last, int(found[0]))
    needed = HEADERS_BYTES + (last + 1) * block_size if last >= 0 else 0
    size = path.stat().st_size
    if size < needed:
        reason = f"the file is cut short: {size:,} bytes of the {needed:,} its tables take"
        raise DatabaseFault("damaged", path, reason)


def fault(exc: duckdb.Error, path: Path) -> DatabaseFault | NotADatabase | None:
    """The named error for what DuckDB said about the file, ``None`` when it is not one."""
    text = str(exc)
    if "not a valid DuckDB database" in text:
        return NotADatabase(path)
    if "WAL does not match database file" in text:
        return DatabaseFault("foreign_log", path)
    if "Could not read enough bytes" in text:
        return DatabaseFault("damaged", path, "the file is cut short")
    if "checksum" in text or "Corrupt database" in text or "corrupt" in text.lower():
        return DatabaseFault("damaged", path, "bad checksums")
    for words, kind in (
        ("Permission denied", "read_only"),
        ("Read-only file system", "read_only"),
        ("read-only mode", "read_only"),
        ("No space left on device", "disk_full"),
        ("Disk quota exceeded", "disk_full"),
        ("File too large", "disk_full"),
    ):
        if words in text:
            return DatabaseFault(kind, path, words[0].lower() + words[1:])
    return None


class _OnDb(Protocol):
    @property
    def db(self) -> Path: ...


S = TypeVar("S", bound=_OnDb)
R = TypeVar("R")


def named_faults(command: Callable[[S], R]) -> Callable[[S], R]:
    """Run a ``db`` command (given settings with ``db``) with DuckDB's file faults named."""

    @functools.wraps(command)
    def run(settings: S) -> R:
        try:
            return command(settings)
        except duckdb.Error as exc:
            named = fault(exc, settings.db)
            if named is None:
                raise
            raise named from None

    return run
