"""A player's Lichess games and profile, month by month (an edge module).

Design (see ``docs/lichess.md``, "The Lichess API as used"):

- ``GET /api/user/{id}`` first, for the account's creation date;
- one ``GET /api/games/user/{id}`` per calendar month (UTC; ``since`` inclusive, ``until``
  exclusive, int epoch ms on ``createdAt``, ``sort=dateAsc``), from the account's creation
  month to now; booleans sent as the strings ``"true"``; no server-side perf/rated/colour
  filters (they switch the window to ``lastMoveAt``);
- a month that had ended when it was fetched never expires; a running month is stored
  already expired, so the next online run fetches it again while offline runs still serve it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import berserk
import requests_cache

from lichess_elo.core.games import Game, PerfStats, UserInfo, dedupe_sorted
from lichess_elo.core.report.selection import classify, select_perfs
from lichess_elo.errors import (
    AccountClosed,
    CannotConnect,
    DamagedAnswer,
    FetchHint,
    LichessEloError,
    UserNotFound,
)
from lichess_elo.sources.lichess.answers import READ_ERRORS, describe, own_games
from lichess_elo.sources.lichess.checks import scrub, validate_username
from lichess_elo.sources.lichess.count_back import (
    COUNT_BACK_MONTHS,
    short_perfs,
)
from lichess_elo.sources.lichess.ndjson import AnswerFault
from lichess_elo.sources.lichess.parse import parse_games
from lichess_elo.sources.lichess.parsed import cached_month, keep_month, month_request, open_parsed
from lichess_elo.sources.lichess.retries import Progress, call_with_retries
from lichess_elo.sources.lichess.session import DEFAULT_API_URL, Conn, Source, connect

if TYPE_CHECKING:
    from lichess_elo.sources.games_cache import ParsedCache


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
    #: Months fetched before ``since`` to count the games K's 30-game rule needs.
    months_back: int = 0
    #: Perfs whose count before ``since`` stayed under ``COUNT_BACK_GAMES`` with the account
    #: older than the months looked at (the count is then a lower bound).
    count_short: tuple[str, ...] = ()


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
        fide_id=_fide_id(data.get("fideId")),
    )


def _fide_id(value: Any) -> int | None:
    """The profile's ``fideId`` where the public data carries one (a positive int)."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    return value


def _get_user(
    conn: Conn, name: str, progress: Progress | None, warn: Callable[[str], None]
) -> UserInfo:
    session = conn.session
    session.settings.expire_after = datetime.now(UTC)  # refetched online, served offline

    what = f"the Lichess user '{name}'"
    hint = fetch_hint(name, conn.source)

    def action() -> Any:
        try:
            return conn.client.users.get_public_data(name.lower())
        except READ_ERRORS:  # a body that is not JSON (damaged in the cache or a cassette)
            fault = AnswerFault(0, "the answer is not JSON")
            refresh = session.force_refresh
            if not _ask_again(conn):
                raise _damaged(conn, what, fault, hint) from None
            try:
                return conn.client.users.get_public_data(name.lower())
            except READ_ERRORS:
                session.forget_last()
                raise _damaged(conn, what, fault, hint) from None
            finally:
                session.force_refresh = refresh

    try:
        data = call_with_retries(
            action,
            what=what,
            source=conn.source,
            hint=hint,
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
    count_back: Sequence[str] | None = None,
    keep_games: bool = True,
) -> FetchResult:
    """Fetch every game of ``username`` month by month, through the cache.

    With ``keep_games`` false the games are only counted (``FetchResult.count`` and
    ``split``), each month's let go once counted; ``count_back`` needs the games kept.

    With ``count_back`` (the perfs a report asks for: names, ``all`` or none for its
    default) and ``since``, months before ``since`` are fetched too, newest first, until
    each of those perfs has ``COUNT_BACK_GAMES`` counted games before ``since``, the
    account's first month is reached, or ``COUNT_BACK_MONTHS`` months were read
    (``FetchResult.count_short`` names the perfs then still short). Those games are
    returned with the others, for K's game count; nothing after ``until`` is read.

    Whole calendar months are requested (so cache entries are reused across ``since``
    values); games outside ``[since, until)`` are then dropped on our side. The range is
    checked by the caller's settings (``check_date_range``); an empty
    range (``since`` not before ``until``) fetches no month and gives no games.

    Raises:
        BadInput, UserNotFound, AccountClosed, NotCached, CassetteMissing, RateLimited,
        FetchFailed.
    """
    try:
        return _fetch_games(
            username,
            source,
            since=since,
            until=until,
            progress=progress,
            on_warning=on_warning,
            count_back=count_back,
            keep_games=keep_games,
        )
    except CannotConnect as exc:
        raise CannotConnect(
            exc.url, exc.reason, cached=cache_holds_user(username, source)
        ) from None


