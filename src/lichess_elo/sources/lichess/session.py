"""The Lichess session: berserk over a requests-cache SQLite cache (an edge module).

- one SQLite requests-cache file ``<cache dir>/http.sqlite``; ``Accept`` is part of the key;
  the token is a Bearer header on the session, never in the key (requests-cache stores it as
  ``REDACTED``);
- ``replay`` serves every request from a vcrpy cassette: nothing is sent and no HTTP
  response is cached (the replay facts of ``replay_cache`` still go to the cache folder,
  where all of the program's state lives);
- the token, ``LICHESS_ELO_TIMEOUT``, the cache folder and the cassette are checked before
  any request; a damaged cache file is named, never a traceback.

See ``docs/rules.md`` ("The Lichess API as used") for the reasons.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import berserk
import requests_cache
import yaml
from requests_cache.backends.sqlite import SQLiteCache

from lichess_elo import __version__
from lichess_elo.errors import CacheUnusable
from lichess_elo.sources.lichess.cassette import cassette_time, unreadable
from lichess_elo.sources.lichess.checks import validate_token
from lichess_elo.sources.lichess.source import CACHE_FILE as CACHE_FILE
from lichess_elo.sources.lichess.source import DEFAULT_API_URL as DEFAULT_API_URL
from lichess_elo.sources.lichess.source import READ_TIMEOUT as READ_TIMEOUT
from lichess_elo.sources.lichess.source import Source as Source
from lichess_elo.sources.lichess.source import make_cache_dir as make_cache_dir
from lichess_elo.sources.lichess.source import read_timeout, retry_wait
from lichess_elo.sources.lichess.source import resolve_cache_dir as resolve_cache_dir

USER_AGENT = f"lichess-elo/{__version__}"
CONNECT_TIMEOUT = 10.0


def _timeout() -> tuple[float, float]:
    return CONNECT_TIMEOUT, read_timeout()


def _cache_unusable(path: Path, exc: sqlite3.Error) -> CacheUnusable:
    if isinstance(exc, sqlite3.OperationalError):  # locked, read-only, disk I/O
        return CacheUnusable(f"the cache file {path} cannot be used ({exc})")
    return CacheUnusable(
        f"the cache file {path} is damaged ({exc}); move it aside or delete it, and run again"
    )


class _Session(requests_cache.CachedSession):
    """A CachedSession that sends one request at a time with timeouts and remembers whether
    the last response came from the cache (berserk hides the response object)."""

    def __init__(
        self, *args: Any, timeout: tuple[float, float], cache_path: Path, **kwargs: Any
    ) -> None:
        try:
            super().__init__(*args, **kwargs)
        except sqlite3.Error as exc:
            raise _cache_unusable(cache_path, exc) from None
        self._one_at_a_time = threading.Lock()
        self._timeout = timeout
        self._cache_path = cache_path
        self.force_refresh = False
        self.last_from_cache = False
        self.last_response: Any = None  # for the parsed-games cache (``parsed.keep_month``)

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        kwargs.setdefault("timeout", self._timeout)
        if self.force_refresh:
            kwargs["force_refresh"] = True
        with self._one_at_a_time:
            try:
                response = super().request(method, url, *args, **kwargs)
            except sqlite3.Error as exc:
                raise _cache_unusable(self._cache_path, exc) from None
        self.last_from_cache = bool(getattr(response, "from_cache", False))
        self.last_response = response
        return response


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
        session = _Session(backend="memory", cache_path=source.replay, **common)
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
        try:
            backend = SQLiteCache(str(cache_path), wal=True)  # WAL: no fsync per month
        except sqlite3.Error as exc:
            raise _cache_unusable(cache_path, exc) from None
        session = _Session(
            backend=backend,
            cache_path=cache_path,
            only_if_cached=source.offline,
            stale_if_error=source.offline,  # offline also serves expired (running) months
            **common,
        )
        session.force_refresh = source.refresh
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


@contextmanager
def open_client(source: Source) -> Iterator[Any]:
    """The configured ``berserk.Client`` (User-Agent, token header, cache, offline, cassette).

    Wrap its calls in ``call_with_retries`` to get the 429/backoff policy and error mapping.
    """
    with connect(source) as conn:
        yield conn.client
