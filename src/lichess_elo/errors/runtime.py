"""What went wrong at run time (exit code 1): Lichess has no such thing, the network, the
cache, the cassette, an output file, the Glicko-2 iteration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from lichess_elo.errors.base import LichessEloError


class NotFound(LichessEloError):
    """Lichess has no such thing (HTTP 404): a user, a tournament, a FIDE player."""


class UserNotFound(NotFound):
    """Lichess has no user with that name (HTTP 404)."""


class FidePlayerNotFound(NotFound):
    """Lichess knows no FIDE player with that id (HTTP 404)."""

    def __init__(self, fide_id: int) -> None:
        super().__init__(f"no FIDE player with id {fide_id}")
        self.fide_id = fide_id


class BadFideData(LichessEloError):
    """A FIDE answer from Lichess is not in the documented format."""


class AccountClosed(LichessEloError):
    """The Lichess account exists but is closed (``disabled``)."""


@dataclass(frozen=True)
class FetchHint:
    """What would fetch a missing item: the user (or the tournament id when ``tournament``),
    a month's ``[since, until)``, the FIDE id of a FIDE record, and the server and cache
    folder when not the defaults."""

    user: str
    since: date | None = None
    until: date | None = None
    api_url: str | None = None
    cache_dir: Path | None = None
    tournament: bool = False
    fide_id: int | None = None


class NotCached(LichessEloError):
    """Offline mode asked for something the cache does not hold; ``hint`` says what fetches it."""

    def __init__(self, what: str, hint: FetchHint, elsewhere: tuple[str, ...] = ()) -> None:
        #: Other servers (``api_url``) whose answers the cache holds for the same user.
        self.what, self.hint, self.elsewhere = what, hint, elsewhere
        super().__init__(f"{what} is not in the cache; fetch it online first")


class RateLimited(LichessEloError):
    """Lichess answered HTTP 429 and retries were exhausted."""


class FetchFailed(LichessEloError):
    """A request failed for good after the retries (network, 5xx, cut stream, HTTP 4xx).

    ``connection_error`` is true when the server could not be reached at all, where the
    cache may still serve the run.
    """

    def __init__(self, message: str, *, connection_error: bool = False) -> None:
        self.connection_error = connection_error
        super().__init__(message)


class CannotConnect(FetchFailed):
    """The server refused the connection or its name does not resolve (reported fast).

    Attributes:
        url: The server that could not be reached.
        reason: What went wrong, e.g. ``connection refused``.
        cached: Whether the cache holds the user asked for (so working offline would help).
    """

    def __init__(self, url: str, reason: str, *, cached: bool = False) -> None:
        super().__init__(f"cannot connect to {url} ({reason})", connection_error=True)
        self.url = url
        self.reason = reason
        self.cached = cached


class TokenRefused(FetchFailed):
    """Lichess refused the token (HTTP 401): a server answer, so a run-time failure."""


class CassetteMissing(LichessEloError):
    """A replayed cassette lacks a request that the run needed."""


class CacheUnusable(LichessEloError):
    """The HTTP or replay cache file is damaged, locked or read-only; ``path`` is the file
    (or folder) when known."""

    def __init__(self, message: str, *, path: Path | None = None) -> None:
        self.path = path
        super().__init__(message)


class CacheLocked(CacheUnusable):
    """Another run held a cache file's lock for longer than the lock timeout."""


class DamagedAnswer(FetchFailed):
    """An answer (from Lichess, the cache or a cassette) that cannot be used whole: a line
    that is not JSON or not UTF-8, the wrong content type, a line over the size limit.

    ``what`` is what was asked (e.g. a month), ``fault`` what is wrong with the answer;
    ``hint`` is set when a damaged cached answer must be fetched again online.
    """

    def __init__(
        self, message: str, *, what: str = "", fault: str = "", hint: FetchHint | None = None
    ) -> None:
        self.what, self.fault, self.hint = what, fault, hint
        super().__init__(message)


class WriteFailed(LichessEloError):
    """An output file could not be written: ``path`` is the user's path, ``field`` the input
    that named it (``output`` or ``chart``), ``reason`` the system's words."""

    def __init__(self, path: Path, reason: str, field: str = "output") -> None:
        self.path, self.reason, self.field = path, reason, field
        super().__init__(f"{path}: cannot write ({reason})")

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<option> <path>: cannot write (<reason>)`` when ``names`` names the input."""
        prefix = f"{names[self.field]} " if names and self.field in names else ""
        return f"{prefix}{self}"


class PackageMissing(LichessEloError):
    """An optional package a call needs is not installed: ``package`` is its name on PyPI,
    ``call`` the call that needs it (``to_frame()`` needs pandas)."""

    def __init__(self, package: str, call: str) -> None:
        self.package, self.call = package, call
        super().__init__(f"{call} needs {package}: pip install {package}")


class GlickoConvergenceError(LichessEloError):
    """The Glicko-2 volatility iteration did not converge."""
