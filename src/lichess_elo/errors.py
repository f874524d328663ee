"""The library's own exceptions.

Nothing below ``cli.py`` prints or exits: it raises one of these, and the command line
maps it to a one-line message and an exit code (2 for bad input, 1 for runtime failures).
"""

from __future__ import annotations


class LichessEloError(Exception):
    """Base class of every error this package raises on purpose."""

    exit_code = 1


class BadInput(LichessEloError):
    """The user gave something malformed: a bad argument, file, date or score."""

    exit_code = 2


class UserNotFound(LichessEloError):
    """Lichess has no user with that name (HTTP 404)."""


class AccountClosed(LichessEloError):
    """The Lichess account exists but is closed (``disabled``)."""


class NotCached(LichessEloError):
    """Offline mode asked for something the cache does not hold."""


class RateLimited(LichessEloError):
    """Lichess answered HTTP 429 and retries were exhausted."""


class FetchFailed(LichessEloError):
    """A request failed for good after the retries (network, 5xx, cut stream)."""


class CassetteMissing(LichessEloError):
    """A ``--replay`` cassette lacks a request that the run needed."""


class CannotConnect(FetchFailed):
    """The server refused the connection or its name does not resolve (fails fast).

    Attributes:
        url: The server that could not be reached.
        reason: What went wrong, e.g. ``connection refused``.
        cached: Whether the cache holds the user asked for (so working offline would help).
    """

    def __init__(self, url: str, reason: str, *, cached: bool = False) -> None:
        super().__init__(f"cannot connect to {url} ({reason})")
        self.url = url
        self.reason = reason
        self.cached = cached
