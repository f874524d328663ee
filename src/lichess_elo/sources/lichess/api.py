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
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.games import Game, UserInfo, dedupe_sorted
from lichess_elo.errors import (
    AccountClosed,
    BadInput,
    CannotConnect,
    DamagedAnswer,
    NotCached,
)
from lichess_elo.sources.base import Progress
from lichess_elo.sources.cache.games import servers_holding
from lichess_elo.sources.cache.lichess_parsed import cached_month, month_request, open_parsed
from lichess_elo.sources.cache.sqlite import check_sidecars
from lichess_elo.sources.lichess.checks import scrub, validate_username
from lichess_elo.sources.lichess.count_back import count_back_months
from lichess_elo.sources.lichess.export import month_url
from lichess_elo.sources.lichess.month_fetch import (
    MonthWindow,
    first_of,
    incomplete,
    month_action,
)
from lichess_elo.sources.lichess.months import export_params, month_windows
from lichess_elo.sources.lichess.retries import call_with_retries
from lichess_elo.sources.lichess.session import (
    CACHE_FILE,
    Conn,
    LichessSettings,
    check_connection,
    connect,
    make_cache_dir,
    resolve_cache_dir,
)
from lichess_elo.sources.lichess.users import cache_holds_user, cached_or_fetched_user, fetch_hint

if TYPE_CHECKING:
    from lichess_elo.sources.cache.games import ParsedCache


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