def cache_holds_user(username: str, source: Source) -> bool:
    """Whether the cache can serve ``username``'s profile offline (so working offline
    would help); a cassette run never counts."""
    if source.replay is not None:
        return False
    try:
        fetch_user(username, replace(source, offline=True, refresh=False))
    except LichessEloError:
        return False
    return True


def _fetch_games(
    username: str,
    source: Source,
    *,
    since: date | None,
    until: date | None,
    progress: Progress | None,
    on_warning: Callable[[str], None] | None,
    count_back: Sequence[str] | None = None,
    keep_games: bool = True,
) -> FetchResult:
    if count_back is not None and not keep_games:
        raise ValueError("counting back needs the games kept")
    name = validate_username(username)
    warnings: list[str] = []

    def warn(message: str) -> None:
        message = scrub(message, [source.token])
        warnings.append(message)
        if on_warning is not None:
            on_warning(message)

    with connect(source) as conn, ExitStack() as stack:
        parsed = None
        if source.replay is None:  # the parsed-games cache sits beside the HTTP cache
            parsed = open_parsed(conn.cache_path.parent, warn)
            stack.callback(parsed.close)
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

        def keep(game: Game) -> None:
            """Count ``game`` once (by id), and hold it unless only counting."""
            if game.id in seen:
                return
            seen.add(game.id)
            rated, casual = split.get(game.perf, (0, 0))
            split[game.perf] = (rated + 1, casual) if game.rated else (rated, casual + 1)
            if keep_games:
                found[game.id] = game

        damaged: list[DamagedAnswer] = []

        def read_month(month: date) -> tuple[list[Game], bool] | None:
            label = month.strftime("%Y-%m")
            user_id = user.id or name.lower()
            request = month_request(source.api_url, user_id, export_params(month))
            if parsed is not None and not source.refresh:
                hit = cached_month(parsed, request, stale_ok=source.offline)
                if hit is not None:  # parsed before from the very answer the cache holds
                    for message in hit[1]:
                        warn(message)
                    return hit[0], True
            window = _Month(user_id, name, month, f"month {label} of {name}", parsed, request)
            try:
                return call_with_retries(
                    _month_action(conn, window, warn),
                    what=window.what,
                    source=source,
                    hint=fetch_hint(name, source, month),
                    progress=progress,
                    on_warning=warn,
                    passthrough=frozenset(),
                )
            except DamagedAnswer as exc:  # the other months go on; this one is not kept
                damaged.append(exc)
                return None

        for done, month in enumerate(months, start=1):
            read = read_month(month)
            if read is None:
                continue
            month_games, cached = read
            from_cache += cached
            for game in month_games:
                # Counting back also keeps the days of ``since``'s month before it.
                if (low is None or game.created_at >= low or count_back is not None) and (
                    high is None or game.created_at < high
                ):
                    keep(game)
            del month_games, read  # a counting fetch lets each month's games go here
            if progress is not None:
                progress.month(month.strftime("%Y-%m"), done, len(seen), cached)
        back: list[date] = []
        short: tuple[str, ...] = ()
        if count_back is not None and since is not None and low is not None:
            first_month = _month_start(user.created_at.astimezone(UTC).date())
            window_games = [g for g in found.values() if g.created_at >= low]
            counted, _, _ = classify(name, window_games, None, None)
            need = set(select_perfs(count_back, counted, user))
            month = _month_start(since)
            while True:
                short = short_perfs(name, list(found.values()), need, low)
                if not short or month <= first_month or len(back) == COUNT_BACK_MONTHS:
                    break
                month = _month_start(month - timedelta(days=1))
                back.append(month)
                read = read_month(month)
                if read is None:
                    continue
                from_cache += read[1]
                for game in read[0]:
                    if game.created_at < low:
                        keep(game)
            if month <= first_month:
                short = ()  # the whole history before ``since`` is held: the count is exact
        if damaged:
            raise _first_of(damaged)
    total = len(months) + len(back)
    return FetchResult(
        user=user,
        games=tuple(dedupe_sorted(found.values())),
        count=len(seen),
        split=split,
        months_total=total,
        months_from_network=total - from_cache,
        months_from_cache=from_cache,
        cache_path=conn.cache_path,
        warnings=tuple(warnings),
        now=conn.now,
        months_back=len(back),
        count_short=short,
    )


