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
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from lichess_elo.core.games import Game, UserInfo, dedupe_sorted
from lichess_elo.core.report.selection import classify, select_perfs
from lichess_elo.errors import (
    AccountClosed,
    BadInput,
    CannotConnect,
    DamagedAnswer,
    NotCached,
)
from lichess_elo.sources.games_cache import servers_holding
from lichess_elo.sources.lichess.answers import own_games, read_whole
from lichess_elo.sources.lichess.checks import scrub, validate_username
from lichess_elo.sources.lichess.count_back import (
    COUNT_BACK_MONTHS,
    short_perfs,
)
from lichess_elo.sources.lichess.export import read_month
from lichess_elo.sources.lichess.months import (
    export_params,
    month_start,
    month_windows,
    next_month,
)
from lichess_elo.sources.lichess.parsed import cached_month, keep_month, month_request, open_parsed
from lichess_elo.sources.lichess.retries import Progress, call_with_retries
from lichess_elo.sources.lichess.session import (
    CACHE_FILE,
    Conn,
    Source,
    check_connection,
    connect,
    make_cache_dir,
    resolve_cache_dir,
)
from lichess_elo.sources.lichess.users import cache_holds_user, cached_or_fetched_user, fetch_hint
from lichess_elo.sources.sqlite_open import check_sidecars

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
    on_games: Callable[[list[Game]], None] | None = None,
) -> FetchResult:
    """Fetch every game of ``username`` month by month, through the cache.

    ``on_games``, when given, is handed each month's new games (those kept, oldest month
    first, before the months read back for ``count_back``) as soon as the month is read,
    so a caller can start on them while the next months are fetched.

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
            on_games=on_games,
        )
    except CannotConnect as exc:
        raise CannotConnect(
            exc.url, exc.reason, cached=cache_holds_user(username, source)
        ) from None
    except NotCached as exc:
        if source.replay is not None or exc.elsewhere:
            raise
        # the cache keys on the server: the same user fetched from another --api-url is
        # there, and the message says so rather than only "not in the cache"
        here = source.api_url.rstrip("/")
        path = f"/api/user/{username.strip().lower()}"
        others = tuple(s for s in servers_holding(resolve_cache_dir(source), path) if s != here)
        if not others:
            raise
        raise NotCached(exc.what, exc.hint, others) from None


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
    on_games: Callable[[list[Game]], None] | None = None,
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

    with ExitStack() as stack:
        opened: list[Conn] = []

        def conn() -> Conn:
            """The session, opened on first use: an offline run whose profile and months
            are all in the parsed-games cache never opens it (nor imports the HTTP stack)."""
            if not opened:
                opened.append(stack.enter_context(connect(source)))
                if parsed is not None:  # closed first: the session's connection to
                    stack.callback(parsed.close)  # http.sqlite is then the last (its WAL goes)
            return opened[0]

        parsed = None
        if source.replay is None:  # the parsed-games cache sits beside the HTTP cache
            check_connection(source)  # what ``connect`` checks first, whether or not it runs
            cache_path = make_cache_dir(source) / CACHE_FILE
            check_sidecars(cache_path)
            parsed = open_parsed(cache_path.parent, warn)
            stack.callback(parsed.close)
            now = datetime.now(UTC)
        else:
            cache_path, now = conn().cache_path, conn().now
        if since is not None and since > now.date():
            # nothing to fetch yet: said, not answered with an empty report
            day = "today" if source.replay is None else "the cassette's recording day"
            raise BadInput(
                f"is after {day} ({now:%Y-%m-%d}); no game is played yet",
                field="since",
                value=since.isoformat(),
            )
        user = cached_or_fetched_user(conn, parsed, name, source, progress, warn)
        if user.disabled:
            raise AccountClosed(f"the Lichess account '{user.username or name}' is closed")
        months = month_windows(user.created_at, now, since, until)
        if progress is not None:
            progress.start(len(months))
        low = datetime.combine(since, datetime.min.time(), UTC) if since else None
        high = datetime.combine(until, datetime.min.time(), UTC) if until else None
        found: dict[str, Game] = {}
        seen: set[str] = set()
        split: dict[str, tuple[int, int]] = {}
        from_cache = 0

        def keep(game: Game) -> bool:
            """Count ``game`` once (by id), and hold it unless only counting; whether it
            is new."""
            if game.id in seen:
                return False
            seen.add(game.id)
            rated, casual = split.get(game.perf, (0, 0))
            split[game.perf] = (rated + 1, casual) if game.rated else (rated, casual + 1)
            if keep_games:
                found[game.id] = game
            return True

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
                    if hit[1] and source.offline:  # kept by a version before issue 22
                        warn(incomplete(f"month {label} of {name}", len(hit[1])))
                    return hit[0], True
            window = _Month(user_id, name, month, f"month {label} of {name}", parsed, request)
            try:
                return call_with_retries(
                    _month_action(conn(), window, warn),
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
            new = [
                game
                for game in month_games
                # Counting back also keeps the days of ``since``'s month before it.
                if (low is None or game.created_at >= low or count_back is not None)
                and (high is None or game.created_at < high)
                and keep(game)
            ]
            if on_games is not None and new:
                on_games(new)
            del month_games, read, new  # a counting fetch lets each month's games go here
            if progress is not None:
                progress.month(month.strftime("%Y-%m"), done, len(seen), cached)
        back: list[date] = []
        short: tuple[str, ...] = ()
        if count_back is not None and since is not None and low is not None:
            first_month = month_start(user.created_at.astimezone(UTC).date())
            window_games = [g for g in found.values() if g.created_at >= low]
            counted, _, _ = classify(name, window_games, None, None)
            need = set(select_perfs(count_back, counted, user))
            month = month_start(since)
            while True:
                short = short_perfs(name, list(found.values()), need, low)
                if not short or month <= first_month or len(back) == COUNT_BACK_MONTHS:
                    break
                month = month_start(month - timedelta(days=1))
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
        cache_path=cache_path,
        warnings=tuple(warnings),
        now=now,
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


def _first_of(damaged: list[DamagedAnswer]) -> DamagedAnswer:
    first = damaged[0]
    if len(damaged) == 1:
        return first
    more = ", ".join(d.what for d in damaged[1:])
    return DamagedAnswer(
        f"{first} (also damaged: {more})", what=first.what, fault=first.fault, hint=first.hint
    )


def _fetch_month(
    conn: Conn, window: _Month, warn: Callable[[str], None]
) -> tuple[list[Game], bool]:
    notes: list[str] = []  # the last attempt's parse warnings, said once it is read
    from requests_cache import NEVER_EXPIRE  # with the session (``connect``)

    ended = next_month(window.month) <= conn.now.date()
    # A month that had ended never changes again; a running one is stored already expired.
    conn.session.settings.expire_after = NEVER_EXPIRE if ended else datetime.now(UTC)
    hint = fetch_hint(window.name, conn.source, window.month)

    def read() -> list[Game]:
        return read_whole(
            conn,
            lambda: read_month(conn, window.user_id, window.month, notes.append),
            window.what,
            hint,
            before_again=notes.clear,
        )

    games = read()
    from_cache = conn.session.last_from_cache
    if notes and from_cache and not conn.source.offline and conn.source.replay is None:
        # Games skipped in an answer kept as final (by a version before issue #22 kept such
        # months expired): online, it is asked for again now, not served once more.
        notes.clear()
        refresh, conn.session.force_refresh = conn.session.force_refresh, True
        try:
            games = read()
        finally:
            conn.session.force_refresh = refresh
        from_cache = conn.session.last_from_cache
    for message in notes:
        warn(message)
    own, others = own_games(games, window.name, warn, window.what)
    if others:  # not the answer asked for: not kept, so the next run asks again
        conn.session.forget_last()
    elif notes:  # games skipped: not kept as final, so the next online run asks again
        if conn.source.offline:
            warn(incomplete(window.what, len(notes)))
        else:
            conn.session.expire_last()
    elif window.parsed is not None:  # a whole, valid answer: its games are kept parsed
        keep_month(window.parsed, window.request, conn.session, own, notes)
    return own, from_cache


def incomplete(what: str, skipped: int) -> str:
    """The offline warning for a month kept with ``skipped`` games left out."""
    return (
        f"{what} is incomplete in the cache ({skipped} game(s) skipped); run online "
        "(without --offline) to ask Lichess for it again"
    )


def _month_action(
    conn: Conn, window: _Month, warn: Callable[[str], None]
) -> Callable[[], tuple[list[Game], bool]]:
    return lambda: _fetch_month(conn, window, warn)
