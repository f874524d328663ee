"""Import a player's Lichess games: berserk over a requests-cache session, month by month.

This is an edge module (it does HTTP and writes the cache). Design, from
``notes/lichess-api.md`` sections 0-6:

- one ``GET /api/games/user/{id}`` per calendar month (UTC; ``since`` inclusive, ``until``
  exclusive, int epoch ms on ``createdAt``, ``sort=dateAsc``), from the account's creation
  month to now; booleans sent as the strings ``"true"``; no server-side perf/rated/colour
  filters (they switch the window to ``lastMoveAt``);
- one SQLite requests-cache file ``<cache dir>/http.sqlite``; ``Accept`` is part of the key;
  the token is a Bearer header on the session, never in the key (requests-cache stores it as
  ``REDACTED``);
- a month that had ended when it was fetched never expires; a running month is stored
  already expired, so the next online run fetches it again while ``--offline`` still serves it;
- ``--replay`` serves every request from a vcrpy cassette: nothing is sent and no HTTP
  response is cached (the replay facts of ``replay_cache`` still go to the cache folder,
  where all of the program's state lives);
- the token, ``LICHESS_ELO_TIMEOUT``, ``LICHESS_ELO_RETRY_WAIT``, the cache folder and the
  cassette are checked before any request; a damaged cache file is named, never a traceback;
- HTTP 429 waits 60 s and retries the month; a cut stream, timeout or 5xx retries with
  backoff up to ``MAX_RETRIES`` times; one request at a time.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, TypeVar

import berserk
import platformdirs
import requests
import requests_cache
import urllib3
import yaml
from requests_cache.backends.sqlite import SQLiteCache

from lichess_elo import __version__
from lichess_elo.sources.lichess.cassette import cassette_time as cassette_time
from lichess_elo.sources.lichess.cassette import unreadable
from lichess_elo.errors import (
    AccountClosed,
    BadInput,
    CassetteMissing,
    FetchFailed,
    LichessEloError,
    NotCached,
    RateLimited,
    UserNotFound,
)
from lichess_elo.core.games import Game, dedupe_sorted, parse_games
from lichess_elo.sources.lichess.parsed import cached_month, keep_month, month_request, open_parsed
from lichess_elo.sources.lichess.checks import env_seconds, scrub, validate_token, validate_username

try:  # vcrpy is only needed for --replay
    from vcr.errors import CannotOverwriteExistingCassetteException

    _CASSETTE_MISS: tuple[type[BaseException], ...] = (CannotOverwriteExistingCassetteException,)
except ImportError:  # pragma: no cover - depends on the environment
    _CASSETTE_MISS = ()

DEFAULT_API_URL = "https://lichess.org"
USER_AGENT = f"lichess-elo/{__version__}"
CACHE_FILE = "http.sqlite"
CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 60.0  # seconds between two reads; env LICHESS_ELO_TIMEOUT overrides
RATE_LIMIT_WAIT = 60.0  # Lichess: "wait one full minute"; env LICHESS_ELO_RETRY_WAIT overrides
MAX_RETRIES = 5
T = TypeVar("T")
_TRANSIENT = (berserk.exceptions.ApiError, requests.RequestException, urllib3.exceptions.HTTPError)
_CUT = (
    requests.exceptions.ChunkedEncodingError,
    urllib3.exceptions.ProtocolError,
    urllib3.exceptions.IncompleteRead,
)


class CacheUnusable(LichessEloError):
    """The HTTP cache file is damaged (not a database, malformed), locked or read-only."""


@dataclass(frozen=True)
class Source:
    """Where requests go: the server, the token, the cache and the offline/replay switches."""

    api_url: str = DEFAULT_API_URL
    token: str | None = None
    cache_dir: Path | None = None
    offline: bool = False
    refresh: bool = False
    replay: Path | None = None


@dataclass(frozen=True)
class PerfStats:
    """One rating pool of ``/api/user``: rated games, rating and RD (truncated), provisional."""

    games: int
    rating: int
    rd: int
    provisional: bool


@dataclass(frozen=True)
class UserInfo:
    """The public profile. ``created_at`` is the Unix epoch when Lichess omits it (closed)."""

    id: str
    username: str
    created_at: datetime
    disabled: bool
    perfs: Mapping[str, PerfStats]


class Progress(Protocol):
    """Receives progress events from ``fetch_games`` (the CLI draws a bar with them)."""

    def start(self, total_months: int) -> None:
        """Called once with the number of months to fetch."""

    def month(self, label: str, done: int, games_so_far: int, from_cache: bool) -> None:
        """Called after each month (``YYYY-MM``) with the running totals."""

    def waiting(self, seconds: float, reason: str) -> None:
        """Called before a deliberate wait (HTTP 429, retry backoff)."""


@dataclass(frozen=True)
class FetchResult:
    """All games of a user (every perf) and how they were got.

    ``games`` is sorted oldest first (by ``created_at``, then id) with each id once; callers
    rely on that and do not sort or dedupe again. It is empty when the games were only
    counted (``fetch_games(keep_games=False)``); ``count`` and ``split`` (perf -> rated and
    casual games) always hold the whole count.
    """

    user: UserInfo
    games: tuple[Game, ...]
    count: int
    split: Mapping[str, tuple[int, int]]
    months_total: int
    months_from_network: int
    months_from_cache: int
    cache_path: Path
    warnings: tuple[str, ...]
    now: datetime


def resolve_cache_dir(source: Source) -> Path:
    """The cache folder: ``--cache-dir``, else ``LICHESS_ELO_CACHE_DIR``, else platformdirs."""
    if source.cache_dir is not None:
        return source.cache_dir
    env = os.environ.get("LICHESS_ELO_CACHE_DIR")
    if env:
        return Path(env)
    return platformdirs.user_cache_path("lichess-elo")


def _timeout() -> tuple[float, float]:
    return CONNECT_TIMEOUT, env_seconds("LICHESS_ELO_TIMEOUT", READ_TIMEOUT, zero_ok=False)


def _retry_wait() -> float:
    return env_seconds("LICHESS_ELO_RETRY_WAIT", RATE_LIMIT_WAIT, zero_ok=True)


def _cache_unusable(path: Path, exc: sqlite3.Error) -> CacheUnusable:
    if isinstance(exc, sqlite3.OperationalError):  # locked, read-only, disk I/O
        return CacheUnusable(f"the cache file {path} cannot be used ({exc})")
    return CacheUnusable(
        f"the cache file {path} is damaged ({exc}); move it aside or delete it, and run again"
    )


def check_pgn_source(username: str, pgn: Path | None, source: Source) -> str:
    """Check a ``--pgn`` run's options; return the validated username.

    Only for the PGN path: a Lichess run checks the name in ``fetch_games``.

    Raises:
        BadInput: a malformed username, or ``--pgn`` together with ``--replay`` (the
            games come from the file, so the cassette would be ignored). ``--offline``
            is fine with ``--pgn``: neither sends anything, and LICHESS_ELO_OFFLINE=1 may
            be set for good.
    """
    name = validate_username(username)
    if pgn is not None and source.replay is not None:
        raise BadInput("--pgn and --replay exclude each other")
    return name


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
        self.last_response: Any = None

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
class _Conn:
    client: Any
    session: _Session
    now: datetime
    cache_path: Path
    source: Source


@contextmanager
def _connect(source: Source) -> Iterator[_Conn]:
    api_url = source.api_url.rstrip("/")
    if not re.fullmatch(r"https?://[^/\s]+", api_url):
        raise BadInput(
            f"--api-url {source.api_url!r}: expected a server root like {DEFAULT_API_URL}"
        )
    if source.offline and source.refresh and source.replay is None:
        raise BadInput("--offline and --refresh exclude each other")
    token = validate_token(source.token)
    timeout = _timeout()
    _retry_wait()  # a bad LICHESS_ELO_RETRY_WAIT is refused before any request
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
            raise BadInput("--replay needs vcrpy: pip install vcrpy") from None
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
            yield _Conn(client, session, now, cache_path, source)
    finally:
        with suppress(sqlite3.Error):  # a damaged cache was reported where it was met
            session.close()  # type: ignore[no-untyped-call]


def make_cache_dir(source: Source) -> Path:
    """Create the cache folder (``resolve_cache_dir``) if needed and return it.

    Raises:
        BadInput: it, or a folder above it, is a file; or it cannot be created.
    """
    cache_dir = resolve_cache_dir(source)
    label = "--cache-dir" if source.cache_dir is not None else "the cache folder"
    for folder in (cache_dir, *cache_dir.parents):
        if folder.exists():
            if not folder.is_dir():
                where = "" if folder == cache_dir else f": {folder}"
                raise BadInput(f"{label} {cache_dir}{where} is a file, not a folder")
            break
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot create the cache folder {cache_dir}: {exc.strerror}") from None
    return cache_dir


@contextmanager
def open_client(source: Source) -> Iterator[Any]:
    """The configured ``berserk.Client`` (User-Agent, token header, cache, offline, cassette).

    Wrap its calls in ``call_with_retries`` to get the 429/backoff policy and error mapping.
    """
    with _connect(source) as conn:
        yield conn.client


def call_with_retries(
    action: Callable[[], T],
    *,
    what: str,
    source: Source,
    fetch_hint: str,
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
        fetch_hint: The command that fetches ``what``, named in the offline message.
        progress: Told about each wait.
        on_warning: Told about each retry, in one line.
        passthrough: 4xx statuses re-raised as ``berserk.exceptions.ResponseError``;
            ``None`` re-raises all of them.

    Raises:
        NotCached, CassetteMissing, RateLimited, FetchFailed.
    """
    wait = _retry_wait()
    failures = 0
    while True:
        try:
            return action()
        except _CASSETTE_MISS:
            raise CassetteMissing(
                f"the cassette {source.replay} has no response for {what}"
            ) from None
        except berserk.exceptions.ResponseError as exc:
            status = int(exc.status_code)
            if status == 504 and exc.reason == "Not Cached":
                raise NotCached(
                    f"{what} is not in the cache; fetch it with: {fetch_hint}"
                ) from None
            if status != 429 and status < 500 and (passthrough is None or status in passthrough):
                raise
            if status != 429 and status < 500:
                hint = " (Lichess refused the token)" if status == 401 else ""
                raise FetchFailed(f"{what}: HTTP {status}{hint}") from None
            problem = f"HTTP {status}"
        except _TRANSIENT as exc:
            problem = scrub(_short(exc), [source.token])
        failures += 1
        limited = problem == "HTTP 429"
        if failures > MAX_RETRIES:
            message = f"{what} failed after {MAX_RETRIES} retries ({problem})"
            if problem.startswith("connection error"):
                message += "; use --offline to work from the cache"
            raise (RateLimited if limited else FetchFailed)(message)
        delay = wait if limited else min(2.0 ** (failures - 1), 30.0) * wait / RATE_LIMIT_WAIT
        if limited:
            reason = f"Lichess rate limit (HTTP 429) on {what}"
            note = f"{reason}; waiting {delay:g} s before retrying"
        else:
            reason = f"{problem} on {what}"
            note = f"{reason}; retry {failures} of {MAX_RETRIES} in {delay:.3g} s"
        if on_warning is not None:
            on_warning(note)
        if progress is not None:
            progress.waiting(delay, reason)
        time.sleep(delay)


