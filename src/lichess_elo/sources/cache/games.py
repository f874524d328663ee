"""The parsed-games cache: each cached response's games, decoded once (an edge module).

A warm run spent most of its time decoding the HTTP cache's JSON and building the same
``Game`` objects again. This cache keeps, next to ``http.sqlite``, the outcome of parsing
one cached response (a month's games and the warnings the parse gave) in a
compact form, in ``<cache dir>/games.sqlite``:

- an entry is keyed by the request (``request_id``: server, path, query, ``Accept``) and
  records the requests-cache key of the response it was parsed from and a digest of that
  response's stored bytes; it is only used while ``http.sqlite`` still holds exactly those
  bytes under that key, so it can never disagree with the HTTP cache: a response fetched
  again, replaced by another run or removed makes the entry a miss, and the response is
  parsed again through the ordinary path;
- it is only used when the HTTP cache would serve the response itself: a response stored
  to never expire (a month that had ended), or (``stale_ok``, offline) any stored one;
- it is stored only after checking that the stored response's body is the body that was
  parsed (``store``'s ``matches``), so a response replaced between the fetch and the store
  by a concurrent run is never paired with another run's games;
- a player's profile (``/api/user``) is kept the same way, as its ``UserInfo``; it is
  stored already expired by the HTTP cache, so only an offline run uses it;
- only a month's whole, valid answer is kept: one that did not parse whole, or that held
  another player's games, is never stored (the import forgets it in the HTTP cache too);
- writes are single SQLite transactions (atomic under interruption); the file opens through
  ``sqlite_open`` (a bounded wait for another run's lock, ``LICHESS_ELO_LOCK_TIMEOUT``;
  read-only in a folder that cannot be written); a damaged file is started again; a
  locked, read-only or full one only costs the parse, with one warning.

The payloads and request keys are ``games_codec``'s (``marshal``: fast and built in; the
HTTP cache itself stores pickles), re-exported here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from lichess_elo.sources.cache.games_codec import (
    FORMAT,
    VERSION,
    decode_games,
    decode_user,
    digest,
    encode_games,
    encode_user,
    request_id,
)
from lichess_elo.sources.cache.sqlite import (
    connect,
    foreign_sidecars,
    lock_timeout,
    open_restarting,
    read_only_file,
    read_only_folder,
)
from lichess_elo.sources.transactions import rollback_quietly

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "FILE_NAME",
    "FORMAT",
    "HTTP_FILE",
    "VERSION",
    "ParsedCache",
    "decode_games",
    "decode_user",
    "digest",
    "encode_games",
    "encode_user",
    "request_id",
    "servers_holding",
]

FILE_NAME = "games.sqlite"
HTTP_FILE = "http.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS parsed (
    request TEXT PRIMARY KEY,
    http_key TEXT NOT NULL,
    digest BLOB NOT NULL,
    version INTEGER NOT NULL,
    payload BLOB NOT NULL
) WITHOUT ROWID
"""


def servers_holding(cache_dir: Path, path: str) -> tuple[str, ...]:
    """The server roots (``--api-url``) whose answer to ``GET path`` the parsed cache holds,
    sorted; none when the file is missing or cannot be read (a hint, never an error)."""
    found: set[str] = set()
    file = cache_dir / FILE_NAME
    if not file.is_file():
        return ()
    try:
        conn = connect(file, timeout=lock_timeout(), read_only=True)
        try:
            for (request,) in conn.execute(
                "SELECT request FROM parsed WHERE request LIKE ? ESCAPE '!'",
                ("GET %" + path.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "?%",),
            ):
                head = request[len("GET ") : request.find(path + "?")]
                if head:
                    found.add(head)
        finally:
            conn.close()
    except sqlite3.Error:
        return ()
    return tuple(sorted(found))


def _prepared(conn: sqlite3.Connection) -> sqlite3.Connection:
    """WAL without an fsync per commit (a crash only costs a parse again), and the table."""
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(_SCHEMA)
    except sqlite3.Error:
        conn.close()
        raise
    return conn


class _HttpUnreadable(Exception):
    """``http.sqlite`` could not be read (damaged, locked, an I/O error)."""


