"""``report``: load the games, replay them, build the report (an edge: it does I/O).

``run_report`` is the one library call behind ``lichess-elo report``: it checks its
settings, loads the games (``sources.load.load_games``: Lichess or a PGN file), replays them
through the replay cache and calls the pure ``core.report.build_report``, with Python's cyclic
garbage collector paused for the whole job.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from lichess_elo.core.report.build import build_report
from lichess_elo.core.report.model import PerfReport
from lichess_elo.core.report.settings import ReportSettings
from lichess_elo.sources.lichess.source import Progress, Source, resolve_cache_dir
from lichess_elo.sources.load import check_pgn_source, load_games
from lichess_elo.sources.replay_cache import replay_all


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


def _fetch_until(settings: ReportSettings) -> date | None:
    """The end of the fetch: ``until``, or open when ``since`` needs the public count.

    With ``since`` the games before it are counted as ``perfs.<perf>.games`` minus the
    games held, and that public count includes the games played after ``until``. So they
    must be held too (fetched, then left out of the report by ``settings.until``), or they
    would be counted as played before ``since``. A given ``games_before`` needs no count.
    """
    if settings.since is not None and settings.until is not None and settings.games_before is None:
        return None
    return settings.until


def run_report(
    username: str,
    source: Source,
    settings: ReportSettings,
    *,
    pgn_file: Path | None = None,
    today: date | None = None,
    progress: Progress | None = None,
    replay_progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> ReportRun:
    """Check the settings, load the games (Lichess or ``pgn_file``), replay, build the report.

    Args:
        username: The player.
        source: Where games come from (network, cache, cassette) and the cache folder.
        settings: The report options, ``since``/``until`` included; checked here first.
        pgn_file: Read the games from this Lichess PGN export instead of Lichess.
        today: The current day, for the birth-year check (default: today).
        progress: The fetch progress display.
        replay_progress: Called with (done, total) while games are replayed.
        on_warning: Called with one-line warnings (skipped games, retries).

    Raises:
        BadInput: a bad setting (before any work), name or file; the import's errors
            (``UserNotFound``, ``NotCached``, ``CassetteMissing``...) pass through.
    """
    settings.check((today or date.today()).year)
    if pgn_file is None:
        source.check()
    else:
        check_pgn_source(username, pgn_file, source)
    with paused_gc():
        loaded = load_games(
            username,
            source,
            pgn_file=pgn_file,
            since=settings.since,
            until=_fetch_until(settings),
            progress=progress,
            on_warning=on_warning,
        )
        games = list(loaded.games)
        facts = replay_all(
            games,
            cache_dir=resolve_cache_dir(source),
            progress=replay_progress,
            on_warning=on_warning,
        )
        reports = build_report(loaded.user, games, facts, settings=settings, user_info=loaded.info)
    return ReportRun(user=loaded.user, reports=tuple(reports), games_held=len(games))
