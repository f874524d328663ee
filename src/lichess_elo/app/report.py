"""``report``: load the games, replay them, build the report (an edge: it does I/O).

``run_report`` is the one library call behind the ``report`` command: it checks its
settings, loads the games (any ``sources.base.GameSource``: Lichess, a PGN file, a dump),
replays them through the replay cache and calls the pure ``core.report.build_report``.
``run_reports`` runs it once per account of one person on two sites (``report NAME
chess.com:OTHER``) and keeps the runs side by side (``SitesRun``): nothing of one site's
run enters the other's.

The run owns its cache folder (``cache_dir``) and the lookup of a FIDE record
(``fide_lookup``): with games from a PGN file or any other ``GameSource`` it needs no
Lichess settings. It changes nothing process-wide: the command line pauses the cyclic
garbage collector around it (``cli.gc_pause.paused_gc``) and gives the freed heap back to
the system where the run lets go of memory (``on_release``); a library caller may do the
same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from lichess_elo.app.accuracy import score_reports
from lichess_elo.core import arguments as args
from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.fide_record import FidePlayer
from lichess_elo.core.frames import data_frame
from lichess_elo.core.games import LICHESS, SITE_NAMES, SITES, Game
from lichess_elo.core.report.build import build_report
from lichess_elo.core.report.model import PerfReport
from lichess_elo.core.report.predictions import PerfAccuracy
from lichess_elo.core.report.settings import ReportSettings
from lichess_elo.core.report.tables import TABLES, Table, columns_of, table_records
from lichess_elo.errors import BadInput, WrongType
from lichess_elo.sources.base import GameSource, Progress
from lichess_elo.sources.cache.replay import ReplayRun
from lichess_elo.sources.lichess.fide import check_fide_id, fetch_fide_player
from lichess_elo.sources.lichess.session import LichessSettings
from lichess_elo.sources.lichess.users import fetch_hint
from lichess_elo.sources.load import choose_source, load_from, run_cache_dir


@keywords_checked
@dataclass(frozen=True)
class ReportRun:
    """The outcome of ``run_report``: the user's display name, one report per perf and, when
    asked, each perf's scorecard by perf (``core.report.predictions.PerfAccuracy``)."""

    user: str
    reports: tuple[PerfReport, ...]
    games_held: int
    accuracy: Mapping[str, PerfAccuracy] = field(default_factory=dict)
    #: Months fetched before ``since`` for K's 30-game count, and the perfs whose count
    #: stayed short there (a lower bound: the caller says so).
    months_back: int = 0
    count_short: tuple[str, ...] = ()

    def to_dict(self, table: Table = "periods") -> list[dict[str, Any]]:
        """The rows of one table of the run, one plain dict a row (``core.report.tables``):
        ``periods`` (one a rating period), ``games`` (one a counted game) or
        ``predictions`` (one a scored game with every contender's expected score, when the
        run was asked for the scorecard). Every row names its perf and its site.

        Raises:
            UnknownChoice: ``table`` is not one of ``games``, ``periods``, ``predictions``.
        """
        args.choice("table", table, TABLES)
        return list(table_records(table, self.reports, self.accuracy))

    def to_frame(self, table: Table = "periods") -> Any:
        """``to_dict(table)`` as a ``pandas.DataFrame``, its columns in the table's order
        (``core.report.tables``) even with no row. pandas is imported here, not by the
        package.

        Raises:
            UnknownChoice: ``table`` is not one of ``games``, ``periods``, ``predictions``.
            PackageMissing: pandas is not installed.
        """
        return data_frame(self.to_dict(table), columns_of(table))


#: From this many games on, a report lets each game's moves go once they are replayed:
#: copying the games costs about 1 µs each, the moves are about half of their memory
#: (benchmarks/bench_memory.py: 300,000 games).
SLIM_FROM = 50_000


#: How a run finds a FIDE player's record by id (``run_report``'s ``fide_lookup``).
FideLookup = Callable[[int], FidePlayer]


def _check_arguments(
    username: object, source: object, settings: object, pgn_file: object, today: object
) -> None:
    """The types of ``run_report``'s arguments (``WrongType``), before any work."""
    args.text("username", username)
    if source is not None:
        args.instance("source", source, LichessSettings, "a LichessSettings or None")
    args.instance("settings", settings, ReportSettings, "a ReportSettings")
    if pgn_file is not None:
        args.instance("pgn_file", pgn_file, Path, "a pathlib.Path")
    if today is not None and (not isinstance(today, date) or isinstance(today, datetime)):
        raise WrongType("today", today, "a date (datetime.date)")