class ParsedCache:
    """``games.sqlite`` beside ``http.sqlite`` in ``cache_dir``; opened on first use.

    Every failure to open, read or write it is quiet and only costs the parse again; the
    first one is reported once through ``on_warning``.
    """

    def __init__(self, cache_dir: Path, on_warning: Callable[[str], None] | None = None) -> None:
        self._path = cache_dir / FILE_NAME
        self._http_path = cache_dir / HTTP_FILE
        self._on_warning = on_warning
        self._conn: sqlite3.Connection | None = None
        self._http: sqlite3.Connection | None = None
        self._broken = False
        self.read_only = False

    def _open(self) -> tuple[sqlite3.Connection, sqlite3.Connection] | None:
        if self._broken:
            return None
        if self._conn is None or self._http is None:
            if not self._http_path.is_file():
                return None
            path = self._path
            self.read_only = read_only_file(path)
            if (not path.exists() and read_only_folder(path)) or foreign_sidecars(path):
                self._broken = True  # nothing to read, or another user's -wal/-shm
                return None
            try:
                self._conn = self._connect(path)
            except (sqlite3.Error, OSError) as exc:
                self._fail(exc)
                return None
            try:
                # requests-cache's own file: only read here, never written, but opened for
                # writing where it can be, so that when this connection is the last one
                # (an offline run that needs no session) SQLite removes the -wal and -shm
                # files that reading a WAL file makes, as requests-cache's connection does.
                http_ro = read_only_file(self._http_path)
                self._http = connect(self._http_path, timeout=lock_timeout(), read_only=http_ro)
            except (sqlite3.Error, OSError):
                self._http_failed()
                return None
        return self._conn, self._http

    def _connect(self, path: Path) -> sqlite3.Connection:
        """Open ``games.sqlite`` through ``sqlite_open``; a damaged file is started again."""
        if self.read_only:
            return connect(path, timeout=lock_timeout(), read_only=True)
        return open_restarting(path, lambda p: _prepared(connect(p, timeout=lock_timeout())))

    def _fail(self, exc: BaseException) -> None:
        if not self._broken and self._on_warning is not None:
            self._on_warning(
                f"the parsed-games cache {self._path} cannot be used ({exc}); "
                "games are parsed from the HTTP cache"
            )
        self._broken = True
        self.close()

    def _http_failed(self) -> None:
        """``http.sqlite`` itself cannot be read: quietly no parsed games; the HTTP cache
        names its own file when the run opens it (a warning naming ``games.sqlite`` would
        send the user to the wrong file)."""
        self._broken = True
        self.close()

    def _stored(self, http: sqlite3.Connection, http_key: str) -> tuple[bytes, int | None] | None:
        try:
            row = http.execute(
                "SELECT value, expires FROM responses WHERE key = ?", (http_key,)
            ).fetchone()
        except sqlite3.Error as exc:
            raise _HttpUnreadable from exc
        if row is None or not isinstance(row[0], bytes):
            return None
        return row[0], row[1]

    def lookup(self, request: str, *, stale_ok: bool) -> bytes | None:
        """The payload parsed from the response the HTTP cache holds for ``request``.

        ``None`` (a miss) unless an entry exists, its response is still stored under the
        same key with the same bytes, and that response never expires (or ``stale_ok``).
        """
        conns = self._open()
        if conns is None:
            return None
        conn, http = conns
        try:
            row = conn.execute(
                "SELECT http_key, digest, payload FROM parsed WHERE request = ? AND version = ?",
                (request, VERSION),
            ).fetchone()
            if row is None:
                return None
            stored = self._stored(http, row[0])
        except _HttpUnreadable:
            self._http_failed()
            return None
        except sqlite3.Error as exc:
            self._fail(exc)
            return None
        if stored is None:
            return None
        blob, expires = stored
        if not stale_ok and expires is not None:
            # Only a response stored to never expire (a month that had ended) is surely
            # what the HTTP cache would serve online; the column holds whole seconds, too
            # coarse to tell a response stored a moment ago as already expired.
            return None
        if digest(blob) != row[1]:
            return None
        payload: bytes = row[2]
        return payload

    def store(
        self, request: str, http_key: str, matches: Callable[[bytes], bool], payload: bytes
    ) -> bool:
        """Keep ``payload`` for ``request`` if the HTTP cache holds the parsed response.

        Args:
            request: The ``request_id``.
            http_key: The requests-cache key the response was served or stored under.
            matches: Told the stored bytes; says whether they hold the body that was
                parsed (the caller knows the HTTP cache's serializer).
            payload: ``encode_games`` of what was parsed.

        Returns:
            Whether the entry was written.
        """
        conns = self._open()
        if conns is None or self.read_only:
            return False
        conn, http = conns
        try:
            stored = self._stored(http, http_key)
            if stored is None or not matches(stored[0]):
                return False
            conn.execute("BEGIN IMMEDIATE")  # waits at most the lock timeout
            try:
                conn.execute(
                    "INSERT OR REPLACE INTO parsed (request, http_key, digest, version, payload)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (request, http_key, digest(stored[0]), VERSION, payload),
                )
                conn.execute("COMMIT")
            except BaseException:
                rollback_quietly(lambda: conn.execute("ROLLBACK"))
                raise
        except _HttpUnreadable:
            self._http_failed()
            return False
        except sqlite3.Error as exc:
            self._fail(exc)
            return False
        return True

    def close(self) -> None:
        """Close both connections (safe to call more than once)."""
        for conn in (self._conn, self._http):
            if conn is not None:
                conn.close()
        self._conn = self._http = None