@dataclass(frozen=True)
class _Month:
    """One monthly window: whose, which, and how to name it."""

    user_id: str
    name: str
    month: date
    what: str
    #: The parsed-games cache (none for a cassette) and the month's request in it.
    parsed: ParsedCache | None = None
    request: str = ""


def _ask_again(conn: Conn) -> bool:
    """Forget the last (damaged) answer; whether it is worth asking the server again:
    it came from the cache and the run is online."""
    session = conn.session
    session.forget_last()
    if not session.last_from_cache or conn.source.offline or conn.source.replay is not None:
        return False
    session.force_refresh = True
    return True


def _damaged(conn: Conn, what: str, fault: AnswerFault, hint: FetchHint) -> DamagedAnswer:
    """The one-line error for an answer that did not parse whole."""
    source = conn.source
    if source.replay is not None:
        text = f"the cassette {source.replay} answers {what} with a damaged body: {fault}"
        return DamagedAnswer(text, what=what, fault=str(fault))
    if conn.session.last_from_cache:  # offline: the CLI adds the command to run online
        text = f"{what}: the cached answer is damaged ({fault}) and was removed"
        return DamagedAnswer(text, what=what, fault=str(fault), hint=hint)
    text = f"{what}: {fault}; the answer was not kept, run again to ask for it again"
    return DamagedAnswer(text, what=what, fault=str(fault))


def _first_of(damaged: list[DamagedAnswer]) -> DamagedAnswer:
    first = damaged[0]
    if len(damaged) == 1:
        return first
    more = ", ".join(d.what for d in damaged[1:])
    return DamagedAnswer(
        f"{first} (also damaged: {more})", what=first.what, fault=first.fault, hint=first.hint
    )


def _read_month(conn: Conn, window: _Month, warn: Callable[[str], None]) -> list[Game]:
    """The games of one month's answer, read whole.

    Raises:
        AnswerFault: a line is not JSON, not UTF-8, not a game, or too long; the wrong
            content type.
    """
    stream = conn.client.games.export_by_player(window.user_id, **export_params(window.month))
    try:
        objects = list(stream)  # the month's response is let go after this
    except READ_ERRORS as exc:
        raise describe(exc, conn.session.last_check) from None
    return list(parse_games(objects, on_warning=warn))


def _fetch_month(
    conn: Conn, window: _Month, warn: Callable[[str], None]
) -> tuple[list[Game], bool]:
    notes: list[str] = []  # this attempt's parse warnings, kept with the games

    def note(message: str) -> None:
        notes.append(message)
        warn(message)

    ended = _next_month(window.month) <= conn.now.date()
    # A month that had ended never changes again; a running one is stored already expired.
    conn.session.settings.expire_after = requests_cache.NEVER_EXPIRE if ended else datetime.now(UTC)
    refresh = conn.session.force_refresh
    hint = fetch_hint(window.name, conn.source, window.month)
    try:
        games = _read_month(conn, window, note)
    except AnswerFault as fault:
        if not _ask_again(conn):
            raise _damaged(conn, window.what, fault, hint) from None
        notes.clear()
        try:  # damaged in the cache (an older version, a disk): ask the server once more
            games = _read_month(conn, window, note)
        except AnswerFault as again:
            conn.session.forget_last()
            raise _damaged(conn, window.what, again, hint) from None
        finally:
            conn.session.force_refresh = refresh
    from_cache = conn.session.last_from_cache
    own, others = own_games(games, window.name, warn, window.what)
    if others:  # not the answer asked for: not kept, so the next run asks again
        conn.session.forget_last()
    elif window.parsed is not None:  # a whole, valid answer: its games are kept parsed
        keep_month(window.parsed, window.request, conn.session, own, notes)
    return own, from_cache


def _month_action(
    conn: Conn, window: _Month, warn: Callable[[str], None]
) -> Callable[[], tuple[list[Game], bool]]:
    return lambda: _fetch_month(conn, window, warn)
