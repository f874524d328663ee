"""``games``: pick a player's games, replay them, derive the endings.

``list_games`` is the one library call behind the command (an edge: it loads the games
through any ``sources.base.GameSource`` and replays them through ``sources.cache.replay``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.games import Color, Game, check_date_range
from lichess_elo.core.replay_facts import Ending, ReplayFacts, endings
from lichess_elo.core.report.selection import check_perfs, in_range, utc_midnight
from lichess_elo.sources.base import GameSource
from lichess_elo.sources.cache.replay import replay_all
from lichess_elo.sources.load import choose_source, load_from, run_cache_dir

if TYPE_CHECKING:
    from pathlib import Path

    from lichess_elo.sources.base import Progress
    from lichess_elo.sources.lichess.session import LichessSettings


@keywords_checked
@dataclass(frozen=True)
class ListSettings:
    """Which games to list: perfs (empty: all), rated/casual/both, and the UTC day range."""

    perfs: tuple[str, ...] = ()
    rated: bool | None = None
    since: date | None = None
    until: date | None = None

    def check(self) -> None:
        """Check the perfs and the date range before any work.

        Raises:
            UnknownChoice: an unknown perf.
            NotBefore: ``since`` not before ``until``.
        """
        check_perfs(self.perfs, allow_all=False)
        check_date_range(self.since, self.until)


@dataclass(frozen=True, slots=True)
class ListedGame:
    """One row of the ``games`` command: the game, the user's colour and what the replay found."""

    game: Game
    color: Color
    facts: ReplayFacts
    ended: tuple[Ending, ...]


@dataclass(frozen=True)
class Listing:
    """The outcome of ``list_games``: the name to show and the rows, oldest first."""

    user: str
    rows: tuple[ListedGame, ...]


@keywords_checked
def list_games(
    username: str,
    source: LichessSettings | None = None,
    settings: ListSettings | None = None,
    *,
    pgn_file: Path | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    replay_progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
    games_from: GameSource | None = None,
    cache_dir: Path | None = None,
) -> Listing:
    """Check the settings, load ``username``'s games, select and replay them, derive endings.

    Args:
        username: The player; games without them are left out with a warning (a PGN file
            may hold other players' games).
        source: The Lichess settings (server, token, cache, cassette, offline), for games
            that come from Lichess (``None``: the defaults); not needed with ``pgn_file``
            or ``games_from``.
        settings: Which games (checked here, before any request; ``None``: all).
        pgn_file: Read the games from this Lichess PGN export instead of Lichess.
        workers: Processes for a large replay (``None``: the machine's cores).
        progress: The fetch progress display.
        replay_progress: Called with (replayed, to replay) while uncached games replay.
        on_warning: Called with one-line messages about games left out.
        games_from: Any other ``GameSource`` (a dump, a second site) to read the games
            from.
        cache_dir: The run's cache folder (the replays); default ``source.cache_dir``,
            else ``LICHESS_ELO_CACHE_DIR``, else the user's cache folder.

    Raises:
        BadInput: a bad setting (before any request), name or PGN file; the import's
            errors pass through.
    """
    if settings is None:
        settings = ListSettings()
    settings.check()
    games = choose_source(username, source, pgn_file, games_from)
    wanted = set(settings.perfs)
    since, until, rated = settings.since, settings.until, settings.rated
    loaded = load_from(
        games,
        username,
        since=since,
        until=until,
        progress=progress,
        on_warning=on_warning,
    )
    user = loaded.user
    low, high = utc_midnight(since), utc_midnight(until)
    chosen: list[tuple[Game, Color]] = []
    strangers = 0
    for game in loaded.games:  # oldest first, each id once (LoadedGames)
        color = game.color_of(user)
        if color is None:
            strangers += 1
            continue
        if wanted and game.perf not in wanted:
            continue
        if rated is not None and game.rated != rated:
            continue
        if not in_range(game, low, high):
            continue
        chosen.append((game, color))
    if strangers and on_warning is not None:
        on_warning(f"{strangers} game(s) without {user} left out")
    facts = replay_all(
        [g for g, _ in chosen],
        cache_dir=run_cache_dir(cache_dir, source),
        workers=workers,
        progress=replay_progress,
        on_warning=on_warning,
    )
    rows = tuple(
        ListedGame(game, color, facts[game.id], endings(game, color, facts[game.id]))
        for game, color in chosen
    )
    return Listing(user, rows)
