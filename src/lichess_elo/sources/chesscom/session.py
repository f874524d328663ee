"""The Chess.com session: one request at a time through the project's HTTP cache (an edge
module).

- online and offline, the session is ``sources.cache.http.Session`` over the same
  ``<cache dir>/http.sqlite`` as Lichess's answers (the key holds the full URL, so the two
  sites never share an entry); offline it only reads the cache (a month not there is
  ``NotCached``), expired entries included;
- ``replay`` serves every request from a vcrpy cassette (nothing is sent, nothing cached),
  and "now" is the cassette's recording time;
- ``ChessComConn.get`` sends one request with the politeness and fault policy: HTTP 429
  waits ``Retry-After`` (at most ``MAX_WAIT`` s) or, without one, a doubling backoff from
  ``backoff`` seconds; a 5xx, timeout or cut answer retries the same way; at most
  ``max_retries`` times. Other statuses are the caller's to word.

How long an answer is kept is the caller's (``expire_after`` of each request): the
validators Chess.com sends (a weak ``ETag``, a ``Last-Modified`` that is not an RFC 7231
date) are echoed by requests-cache when it revalidates, never parsed here.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lichess_elo.errors import (
    CannotConnect,
    CassetteMissing,
    FetchFailed,
    FetchHint,
    NotCached,
    RateLimited,
)
from lichess_elo.sources.cache.folder import make_cache_folder
from lichess_elo.sources.chesscom.settings import CONNECT_TIMEOUT, MAX_WAIT, ChessComSettings
from lichess_elo.sources.lichess.cassette import cassette_time, unreadable
from lichess_elo.sources.lichess.retries import REFUSED_RETRY_WAIT, unreachable
from lichess_elo.sources.lichess.session import CACHE_FILE

if TYPE_CHECKING:
    from lichess_elo.sources.cache.http import Session

#: Waits are taken through this (tests replace nothing: a fake server says ``Retry-After: 0``).
sleep = time.sleep


@dataclass(frozen=True)
class ChessComConn:
    """An open session: the settings, the session, "now" and the cache file (or cassette)."""

    settings: ChessComSettings
    session: Session
    now: datetime
    cache_path: Path

    @property
    def api_url(self) -> str:
        """The server root, without a trailing ``/``."""
        return self.settings.api_url.rstrip("/")

    def get(
        self,
        path: str,
        *,
        what: str,
        hint: FetchHint,
        expire_after: Any,
        on_warning: Callable[[str], None] | None = None,
    ) -> Any:
        """``GET {api_url}{path}`` with the politeness and fault policy; the response, of
        any status but 429 and 5xx (those are retried).

        Raises:
            NotCached: offline, the answer is not in the cache. CassetteMissing: the
                cassette has no such request. RateLimited, FetchFailed, CannotConnect:
                the retries ran out, or the server cannot be reached.
        """
        import requests

        settings = self.settings
        failures = 0
        # The session's setting, not the request's: requests-cache turns a request's
        # expiry in the past into ``max-age=0`` and then stores no answer without validators.
        self.session.settings.expire_after = expire_after
        while True:
            try:
                response = self.session.get(f"{self.api_url}{path}")
            except _cassette_miss(settings) as exc:
                raise CassetteMissing(
                    f"the cassette {settings.replay} has no response for {what}"
                ) from exc
            except requests.RequestException as exc:
                reason = unreachable(exc)
                if reason is not None and failures >= 1:
                    raise CannotConnect(self.api_url, reason) from None
                problem = f"connection error ({type(exc).__name__})"
                # a refused connection or an unknown host: one quick retry, then say so
                retry_after = None if reason is None else min(REFUSED_RETRY_WAIT, settings.backoff)
            else:
                status = response.status_code
                if status == 504 and settings.offline and response.reason == "Not Cached":
                    raise NotCached(what, hint)
                if status != 429 and status < 500:
                    return response
                problem = f"HTTP {status}"
                retry_after = _retry_after(response.headers.get("Retry-After"))
            failures += 1
            if settings.replay is not None:
                raise FetchFailed(
                    f"the cassette {settings.replay} answers {what} with {problem}; "
                    "a recorded answer is never retried"
                )
            if failures > settings.max_retries:
                message = f"{what} failed after {settings.max_retries} retries ({problem})"
                raise RateLimited(message) if problem == "HTTP 429" else FetchFailed(message)
            delay = retry_after
            if delay is None:
                delay = min(settings.backoff * 2.0 ** (failures - 1), MAX_WAIT)
            if on_warning is not None:
                source = "Chess.com rate limit (HTTP 429)" if problem == "HTTP 429" else problem
                on_warning(
                    f"{source} on {what}; retry {failures} of {settings.max_retries} in {delay:g} s"
                )
            sleep(delay)


def _retry_after(value: str | None) -> float | None:
    """Seconds of a ``Retry-After`` header given as seconds (bounded by ``MAX_WAIT``); an
    HTTP date or anything else is ``None`` (the backoff is used)."""
    if value is None or not value.strip().isdigit():
        return None
    return min(float(value.strip()), MAX_WAIT)


def _cassette_miss(settings: ChessComSettings) -> tuple[type[BaseException], ...]:
    if settings.replay is None:
        return ()
    from vcr.errors import CannotOverwriteExistingCassetteException

    return (CannotOverwriteExistingCassetteException,)


@contextmanager
def connect(settings: ChessComSettings, now: datetime | None = None) -> Iterator[ChessComConn]:
    """Open the session for ``settings`` (checked first) and close it after.

    ``now`` (UTC) decides which month is running; the clock's by default, the cassette's
    recording time when replaying.

    Raises:
        BadInput: the settings; CacheUnusable, CacheLocked: the cache file.
    """
    from lichess_elo.sources.cache.http import open_session

    settings.check()
    api_url = settings.api_url.rstrip("/")
    common: dict[str, Any] = {
        "timeout": (CONNECT_TIMEOUT, settings.timeout),
        "allowable_codes": (200,),
        "match_headers": ["Accept"],
    }
    if settings.replay is not None:
        when = cassette_time(settings.replay)
        cache_path = settings.replay
    else:
        when = now or datetime.now(UTC)
        cache_path = make_cache_folder(settings.cache_dir) / CACHE_FILE
    session, context = open_session(
        api_url,
        common,
        replay=settings.replay,
        cache_path=cache_path,
        offline=settings.offline,
        refresh=settings.refresh,
    )
    session.headers["User-Agent"] = settings.user_agent
    session.headers["Accept"] = "application/json"
    try:
        with ExitStack() as stack:
            if context is not None:
                import yaml

                try:
                    stack.enter_context(context)
                except (yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError):
                    raise unreadable(cache_path, "vcrpy cannot load it") from None
            yield ChessComConn(settings, session, when, cache_path)
    finally:
        with suppress(sqlite3.Error):
            session.close()  # type: ignore[no-untyped-call]
