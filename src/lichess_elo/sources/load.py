"""The one place a command's games come from: Lichess (through the cache) or a PGN file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from lichess_elo.core.games import Game, UserInfo, dedupe_sorted
from lichess_elo.errors import BadFile, Conflict
from lichess_elo.sources.lichess.api import fetch_games
from lichess_elo.sources.lichess.checks import validate_username
from lichess_elo.sources.lichess.retries import Progress
from lichess_elo.sources.lichess.session import Source
from lichess_elo.sources.text_files import read_text


@dataclass(frozen=True)
class LoadedGames:
    """A player's games from Lichess or a PGN file.

    ``games`` is oldest first with each id once; ``user`` is the name to show (Lichess's
    spelling when fetched); ``info`` is the public profile (``None`` for a PGN file).
    """

    user: str
    games: tuple[Game, ...]
    info: UserInfo | None
    #: Months read before ``since`` to count K's games, and the perfs still short of 30
    #: there (see ``fetch_games``'s ``count_back``).
    months_back: int = 0
    count_short: tuple[str, ...] = ()


def _read_pgn(path: Path, on_warning: Callable[[str], None] | None) -> list[Game]:
    """The games of the PGN file ``path``.

    Raises:
        BadInput: the one message for a file that cannot be read: missing, a folder,
            unreadable; it names the path.
    """
    if path.is_dir():
        raise BadFile(path, "it is a folder, not a file", field="pgn", unreadable=True)
    try:
        text = read_text(path, "pgn")
    except FileNotFoundError:
        raise BadFile(path, "no such file", field="pgn", unreadable=True) from None
    except OSError as exc:
        problem = exc.strerror or str(exc)
        raise BadFile(path, problem, field="pgn", unreadable=True) from None
    from lichess_elo.sources import pgn  # python-chess's PGN reader: only for a file

    return pgn.read_pgn(text, on_warning=on_warning)


def load_games(
    username: str,
    source: Source,
    *,
    pgn_file: Path | None = None,
    since: date | None = None,
    until: date | None = None,
    progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
    count_back: Sequence[str] | None = None,
    on_games: Callable[[list[Game]], None] | None = None,
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
        on_games: Handed each month's new games while Lichess is read (``fetch_games``);
            not called for a PGN file.

    Raises:
        BadInput: a bad name, an unreadable ``pgn_file`` or a PGN file with a cassette;
            the import's errors (``UserNotFound``, ``NotCached``...) pass through.
    """
    if pgn_file is None:
        result = fetch_games(  # checks the name; its games are sorted and unique
            username,
            source,
            since=since,
            until=until,
            progress=progress,
            on_warning=on_warning,
            count_back=count_back,
            on_games=on_games,
        )
        return LoadedGames(
            result.user.username or username,
            result.games,
            result.user,
            result.months_back,
            result.count_short,
        )
    name = check_pgn_source(username, pgn_file, source)
    games = dedupe_sorted(_read_pgn(pgn_file, on_warning))
    return LoadedGames(name, tuple(games), None)


def check_pgn_source(username: str, pgn: Path | None, source: Source) -> str:
    """Check a PGN run's settings; return the validated username.

    Only for the PGN path: a Lichess run checks the name in ``fetch_games``.

    Raises:
        BadInput: a malformed username, or a PGN file together with a cassette (the
            games come from the file, so the cassette would be ignored). Offline mode is
            fine with a PGN file: neither sends anything.
    """
    name = validate_username(username)
    if pgn is not None and source.replay is not None:
        raise Conflict(("pgn", "replay"), "the games come from the file")
    return name
