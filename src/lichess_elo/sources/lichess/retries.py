"""The politeness and fault policy of every Lichess request (an edge module).

HTTP 429 waits 60 s and retries; a cut stream, timeout, connection error or 5xx retries
with exponential backoff; both at most ``MAX_RETRIES`` times; one request at a time.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from lichess_elo.errors import (
    CannotConnect,
    CassetteMissing,
    DamagedAnswer,
    FetchFailed,
    FetchHint,
    NotCached,
    RateLimited,
    TokenRefused,
)
from lichess_elo.sources.base import Progress
from lichess_elo.sources.env import RATE_LIMIT_WAIT
from lichess_elo.sources.env import retry_wait as env_retry_wait
from lichess_elo.sources.lichess.checks import scrub
from lichess_elo.sources.lichess.ndjson import AnswerFault
from lichess_elo.sources.lichess.stream import describe

if TYPE_CHECKING:
    from lichess_elo.sources.lichess.session import LichessSettings

MAX_RETRIES = 5
T = TypeVar("T")

__all__ = [
    "MAX_RETRIES",
    "RATE_LIMIT_WAIT",
    "call_with_retries",
    "max_retries",
    "retry_wait",
]


@cache
def _cassette_miss() -> tuple[type[BaseException], ...]:
    """vcrpy's "no such response" error (vcrpy is only needed for a replayed cassette)."""
    try:
        from vcr.errors import CannotOverwriteExistingCassetteException
    except ImportError:  # pragma: no cover - depends on the environment
        return ()
    return (CannotOverwriteExistingCassetteException,)


@cache
def _transient() -> tuple[type[BaseException], ...]:
    """The errors of a request worth another try (imported with the HTTP stack, on use)."""
    import berserk
    import requests
    import urllib3

    return (berserk.exceptions.ApiError, requests.RequestException, urllib3.exceptions.HTTPError)


@cache
def _cut() -> tuple[type[BaseException], ...]:
    """The errors of a stream cut in the middle."""
    import requests
    import urllib3

    return (
        requests.exceptions.ChunkedEncodingError,
        urllib3.exceptions.ProtocolError,
        urllib3.exceptions.IncompleteRead,
    )


def retry_wait(source: LichessSettings | None = None) -> float:
    """Seconds to wait after HTTP 429: ``source.retry_wait``, else ``LICHESS_ELO_RETRY_WAIT``,
    else 60."""
    return env_retry_wait(None if source is None else source.retry_wait)


def max_retries(source: LichessSettings) -> int:
    """How many times one request is retried: ``source.max_retries``, else ``MAX_RETRIES``."""
    return MAX_RETRIES if source.max_retries is None else source.max_retries


