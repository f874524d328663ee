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


class DumpUnreadable(LichessEloError):
    """A dump file could not be read at all (not zstd, not Parquet, cut short)."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class DatabaseMissing(BadInput):
    """The population database named does not exist (nothing was ingested there)."""

    def __init__(self, path: object) -> None:
        super().__init__(f"no database at {path}: ingest dumps into it first")
        self.path = path


class NotRated(LichessEloError):
    """The population database has games but no lists for what was asked."""


class EngineUnavailable(LichessEloError):
    """The engine asked for cannot run here (module or Java missing)."""
