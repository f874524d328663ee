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

import math
import re
import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lichess_elo._version import __version__
from lichess_elo.core.arguments import keywords_checked
from lichess_elo.errors import BadInput, Conflict, Malformed
from lichess_elo.sources.cache.folder import make_cache_folder
from lichess_elo.sources.env import cache_folder, env_seconds, retry_wait
from lichess_elo.sources.lichess.cassette import cassette_time, unreadable
from lichess_elo.sources.lichess.checks import redact_url, url_secrets, validate_token

if TYPE_CHECKING:
    from lichess_elo.sources.cache.http import Session

DEFAULT_API_URL = "https://lichess.org"
USER_AGENT = f"lichess-elo/{__version__}"
CACHE_FILE = "http.sqlite"
CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 60.0  # seconds between two reads; env LICHESS_ELO_TIMEOUT overrides


@keywords_checked
@dataclass(frozen=True)
class LichessSettings:
    """Where requests go: the server, the token, the cache, the offline/replay switches and
    the network policy.

    ``timeout`` (seconds between two reads), ``retry_wait`` (seconds after HTTP 429) and
    ``max_retries`` (retries of one request) left ``None`` take ``LICHESS_ELO_TIMEOUT``,
    ``LICHESS_ELO_RETRY_WAIT`` and the default of 5. The token is never shown in the
    settings' ``repr``.
    """

    api_url: str = DEFAULT_API_URL
    token: str | None = field(default=None, repr=False)
    cache_dir: Path | None = None
    offline: bool = False
    refresh: bool = False
    replay: Path | None = None
    timeout: float | None = None
    retry_wait: float | None = None
    max_retries: int | None = None

    def check(self) -> None:
        """Check the settings before any request.

        Raises:
            Malformed: ``api_url`` is not a server root, or the token cannot go into a header.
            Conflict: ``offline`` with ``refresh`` (without a cassette).
        """
        if url_secrets(self.api_url) or redact_url(self.api_url) != self.api_url.strip():
            # refused before any request, shown without them: a token in the URL would
            # reach messages, the cache's keys and the server's logs
            raise BadInput(
                "carries a user name or password; a Lichess token goes in LICHESS_TOKEN or "
                "a token file, never in the URL",
                field="api_url",
                value=redact_url(self.api_url),
            )
        if not re.fullmatch(r"https?://[^/\s]+", self.api_url.rstrip("/")):
            raise Malformed("api_url", self.api_url, f"a server root like {DEFAULT_API_URL}")
        if self.offline and self.refresh and self.replay is None:
            raise Conflict(("offline", "refresh"), "the cache is all there is offline")
        validate_token(self.token)
        _check_seconds("timeout", self.timeout, zero_ok=False)
        _check_seconds("retry_wait", self.retry_wait, zero_ok=True)
        if self.max_retries is not None and (
            isinstance(self.max_retries, bool)
            or not isinstance(self.max_retries, int)
            or self.max_retries < 0
        ):
            raise Malformed("max_retries", self.max_retries, "a whole number from 0")


def _check_seconds(name: str, value: float | None, *, zero_ok: bool) -> None:
    """Refuse a ``LichessSettings`` time that is not a finite number of seconds (above 0 unless
    ``zero_ok``)."""
    if value is None:
        return
    good = isinstance(value, int | float) and not isinstance(value, bool)
    if not good or not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
        expected = "seconds from 0" if zero_ok else "seconds above 0"
        raise Malformed(name, value, f"a number of {expected}")


def resolve_cache_dir(source: LichessSettings) -> Path:
    """The cache folder: ``source.cache_dir``, else ``LICHESS_ELO_CACHE_DIR``, else platformdirs
    (``sources.env.cache_folder``)."""
    return cache_folder(source.cache_dir)


#: The files of the cache folder (the HTTP answers, the games, the replays).
CACHE_FILES = ("http.sqlite", "games.sqlite", "replay.sqlite")


