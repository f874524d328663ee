"""Opening the SQLite caches (``http.sqlite``, ``replay.sqlite``) with a bounded wait.

Both caches open through here, so both wait at most ``lock_timeout()`` seconds for another
run's lock (30 s; ``LICHESS_ELO_LOCK_TIMEOUT`` changes it) and then fail in one line that
names the file. requests-cache's own SQLite storage retries a failed ``BEGIN IMMEDIATE``
forever, whatever the error (a held lock, a read-only file); ``lichess.http_cache``'s
``BoundedSQLiteCache`` replaces that loop with ``connect`` and ``locked`` from here (this
module imports nothing of the HTTP stack, so a run that fetches nothing never loads it).

Also here: a cache folder the user can only read is opened read-only (offline runs), and
``-wal``/``-shm`` files the user cannot write (left by another user's run) are reported
before SQLite would wait on them.
"""

from __future__ import annotations

import os
import pwd
import shutil
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from lichess_elo.errors import CacheLocked, CacheUnusable
from lichess_elo.sources.env import env_seconds

#: Seconds to wait for another run's lock on a cache file.
DEFAULT_LOCK_TIMEOUT = 30.0
LOCK_TIMEOUT_ENV = "LICHESS_ELO_LOCK_TIMEOUT"
#: Primary result codes of a lock held by another connection.
_BUSY = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
#: Primary result codes of a damaged file (extended codes such as SQLITE_CORRUPT_INDEX
#: share them in the low byte); only these start a cache file again.
_DAMAGED = frozenset({sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT})
#: Free bytes below which a disk counts as full: the ``-shm`` index SQLite maps is 32 KiB.
_ROOM = 64 * 1024


def lock_timeout() -> float:
    """``LICHESS_ELO_LOCK_TIMEOUT`` in seconds (default 30).

    Raises:
        BadInput: not a number of seconds above 0 up to an hour.
    """
    return env_seconds(LOCK_TIMEOUT_ENV, DEFAULT_LOCK_TIMEOUT, zero_ok=False)


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is SQLite saying another connection holds a lock."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _BUSY
    return "locked" in str(exc) or "busy" in str(exc)


def locked(path: Path, seconds: float) -> CacheLocked:
    """The one-line error for a lock still held after ``seconds``."""
    return CacheLocked(
        f"the cache file {path} is in use by another run (waited {seconds:g} s); "
        f"let it finish and run again, or raise {LOCK_TIMEOUT_ENV}",
        path=path,
    )


def foreign_sidecars(path: Path) -> list[Path]:
    """The ``-wal``/``-shm`` files of ``path`` that exist and this user cannot write."""
    found = []
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists() and not os.access(side, os.W_OK):
            found.append(side)
    return found


def check_sidecars(path: Path) -> None:
    """Refuse a cache whose ``-wal``/``-shm`` file belongs to someone else.

    Raises:
        CacheUnusable: names the file, its owner and the remedy.
    """
    for side in foreign_sidecars(path):
        raise CacheUnusable(sidecar_words(side, side.stat(), os.geteuid()), path=side)


def sidecar_words(side: Path, info: os.stat_result, me: int) -> str:
    """Why the ``-wal``/``-shm`` file ``side`` cannot be written, naming its real owner:
    another user, or this user with the file made read-only."""
    if info.st_uid == me:
        return (
            f"the cache file {side} is read-only (mode {stat.S_IMODE(info.st_mode):04o}) and "
            f"cannot be written; make it writable (chmod u+w {side}) or remove it once no "
            "other run uses the cache, or use another cache folder"
        )
    try:
        owner = f"{pwd.getpwuid(info.st_uid).pw_name}, uid {info.st_uid}"
    except KeyError:
        owner = f"uid {info.st_uid}"
    return (
        f"the cache file {side} belongs to another user ({owner}) and cannot be written; "
        "remove it once no other run uses the cache, or use another cache folder"
    )


def read_only_folder(path: Path) -> bool:
    """Whether the folder of ``path`` cannot be written (a cache opened read-only)."""
    folder = path.parent
    return folder.is_dir() and not os.access(folder, os.W_OK)


def read_only_file(path: Path) -> bool:
    """Whether the cache file ``path`` exists but cannot be written (its folder or itself)."""
    return path.exists() and (read_only_folder(path) or not os.access(path, os.W_OK))


def disk_full(path: Path) -> bool:
    """Whether the disk holding ``path`` has no room left for SQLite's next page."""
    try:
        return shutil.disk_usage(path.parent).free < _ROOM
    except OSError:
        return False


def whole_in_main_file(path: Path) -> bool:
    """Whether every change of the WAL database ``path`` is in the file itself (no
    ``-wal`` file, or an empty one), so that an ``immutable`` read misses nothing."""
    wal = path.with_name(path.name + "-wal")
    try:
        return wal.stat().st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


def is_damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether ``exc`` says the file itself is damaged (not a lock, I/O error, full disk)."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in _DAMAGED


def open_restarting(
    path: Path, open_file: Callable[[Path], sqlite3.Connection]
) -> sqlite3.Connection:
    """``open_file(path)``; a damaged file (and its ``-wal``/``-shm``) is removed and
    opened again.

    Raises:
        sqlite3.Error: the cache cannot be used (locked by another run, I/O error, full
            disk...); the file is left as it is.
    """
    try:
        return open_file(path)
    except sqlite3.DatabaseError as exc:
        # OperationalError ("database is locked", "disk I/O error", "database or disk is
        # full") is a DatabaseError too: only a file that is not a database, or is
        # malformed, is thrown away; anything else leaves the cache alone.
        if not is_damaged(exc):
            raise
        for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            stale.unlink(missing_ok=True)
        return open_file(path)


def refuse_dangling(path: Path) -> None:
    """Refuse a cache file, or its ``-wal``/``-shm`` file, that is a symbolic link to
    nothing: SQLite would make a file where it points, outside the cache folder (or, for
    the ``-wal``, fail with "unable to open database file", which names neither).

    Raises:
        sqlite3.OperationalError: names the link and where it points.
    """
    for link in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if link.is_symlink() and not link.exists():
            raise sqlite3.OperationalError(
                f"{link} is a symbolic link to a missing file ({os.readlink(link)}); remove it"
            )


def connect(
    path: Path, *, timeout: float, read_only: bool = False, immutable: bool = False
) -> sqlite3.Connection:
    """``sqlite3.connect`` with a busy timeout; ``read_only`` opens the file unchanged
    (``immutable`` when its folder cannot be written, or when asked: no ``-shm`` can be made
    there, or on a full disk).

    Raises:
        sqlite3.OperationalError: ``path`` is a symbolic link to nothing: SQLite would make
            a database where it points, outside the cache folder.
    """
    refuse_dangling(path)
    if not read_only:
        return sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    flags = "mode=ro&immutable=1" if immutable or read_only_folder(path) else "mode=ro"
    uri = f"file:{quote(str(path.resolve()))}?{flags}"
    return sqlite3.connect(
        uri, uri=True, timeout=timeout, isolation_level=None, check_same_thread=False
    )