def _short(exc: BaseException) -> str:
    chain = [exc, getattr(exc, "error", None), exc.__cause__, exc.__context__]
    causes = [c for c in chain if isinstance(c, BaseException)]
    name = type(causes[-1] if len(causes) > 1 else exc).__name__
    if any(isinstance(c, requests.Timeout | urllib3.exceptions.TimeoutError) for c in causes):
        return f"timeout ({name})"
    if any(isinstance(c, _CUT) for c in causes):
        return f"connection cut mid-stream ({name})"
    return f"connection error ({name})"


def _fetch_command(
    user: str, source: Source, since: str | None = None, until: str | None = None
) -> str:
    parts = ["lichess-elo fetch", user]
    if since:
        parts += ["--since", since, "--until", until or ""]
    if source.api_url.rstrip("/") != DEFAULT_API_URL:
        parts += ["--api-url", source.api_url]
    if source.cache_dir is not None:
        parts += ["--cache-dir", str(source.cache_dir)]
    return " ".join(parts)


def _user_info(data: Mapping[str, Any]) -> UserInfo:
    created = data.get("createdAt")
    if isinstance(created, int | float):
        created = datetime.fromtimestamp(created / 1000, UTC)
    if not isinstance(created, datetime):
        created = datetime.fromtimestamp(0, UTC)
    perfs = {
        key: PerfStats(
            games=int(value.get("games", 0)),
            rating=int(value["rating"]),
            rd=int(value.get("rd", 0)),
            provisional=bool(value.get("prov", False)),
        )
        for key, value in (data.get("perfs") or {}).items()
        if isinstance(value, Mapping) and "rating" in value
    }
    return UserInfo(
        id=str(data.get("id", "")),
        username=str(data.get("username", data.get("id", ""))),
        created_at=created.astimezone(UTC),
        disabled=bool(data.get("disabled", False)),
        perfs=perfs,
    )


