"""``lichess-elo report``: FIDE Elo next to Lichess, the main job."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from lichess_elo.app.report import ReportRun, paused_gc, run_report
from lichess_elo.cli.errors import fail, library_errors, warn
from lichess_elo.cli.options import (
    DEFAULT_URL,
    ApiUrlOpt,
    CacheDirOpt,
    ChartOpt,
    FormatOpt,
    OfflineOpt,
    OutputFormat,
    OutputOpt,
    PerfOpt,
    PgnOpt,
    QuietOpt,
    RefreshOpt,
    ReplayOpt,
    SinceOpt,
    TokenOpt,
    UntilOpt,
    UsernameArg,
    choose_format,
    make_source,
    parse_dates,
)
from lichess_elo.core.report.settings import ReportSettings
from lichess_elo.output.chart_report import write_chart
from lichess_elo.output.charts import check_chart_path
from lichess_elo.output.common import check_output_path, console, stream_output, write_output
from lichess_elo.output.progress import fetch_progress, replay_progress
from lichess_elo.output.report import print_report, report_text
from lichess_elo.output.report_write import write_report_csv, write_report_json


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


class View(StrEnum):
    """What the table and CSV show."""

    periods = "periods"
    games = "games"
    summary = "summary"


def report_command(
    username: UsernameArg,
    perf: PerfOpt = None,
    track: Annotated[
        Track,
        typer.Option(
            "--track",
            help="shadow: one Elo rating from the first Lichess rating on, moved only by FIDE "
            "rules; lichess: every period restarts from the Lichess rating, e.g. --track lichess.",
        ),
    ] = Track.shadow,
    period: Annotated[
        Period,
        typer.Option(
            "--period",
            help="Rating period on UTC dates: month (2023-01, like FIDE lists), week "
            "(2023-W05), day (2023-01-31) or game, e.g. --period week.",
        ),
    ] = Period.month,
    start_rating: Annotated[
        int | None,
        typer.Option(
            "--start-rating",
            metavar="N",
            help="Shadow track's first Elo rating, e.g. --start-rating 1800 "
            "(default: the Lichess rating before the first game).",
            show_default=False,
        ),
    ] = None,
    k: Annotated[
        int | None,
        typer.Option(
            "--k",
            metavar="N",
            help="A fixed K for every period, e.g. --k 20 (the 700 rule still applies). "
            "Default: FIDE's rules (40 new / junior, 20, 10 once 2400 is reached).",
            show_default=False,
        ),
    ] = None,
    games_before: Annotated[
        int | None,
        typer.Option(
            "--games-before",
            metavar="N",
            help="Rated games in the perf before the first game held, e.g. --games-before 500 "
            "(default: from the user's public game count when --since cuts history).",
            show_default=False,
        ),
    ] = None,
    born: Annotated[
        int | None,
        typer.Option(
            "--born",
            metavar="YEAR",
            help="Birth year for the junior rule (K 40 through the year you turn 18 while "
            "below 2300), e.g. --born 2008.",
            show_default=False,
        ),
    ] = None,
    formula: Annotated[
        bool,
        typer.Option(
            "--formula",
            help="Expected score from 1/(1+10^(-D/400)) instead of FIDE table 8.1.2, "
            "e.g. lichess-elo report OnBoard247 --formula",
        ),
    ] = False,
    no_cap: Annotated[
        bool,
        typer.Option(
            "--no-cap",
            help="Switch off the 400-point rule (real differences), "
            "e.g. lichess-elo report OnBoard247 --no-cap",
        ),
    ] = False,
    view: Annotated[
        View,
        typer.Option(
            "--view",
            help="Table content: periods, games or summary; CSV: periods or games (JSON has "
            "everything), e.g. --view games.",
        ),
    ] = View.periods,
    output_format: FormatOpt = "table",
    output: OutputOpt = None,
    chart: ChartOpt = None,
    pgn_file: PgnOpt = None,
    token: TokenOpt = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = DEFAULT_URL,
    cache_dir: CacheDirOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """What FIDE-style Elo would have made of a player's Lichess games, next to Glicko-2.

    Example: [bold]lichess-elo report OnBoard247 --replay cassettes/onboard247.yaml
    --chart onboard247.png[/bold]
    """
    with library_errors():
        fmt = choose_format(output_format)
        if fmt is OutputFormat.csv and view == View.summary:
            fail("--format csv takes --view periods or games")
        if chart is not None:
            check_chart_path(chart)
        if output is not None:
            check_output_path(output)
        source = make_source(api_url, token, cache_dir, offline, replay, refresh=refresh)
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
        )
        with (
            fetch_progress(quiet or pgn_file is not None) as progress,
            replay_progress(quiet) as replay_bar,
        ):
            run = run_report(
                username,
                source,
                settings,
                pgn_file=pgn_file,
                progress=progress,
                replay_progress=replay_bar,
                on_warning=warn,
            )
        with paused_gc():
            for report in run.reports:
                if report.message:
                    warn(report.message)
            _print(run, fmt, view, output)
            if chart is not None:
                write_chart(run.reports, chart, user=run.user)
                if fmt is OutputFormat.table and not quiet:
                    typer.echo(f"chart written to {chart}", err=True)


def _print(run: ReportRun, output_format: OutputFormat, view: View, output: Path | None) -> None:
    """Print the report (or write it to ``output``) in the chosen format and view.

    JSON and CSV are written row by row (``output.report_write``), never held whole.
    """
    if output_format == OutputFormat.json:
        stream_output(output, lambda out: write_report_json(out, run.user, run.reports))
    elif output_format == OutputFormat.csv:
        stream_output(output, lambda out: write_report_csv(out, run.reports, view.value))
    elif output is not None:
        write_output(output, report_text(run.reports, view.value))
    else:
        print_report(run.reports, view.value, console())


def register(app: typer.Typer) -> None:
    """Add ``report`` to ``app``."""
    app.command("report")(report_command)
