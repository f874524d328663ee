"""``fetch``: import a player's games into the cache, month by month."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.games import check_date_range
from lichess_elo.sources.base import Progress
from lichess_elo.sources.lichess.api import FetchResult, fetch_games
from lichess_elo.sources.lichess.session import LichessSettings


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
