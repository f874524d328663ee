"""The one place a command's games come from: a ``GameSource`` (``sources.base``), by
default Lichess through the cache, or the PGN file given."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.games import Game
from lichess_elo.errors import Conflict
from lichess_elo.sources.base import GameSource, LoadedGames, LoadHooks, Progress, query_of
from lichess_elo.sources.env import cache_folder
from lichess_elo.sources.game_sources import LichessGames, PgnFile
from lichess_elo.sources.lichess.checks import validate_username
from lichess_elo.sources.lichess.session import LichessSettings

__all__ = [
    "LoadedGames",
    "check_pgn_source",
    "choose_source",
    "game_source",
    "load_from",
    "load_games",
    "run_cache_dir",
]


def game_source(source: LichessSettings, pgn_file: Path | None = None) -> GameSource:
    """The ``GameSource`` a command's options name: ``pgn_file``, else Lichess (or the
    cassette of ``source``) through ``source``'s cache."""
    return LichessGames(source) if pgn_file is None else PgnFile(pgn_file)


@keywords_checked
def load_games(
    username: str,
    source: LichessSettings,
    *,
    pgn_file: Path | None = None,
    since: date | None = None,
    until: date | None = None,
    progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
    count_back: Sequence[str] | None = None,
    on_games: Callable[[list[Game]], Sequence[Game] | None] | None = None,
) -> LoadedGames:
    """Load ``username``'s games: read ``pgn_file``, or fetch them from Lichess.

    Args:
        username: The player (checked here, once, on either path).
        source: Where games come from (network, cache, cassette).
        pgn_file: Read the games from this Lichess PGN export instead of Lichess.
        since: First day to fetch (a PGN file is read whole; callers filter).
        until: First day not to fetch.
        progress: The fetch progress display.
        on_warning: Called with one-line warnings (skipped games, retries).
        count_back: The report's perfs, to also fetch the months before ``since`` that
            K's 30-game rule needs for them (``fetch_games``); a PGN file holds what it holds.
        on_games: Handed each month's new games while Lichess is read (``fetch_games``),
            and may give them back to be held instead (without their moves); not called
            for a PGN file.

    Raises:
        BadInput: a bad name, an unreadable ``pgn_file`` or a PGN file with a cassette;
            the import's errors (``UserNotFound``, ``NotCached``...) pass through.
    """
    if pgn_file is not None:
        check_pgn_source(username, pgn_file, source)
    return load_from(
        game_source(source, pgn_file),
        username,
        since=since,
        until=until,
        progress=progress,
        on_warning=on_warning,
        count_back=count_back,
        on_games=on_games,
    )


def load_from(
    games: GameSource,
    username: str,
    *,
    since: date | None = None,
    until: date | None = None,
    progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
    count_back: Sequence[str] | None = None,
    on_games: Callable[[list[Game]], Sequence[Game] | None] | None = None,
) -> LoadedGames:
    """``username``'s games from any ``GameSource`` (the arguments as ``load_games``'s)."""
    query = query_of(username, since, until, count_back)
    return games.load(query, LoadHooks(progress, on_warning, on_games))


def check_pgn_source(username: str, pgn: Path | None, source: LichessSettings | None) -> str:
    """Check a PGN run's settings; return the validated username.

    Only for the PGN path: a Lichess run checks the name in ``fetch_games``.

    Raises:
        BadInput: a malformed username, or a PGN file together with a cassette (the
            games come from the file, so the cassette would be ignored). Offline mode is
            fine with a PGN file: neither sends anything.
    """
    name = validate_username(username)
    if pgn is not None and source is not None and source.replay is not None:
        raise Conflict(("pgn", "replay"), "the games come from the file")
    return name


def choose_source(
    username: str,
    source: LichessSettings | None,
    pgn_file: Path | None,
    games_from: GameSource | None,
) -> GameSource:
    """A run's ``GameSource``: ``games_from``, else ``pgn_file``, else Lichess through
    ``source`` (the default ``LichessSettings()`` when ``None``); the settings given are
    checked here, before any work. Only the Lichess games need Lichess settings.

    Raises:
        Conflict: ``games_from`` with ``pgn_file``, or a PGN file with a cassette.
    """
    if games_from is not None:
        if pgn_file is not None:
            raise Conflict(("games_from", "pgn"), "the games come from one source")
        if source is not None:
            source.check()
        return games_from
    if pgn_file is not None:
        check_pgn_source(username, pgn_file, source)
        return PgnFile(pgn_file)
    lichess = LichessSettings() if source is None else source
    lichess.check()
    return LichessGames(lichess)


def run_cache_dir(cache_dir: Path | None, source: LichessSettings | None) -> Path:
    """A run's cache folder (its replays): ``cache_dir``, else the Lichess settings' folder
    where they are given, else ``LICHESS_ELO_CACHE_DIR``, else the user's cache folder."""
    if cache_dir is None and source is not None:
        cache_dir = source.cache_dir
    return cache_folder(cache_dir)
