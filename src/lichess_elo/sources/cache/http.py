"""The HTTP cache's storage and session: requests-cache, imported only when it is used.

``session.connect`` imports this module when a run opens the Lichess session, so a run that
fetches nothing (a PGN file; an offline report whose every answer is in the parsed caches)
never loads requests, requests-cache or berserk. Here:

- ``BoundedSQLiteCache``: requests-cache's SQLite storage with a bounded lock wait and a
  read-only open (``sqlite_open`` says why);
- ``Session``: the cached session the berserk client sends through;
- ``open_backend`` and ``cache_unusable``: opening ``http.sqlite`` and naming its failures.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests_cache
from requests_cache.backends.sqlite import SQLiteCache, SQLiteDict

from lichess_elo.errors import CacheUnusable
from lichess_elo.sources.cache.sqlite import (
    check_sidecars,
    connect,
    disk_full,
    is_busy,
    is_damaged,
    lock_timeout,
    locked,
    read_only_folder,
    whole_in_main_file,
)
from lichess_elo.sources.lichess.ndjson import AnswerFault
from lichess_elo.sources.lichess.prefetch import PrefetchAdapter
from lichess_elo.sources.lichess.stream import StreamCheck, foreign_redirect
from lichess_elo.sources.transactions import rollback_quietly


def cache_unusable(path: Path, exc: sqlite3.Error) -> CacheUnusable:
    if isinstance(exc, sqlite3.OperationalError) and is_busy(exc):
        return locked(path, lock_timeout())
    if isinstance(exc, sqlite3.OperationalError) and disk_full(path):
        return CacheUnusable(
            f"the disk holding the cache file {path} is full ({exc}); free some space "
            "and run again",
            path=path,
        )
    if isinstance(exc, sqlite3.OperationalError):  # read-only, disk I/O
        return CacheUnusable(f"the cache file {path} cannot be used ({exc})", path=path)
    return CacheUnusable(
        f"the cache file {path} is damaged ({exc}); move it aside or delete it, and run again",
        path=path,
    )


class Session(requests_cache.CachedSession):
    """A CachedSession that sends one request at a time with timeouts and remembers whether
    the last response came from the cache (berserk hides the response object).

    A streamed answer is read through ``stream.StreamCheck`` (its content type checked,
    its lines split in linear time); a redirect to another server is refused.
    """

    def __init__(
        self,
        *args: Any,
        timeout: tuple[float, float],
        cache_path: Path,
        api_url: str,
        **kwargs: Any,
    ) -> None:
        try:
            super().__init__(*args, **kwargs)
        except sqlite3.Error as exc:
            raise cache_unusable(cache_path, exc) from None
        self._one_at_a_time = threading.Lock()
        self._timeout = timeout
        self._cache_path = cache_path
        self._api_url = api_url
        self.force_refresh = False
        self.last_from_cache = False
        self.last_response: Any = None
        self.last_check: StreamCheck | None = None
        self.ahead: PrefetchAdapter | None = None

    def ask_ahead(self, urls: Sequence[str]) -> None:
        """Send the request of each of ``urls`` (the run's months, in order) once the one
        before is in, not waiting to be asked (``prefetch``); never those already cached."""
        if self.ahead is None:
            self.ahead = PrefetchAdapter()
            self.mount("http://", self.ahead)
            self.mount("https://", self.ahead)
        self.ahead.plan(urls, self._held)

    def _held(self, request: Any, options: dict[str, Any]) -> bool:
        # whether fresh or not, refreshed or not: a month stored is not asked ahead
        try:
            return bool(self.cache.contains(key=self.cache.create_key(request, **options)))
        except sqlite3.Error:
            return True  # not asked ahead: the request itself meets (and names) the failure

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        kwargs.setdefault("timeout", self._timeout)
        if self.force_refresh:
            kwargs["force_refresh"] = True
        self.last_response, self.last_check = None, None
        with self._one_at_a_time:
            try:
                response = super().request(method, url, *args, **kwargs)
            except sqlite3.Error as exc:
                raise cache_unusable(self._cache_path, exc) from None
        self.last_from_cache = bool(getattr(response, "from_cache", False))
        self.last_response = response
        if kwargs.get("stream") and response.status_code == 200:
            try:  # berserk reads the lines through the check (linear, size-limited)
                self.last_check = StreamCheck(response)
            except AnswerFault:
                self.forget_last()
                raise
        return response

    def get_redirect_target(self, resp: Any) -> Any:
        """requests' redirect target, refused when it is on another server."""
        target = super().get_redirect_target(resp)
        foreign_redirect(self._api_url, resp, target)
        return target

    def expire_last(self) -> None:
        """Keep the last answer, but as expired: an online run asks again, an offline one
        may still read it (a month whose answer lacked games is not final)."""
        key = getattr(self.last_response, "cache_key", None)
        if key and not self.settings.read_only and not self.settings.disabled:
            with suppress(sqlite3.Error, KeyError):
                stored = self.cache.responses[key]
                stored.expires = datetime.now(UTC)
                self.cache.responses[key] = stored

    def forget_last(self) -> None:
        """Remove the last answer from the cache (it did not parse whole)."""
        key = getattr(self.last_response, "cache_key", None)
        if key and not self.settings.read_only and not self.settings.disabled:
            with suppress(sqlite3.Error):
                self.cache.delete(key)


def cacheable(response: Any) -> bool:
    """requests-cache filter: never keep an empty rating history fetched without a token."""
    request = getattr(response, "request", None)
    if request is None or not str(getattr(request, "path_url", "")).endswith("/rating-history"):
        return True
    if request.headers.get("Authorization"):
        return True
    return bool(response.content.strip() not in (b"", b"[]"))


class _BoundedDict(SQLiteDict):
    """requests-cache's SQLite table with a bounded lock wait and an optional read-only open."""

    def __init__(
        self, *args: Any, timeout: float, read_only: bool, immutable: bool, **kwargs: Any
    ) -> None:
        self._wait = timeout
        self._read_only = read_only
        self._immutable = immutable
        super().__init__(*args, **kwargs)

    def init_db(self) -> None:
        """Create the table, unless the file is opened read-only (then it must exist)."""
        if not self._read_only:
            super().init_db()  # type: ignore[no-untyped-call]
            return
        self.close()  # type: ignore[no-untyped-call]
        with self.connection() as con:
            con.execute(f"SELECT 1 FROM {self.table_name} LIMIT 1").fetchall()

    def deserialize(self, key: str, value: Any) -> Any:
        """A stored answer, or ``None`` (a miss) when damaged bytes cannot be unpickled:
        requests-cache only expects the errors of an older format."""
        try:
            return super().deserialize(key, value)
        except Exception:  # random bytes can raise anything pickle can
            return None

    @contextmanager
    def connection(self, commit: bool = False) -> Iterator[sqlite3.Connection]:
        """One connection per table, opened through ``connect``."""
        with self._lock:
            if not self._connection:
                self._connection = connect(
                    Path(self.db_path),
                    timeout=self._wait,
                    read_only=self._read_only,
                    immutable=self._immutable,
                )
                if self.wal and not self._read_only:
                    self._connection.execute("PRAGMA journal_mode=WAL")
                    self._connection.execute("PRAGMA synchronous=NORMAL")
        if commit and not self._active_transaction:
            with self._acquire_sqlite_lock():
                yield self._connection
        else:
            yield self._connection

    @contextmanager
    def _acquire_sqlite_lock(self) -> Iterator[None]:
        with self._lock:
            path = Path(self.db_path)
            connection = self._connection
            assert connection is not None  # opened by connection() before any write
            try:
                # SQLite itself waits up to the busy timeout for another run's lock.
                connection.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if is_busy(exc):
                    raise locked(path, self._wait) from None
                raise
            self._active_transaction = True
            try:
                yield
                connection.commit()
            except BaseException:
                rollback_quietly(connection.rollback)
                raise
            finally:
                self._active_transaction = False


class BoundedSQLiteCache(SQLiteCache):
    """``SQLiteCache`` whose two tables wait at most ``timeout`` seconds for a lock."""

    def __init__(
        self,
        db_path: Path,
        *,
        timeout: float,
        read_only: bool = False,
        wal: bool = True,
        immutable: bool = False,
    ) -> None:
        # SQLiteCache.__init__ would build plain SQLiteDicts (and take their lock loop).
        super(SQLiteCache, self).__init__(cache_name=str(db_path))
        lock = threading.RLock()
        common: dict[str, Any] = {
            "timeout": timeout,
            "read_only": read_only or immutable,
            "wal": wal,
            "immutable": immutable,
        }
        self.responses = _BoundedDict(str(db_path), table_name="responses", lock=lock, **common)
        self.redirects = _BoundedDict(
            str(db_path), table_name="redirects", lock=lock, serializer=None, **common
        )
        self.read_only = read_only or immutable


def open_backend(cache_path: Path, offline: bool) -> BoundedSQLiteCache:
    """The SQLite cache (WAL: no fsync per month) with a bounded lock wait; read-only
    offline when it cannot be written (nothing is stored offline anyway), also when the
    disk is full (SQLite could not make its ``-shm`` index: the file is read ``immutable``,
    which is safe while no ``-wal`` holds changes).

    Raises:
        CacheUnusable: the folder cannot be written (online), another user's ``-wal`` or
            ``-shm`` file, a damaged file; CacheLocked: another run holds the lock.
    """
    check_sidecars(cache_path)
    read_only = read_only_folder(cache_path) or (
        cache_path.exists() and not os.access(cache_path, os.W_OK)
    )
    if read_only and not offline:
        raise CacheUnusable(
            f"the cache folder {cache_path.parent} cannot be written; work offline, "
            "or use another cache folder",
            path=cache_path.parent,
        )
    try:
        return BoundedSQLiteCache(cache_path, timeout=lock_timeout(), read_only=read_only)
    except sqlite3.Error as exc:
        if not (offline and _readable_unchanged(cache_path, exc)):
            raise cache_unusable(cache_path, exc) from None
    try:
        return BoundedSQLiteCache(cache_path, timeout=lock_timeout(), immutable=True)
    except sqlite3.Error as exc:
        raise cache_unusable(cache_path, exc) from None


def _readable_unchanged(path: Path, exc: sqlite3.Error) -> bool:
    """Whether an offline run may still read ``path`` as it is after ``exc`` (a full disk,
    an I/O error on the ``-shm``): the file exists whole, and no lock or damage is why."""
    if not isinstance(exc, sqlite3.OperationalError) or is_busy(exc) or is_damaged(exc):
        return False
    return path.is_file() and path.stat().st_size > 0 and whole_in_main_file(path)


def open_session(
    api_url: str,
    common: dict[str, Any],
    *,
    replay: Path | None,
    cache_path: Path | None,
    offline: bool,
    refresh: bool,
) -> tuple[Session, Any]:
    """A site's session and, when it replays the cassette ``replay``, the vcrpy context
    to enter (else ``None``): answers come from the cassette alone, or through the HTTP
    cache at ``cache_path`` (offline: only from it, an expired month included). ``common``
    holds the site's own session settings (timeouts, codes, matched headers, filter).

    Raises:
        CacheUnusable: vcrpy is missing, or the cache file cannot be opened.
    """
    if replay is not None:
        try:
            import vcr
        except ImportError:  # pragma: no cover - depends on the environment
            raise CacheUnusable("replaying a cassette needs vcrpy: pip install vcrpy") from None
        session = Session(backend="memory", cache_path=replay, api_url=api_url, **common)
        session.settings.disabled = True  # the cassette is the only source
        recorder = vcr.VCR(
            record_mode="none",
            match_on=["method", "scheme", "host", "port", "path", "query"],
            decode_compressed_response=True,
        )
        return session, recorder.use_cassette(str(replay))
    assert cache_path is not None
    backend = open_backend(cache_path, offline)
    session = Session(
        backend=backend,
        cache_path=cache_path,
        api_url=api_url,
        only_if_cached=offline,
        stale_if_error=offline,  # offline also serves expired (running) months
        **common,
    )
    session.force_refresh = refresh
    session.settings.read_only = backend.read_only
    return session, None
