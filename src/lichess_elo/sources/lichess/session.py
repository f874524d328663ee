"""The Lichess session: berserk over a requests-cache SQLite cache (an edge module).

- one SQLite requests-cache file ``<cache dir>/http.sqlite``; ``Accept`` is part of the key;
  the token is a Bearer header on the session, never in the key (requests-cache stores it as
  ``REDACTED``);
- ``replay`` serves every request from a vcrpy cassette: nothing is sent and no HTTP
  response is cached (the replay facts of ``replay_cache`` still go to the cache folder,
  where all of the program's state lives);
- the token, ``LICHESS_ELO_TIMEOUT``, the cache folder and the cassette are checked before
  any request; a damaged cache file is named, never a traceback.

See ``docs/lichess.md`` ("The Lichess API as used") for the reasons.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import berserk
import platformdirs
import requests_cache
import yaml

from lichess_elo import __version__
from lichess_elo.errors import BadInput, CacheUnusable, Conflict, Malformed
from lichess_elo.sources.env import env_seconds
from lichess_elo.sources.lichess.answers import StreamCheck, foreign_redirect
from lichess_elo.sources.lichess.cassette import cassette_time, unreadable
from lichess_elo.sources.lichess.checks import validate_token
from lichess_elo.sources.lichess.ndjson import AnswerFault
from lichess_elo.sources.lichess.retries import retry_wait
from lichess_elo.sources.sqlite_open import (
    BoundedSQLiteCache,
    check_sidecars,
    is_busy,
    lock_timeout,
    locked,
    read_only_folder,
)

DEFAULT_API_URL = "https://lichess.org"
USER_AGENT = f"lichess-elo/{__version__}"
CACHE_FILE = "http.sqlite"
CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 60.0  # seconds between two reads; env LICHESS_ELO_TIMEOUT overrides


@dataclass(frozen=True)
class Source:
    """Where requests go: the server, the token, the cache and the offline/replay switches."""

    api_url: str = DEFAULT_API_URL
    token: str | None = None
    cache_dir: Path | None = None
    offline: bool = False
    refresh: bool = False
    replay: Path | None = None

    def check(self) -> None:
        """Check the settings before any request.

        Raises:
            Malformed: ``api_url`` is not a server root, or the token cannot go into a header.
            Conflict: ``offline`` with ``refresh`` (without a cassette).
        """
        if not re.fullmatch(r"https?://[^/\s]+", self.api_url.rstrip("/")):
            raise Malformed("api_url", self.api_url, f"a server root like {DEFAULT_API_URL}")
        if self.offline and self.refresh and self.replay is None:
            raise Conflict(("offline", "refresh"), "the cache is all there is offline")
        validate_token(self.token)


def resolve_cache_dir(source: Source) -> Path:
    """The cache folder: ``source.cache_dir``, else ``LICHESS_ELO_CACHE_DIR``, else platformdirs."""
    if source.cache_dir is not None:
        return source.cache_dir
    env = os.environ.get("LICHESS_ELO_CACHE_DIR")
    if env:
        return Path(env)
    return platformdirs.user_cache_path("lichess-elo")


def _timeout() -> tuple[float, float]:
    return CONNECT_TIMEOUT, env_seconds("LICHESS_ELO_TIMEOUT", READ_TIMEOUT, zero_ok=False)


def _cache_unusable(path: Path, exc: sqlite3.Error) -> CacheUnusable:
    if isinstance(exc, sqlite3.OperationalError) and is_busy(exc):
        return locked(path, lock_timeout())
    if isinstance(exc, sqlite3.OperationalError):  # read-only, disk I/O
        return CacheUnusable(f"the cache file {path} cannot be used ({exc})", path=path)
    return CacheUnusable(
        f"the cache file {path} is damaged ({exc}); move it aside or delete it, and run again",
        path=path,
    )


class _Session(requests_cache.CachedSession):
    """A CachedSession that sends one request at a time with timeouts and remembers whether
    the last response came from the cache (berserk hides the response object).

    A streamed answer is read through ``answers.StreamCheck`` (its content type checked,
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
            raise _cache_unusable(cache_path, exc) from None
        self._one_at_a_time = threading.Lock()
        self._timeout = timeout
        self._cache_path = cache_path
        self._api_url = api_url
        self.force_refresh = False
        self.last_from_cache = False
        self.last_response: Any = None
        self.last_check: StreamCheck | None = None

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        kwargs.setdefault("timeout", self._timeout)
        if self.force_refresh:
            kwargs["force_refresh"] = True
        self.last_response, self.last_check = None, None
        with self._one_at_a_time:
            try:
                response = super().request(method, url, *args, **kwargs)
            except sqlite3.Error as exc:
                raise _cache_unusable(self._cache_path, exc) from None
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

    def forget_last(self) -> None:
        """Remove the last answer from the cache (it did not parse whole)."""
        key = getattr(self.last_response, "cache_key", None)
        if key and not self.settings.read_only and not self.settings.disabled:
            with suppress(sqlite3.Error):
                self.cache.delete(key)


def _cacheable(response: Any) -> bool:
    """requests-cache filter: never keep an empty rating history fetched without a token."""
    request = getattr(response, "request", None)
    if request is None or not str(getattr(request, "path_url", "")).endswith("/rating-history"):
        return True
    if request.headers.get("Authorization"):
        return True
    return bool(response.content.strip() not in (b"", b"[]"))


@dataclass(frozen=True)
class Conn:
    """An open connection: the berserk client, its session, "now" and where answers come from."""

    client: Any
    session: _Session
    now: datetime
    cache_path: Path
    source: Source


@contextmanager
def connect(source: Source) -> Iterator[Conn]:
    """Open the session and client for ``source`` (checked first) and close them after."""
    source.check()
    api_url = source.api_url.rstrip("/")
    token = validate_token(source.token)
    timeout = _timeout()
    retry_wait()  # a bad LICHESS_ELO_RETRY_WAIT is refused before any request
    common: dict[str, Any] = {
        "timeout": timeout,
        "allowable_codes": (200,),
        "match_headers": ["Accept"],
        "filter_fn": _cacheable,
    }
    if source.replay is not None:
        try:
            import vcr
        except ImportError:  # pragma: no cover - depends on the environment
            raise CacheUnusable("replaying a cassette needs vcrpy: pip install vcrpy") from None
        now = cassette_time(source.replay)
        session = _Session(backend="memory", cache_path=source.replay, api_url=api_url, **common)
        session.settings.disabled = True  # the cassette is the only source
        cache_path = source.replay
        recorder = vcr.VCR(
            record_mode="none",
            match_on=["method", "scheme", "host", "port", "path", "query"],
            decode_compressed_response=True,
        )
        context: Any = recorder.use_cassette(str(source.replay))
    else:
        now = datetime.now(UTC)
        cache_dir = make_cache_dir(source)
        cache_path = cache_dir / CACHE_FILE
        backend = _open_backend(cache_path, source.offline)
        session = _Session(
            backend=backend,
            cache_path=cache_path,
            api_url=api_url,
            only_if_cached=source.offline,
            stale_if_error=source.offline,  # offline also serves expired (running) months
            **common,
        )
        session.force_refresh = source.refresh
        session.settings.read_only = backend.read_only
        context = None
    session.headers["User-Agent"] = USER_AGENT
    if token:
        session.headers["Authorization"] = f"Bearer {token}"
    client = berserk.Client(session=session, base_url=api_url)
    try:
        with ExitStack() as stack:
            if context is not None:
                try:
                    stack.enter_context(context)
                except (yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError):
                    raise unreadable(cache_path, "vcrpy cannot load it") from None
            yield Conn(client, session, now, cache_path, source)
    finally:
        with suppress(sqlite3.Error):  # a damaged cache was reported where it was met
            session.close()  # type: ignore[no-untyped-call]


def _open_backend(cache_path: Path, offline: bool) -> BoundedSQLiteCache:
    """The SQLite cache (WAL: no fsync per month) with a bounded lock wait; read-only
    offline when it cannot be written (nothing is stored offline anyway).

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
        raise _cache_unusable(cache_path, exc) from None


def make_cache_dir(source: Source) -> Path:
    """Create the cache folder (``resolve_cache_dir``) if needed and return it.

    Raises:
        BadInput: it, or a folder above it, is a file.
        CacheUnusable: it cannot be created.
    """
    cache_dir = resolve_cache_dir(source)
    for folder in (cache_dir, *cache_dir.parents):
        if folder.exists():
            if not folder.is_dir():
                what = "" if folder == cache_dir else f"{folder} "
                problem = f"{what}is a file, not a folder"
                raise BadInput(problem, field="cache_dir", value=cache_dir)
            break
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CacheUnusable(f"cannot create the cache folder {cache_dir}: {exc.strerror}") from None
    return cache_dir


@contextmanager
def open_client(source: Source) -> Iterator[Any]:
    """The configured ``berserk.Client`` (User-Agent, token header, cache, offline, cassette).

    Wrap its calls in ``call_with_retries`` to get the 429/backoff policy and error mapping.
    """
    with connect(source) as conn:
        yield conn.client