@keywords_checked
def fetch_games(
    username: str,
    source: LichessSettings,
    *,
    since: date | None = None,
    until: date | None = None,
    progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
    count_back: Sequence[str] | None = None,
    keep_games: bool = True,
    on_games: Callable[[list[Game]], Sequence[Game] | None] | None = None,
) -> FetchResult:
    """Fetch every game of ``username`` month by month, through the cache.

    ``on_games``, when given, is handed each month's new games (those kept, oldest month
    first, before the months read back for ``count_back``) as soon as the month is read,
    so a caller can start on them while the next months are fetched; the games it gives
    back (the same games, their moves let go once replayed) are held instead.

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
    source: LichessSettings,
    *,
    since: date | None,
    until: date | None,
    progress: Progress | None,
    on_warning: Callable[[str], None] | None,
    count_back: Sequence[str] | None = None,
    keep_games: bool = True,
    on_games: Callable[[list[Game]], Sequence[Game] | None] | None = None,
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
        run = _Run(name, source, stack, progress, warn)
        cache_path, now = run.open_caches()
        _check_since(since, now, source)
        user = cached_or_fetched_user(run.conn, run.parsed, name, source, progress, warn)
        if user.disabled:
            raise AccountClosed(f"the Lichess account '{user.username or name}' is closed")
        run.user_id = user.id or name.lower()
        months = month_windows(user.created_at, now, since, until)
        run.ask_ahead(months)
        tally = _Tally(keep_games)
        low = datetime.combine(since, datetime.min.time(), UTC) if since else None
        high = datetime.combine(until, datetime.min.time(), UTC) if until else None
        _read_window(run, months, tally, low, high, count_back is not None, on_games)
        back: list[date] = []
        short: tuple[str, ...] = ()
        if count_back is not None and since is not None and low is not None:
            back, short = count_back_months(
                run.name, user, tally.found, (since, low), count_back, run.read_month, tally.keep
            )
        if run.damaged:
            raise first_of(run.damaged)
    total = len(months) + len(back)
    return FetchResult(
        user=user,
        games=tuple(dedupe_sorted(tally.found.values())),
        count=len(tally.seen),
        split=tally.split,
        months_total=total,
        months_from_network=total - run.from_cache,
        months_from_cache=run.from_cache,
        cache_path=cache_path,
        warnings=tuple(warnings),
        now=now,
        months_back=len(back),
        count_short=short,
    )


def _check_since(since: date | None, now: datetime, source: LichessSettings) -> None:
    """Refuse a ``since`` after today: nothing to fetch yet, said rather than answered with
    an empty report."""
    if since is not None and since > now.date():
        day = "today" if source.replay is None else "the cassette's recording day"
        raise BadInput(
            f"is after {day} ({now:%Y-%m-%d}); no game is played yet",
            field="since",
            value=since.isoformat(),
        )


@dataclass
class _Tally:
    """The games counted so far: each id once, the perf split, and the games held (unless
    only counting)."""

    keep_games: bool
    found: dict[str, Game] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    split: dict[str, tuple[int, int]] = field(default_factory=dict)

    def keep(self, game: Game) -> bool:
        """Count ``game`` once (by id), and hold it unless only counting; whether it is new."""
        if game.id in self.seen:
            return False
        self.seen.add(game.id)
        rated, casual = self.split.get(game.perf, (0, 0))
        self.split[game.perf] = (rated + 1, casual) if game.rated else (rated, casual + 1)
        if self.keep_games:
            self.found[game.id] = game
        return True


class _Run:
    """One ``fetch_games`` call's caches and session: the parsed-games cache, the session
    opened on first use, the months served from the cache and the damaged ones."""

    def __init__(
        self,
        name: str,
        source: LichessSettings,
        stack: ExitStack,
        progress: Progress | None,
        warn: Callable[[str], None],
    ) -> None:
        self.name = name
        self.source = source
        self.user_id = name.lower()
        self._stack = stack
        self.progress = progress
        self._warn = warn
        self._opened: list[Conn] = []
        self.parsed: ParsedCache | None = None
        self.from_cache = 0
        self.damaged: list[DamagedAnswer] = []

    def conn(self) -> Conn:
        """The session, opened on first use: an offline run whose profile and months are
        all in the parsed-games cache never opens it (nor imports the HTTP stack)."""
        if not self._opened:
            self._opened.append(self._stack.enter_context(connect(self.source)))
            if self.parsed is not None:  # closed first: the session's connection to
                self._stack.callback(self.parsed.close)  # http.sqlite is then the last
        return self._opened[0]

    def ask_ahead(self, months: Sequence[date]) -> None:
        """Online, with the session open: ask for each of ``months`` (oldest first) while
        the one before is read (``prefetch``); not for a cassette, nor offline."""
        source = self.source
        if self._opened and not source.offline and source.replay is None:
            urls = [month_url(source.api_url, self.user_id, month) for month in months]
            self._opened[0].session.ask_ahead(urls)

    def open_caches(self) -> tuple[Path, datetime]:
        """The HTTP cache's path and "now"; the parsed-games cache beside the HTTP cache
        (none for a cassette, whose session is opened here for its recording day)."""
        source = self.source
        if source.replay is not None:
            return self.conn().cache_path, self.conn().now
        check_connection(source)  # what ``connect`` checks first, whether or not it runs
        cache_path = make_cache_dir(source) / CACHE_FILE
        check_sidecars(cache_path)
        self.parsed = open_parsed(cache_path.parent, self._warn)
        self._stack.callback(self.parsed.close)
        return cache_path, datetime.now(UTC)

    def read_month(self, month: date) -> tuple[list[Game], bool] | None:
        """The player's games of ``month`` and whether they came from a cache; ``None`` for
        a damaged answer (the other months go on; this one is not kept)."""
        source, name, warn = self.source, self.name, self._warn
        label = month.strftime("%Y-%m")
        request = month_request(source.api_url, self.user_id, export_params(month))
        if self.parsed is not None and not source.refresh:
            hit = cached_month(self.parsed, request, stale_ok=source.offline)
            if hit is not None:  # parsed before from the very answer the cache holds
                for message in hit[1]:
                    warn(message)
                if hit[1] and source.offline:  # kept by an older version
                    warn(incomplete(f"month {label} of {name}", len(hit[1])))
                self.from_cache += 1
                return hit[0], True
        what = f"month {label} of {name}"
        window = MonthWindow(self.user_id, name, month, what, self.parsed, request)
        try:
            read = call_with_retries(
                month_action(self.conn(), window, warn),
                what=window.what,
                source=source,
                hint=fetch_hint(name, source, month),
                progress=self.progress,
                on_warning=warn,
                passthrough=frozenset(),
            )
        except DamagedAnswer as exc:
            self.damaged.append(exc)
            return None
        self.from_cache += read[1]
        return read


def _read_window(
    run: _Run,
    months: list[date],
    tally: _Tally,
    low: datetime | None,
    high: datetime | None,
    counting_back: bool,
    on_games: Callable[[list[Game]], Sequence[Game] | None] | None,
) -> None:
    """Read ``months`` oldest first, counting the games in ``[low, high)`` into ``tally``
    and handing each month's new ones to ``on_games``."""
    progress = run.progress
    if progress is not None:
        progress.start(len(months))
    for done, month in enumerate(months, start=1):
        read = run.read_month(month)
        if read is None:
            continue
        month_games, cached = read
        new = [
            game
            for game in month_games
            # Counting back also keeps the days of ``since``'s month before it.
            if (low is None or game.created_at >= low or counting_back)
            and (high is None or game.created_at < high)
            and tally.keep(game)
        ]
        if on_games is not None and new:
            held = on_games(new)
            if held is not None and tally.keep_games:  # the games as the hook holds them
                for game in held:
                    if game.id in tally.found:
                        tally.found[game.id] = game
        del month_games, read, new  # a counting fetch lets each month's games go here
        if progress is not None:
            progress.month(month.strftime("%Y-%m"), done, len(tally.seen), cached)
