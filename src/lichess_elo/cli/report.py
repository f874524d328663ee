"""``lichess-elo report``: FIDE Elo next to Lichess, the main job."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from datetime import date
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from lichess_elo.app.report import ReportRun, SitesRun, run_report, run_reports
from lichess_elo.app.report import SiteAccount as Account
from lichess_elo.cli.errors import fail, library_errors, note, warn
from lichess_elo.cli.gc_pause import paused_gc
from lichess_elo.cli.heap import return_freed_memory
from lichess_elo.cli.options import (
    DEFAULT_URL,
    OUTPUT,
    PEAK_HELP,
    RULES,
    ApiUrlOpt,
    CacheDirOpt,
    ChartOpt,
    ChessComUrlOpt,
    FideIdOpt,
    HtmlOpt,
    NoPagerOpt,
    OfflineOpt,
    OutputOpt,
    PerfOpt,
    PgnOpt,
    QuietOpt,
    RefreshOpt,
    ReplaysOpt,
    RulesAsOfOpt,
    RulesOpt,
    SinceOpt,
    SiteAccount,
    TokenFileOpt,
    TokenOpt,
    UntilOpt,
    UsernamesArg,
    check_not_inputs,
    check_targets,
    format_option,
    make_source,
    parse_dates,
    parse_rules,
    parse_rules_as_of,
    pgn_input,
    site_source,
)
from lichess_elo.cli.pager import paged
from lichess_elo.core.fide.adjustments import COMPRESSION_2024
from lichess_elo.core.fide.wording import day_text
from lichess_elo.core.games import CHESSCOM
from lichess_elo.core.report.settings import ReportSettings
from lichess_elo.output import registry as render
from lichess_elo.output.formats import CHART, HTML, JSON, TABLE, Format
from lichess_elo.output.formats import ReportView as View
from lichess_elo.sources.lichess.fide import check_fide_id
from lichess_elo.sources.lichess.session import LichessSettings

if TYPE_CHECKING:
    from lichess_elo.sources.base import Progress


class Track(StrEnum):
    """The Elo track's starting point."""

    shadow = "shadow"
    lichess = "lichess"


class Period(StrEnum):
    """Rating period length."""

    month = "month"
    week = "week"
    day = "day"
    game = "game"


