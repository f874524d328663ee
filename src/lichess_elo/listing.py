"""The ``lichess-elo games`` listing: pick a player's games, replay them, derive the endings.

``list_games`` is the one library call behind the command (an edge: the replay goes
through ``replay_cache``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lichess_elo.games import Color, Game, dedupe_sorted
from lichess_elo.replay import Ending, ReplayFacts, endings
from lichess_elo.replay_cache import replay_all
from lichess_elo.selection import check_perfs, in_range, utc_midnight

if TYPE_CHECKING:
    from datetime import date
    from pathlib import Path


@dataclass(frozen=True, slots=True)
class ListedGame:
    """One row of ``lichess-elo games``: the game, the user's colour and what the replay found."""

    game: Game
    color: Color
    facts: ReplayFacts
    ended: tuple[Ending, ...]


def list_games(
    user: str,
    games: Sequence[Game],
    *,
    cache_dir: Path | None,
    perfs: Sequence[str] = (),
    rated: bool | None = None,
    since: date | None = None,
    until: date | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> list[ListedGame]:
    """Select ``user``'s games, replay them (through the cache) and derive the endings.

    Args:
        user: The player (name or id, any case); games without them are left out with a
            warning (a PGN file may hold other players' games).
        games: The games, any order; the listing comes back oldest first.
        cache_dir: Folder of the replay cache, ``None`` for none.
        perfs: Keep only these perfs (empty: all).
        rated: ``True`` rated only, ``False`` casual only, ``None`` both.
        since: Keep games created on or after this day (UTC).
        until: Keep games created before this day (UTC).
        workers: Processes for a large replay (``None``: the machine's cores).
        progress: Called with (replayed, to replay) while uncached games replay.
        on_warning: Called with one-line messages about games left out.

    Raises:
        BadInput: an unknown perf.
    """
    wanted = set(check_perfs(perfs, allow_all=False))
    low, high = utc_midnight(since), utc_midnight(until)
    chosen: list[tuple[Game, Color]] = []
    strangers = 0
    for game in dedupe_sorted(games):
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
        cache_dir=cache_dir,
        workers=workers,
        progress=progress,
        on_warning=on_warning,
    )
    return [
        ListedGame(game, color, facts[game.id], endings(game, color, facts[game.id]))
        for game, color in chosen
    ]
