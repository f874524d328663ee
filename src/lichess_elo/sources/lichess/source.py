"""What a Lichess source is, without the HTTP stack (a light module).

``Source`` (where requests go), the cache folder and the ``Progress`` protocol live here so
that a command that fetches nothing (everything served from the caches, or a PGN file)
never imports berserk, requests or requests-cache: ``session``, ``retries`` and ``api``
import them only when a request is really made.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lichess_elo.errors import BadInput, CacheUnusable, Conflict, Malformed
from lichess_elo.sources.lichess.checks import env_seconds, validate_token

DEFAULT_API_URL = "https://lichess.org"
CACHE_FILE = "http.sqlite"
READ_TIMEOUT = 60.0  # seconds between two reads; env LICHESS_ELO_TIMEOUT overrides
RATE_LIMIT_WAIT = 60.0  # Lichess: "wait one full minute"; env LICHESS_ELO_RETRY_WAIT overrides


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
    import platformdirs

    return platformdirs.user_cache_path("lichess-elo")


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


class Progress(Protocol):
    """Receives progress events from ``fetch_games`` (the CLI draws a bar with them)."""

    def start(self, total_months: int) -> None:
        """Called once with the number of months to fetch."""

    def month(self, label: str, done: int, games_so_far: int, from_cache: bool) -> None:
        """Called after each month (``YYYY-MM``) with the running totals."""

    def waiting(self, seconds: float, reason: str) -> None:
        """Called before a deliberate wait (HTTP 429, retry backoff)."""


def read_timeout() -> float:
    """Seconds to wait between two reads (``LICHESS_ELO_TIMEOUT``, default 60)."""
    return env_seconds("LICHESS_ELO_TIMEOUT", READ_TIMEOUT, zero_ok=False)


def retry_wait() -> float:
    """Seconds to wait after HTTP 429 (``LICHESS_ELO_RETRY_WAIT``, default 60)."""
    return env_seconds("LICHESS_ELO_RETRY_WAIT", RATE_LIMIT_WAIT, zero_ok=True)