def _lichess_fide(
    user: str, source: LichessSettings | None, on_warning: Callable[[str], None] | None
) -> FideLookup:
    """The default ``fide_lookup``: Lichess's FIDE API through ``source`` (the defaults
    when ``None``), the fetch named for ``user``."""
    lichess = LichessSettings() if source is None else source

    def lookup(fide_id: int) -> FidePlayer:
        hint = fetch_hint(user, lichess)
        return fetch_fide_player(fide_id, lichess, hint=hint, on_warning=on_warning)

    return lookup


@keywords_checked
def run_report(
    username: str,
    source: LichessSettings | None = None,
    settings: ReportSettings | None = None,
    *,
    pgn_file: Path | None = None,
    today: date | None = None,
    progress: Progress | None = None,
    replay_progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
    scorecard: bool = False,
    fit_k: bool = False,
    fide_id: int | str | None = None,
    games_from: GameSource | None = None,
    cache_dir: Path | None = None,
    fide_lookup: FideLookup | None = None,
    on_release: Callable[[], None] | None = None,
) -> ReportRun:
    """Check the settings, load the games (Lichess or ``pgn_file``), replay, build the report.

    Args:
        username: The player.
        source: The Lichess settings (server, token, cache, cassette, offline): how the
            games are fetched when they come from Lichess (``None``: the defaults) and the
            FIDE record without ``fide_lookup``. Not needed with ``pgn_file`` or
            ``games_from``.
        settings: The report options, ``since``/``until`` included; checked here first
            (``None``: the defaults).
        pgn_file: Read the games from this Lichess PGN export instead of Lichess (a
            ``Path`` or a ``str``).
        today: The current day, for the birth-year check (default: today).
        progress: The fetch progress display.
        replay_progress: Called with (done, total) while games are replayed.
        on_warning: Called with one-line warnings (skipped games, retries).
        scorecard: Also score how well each rating predicted the games (``accuracy``).
        fit_k: With ``scorecard``, also scan K for the FIDE-rules track.
        fide_id: The player's FIDE id: their real record is looked up (``fide_lookup``)
            and shown beside the track (its birth year and peak feed the K rules unless
            ``settings`` gives them). Without it, the profile's ``fideId`` where the
            public data carries one.
        games_from: Any other ``GameSource`` (a dump, a second site): the games come from
            it.
        cache_dir: The run's cache folder (the replays); default ``source.cache_dir``,
            else ``LICHESS_ELO_CACHE_DIR``, else the user's cache folder.
        fide_lookup: Finds a FIDE record by id; default: Lichess's FIDE API through
            ``source`` (the default settings when ``None``), only when a record is wanted.
        on_release: Called where the run has let go of much memory (its games' moves, its
            games): the command line gives the freed heap back to the system there
            (``cli.heap.return_freed_memory``); a library call leaves the process alone.

    Raises:
        WrongType: an argument or setting of the wrong type (before any work).
        BadInput: a bad setting (before any work), name, file or FIDE id; the import's
            errors (``UserNotFound``, ``FidePlayerNotFound``, ``NotCached``,
            ``CassetteMissing``...) pass through.
    """
    if isinstance(pgn_file, str):  # a path as typed is taken too
        pgn_file = Path(pgn_file)
    if settings is None:
        settings = ReportSettings()
    _check_arguments(username, source, settings, pgn_file, today)
    settings.check((today or date.today()).year)
    wanted_fide = None if fide_id is None else check_fide_id(fide_id)
    chosen = choose_source(username, source, pgn_file, games_from)
    start = settings.start
    replays = ReplayRun(run_cache_dir(cache_dir, source), on_warning=on_warning, final_fen=False)
    with replays:  # the pool and the cache are let go once the facts are back

        def replay_early(month: list[Game]) -> list[Game]:
            """Hand the pool each month's reported games while the next are fetched; those
            whose replays are cached come back without their moves, to be held so."""
            return replays.feed([g for g in month if start is None or g.created_at >= start])

        # Only the months asked, plus the months before ``since`` that K's 30-game rule
        # needs (none when ``games_before`` is given); nothing after ``until``.
        loaded = load_from(
            chosen,
            username,
            since=settings.since,
            until=settings.until,
            progress=progress,
            on_warning=on_warning,
            count_back=settings.perfs if settings.games_before is None else None,
            on_games=replay_early,
        )
        user, info = loaded.user, loaded.info
        months_back, count_short = loaded.months_back, loaded.count_short
        games = list(loaded.games)
        del loaded  # its tuple of games is not held twice
        # only the games reported: those before ``since`` only count; the report shows no FEN
        facts = replays.finish(
            [g for g in games if start is None or g.created_at >= start], replay_progress
        )
    if len(games) >= SLIM_FROM:  # the report needs no moves once they are replayed
        games = [g.without_moves() for g in games]
        if on_release is not None:
            on_release()
    if wanted_fide is None and info is not None:
        wanted_fide = info.fide_id
    fide_player = None
    if wanted_fide is not None:
        if fide_lookup is None:
            fide_lookup = _lichess_fide(user, source, on_warning)
        fide_player = fide_lookup(wanted_fide)
    reports = build_report(
        user,
        games,
        facts,
        settings=settings,
        user_info=info,
        fide_player=fide_player,
        provisional_known=chosen.provisional_known,  # a PGN never writes the flag
    )
    held = len(games)
    if not fit_k:
        # The rows hold all the scorecard needs (only the K scan builds the report
        # again): the games and the replay facts go before its arrays are made, so the
        # JSON report's peak is the report, not the report plus the scorecard.
        del games, facts
        games = []
        if on_release is not None:
            on_release()
    # The scorecard's contenders are Lichess's (its Glicko-2 with Lichess's constants and
    # colour advantage): another site's games get none, rather than a Lichess model shown
    # under the site's name (Chess.com publishes no constants to model it by).
    scorecard = scorecard and all(r.site == LICHESS for r in reports)
    cards = (
        score_reports(
            user,
            games,
            settings,
            info,
            reports,
            fit=fit_k,
            provisional_known=chosen.provisional_known,
        )
        if scorecard
        else {}
    )
    return ReportRun(
        user,
        tuple(reports),
        held,
        cards,
        months_back=months_back,
        count_short=count_short,
    )