def cache_files(source: LichessSettings) -> dict[Path, str]:
    """Each file of ``source``'s cache folder, with SQLite's files beside it, by name."""
    folder = resolve_cache_dir(source)
    found: dict[Path, str] = {}
    for name in CACHE_FILES:
        for suffix in ("", "-wal", "-shm", "-journal"):
            found[folder / (name + suffix)] = f"the cache's {name}{suffix}"
    return found


def _timeout(source: LichessSettings) -> tuple[float, float]:
    """The connect and read timeouts: the source's, else ``LICHESS_ELO_TIMEOUT``, else 60 s."""
    if source.timeout is not None:
        return CONNECT_TIMEOUT, float(source.timeout)
    return CONNECT_TIMEOUT, env_seconds("LICHESS_ELO_TIMEOUT", READ_TIMEOUT, zero_ok=False)


@dataclass(frozen=True)
class Conn:
    """An open connection: the berserk client, its session, "now" and where answers come from."""

    client: Any
    session: Session
    now: datetime
    cache_path: Path
    source: LichessSettings


def check_connection(source: LichessSettings) -> None:
    """Everything ``connect`` checks before it opens anything, for a run that may need no
    session at all (an offline run served from the parsed caches checks the same).

    Raises:
        Malformed, Conflict: ``LichessSettings.check``; BadInput: a bad token,
            ``LICHESS_ELO_TIMEOUT`` or ``LICHESS_ELO_RETRY_WAIT``.
    """
    source.check()
    validate_token(source.token)
    _timeout(source)
    retry_wait(source.retry_wait)  # a bad LICHESS_ELO_RETRY_WAIT is refused before any request


@contextmanager
def connect(source: LichessSettings) -> Iterator[Conn]:
    """Open the session and client for ``source`` (checked first) and close them after.

    The HTTP stack (berserk, requests-cache; vcrpy for a cassette) is imported here, on the
    first connection, never by a run that needs none.
    """
    import berserk

    from lichess_elo.sources.cache.http import cacheable, open_session

    check_connection(source)
    api_url = source.api_url.rstrip("/")
    token = validate_token(source.token)
    timeout = _timeout(source)
    common: dict[str, Any] = {
        "timeout": timeout,
        "allowable_codes": (200,),
        "match_headers": ["Accept"],
        "filter_fn": cacheable,
    }
    if source.replay is not None:
        now = cassette_time(source.replay)
        cache_path = source.replay
    else:
        now = datetime.now(UTC)
        cache_path = make_cache_dir(source) / CACHE_FILE
    session, context = open_session(
        api_url,
        common,
        replay=source.replay,
        cache_path=cache_path,
        offline=source.offline,
        refresh=source.refresh,
    )
    session.headers["User-Agent"] = USER_AGENT
    if token:
        session.headers["Authorization"] = f"Bearer {token}"
    client = berserk.Client(session=session, base_url=api_url)
    try:
        with ExitStack() as stack:
            if context is not None:
                import yaml  # vcrpy's cassette format, only for a cassette

                try:
                    stack.enter_context(context)
                except (yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError):
                    raise unreadable(cache_path, "vcrpy cannot load it") from None
            yield Conn(client, session, now, cache_path, source)
    finally:
        with suppress(sqlite3.Error):  # a damaged cache was reported where it was met
            session.close()  # type: ignore[no-untyped-call]


def make_cache_dir(source: LichessSettings) -> Path:
    """Create the Lichess settings' cache folder if needed and return it
    (``sources.cache.folder.make_cache_folder``)."""
    return make_cache_folder(source.cache_dir)


@contextmanager
def open_client(source: LichessSettings) -> Iterator[Any]:
    """The configured ``berserk.Client`` (User-Agent, token header, cache, offline, cassette).

    Wrap its calls in ``call_with_retries`` to get the 429/backoff policy and error mapping.
    """
    with connect(source) as conn:
        yield conn.client
