"""The one interface every source of games implements (``GameSource``), and what it answers.

A source turns a ``GameQuery`` (a player, the days wanted, the perfs whose K needs earlier
games counted) into ``LoadedGames``: the player's games as core ``Game`` records, oldest
first with each id once. The Lichess API (through the cache, or a cassette), a PGN export
and a database dump implement it in ``sources.game_sources``; ``run_report`` and
``list_games`` take any of them, so a second site plugs in by writing one class::

    class MySite:
        name = "my site"
        provisional_known = False

        def load(self, query: GameQuery, hooks: LoadHooks = NO_HOOKS) -> LoadedGames:
            games = [...]  # core.games.Game records, built from the site's answers
            return LoadedGames(query.username, tuple(dedupe_sorted(games)), None)

The contract every implementation keeps is tested once for all of them
(``tests/integration/test_source_contract.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol, runtime_checkable

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.games import Game, UserInfo


@keywords_checked
@dataclass(frozen=True)
class GameQuery:
    """Which games to load.

    ``since`` is the first day wanted and ``until`` the first day not wanted (a file may be
    read whole; callers filter by day). ``count_back`` names the perfs whose earlier
    games K's 30-game rule counts: a source that can read months before ``since`` for them
    does (the Lichess API); one that holds what it holds ignores it.
    """

    username: str
    since: date | None = None
    until: date | None = None
    count_back: tuple[str, ...] | None = None


class Progress(Protocol):
    """Receives a source's progress events: a site's months as they are fetched (the Lichess
    API's ``fetch_games``), or a file's progress while it is read (the CLI draws a bar with
    them). Site-neutral: every ``GameSource`` reports through it (``LoadHooks.progress``)."""

    def start(self, total_months: int) -> None:
        """Called once with the number of months to fetch."""

    def month(self, label: str, done: int, games_so_far: int, from_cache: bool) -> None:
        """Called after each month (``YYYY-MM``) with the running totals."""

    def waiting(self, seconds: float, reason: str) -> None:
        """Called before a deliberate wait (HTTP 429, retry backoff)."""

    def reading(self, done: int, total: int, unit: str) -> None:
        """Called while a file is read instead: ``done`` of ``total`` ``unit`` (a PGN
        export's games, a dump's megabytes)."""


@keywords_checked
@dataclass(frozen=True)
class LoadHooks:
    """What a source reports while it loads: progress, one-line warnings and, for a source
    read in parts, each part's new games (so the replay can start before the end)."""

    progress: Progress | None = None
    on_warning: Callable[[str], None] | None = None
    on_games: Callable[[list[Game]], Sequence[Game] | None] | None = None


#: No progress, no warnings, no early games.
NO_HOOKS = LoadHooks()


@keywords_checked
@dataclass(frozen=True)
class LoadedGames:
    """A player's games from one source.

    ``games`` is oldest first with each id once; ``user`` is the name to show (the site's
    spelling when it gives one); ``info`` is the public profile (``None`` for a file).
    """

    user: str
    games: tuple[Game, ...]
    info: UserInfo | None
    #: Months read before ``since`` to count K's games, and the perfs still short of 30
    #: there (see ``fetch_games``'s ``count_back``).
    months_back: int = 0
    count_short: tuple[str, ...] = ()


@runtime_checkable
class GameSource(Protocol):
    """Where a player's games come from.

    ``name`` says it in messages ("Lichess", "the PGN file x.pgn"). ``provisional_known``
    says whether the source writes Lichess's provisional flag (an export never does, so a
    report from a file cannot tell a provisional rating from an established one).
    """

    @property
    def name(self) -> str:
        """The source in messages ("Lichess", "the PGN file x.pgn")."""
        ...

    @property
    def provisional_known(self) -> bool:
        """Whether the source writes Lichess's provisional flag."""
        ...

    def load(self, query: GameQuery, hooks: LoadHooks = NO_HOOKS) -> LoadedGames:
        """The player's games for ``query``, oldest first with each id once.

        Raises:
            BadInput: a name the source cannot hold; the source's own errors
                (``UserNotFound``, ``NotCached``, ``BadFile``...) otherwise.
        """
        ...


def query_of(
    username: str,
    since: date | None = None,
    until: date | None = None,
    count_back: Sequence[str] | None = None,
) -> GameQuery:
    """A ``GameQuery`` from loose arguments (``count_back`` as any sequence)."""
    return GameQuery(username, since, until, None if count_back is None else tuple(count_back))
