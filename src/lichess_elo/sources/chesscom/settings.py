"""Where Chess.com requests go, and how (an edge module): ``ChessComSettings``.

The API's address is set as Lichess's is: the caller's value, else ``CHESSCOM_API_URL``
(read only in ``settings_from_env``, the one place that reads the environment for it), else
``https://api.chess.com``. The month URLs of the archives list are followed relative to it.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from lichess_elo._version import __version__
from lichess_elo.core.arguments import keywords_checked
from lichess_elo.errors import BadInput, Conflict, Malformed
from lichess_elo.sources.lichess.checks import redact_url, url_secrets

DEFAULT_API_URL = "https://api.chess.com"
#: The environment variable naming the API's address (the CLI's ``--chesscom-url`` wins).
API_URL_ENV = "CHESSCOM_API_URL"
#: Chess.com asks for a User-Agent that names the program and how to reach its makers
#: (HTTP 403 without one since June 2023); ``ChessComSettings.contact`` adds an address.
USER_AGENT = f"lichess-elo/{__version__} (Chess.com PubAPI reader)"
#: Seconds of the first wait after HTTP 429 without ``Retry-After``, doubled on each retry.
BACKOFF = 5.0
#: The longest wait after HTTP 429, whatever ``Retry-After`` says.
MAX_WAIT = 120.0
#: Retries of one request (HTTP 429, 5xx, a cut or timed-out answer).
MAX_RETRIES = 5
#: Seconds to wait for a connection and between two reads.
CONNECT_TIMEOUT, READ_TIMEOUT = 10.0, 60.0

_USERNAME = re.compile(r"[A-Za-z0-9_-]{1,50}")


@keywords_checked
@dataclass(frozen=True)
class ChessComSettings:
    """How the Chess.com client asks: the server, the cache folder (the same ``http.sqlite``
    as Lichess's), offline (the cache only), refresh (ask again even for finished months),
    a vcrpy cassette to replay, the timeout, the first wait after HTTP 429 without
    ``Retry-After``, the retries of one request, and a contact for the User-Agent."""

    api_url: str = DEFAULT_API_URL
    cache_dir: Path | None = None
    offline: bool = False
    refresh: bool = False
    replay: Path | None = None
    timeout: float = READ_TIMEOUT
    backoff: float = BACKOFF
    max_retries: int = MAX_RETRIES
    contact: str | None = None

    @property
    def user_agent(self) -> str:
        """The User-Agent sent with every request."""
        return USER_AGENT if not self.contact else f"{USER_AGENT[:-1]}; {self.contact})"

    def check(self) -> None:
        """Check the settings before any request.

        Raises:
            Malformed: ``api_url`` is not a server root; a time or count out of range.
            Conflict: ``offline`` with ``refresh`` (without a cassette).
        """
        if url_secrets(self.api_url) or redact_url(self.api_url) != self.api_url.strip():
            raise BadInput(
                "carries a user name or password; the Chess.com API needs none",
                field="chesscom_api_url",
                value=redact_url(self.api_url),
            )
        if not re.fullmatch(r"https?://[^/\s]+", self.api_url.rstrip("/")):
            raise Malformed(
                "chesscom_api_url", self.api_url, f"a server root like {DEFAULT_API_URL}"
            )
        if self.offline and self.refresh and self.replay is None:
            raise Conflict(("offline", "refresh"), "the cache is all there is offline")
        for name, value, low in (("timeout", self.timeout, 0.0), ("backoff", self.backoff, -1)):
            good = isinstance(value, int | float) and not isinstance(value, bool)
            if not good or not math.isfinite(value) or not low < value <= MAX_WAIT:
                above = "above 0" if low == 0 else "from 0"
                raise Malformed(name, value, f"a number of seconds {above} up to {MAX_WAIT:g}")
        if isinstance(self.max_retries, bool) or not isinstance(self.max_retries, int):
            raise Malformed("max_retries", self.max_retries, "a whole number from 0")
        if self.max_retries < 0:
            raise Malformed("max_retries", self.max_retries, "a whole number from 0")


def check_username(name: str) -> str:
    """A Chess.com username as the API's paths take it (lowercase).

    Raises:
        Malformed: not 1 to 50 letters, digits, ``_`` or ``-``.
    """
    if not isinstance(name, str) or not _USERNAME.fullmatch(name):
        raise Malformed("chesscom_username", name, "a Chess.com username (letters, digits, _ -)")
    return name.lower()


def settings_from_env(api_url: str | None = None, **given: object) -> ChessComSettings:
    """``ChessComSettings`` with the API's address from ``api_url`` (the command line's),
    else ``CHESSCOM_API_URL``, else ``DEFAULT_API_URL``; ``given`` are the other fields."""
    url = api_url or os.environ.get(API_URL_ENV, "").strip() or DEFAULT_API_URL
    return ChessComSettings(api_url=url, **given)  # type: ignore[arg-type]
