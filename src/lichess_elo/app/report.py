"""Run a report end to end: load the games, replay them, build the report (an edge module).

``load_games`` is the one place where a command's games come from Lichess or a ``--pgn``
file (``run_report`` and ``listing.list_games`` both use it). ``run_report`` is the one
library call behind ``lichess-elo report``: it loads the games, replays them through the
replay cache and calls the pure ``report.build_report``.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from lichess_elo.sources.lichess import api as lichess
from lichess_elo.sources import pgn
from lichess_elo.errors import BadInput
from lichess_elo.core.games import Game, dedupe_sorted
from lichess_elo.sources.replay_cache import replay_all
from lichess_elo.core.report.build import PerfReport, ReportSettings, build_report
from lichess_elo.core.report.selection import check_perfs, utc_midnight


@dataclass(frozen=True)
class LoadedGames:
    """A player's games from Lichess or a PGN file.

    ``games`` is oldest first with each id once; ``user`` is the name to show (Lichess's
    spelling when fetched); ``info`` is the public profile (``None`` for a PGN file).
    """

    user: str
    games: tuple[Game, ...]
    info: lichess.UserInfo | None


@dataclass(frozen=True)
class ReportRun:
    """The outcome of ``run_report``: the user's display name and one report per perf."""

    user: str
    reports: tuple[PerfReport, ...]
    games_held: int


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block, then restore it.

    A report builds hundreds of thousands of small acyclic objects (games, rows, JSON
    dicts); each automatic collection rescans everything alive, which cost about a quarter
    of a warm 20,000-game report (benchmarks/bench_report.py). Nothing here makes cycles,
    so reference counting frees it all the same.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_pgn(path: Path, on_warning: Callable[[str], None] | None) -> list[Game]:
    """The games of the ``--pgn`` file ``path``.

    Raises:
        BadInput: the one message for a file that cannot be read: missing, a folder,
            unreadable; it names the path.
    """
    if path.is_dir():
        raise BadInput(f"cannot read --pgn {path}: it is a folder, not a file")
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise BadInput(f"cannot read --pgn {path}: no such file") from None
    except OSError as exc:
        raise BadInput(f"cannot read --pgn {path}: {exc.strerror or exc}") from None
    return pgn.read_pgn(text, on_warning=on_warning)


def load_games(
    username: str,
    source: lichess.Source,
    *,
    pgn_file: Path | None = None,
    since: date | None = None,
    until: date | None = None,
    progress: lichess.Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
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

    Raises:
        BadInput: a bad name, an unreadable ``pgn_file`` or ``--pgn`` with ``--replay``;
            the import's errors (``UserNotFound``, ``NotCached``...) pass through.
    """
    if pgn_file is None:
        result = lichess.fetch_games(  # checks the name; its games are sorted and unique
            username, source, since=since, until=until, progress=progress, on_warning=on_warning
        )
        return LoadedGames(result.user.username or username, result.games, result.user)
    name = lichess.check_pgn_source(username, pgn_file, source)
    games = dedupe_sorted(_read_pgn(pgn_file, on_warning))
    return LoadedGames(name, tuple(games), None)


def _fetch_until(since: date | None, until: date | None, settings: ReportSettings) -> date | None:
    """The end of the fetch: ``until``, or open when ``--since`` needs the public count.

    With ``--since`` the games before it are counted as ``perfs.<perf>.games`` minus the
    games held, and that public count includes the games played after ``--until``. So they
    must be held too (fetched, then left out of the report by ``settings.until``), or they
    would be counted as played before ``--since``. ``--games-before N`` needs no count.
    """
    if since is not None and until is not None and settings.games_before is None:
        return None
    return until


def run_report(
    username: str,
    source: lichess.Source,
    settings: ReportSettings,
    *,
    pgn_file: Path | None = None,
    since: date | None = None,
    until: date | None = None,
    progress: lichess.Progress | None = None,
    replay_progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> ReportRun:
    """Load the games (Lichess or ``pgn_file``), replay them and build the report.

    Args:
        username: The player.
        source: Where games come from (network, cache, cassette) and the cache folder.
        settings: The report options (``since``/``until`` are filled in from the args).
        pgn_file: Read the games from this Lichess PGN export instead of Lichess.
        since: First day to include.
        until: First day not to include.
        progress: The fetch progress display.
        replay_progress: Called with (done, total) while games are replayed.
        on_warning: Called with one-line warnings (skipped games, retries).

    Raises:
        BadInput: a bad name, perf or file (``load_games``); the import's errors
            (``UserNotFound``, ``NotCached``, ``CassetteMissing``...) pass through.
    """
    check_perfs(settings.perfs)  # before any request; build_report selects among them
    settings = replace(settings, since=utc_midnight(since), until=utc_midnight(until))
    loaded = load_games(
        username,
        source,
        pgn_file=pgn_file,
        since=since,
        until=_fetch_until(since, until, settings),
        progress=progress,
        on_warning=on_warning,
    )
    games = list(loaded.games)
    cache_dir = lichess.resolve_cache_dir(source)
    facts = replay_all(games, cache_dir=cache_dir, progress=replay_progress, on_warning=on_warning)
    reports = build_report(loaded.user, games, facts, settings=settings, user_info=loaded.info)
    return ReportRun(user=loaded.user, reports=tuple(reports), games_held=len(games))
