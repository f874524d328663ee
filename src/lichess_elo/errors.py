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


class CacheUnusable(LichessEloError):
    """A cache file is damaged (not a database, malformed), read-only or not ours.

    ``path`` is the file.
    """

    def __init__(self, message: str, *, path: object = None) -> None:
        super().__init__(message)
        self.path = path


class CacheLocked(CacheUnusable):
    """Another run held a cache file's lock for longer than the lock timeout."""


class DamagedAnswer(FetchFailed):
    """An answer (from Lichess, the cache or a cassette) that cannot be used whole: a
    broken or non-UTF-8 line, the wrong content type, a line over the size limit.

    ``what`` is what was asked (e.g. a month), ``fault`` what is wrong with the answer.
    """

    def __init__(self, message: str, *, what: str = "", fault: str = "") -> None:
        super().__init__(message)
        self.what = what
        self.fault = fault