def report_command(
    usernames: UsernamesArg,
    perf: PerfOpt = None,
    track: Annotated[
        Track,
        typer.Option(
            "--track",
            metavar="TRACK",
            help="shadow: one Elo rating moved only by FIDE rules; lichess: each period "
            "restarts from the Lichess rating, e.g. --track lichess.",
            rich_help_panel=RULES,
        ),
    ] = Track.shadow,
    period: Annotated[
        Period,
        typer.Option(
            "--period",
            metavar="PERIOD",
            help="Rating period on UTC dates: month, week, day or game, e.g. --period week.",
            rich_help_panel=RULES,
        ),
    ] = Period.month,
    start_rating: Annotated[
        int | None,
        typer.Option(
            "--start-rating",
            metavar="N",
            help="Shadow track's first rating (default: the Lichess rating before the first "
            "game), e.g. --start-rating 1800.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    k: Annotated[
        int | None,
        typer.Option(
            "--k",
            metavar="N",
            help="One K for every period (default: FIDE's 40, 20 or 10), e.g. --k 20.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    games_before: Annotated[
        int | None,
        typer.Option(
            "--games-before",
            metavar="N",
            help="Rated games in the perf before the first one held, e.g. --games-before 500. "
            "Without it, games before --since only count toward K's 30-game rule, read from "
            "up to 12 months (never the profile's public count).",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    born: Annotated[
        int | None,
        typer.Option(
            "--born",
            metavar="YEAR",
            help="Birth year, for the junior rule (K 40), e.g. --born 2008.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    peak: Annotated[
        int | None,
        typer.Option(
            "--peak",
            metavar="RATING",
            help=PEAK_HELP,
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    rules: RulesOpt = "auto",
    rules_as_of: RulesAsOfOpt = "game",
    fide_id: FideIdOpt = None,
    formula: Annotated[
        bool,
        typer.Option(
            "--formula",
            help="Expected score from 1/(1+10^(-D/400)), not table 8.1.2, e.g. --formula.",
            rich_help_panel=RULES,
        ),
    ] = False,
    no_adjustment: Annotated[
        bool,
        typer.Option(
            "--no-adjustment",
            help="Leave out FIDE's one-time adjustment of "
            f"{day_text(COMPRESSION_2024.day, long=True)}, e.g. --no-adjustment.",
            rich_help_panel=RULES,
        ),
    ] = False,
    no_cap: Annotated[
        bool,
        typer.Option(
            "--no-cap",
            help="Switch off the 400-point rule, e.g. --no-cap.",
            rich_help_panel=RULES,
        ),
    ] = False,
    view: Annotated[
        View,
        typer.Option(
            "--view",
            metavar="VIEW",
            help="periods, games, summary, accuracy (which rating predicted better) or "
            "predictions (CSV or JSON), e.g. --view accuracy.",
            rich_help_panel=OUTPUT,
        ),
    ] = View.periods,
    fit_k: Annotated[
        bool,
        typer.Option(
            "--fit-k",
            help="With --view accuracy or JSON: the K from 5 to 60 that predicted best, "
            "e.g. --fit-k.",
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    output_format: Annotated[str, format_option("report")] = "table",
    output: OutputOpt = None,
    chart: ChartOpt = None,
    html: HtmlOpt = None,
    pgn_file: PgnOpt = None,
    token: TokenOpt = None,
    token_file: TokenFileOpt = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    replay: ReplaysOpt = None,
    api_url: ApiUrlOpt = DEFAULT_URL,
    chesscom_url: ChessComUrlOpt = None,
    cache_dir: CacheDirOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    quiet: QuietOpt = False,
    no_pager: NoPagerOpt = False,
) -> None:
    """What FIDE-style Elo would have made of a player's Lichess games, next to Glicko-2.

    A Chess.com account is chess.com:NAME, next to Chess.com's published ratings; two
    accounts of one person (NAME chess.com:OTHER) are reported side by side, each site
    on its own games.

    Example: [bold]lichess-elo report OnBoard247 --replay cassettes/onboard247.yaml
    --chart onboard247.png[/bold]
    """
    with library_errors():
        fmt = render.choose_format(output_format, "report")
        render.check("report", fmt, view)
        if fit_k and view != View.accuracy and fmt != JSON:
            fail("--fit-k takes --view accuracy or --format json")
        check_targets(output, chart, html)
        make = partial(make_source, api_url, token, cache_dir, offline, refresh=refresh,
                       token_file=token_file)  # fmt: skip
        outputs = (output, chart, html)
        sites, sources = _accounts(usernames, replay, make, chesscom_url, pgn_file, view, outputs)
        first, stop = parse_dates(since, until)
        settings = ReportSettings(
            perfs=tuple(perf or ()),
            track=track.value,
            period=period.value,
            start_rating=start_rating,
            k=k,
            games_before=games_before,
            born=born,
            method="formula" if formula else "table",
            cap=not no_cap,
            since=first,
            until=stop,
            rules=parse_rules(rules),
            rules_as_of=parse_rules_as_of(rules_as_of, date.today()),
            peak=peak,
            adjustments=not no_adjustment,
        )
        if fide_id is not None:
            check_fide_id(fide_id)  # a malformed id is refused before any work
        scorecard = view in (View.accuracy, View.predictions) or fmt == JSON or html is not None
        # frozen after: the first collection would otherwise scan the whole report once
        # more on the way out (0.2 s at 300,000 games)
        with paused_gc(freeze=True):
            run = _run_any(sites, sources, settings, pgn_file, quiet, scorecard, fit_k, fide_id)
            _notes(run, since)
            with paged(not no_pager and output is None):
                render.render(_subject(run), run, fmt, view, target=render.Target.of(output))
            _also_write(run, fmt, view, chart, html, quiet)


def _subject(run: ReportRun | SitesRun) -> str:
    """The renderers' subject of ``run``: one account's report, or two accounts'."""
    return "report" if isinstance(run, ReportRun) else SITES_SUBJECT


def _run_any(
    sites: list[SiteAccount],
    sources: list[LichessSettings],
    settings: ReportSettings,
    pgn_file: Path | None,
    quiet: bool,
    scorecard: bool,
    fit_k: bool,
    fide_id: str | None,
) -> ReportRun | SitesRun:
    """One account's run (``_run``), or two accounts' (``_run_sites``)."""
    if len(sites) == 1:
        return _run(sites[0], sources[0], settings, pgn_file, quiet, scorecard, fit_k, fide_id)
    return _run_sites(sites, sources, settings, quiet, scorecard, fide_id)


#: The renderers' subject of a report of two accounts (``output.renderers``).
SITES_SUBJECT = "report-sites"


def _accounts(
    usernames: list[str],
    replay: list[Path] | None,
    make: Callable[[Path | None], LichessSettings],
    chesscom_url: str | None,
    pgn_file: Path | None,
    view: str,
    outputs: tuple[Path | None, Path | None, Path | None],
) -> tuple[list[SiteAccount], list[LichessSettings]]:
    """Each account read and its source made (``make``, with its cassette), checked before
    any work: the outputs name no input, and what two accounts cannot do is refused."""
    sources = [make(cassette) for cassette in _cassettes(usernames, replay)]
    output, chart, html = outputs
    for source in sources:
        check_not_inputs(output, chart, source, pgn_input(pgn_file), html=html)
    if len(usernames) > 1:
        _check_two(pgn_file, view)
    sites = [
        site_source(name, pgn_file, chesscom_url, source)
        for name, source in zip(usernames, sources, strict=True)
    ]
    return sites, sources


def _cassettes(usernames: list[str], replay: list[Path] | None) -> list[Path | None]:
    """Each account's cassette: none, the one ``--replay`` for every account, or one
    ``--replay`` per account in their order; one or two accounts."""
    if len(usernames) > 2:
        fail(
            f"{len(usernames)} accounts given: report takes one, or two of one person "
            "(one per site), e.g. OnBoard247 chess.com:NAME"
        )
    given = list(replay or ())
    if len(given) > 1 and len(given) != len(usernames):
        fail(
            f"--replay given {len(given)} times for {len(usernames)} account"
            f"{'s' if len(usernames) > 1 else ''}: once, or once per account in their order"
        )
    if not given:
        return [None] * len(usernames)
    chosen: list[Path | None] = [*given]
    return chosen if len(given) == len(usernames) else chosen[:1] * len(usernames)


def _check_two(pgn_file: Path | None, view: str) -> None:
    """What a report of two accounts cannot do, refused before any work."""
    if pgn_file is not None:
        fail("--pgn takes one account: the games of a second account come from its site")
    if view in (View.accuracy, View.predictions):
        fail(
            f"--view {view} takes one account: the scorecard models Lichess's Glicko-2 and "
            "Chess.com has none; run it for the Lichess account alone"
        )


def _run_sites(
    sites: list[SiteAccount],
    sources: list[LichessSettings],
    settings: ReportSettings,
    quiet: bool,
    scorecard: bool,
    fide_id: str | None,
) -> SitesRun:
    """``run_reports`` under the progress bars: each account with its own source (its
    cassette), warnings on stderr."""
    from lichess_elo.core.accounts import parse_account

    accounts = [
        Account(
            parse_account(name).site if games_from is None else CHESSCOM,
            name,
            source=source,
            games_from=games_from,
        )
        for (name, games_from), source in zip(sites, sources, strict=True)
    ]
    with _bars(quiet) as (progress, replay_bar):
        return run_reports(
            accounts,
            settings,
            progress=progress,
            replay_progress=replay_bar,
            on_warning=warn,
            scorecard=scorecard,
            fide_id=fide_id,
            on_release=return_freed_memory,
        )


def _run(
    site: SiteAccount,
    source: LichessSettings,
    settings: ReportSettings,
    pgn_file: Path | None,
    quiet: bool,
    scorecard: bool,
    fit_k: bool,
    fide_id: str | None,
) -> ReportRun:
    """``run_report`` under the progress bars (none when ``quiet``), warnings on stderr;
    the games of ``site`` (the name, and a Chess.com account's source where given)."""
    username, games_from = site
    with _bars(quiet) as (progress, replay_bar):
        return run_report(
            username,
            source,
            settings,
            pgn_file=pgn_file,
            progress=progress,
            replay_progress=replay_bar,
            on_warning=warn,
            scorecard=scorecard,
            fit_k=fit_k,
            fide_id=fide_id,
            games_from=games_from,
            on_release=return_freed_memory,  # the command trims the heap; the library never
        )


def _bars(
    quiet: bool,
) -> AbstractContextManager[tuple[Progress | None, Callable[[int, int], None] | None]]:
    """The progress bars; when ``quiet``, none (and rich's live display is not imported)."""
    if quiet:
        return nullcontext((None, None))
    from lichess_elo.output.progress.bars import progress_bars

    return progress_bars(quiet)


def _notes(run: ReportRun | SitesRun, since: str | None) -> None:
    """The perfs' own warnings, and the note on K's 30-game count when it ran short (each
    account's, for two)."""
    if isinstance(run, SitesRun):
        for one in run.runs:
            _notes(one.run, since)
        return
    for report in run.reports:
        if report.message:
            warn(report.message)
    if run.count_short and since is not None:
        note(_count_note(run, since))


def _also_write(
    run: ReportRun | SitesRun,
    fmt: Format,
    view: str,
    chart: Path | None,
    html: Path | None,
    quiet: bool,
) -> None:
    """Write the ``--chart`` and the ``--html`` page asked for, each through the renderer
    registry, saying so under a table (the line its entry has, if any)."""
    for kind, path in ((CHART, chart), (HTML, html)):
        if path is None:
            continue
        said = render.render(_subject(run), run, kind, view, target=render.Target(path))
        if said is not None and fmt == TABLE and not quiet:
            typer.echo(said, err=True)


def _count_note(run: ReportRun, since: str) -> str:
    """One line: K's 30-game count before ``since`` would need more months than were read."""
    perfs = " and ".join(run.count_short)
    return (
        f"K's 30-game rule counts the rated {perfs} games before {since}: the "
        f"{run.months_back} months read before it hold fewer than 30 and the account is "
        "older, so K treats them as the first; pass --games-before N with the real count"
    )


def register(app: typer.Typer) -> None:
    """Add ``report`` to ``app``."""
    app.command("report")(report_command)