def call_with_retries(
    action: Callable[[], T],
    *,
    what: str,
    source: LichessSettings,
    hint: FetchHint,
    progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
    passthrough: frozenset[int] | None = None,
) -> T:
    """Run one request (``action``) with the politeness and fault policy.

    HTTP 429 waits ``LICHESS_ELO_RETRY_WAIT`` (60 s) and retries; a cut stream, timeout,
    connection error or 5xx retries with exponential backoff; both at most ``MAX_RETRIES``
    times. Another 4xx re-raises berserk's ``ResponseError`` for the caller when its
    status is in ``passthrough`` (default: every 4xx), else raises ``FetchFailed``.

    Args:
        action: Makes the request and consumes the whole response.
        what: What is being fetched, for messages, e.g. ``month 2023-01 of OnBoard247``.
        source: The source (for the token to scrub and the cassette to name).
        hint: What would fetch ``what`` online (the user, the month's bounds).
        progress: Told about each wait.
        on_warning: Told about each retry, in one line.
        passthrough: 4xx statuses re-raised as ``berserk.exceptions.ResponseError``;
            ``None`` re-raises all of them.

    Raises:
        NotCached, CassetteMissing, RateLimited, FetchFailed.
    """
    import berserk

    wait = retry_wait(source)
    most = max_retries(source)
    failures = 0
    # vcrpy (and what it imports) is only loaded to replay a cassette
    cassette_miss = _cassette_miss() if source.replay is not None else ()
    transient = _transient()
    while True:
        try:
            return action()
        except cassette_miss:
            raise CassetteMissing(
                f"the cassette {source.replay} has no response for {what}"
            ) from None
        except (AnswerFault, UnicodeDecodeError, json.JSONDecodeError) as exc:
            # what the month reader does not handle itself (e.g. a tournament's answer)
            fault = describe(exc, None)
            where = f"the cassette {source.replay} answers " if source.replay else ""
            raise DamagedAnswer(
                f"{where}{what}: damaged answer ({fault})", what=what, fault=str(fault)
            ) from None
        except berserk.exceptions.ResponseError as exc:
            status = int(exc.status_code)
            if status == 504 and exc.reason == "Not Cached":
                raise NotCached(what, hint) from None
            if status == 401:  # the same answer wherever a token is refused
                raise TokenRefused(f"{what}: HTTP 401 (Lichess refused the token)") from None
            if status != 429 and status < 500 and (passthrough is None or status in passthrough):
                raise
            if status != 429 and status < 500:
                raise FetchFailed(f"{what}: HTTP {status}") from None
            problem = f"HTTP {status}"
        except transient as exc:
            problem = scrub(_short(exc), [source.token])
            unreachable_because = unreachable(exc)
            if unreachable_because is not None:
                # A refused connection or an unknown host: one quick retry, then say so.
                if failures >= 1:
                    raise CannotConnect(source.api_url, unreachable_because) from None
                failures += 1
                time.sleep(min(REFUSED_RETRY_WAIT, wait))
                continue
        failures += 1
        limited = problem == "HTTP 429"
        if source.replay is not None:  # a cassette answers the same every time: no retry
            text = (
                f"the cassette {source.replay} answers {what} with {problem}; "
                "a recorded answer is never retried"
            )
            raise RateLimited(text) if limited else FetchFailed(text)
        if failures > most:
            message = f"{what} failed after {most} retries ({problem})"
            if limited:
                raise RateLimited(message)
            raise FetchFailed(message, connection_error=problem.startswith("connection error"))
        delay = wait if limited else min(2.0 ** (failures - 1), 30.0) * wait / RATE_LIMIT_WAIT
        if limited:
            reason = f"Lichess rate limit (HTTP 429) on {what}"
            note = f"{reason}; waiting {delay:g} s before retrying"
        else:
            reason = f"{problem} on {what}"
            note = f"{reason}; retry {failures} of {most} in {delay:.3g} s"
        if on_warning is not None:
            on_warning(note)
        if progress is not None:
            progress.waiting(delay, reason)
        time.sleep(delay)


#: A refused connection or an unknown host is retried once after at most this many
#: seconds, then reported: waiting half a minute would not make a server appear.
REFUSED_RETRY_WAIT = 1.0


def _causes(exc: BaseException) -> list[BaseException]:
    """``exc`` and everything it wraps (causes, contexts, urllib3 reasons, berserk errors)."""
    seen: list[BaseException] = []
    todo: list[Any] = [exc]
    while todo:
        item = todo.pop()
        if not isinstance(item, BaseException) or any(item is s for s in seen):
            continue
        seen.append(item)
        todo += [item.__cause__, item.__context__, getattr(item, "reason", None)]
        todo += [getattr(item, "error", None), *item.args]
    return seen


def unreachable(exc: BaseException) -> str | None:
    """``connection refused`` or ``host not found`` when ``exc`` says the server cannot
    be reached at all (not a timeout or a cut stream, which are worth retrying)."""
    causes = _causes(exc)
    if any(isinstance(c, ConnectionRefusedError) for c in causes):
        return "connection refused"
    if any(
        isinstance(c, socket.gaierror) or type(c).__name__ == "NameResolutionError" for c in causes
    ):
        return "host not found"
    return None


def _short(exc: BaseException) -> str:
    chain = [exc, getattr(exc, "error", None), exc.__cause__, exc.__context__]
    causes = [c for c in chain if isinstance(c, BaseException)]
    name = type(causes[-1] if len(causes) > 1 else exc).__name__
    import requests
    import urllib3

    if any(isinstance(c, requests.Timeout | urllib3.exceptions.TimeoutError) for c in causes):
        return f"timeout ({name})"
    if any(isinstance(c, _cut()) for c in causes):
        return f"connection cut mid-stream ({name})"
    return f"connection error ({name})"
