"""A player's Chess.com games, month by month (an edge module).

- ``GET {api}/pub/player/{name}/games/archives`` first: the list of the player's monthly
  archives, kept expired (asked again by every online run, served offline); 404 is an
  unknown account (``NotFound``), 410 a closed one (``AccountClosed``), one line each;
- then ``GET {api}/pub/player/{name}/games/{YYYY}/{MM}`` for each month listed (the list's
  URLs followed relative to the configured server), one at a time;
- a month that had ended (before the current UTC month) is kept never to expire, so it is
  never asked again; the current month is kept expired, so the next online run revalidates
  it (requests-cache echoes the recorded ``ETag``/``Last-Modified``; a 304 is the month
  kept), while an offline run still reads it;
- a month not JSON is removed from the cache and the month is reported damaged
  (``DamagedAnswer``, after the other months); a month with games that cannot be read is
  kept expired (never final: the next online run asks again), its whole games are kept,
  and a warning names each game left out.

See ``docs/chesscom.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from lichess_elo.core.chesscom.records import ChessComGame, MonthFault, parse_month
from lichess_elo.core.months import month_index
from lichess_elo.errors import (
    AccountClosed,
    DamagedAnswer,
    FetchFailed,
    FetchHint,
    NotFound,
)
from lichess_elo.sources.base import Progress
from lichess_elo.sources.chesscom.session import ChessComConn, connect
from lichess_elo.sources.chesscom.settings import ChessComSettings, check_username

_MONTH_URL = re.compile(r"(?:.*)?/pub/player/([^/]+)/games/(\d{4})/(\d{2})/?")


@dataclass(frozen=True)
class ChessComImport:
    """A player's Chess.com games as imported.

    Attributes:
        username: The account, as asked for (lowercase, as the API's paths hold it).
        games: The player's games by ``end_time``, each url once.
        months: The ``(year, month)`` archives read whole or in part, in order (a month
            not read is a gap for ``observed_changes``).
        from_cache: How many of ``months`` came from the cache.
    """

    username: str
    games: tuple[ChessComGame, ...]
    months: tuple[tuple[int, int], ...]
    from_cache: int


def _hint(name: str, settings: ChessComSettings, month: tuple[int, int] | None = None) -> FetchHint:
    """What would fetch the item online (the user as ``chess.com:NAME``)."""
    since = until = None
    if month is not None:
        since = date(month[0], month[1], 1)
        until = date(month[0] + month[1] // 12, month[1] % 12 + 1, 1)
    return FetchHint(
        user=f"chess.com:{name}",
        since=since,
        until=until,
        api_url=settings.api_url,
        cache_dir=settings.cache_dir,
    )


def archive_months(body: bytes, name: str) -> list[tuple[int, int]]:
    """The months of an archives list (``{"archives": [URL, ...]}``), oldest first.

    Each URL must be a monthly archive of ``name``; only its month is taken, so the months
    are asked of the configured server whatever host the list names.

    Raises:
        ValueError: not JSON, not such a list, or a URL that is not ``name``'s month.
    """
    data = json.loads(body)
    urls = data.get("archives") if isinstance(data, dict) else None
    if not isinstance(urls, list):
        raise ValueError("not an archives list")
    months = set()
    for url in urls:
        match = _MONTH_URL.fullmatch(url) if isinstance(url, str) else None
        if match is None or match.group(1).lower() != name:
            raise ValueError(f"{url!r} is not a monthly archive of {name}")
        year, month = int(match.group(2)), int(match.group(3))
        if not 1 <= month <= 12:
            raise ValueError(f"{url!r} names no month")
        months.add((year, month))
    return sorted(months)


def fetch_archives(
    conn: ChessComConn, name: str, on_warning: Callable[[str], None] | None = None
) -> list[tuple[int, int]]:
    """The months of ``name``'s archives list (``archive_months``).

    Raises:
        NotFound: HTTP 404 (no such account). AccountClosed: HTTP 410 (closed).
        DamagedAnswer: the list is not readable (it is not kept).
        FetchFailed: another status. NotCached: offline and not in the cache.
    """
    what = f"the Chess.com games archives of '{name}'"
    response = conn.get(
        f"/pub/player/{name}/games/archives",
        what=what,
        hint=_hint(name, conn.settings),
        expire_after=datetime.now(UTC),  # asked again online, served offline
        on_warning=on_warning,
    )
    if response.status_code == 404:
        raise NotFound(f"Chess.com has no account '{name}' (HTTP 404: unknown or closed)")
    if response.status_code == 410:
        raise AccountClosed(f"the Chess.com account '{name}' is closed (HTTP 410)")
    if response.status_code != 200:
        raise FetchFailed(f"{what}: HTTP {response.status_code}")
    try:
        return archive_months(response.content, name)
    except (ValueError, RecursionError) as exc:
        conn.session.forget_last()
        fault = str(exc) if not isinstance(exc, json.JSONDecodeError) else "not JSON"
        raise DamagedAnswer(
            f"{what}: damaged answer ({fault}); it was not kept, run again to ask for it again",
            what=what,
            fault=fault,
        ) from None


def fetch_month(
    conn: ChessComConn,
    name: str,
    month: tuple[int, int],
    warn: Callable[[str], None],
) -> tuple[list[ChessComGame], bool]:
    """The whole games of ``name``'s archive of ``month`` and whether it came from the cache.

    Raises:
        DamagedAnswer: the answer is not an archive (it is removed from the cache).
        FetchFailed, NotCached, RateLimited: as ``ChessComConn.get``.
    """
    from requests_cache import NEVER_EXPIRE  # with the session (``connect``)

    year, mon = month
    label = f"{year:04d}-{mon:02d}"
    what = f"the Chess.com month {label} of '{name}'"
    now = conn.now
    ended = month_index(year, mon) < month_index(now.year, now.month)
    response = conn.get(
        f"/pub/player/{name}/games/{year:04d}/{mon:02d}",
        what=what,
        hint=_hint(name, conn.settings, month),
        # A month that had ended never changes again; the running one is kept expired.
        expire_after=NEVER_EXPIRE if ended else datetime.now(UTC),
        on_warning=warn,
    )
    from_cache = bool(getattr(response, "from_cache", False))
    if response.status_code != 200:
        raise FetchFailed(f"{what}: HTTP {response.status_code}")
    try:
        read = parse_month(response.content, year, mon, name)
    except MonthFault as fault:
        conn.session.forget_last()
        raise DamagedAnswer(
            f"{what}: damaged answer ({fault}); it was not kept, run again to ask for it again",
            what=what,
            fault=str(fault),
        ) from None
    for line in read.faults:
        warn(f"{what}: left out {line}")
    if read.faults:
        if conn.settings.offline:
            warn(f"{what} is incomplete in the cache; run online to ask Chess.com for it again")
        else:  # never final: the next online run asks again
            conn.session.expire_last()
    return list(read.games), from_cache


def month_reporter(progress: Progress | None) -> Callable[[str, int, bool], None]:
    """An ``on_month`` for ``import_games`` that tells ``progress`` each month read: its
    label, the months done and the games so far, and whether it came from the cache."""
    done = so_far = 0

    def on_month(label: str, count: int, from_cache: bool) -> None:
        nonlocal done, so_far
        done += 1
        so_far += count
        if progress is not None:
            progress.month(label, done, so_far, from_cache)

    return on_month


def import_games(
    username: str,
    settings: ChessComSettings,
    *,
    since: date | None = None,
    until: date | None = None,
    on_warning: Callable[[str], None] | None = None,
    on_month: Callable[[str, int, bool], None] | None = None,
    now: datetime | None = None,
    on_start: Callable[[int], None] | None = None,
) -> ChessComImport:
    """``username``'s Chess.com games, month by month, from the archives list.

    Args:
        username: The Chess.com account.
        settings: Where and how to ask.
        since, until: Only the months holding a day of ``[since, until)``.
        on_warning: Told each warning, in one line (a game left out, a retry).
        on_month: Told each month read: ``YYYY-MM``, its games, whether from the cache.
        now: Which month is running (UTC; the clock's by default, a cassette's time
            when replaying).
        on_start: Told the number of months to read, once the archives list is read.

    Raises:
        Malformed: the username. NotFound, AccountClosed: the account.
        DamagedAnswer: a month (or the list) that is not an archive; the other months are
            read first, and kept. NotCached, FetchFailed, RateLimited, CannotConnect,
            CassetteMissing, CacheUnusable: as the session's.
    """
    name = check_username(username)
    warn = on_warning or (lambda _line: None)
    with connect(settings, now) as conn:
        months = [m for m in fetch_archives(conn, name, on_warning) if _wanted(m, since, until)]
        if on_start is not None:
            on_start(len(months))
        games: dict[str, ChessComGame] = {}
        damaged: list[DamagedAnswer] = []
        read: list[tuple[int, int]] = []
        cached = 0
        for month in months:
            try:
                found, from_cache = fetch_month(conn, name, month, warn)
            except DamagedAnswer as exc:
                damaged.append(exc)
                continue
            read.append(month)
            cached += from_cache
            for game in found:
                games.setdefault(game.url, game)
            if on_month is not None:
                on_month(f"{month[0]:04d}-{month[1]:02d}", len(found), from_cache)
    if damaged:
        first = damaged[0]
        more = "".join(f" (also damaged: {d.what})" for d in damaged[1:])
        raise DamagedAnswer(f"{first}{more}", what=first.what, fault=first.fault)
    ordered = sorted(games.values(), key=lambda g: (g.end_time, g.url))
    return ChessComImport(name, tuple(ordered), tuple(read), cached)


def _wanted(month: tuple[int, int], since: date | None, until: date | None) -> bool:
    """Whether ``month`` holds a day of ``[since, until)``."""
    index = month_index(*month)
    if since is not None and index < month_index(since.year, since.month):
        return False
    return until is None or index <= month_index(until.year, until.month) - (until.day == 1)