def _get_user(
    conn: _Conn, name: str, progress: Progress | None, warn: Callable[[str], None]
) -> UserInfo:
    session = conn.session
    session.settings.expire_after = datetime.now(UTC)  # refetched online, served offline

    def action() -> Any:
        return conn.client.users.get_public_data(name.lower())

    try:
        data = call_with_retries(
            action,
            what=f"the Lichess user '{name}'",
            source=conn.source,
            fetch_hint=_fetch_command(name, conn.source),
            progress=progress,
            on_warning=warn,
            passthrough=frozenset({404}),
        )
    except berserk.exceptions.ResponseError:
        raise UserNotFound(f"no Lichess user '{name}'") from None
    return _user_info(data)


def fetch_user(username: str, source: Source) -> UserInfo:
    """The public profile of ``username`` (``GET /api/user/{id}``), through the cache.

    Raises:
        BadInput, UserNotFound, NotCached, CassetteMissing, RateLimited, FetchFailed.
    """
    name = validate_username(username)
    with _connect(source) as conn:
        return _get_user(conn, name, None, lambda _msg: None)


def _month_start(day: date) -> date:
    return day.replace(day=1)


def _next_month(day: date) -> date:
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


def _millis(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


def month_windows(
    created_at: datetime, now: datetime, since: date | None = None, until: date | None = None
) -> list[date]:
    """First days of the calendar months to fetch: creation month to now, narrowed."""
    first = _month_start(created_at.astimezone(UTC).date())
    if since is not None:
        first = max(first, _month_start(since))
    last = now.astimezone(UTC).date()
    if until is not None:
        last = min(last, until - timedelta(days=1))
    months: list[date] = []
    current = first
    while current <= last:
        months.append(current)
        current = _next_month(current)
    return months


def export_params(month: date) -> dict[str, Any]:
    """The query of one monthly export, as berserk's keyword arguments."""
    return {
        "since": _millis(month),
        "until": _millis(_next_month(month)),
        "moves": "true",
        "opening": "true",
        "clocks": "true",
        "sort": "dateAsc",
    }


def fetch_games(
    username: str,
    source: Source,
    *,
    since: date | None = None,
    until: date | None = None,
    progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
    keep_games: bool = True,
) -> FetchResult:
    """Fetch every game of ``username`` month by month, through the cache.

    A month parsed before from the very response the HTTP cache holds is read from the
    parsed-games cache (``parsed``), without decoding its JSON again. With ``keep_games``
    false the games are only counted (``FetchResult.count`` and ``split``), each month's
    let go once counted.

    Whole calendar months are requested (so cache entries are reused across ``--since``
    values); games outside ``[since, until)`` are then dropped on our side. The range is
    checked where the options are parsed (``lichess_input.parse_date_range``); an empty
    range (``since`` not before ``until``) fetches no month and gives no games.

    Raises:
        BadInput, UserNotFound, AccountClosed, NotCached, CassetteMissing, RateLimited,
        FetchFailed.
    """
    name = validate_username(username)
    warnings: list[str] = []

    def warn(message: str) -> None:
        message = scrub(message, [source.token])
        warnings.append(message)
        if on_warning is not None:
            on_warning(message)

    with _connect(source) as conn:
        user = _get_user(conn, name, progress, warn)
        if user.disabled:
            raise AccountClosed(f"the Lichess account '{user.username or name}' is closed")
        months = month_windows(user.created_at, conn.now, since, until)
        if progress is not None:
            progress.start(len(months))
        low = datetime.combine(since, datetime.min.time(), UTC) if since else None
        high = datetime.combine(until, datetime.min.time(), UTC) if until else None
        found: dict[str, Game] = {}
        seen: set[str] = set()
        split: dict[str, tuple[int, int]] = {}
        from_cache = 0
        parsed = None if source.replay is not None else open_parsed(conn.cache_path.parent, warn)
        try:
            for done, month in enumerate(months, start=1):
                label = month.strftime("%Y-%m")
                user_id = user.id or name.lower()
                request = month_request(source.api_url, user_id, export_params(month))
                hit = None
                if parsed is not None and not source.refresh:
                    hit = cached_month(parsed, request, stale_ok=source.offline)
                if hit is not None:  # parsed before from the very response the cache holds
                    month_games, month_warnings = hit
                    for message in month_warnings:
                        warn(message)
                    cached = True
                else:
                    month_warnings = []
                    month_games, cached = call_with_retries(
                        _month_action(conn, user_id, month, warn, month_warnings),
                        what=f"month {label} of {name}",
                        source=source,
                        fetch_hint=_fetch_command(
                            name, source, label, _next_month(month).strftime("%Y-%m")
                        ),
                        progress=progress,
                        on_warning=warn,
                        passthrough=frozenset(),
                    )
                    if parsed is not None:
                        keep_month(parsed, request, conn.session, month_games, month_warnings)
                from_cache += cached
                for game in month_games:
                    if (
                        (low is None or game.created_at >= low)
                        and (high is None or game.created_at < high)
                        and game.id not in seen
                    ):
                        seen.add(game.id)
                        rated, casual = split.get(game.perf, (0, 0))
                        rated, casual = (rated + 1, casual) if game.rated else (rated, casual + 1)
                        split[game.perf] = (rated, casual)
                        if keep_games:
                            found[game.id] = game
                del month_games  # a counting fetch lets each month's games go here
                if progress is not None:
                    progress.month(label, done, len(seen), cached)
        finally:
            if parsed is not None:
                parsed.close()
    return FetchResult(
        user=user,
        games=tuple(dedupe_sorted(found.values())),
        count=len(seen),
        split=split,
        months_total=len(months),
        months_from_network=len(months) - from_cache,
        months_from_cache=from_cache,
        cache_path=conn.cache_path,
        warnings=tuple(warnings),
        now=conn.now,
    )


def _fetch_month(
    conn: _Conn, user_id: str, month: date, warn: Callable[[str], None]
) -> tuple[list[Game], bool]:
    ended = _next_month(month) <= conn.now.date()
    # A month that had ended never changes again; a running one is stored already expired.
    conn.session.settings.expire_after = requests_cache.NEVER_EXPIRE if ended else datetime.now(UTC)
    stream = conn.client.games.export_by_player(user_id, **export_params(month))
    games = list(parse_games(stream, on_warning=warn))  # the month's response is let go here
    return games, conn.session.last_from_cache


def _month_action(
    conn: _Conn,
    user_id: str,
    month: date,
    warn: Callable[[str], None],
    month_warnings: list[str],
) -> Callable[[], tuple[list[Game], bool]]:
    """One attempt at the month; ``month_warnings`` gets the parse warnings of the attempt
    that succeeds (what the parsed-games cache keeps with the games)."""

    def collect(message: str) -> None:
        month_warnings.append(message)
        warn(message)

    def action() -> tuple[list[Game], bool]:
        month_warnings.clear()
        return _fetch_month(conn, user_id, month, collect)

    return action