@dataclass(frozen=True)
class SiteAccount:
    """One account of a two-site report: its site (``core.games.SITES``), the name, and
    where its games come from: ``source`` (a Lichess account's settings, its cassette
    included) or ``games_from`` (another site's ``GameSource``)."""

    site: str
    username: str
    source: LichessSettings | None = None
    games_from: GameSource | None = None


@dataclass(frozen=True)
class SiteRun:
    """One account's run in a ``SitesRun``: its site and its own ``ReportRun``."""

    site: str
    run: ReportRun


@dataclass(frozen=True)
class SitesRun:
    """The outcome of ``run_reports``: one run per account, each site once, in the order
    the accounts were given. Each run is the account's one-site report, unchanged: no
    number in it comes from another site's games."""

    runs: tuple[SiteRun, ...]


def run_reports(
    accounts: Sequence[SiteAccount],
    settings: ReportSettings | None = None,
    *,
    run: Callable[..., ReportRun] | None = None,
    **options: Any,
) -> SitesRun:
    """``run_report`` once per account (the same ``settings`` and ``options`` for each),
    the runs kept side by side.

    Args:
        accounts: The accounts of one person, at most one per site.
        settings: The report options, the same for every account.
        run: The function run per account (default ``run_report``; the command line's
            wraps it in its progress display).
        **options: ``run_report``'s other keyword arguments (``scorecard``, ``fide_id``,
            ``on_warning``...), the same for every account; no ``pgn_file``.

    Raises:
        BadInput: no account, or two of one site (before any work).
        WrongType: an account that is not a ``SiteAccount``.
        The errors of ``run_report``, for the first account that raises one.
    """
    seen: list[str] = []
    for account in accounts:
        args.instance("accounts", account, SiteAccount, "a sequence of SiteAccount")
        if account.site not in SITES:
            raise BadInput(f"unknown site '{account.site}': {', '.join(SITES)}")
        if account.site in seen:
            name = SITE_NAMES.get(account.site, account.site)
            raise BadInput(f"two {name} accounts: a report takes one account per site")
        seen.append(account.site)
    if not seen:
        raise BadInput("no account to report on")
    call = run_report if run is None else run
    runs = tuple(
        SiteRun(
            a.site,
            call(a.username, a.source, settings, games_from=a.games_from, **options),
        )
        for a in accounts
    )
    return SitesRun(runs)
