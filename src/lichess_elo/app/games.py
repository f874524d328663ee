"""The ``lichess-elo games`` listing: pick a player's games, replay them, derive the endings.

``list_games`` is the one library call behind the command (an edge: it loads the games
through ``report_job.load_games`` and replays them through ``replay_cache``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lichess_elo.core.games import Color, Game
from lichess_elo.sources.lichess.api import resolve_cache_dir
from lichess_elo.core.replay import Ending, ReplayFacts, endings
from lichess_elo.sources.replay_cache import replay_all
from lichess_elo.app.report import load_games
from lichess_elo.core.report.selection import check_perfs, in_range, utc_midnight

if TYPE_CHECKING:
    from datetime import date
    from pathlib import Path

    from lichess_elo.sources.lichess.api import Progress, Source


@dataclass(frozen=True, slots=True)
class ListedGame:
    """One row of ``lichess-elo games``: the game, the user's colour and what the replay found."""

    game: Game
    color: Color
    facts: ReplayFacts
    ended: tuple[Ending, ...]


@dataclass(frozen=True)
class Listing:
    """The outcome of ``list_games``: the name to show and the rows, oldest first."""

    user: str
    rows: tuple[ListedGame, ...]


def list_games(
    username: str,
    source: Source,
    *,
    pgn_file: Path | None = None,
    perfs: Sequence[str] = (),
    rated: bool | None = None,
    since: date | None = None,
    until: date | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    replay_progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> Listing:
    """Load ``username``'s games, select them, replay them (through the cache), derive endings.

    Args:
        username: The player; games without them are left out with a warning (a PGN file
            may hold other players' games).
        source: Where games come from (network, cache, cassette) and the cache folder.
        pgn_file: Read the games from this Lichess PGN export instead of Lichess.
        perfs: Keep only these perfs (empty: all).
        rated: ``True`` rated only, ``False`` casual only, ``None`` both.
        since: Keep games created on or after this day (UTC).
        until: Keep games created before this day (UTC).
        workers: Processes for a large replay (``None``: the machine's cores).
        progress: The fetch progress display.
        replay_progress: Called with (replayed, to replay) while uncached games replay.
        on_warning: Called with one-line messages about games left out.

    Raises:
        BadInput: an unknown perf (before any request), a bad name or ``--pgn`` file;
            the import's errors pass through.
    """
    wanted = set(check_perfs(perfs, allow_all=False))
    loaded = load_games(
        username,
        source,
        pgn_file=pgn_file,
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
        cache_dir=resolve_cache_dir(source),
        workers=workers,
        progress=replay_progress,
        on_warning=on_warning,
    )
    rows = tuple(
        ListedGame(game, color, facts[game.id], endings(game, color, facts[game.id]))
        for game, color in chosen
    )
    return Listing(user, rows)
