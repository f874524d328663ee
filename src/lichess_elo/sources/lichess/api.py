"""A player's Lichess games and profile, month by month (an edge module).

Design, from the Lichess API notes (see ``docs/rules.md``):

- ``GET /api/user/{id}`` first, for the account's creation date;
- one ``GET /api/games/user/{id}`` per calendar month (UTC; ``since`` inclusive, ``until``
  exclusive, int epoch ms on ``createdAt``, ``sort=dateAsc``), from the account's creation
  month to now; booleans sent as the strings ``"true"``; no server-side perf/rated/colour
  filters (they switch the window to ``lastMoveAt``);
- a month that had ended when it was fetched never expires; a running month is stored
  already expired, so the next online run fetches it again while offline runs still serve it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lichess_elo.core.games import Game, PerfStats, UserInfo, dedupe_sorted
from lichess_elo.errors import AccountClosed, FetchHint, UserNotFound
from lichess_elo.sources.lichess.checks import scrub, validate_username
from lichess_elo.sources.lichess.parse import parse_games
from lichess_elo.sources.lichess.parsed import (
    cached_month,
    cached_user,
    keep_month,
    keep_user,
    month_request,
    open_parsed,
    user_request,
)
from lichess_elo.sources.lichess.source import (
    CACHE_FILE,
    DEFAULT_API_URL,
    Progress,
    Source,
    make_cache_dir,
    read_timeout,
    retry_wait,
)

if TYPE_CHECKING:
    from lichess_elo.sources.lichess.session import Conn


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
    conn: Conn, name: str, progress: Progress | None, warn: Callable[[str], None]
) -> UserInfo:
    import berserk

    from lichess_elo.sources.lichess.retries import call_with_retries

    session = conn.session
    session.settings.expire_after = datetime.now(UTC)  # refetched online, served offline

    def action() -> Any:
        return conn.client.users.get_public_data(name.lower())

    try:
        data = call_with_retries(
            action,
            what=f"the Lichess user '{name}'",
            source=conn.source,
            hint=fetch_hint(name, conn.source),
            progress=progress,
            on_warning=warn,
            passthrough=frozenset({404}),
        )
    except berserk.exceptions.ResponseError:
        raise UserNotFound(f"no Lichess user '{name}'") from None
    return _user_info(data)


def fetch_hint(name: str, source: Source, month: date | None = None) -> FetchHint:
    """What would fetch ``name``'s profile (or ``month``) online, for a ``NotCached`` error."""
    api_url = source.api_url.rstrip("/")
    return FetchHint(
        user=name,
        since=month,
        until=_next_month(month) if month is not None else None,
        api_url=None if api_url == DEFAULT_API_URL else source.api_url,
        cache_dir=source.cache_dir,
    )


def fetch_user(username: str, source: Source) -> UserInfo:
    """The public profile of ``username`` (``GET /api/user/{id}``), through the cache.

    Raises:
        BadInput, UserNotFound, NotCached, CassetteMissing, RateLimited, FetchFailed.
    """
    from lichess_elo.sources.lichess.session import connect

    name = validate_username(username)
    with connect(source) as conn:
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
    checked by the caller's settings (``check_date_range``); an empty
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

    with ExitStack() as stack:
        opened: list[Conn] = []

        def conn() -> Conn:
            """The connection, opened at the first request: an offline run served whole by
            the caches opens none and never imports the HTTP libraries."""
            if not opened:
                from lichess_elo.sources.lichess.session import connect

                opened.append(stack.enter_context(connect(source)))
            return opened[0]

        parsed = None
        cache_path = source.replay
        if source.replay is None:
            source.check()  # what ``connect`` checks first, in its order
            read_timeout()
            retry_wait()
            cache_dir = make_cache_dir(source)
            cache_path = cache_dir / CACHE_FILE
            parsed = open_parsed(cache_dir, warn)
            stack.callback(parsed.close)
        profile = user_request(source.api_url, name)
        user = None
        if parsed is not None and source.offline:
            user = cached_user(parsed, profile)
        if user is None:
            user = _get_user(conn(), name, progress, warn)
            if parsed is not None:
                keep_user(parsed, profile, conn().session, user)
        if user.disabled:
            raise AccountClosed(f"the Lichess account '{user.username or name}' is closed")
        now = opened[0].now if opened else datetime.now(UTC)
        months = month_windows(user.created_at, now, since, until)
        if progress is not None:
            progress.start(len(months))
        low = datetime.combine(since, datetime.min.time(), UTC) if since else None
        high = datetime.combine(until, datetime.min.time(), UTC) if until else None
        found: dict[str, Game] = {}
        seen: set[str] = set()
        split: dict[str, tuple[int, int]] = {}
        from_cache = 0
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
                from lichess_elo.sources.lichess.retries import call_with_retries

                month_warnings = []
                month_games, cached = call_with_retries(
                    _month_action(conn(), user_id, month, warn, month_warnings),
                    what=f"month {label} of {name}",
                    source=source,
                    hint=fetch_hint(name, source, month),
                    progress=progress,
                    on_warning=warn,
                    passthrough=frozenset(),
                )
                if parsed is not None:
                    keep_month(parsed, request, conn().session, month_games, month_warnings)
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
        if opened:
            cache_path = opened[0].cache_path
    assert cache_path is not None
    return FetchResult(
        user=user,
        games=tuple(dedupe_sorted(found.values())),
        count=len(seen),
        split=split,
        months_total=len(months),
        months_from_network=len(months) - from_cache,
        months_from_cache=from_cache,
        cache_path=cache_path,
        warnings=tuple(warnings),
        now=now,
    )


def _fetch_month(
    conn: Conn, user_id: str, month: date, warn: Callable[[str], None]
) -> tuple[list[Game], bool]:
    import requests_cache

    ended = _next_month(month) <= conn.now.date()
    # A month that had ended never changes again; a running one is stored already expired.
    conn.session.settings.expire_after = requests_cache.NEVER_EXPIRE if ended else datetime.now(UTC)
    stream = conn.client.games.export_by_player(user_id, **export_params(month))
    games = list(parse_games(stream, on_warning=warn))  # the month's response is let go here
    return games, conn.session.last_from_cache


def _month_action(
    conn: Conn,
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
