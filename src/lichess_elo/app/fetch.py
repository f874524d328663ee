"""``fetch``: import a player's games into the cache, month by month."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.games import check_date_range
from lichess_elo.sources.base import Progress
from lichess_elo.sources.lichess.api import FetchResult, fetch_games
from lichess_elo.sources.lichess.session import LichessSettings

if TYPE_CHECKING:
    from lichess_elo.sources.chesscom.settings import ChessComSettings


@keywords_checked
@dataclass(frozen=True)
class FetchSettings:
    """Which months to fetch: ``[since, until)`` in UTC days (``None``: open)."""

    since: date | None = None
    until: date | None = None

    def check(self) -> None:
        """Refuse an empty or reversed range (``NotBefore``)."""
        check_date_range(self.since, self.until)


@keywords_checked
def run_fetch(
    username: str,
    source: LichessSettings,
    settings: FetchSettings,
    *,
    progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> FetchResult:
    """Check the settings and the source, then fetch every month into the cache.

    The result's games are counted (``count``, ``split``), not kept: ``games`` is empty.

    Raises:
        BadInput: a bad setting, name or source (before any request); the import's errors
            (``UserNotFound``, ``NotCached``, ``RateLimited``...) pass through.
    """
    settings.check()
    source.check()
    return fetch_games(
        username,
        source,
        since=settings.since,
        until=settings.until,
        progress=progress,
        on_warning=on_warning,
        keep_games=False,  # fetch only counts: no game is kept in memory
    )


@dataclass(frozen=True)
class SiteFetch:
    """What ``fetch`` of a Chess.com account found, counted as ``FetchResult`` counts a
    Lichess fetch: the account, the games by perf (rated, casual), the months and the
    cache (or cassette) they are kept in."""

    username: str
    count: int
    split: Mapping[str, tuple[int, int]]
    months_total: int
    months_from_network: int
    months_from_cache: int
    cache_path: Path


@keywords_checked
def run_chesscom_fetch(
    username: str,
    source: ChessComSettings,
    settings: FetchSettings,
    *,
    progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> SiteFetch:
    """Check the settings, then import a Chess.com account's months into the cache.

    The games are counted by the tool's perf (``core.chesscom.perf_of``; a variant without
    one, bughouse, by its ``rules``), not kept.

    Raises:
        BadInput: a bad setting or name (before any request); ``NotFound``,
            ``AccountClosed``, ``NotCached``, ``RateLimited``... pass through.
    """
    from lichess_elo.core.chesscom import perf_of
    from lichess_elo.sources.cache.folder import make_cache_folder
    from lichess_elo.sources.chesscom.archives import import_games, month_reporter
    from lichess_elo.sources.lichess.session import CACHE_FILE

    settings.check()
    source.check()
    found = import_games(
        username,
        source,
        since=settings.since,
        until=settings.until,
        on_warning=on_warning,
        on_month=month_reporter(progress),
        on_start=None if progress is None else progress.start,
    )
    rated: Counter[str] = Counter()
    casual: Counter[str] = Counter()
    for game in found.games:
        perf = perf_of(game.rules, game.time_class, game.time_control) or game.rules
        (rated if game.rated else casual)[perf] += 1
    shown = found.username
    for game in found.games:  # Chess.com's spelling of the name
        color = game.color_of(found.username)
        if color is not None:
            shown = game.side(color).username
            break
    cache = source.replay or make_cache_folder(source.cache_dir) / CACHE_FILE
    months = len(found.months)
    return SiteFetch(
        username=shown,
        count=len(found.games),
        split={p: (rated[p], casual[p]) for p in sorted(rated.keys() | casual.keys())},
        months_total=months,
        months_from_network=months - found.from_cache,
        months_from_cache=found.from_cache,
        cache_path=cache,
    )
