"""``lichess-elo report``: FIDE Elo next to Lichess, the main job."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from lichess_elo.app.report import ReportRun, run_report
from lichess_elo.cli.errors import fail, library_errors, note, warn
from lichess_elo.cli.options import (
    DEFAULT_URL,
    OUTPUT,
    PEAK_HELP,
    RULES,
    ApiUrlOpt,
    CacheDirOpt,
    ChartOpt,
    FideIdOpt,
    FormatOpt,
    HtmlOpt,
    NoPagerOpt,
    OfflineOpt,
    OutputFormat,
    OutputOpt,
    PerfOpt,
    PgnOpt,
    QuietOpt,
    RefreshOpt,
    ReplayOpt,
    RulesAsOfOpt,
    RulesOpt,
    SinceOpt,
    TokenFileOpt,
    TokenOpt,
    UntilOpt,
    UsernameArg,
    check_not_inputs,
    choose_format,
    make_source,
    parse_dates,
    parse_rules,
    parse_rules_as_of,
)
from lichess_elo.cli.pager import paged
from lichess_elo.core.report.settings import ReportSettings
from lichess_elo.output.accuracy import accuracy_csv, accuracy_text
from lichess_elo.output.chart_accuracy import write_accuracy_chart
from lichess_elo.output.chart_report import write_chart
from lichess_elo.output.charts import check_chart_path
from lichess_elo.output.common import check_output_path, dump_json, stream_output, write_output
from lichess_elo.output.html_report import write_report_html
from lichess_elo.output.predictions import predictions_document, write_predictions_csv
from lichess_elo.output.progress import progress_bars
from lichess_elo.output.report import write_report_csv, write_report_json
from lichess_elo.output.report_text import report_lines
from lichess_elo.output.tables import stdout_width
from lichess_elo.output.writer import check_target
from lichess_elo.sources.lichess.fide import check_fide_id


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block, then restore it.

    A report builds hundreds of thousands of small acyclic objects (games, rows, JSON
    dicts); each automatic collection rescans everything alive, which cost about a quarter
    of a warm 20,000-game report (benchmarks/bench_report.py). Nothing there makes cycles,
    so reference counting frees it all the same. The command pauses it around the whole
    job (``run_report`` and the output); the library itself leaves the collector alone.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
    accuracy = "accuracy"
    predictions = "predictions"


def report_command(
    username: UsernameArg,
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
            help="Leave out FIDE's one-time adjustment of 1 March 2024, e.g. --no-adjustment.",
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
    output_format: FormatOpt = "table",
    output: OutputOpt = None,
    chart: ChartOpt = None,
    html: HtmlOpt = None,
    pgn_file: PgnOpt = None,
    token: TokenOpt = None,
    token_file: TokenFileOpt = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = DEFAULT_URL,
    cache_dir: CacheDirOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    quiet: QuietOpt = False,
    no_pager: NoPagerOpt = False,
) -> None:
    """What FIDE-style Elo would have made of a player's Lichess games, next to Glicko-2.

    Example: [bold]lichess-elo report OnBoard247 --replay cassettes/onboard247.yaml
    --chart onboard247.png[/bold]
    """
    with library_errors():
        fmt = choose_format(output_format)
        if fmt is OutputFormat.csv and view == View.summary:
            fail("--format csv takes --view periods, games or accuracy")
        if view == View.predictions and fmt is OutputFormat.table:
            fail("--view predictions takes --format csv or json")
        if fit_k and view != View.accuracy and fmt is not OutputFormat.json:
            fail("--fit-k takes --view accuracy or --format json")
        if chart is not None:
            check_chart_path(chart)
        if output is not None:
            check_output_path(output)
        if html is not None:
            check_target(html, "html")
        source = make_source(
            api_url, token, cache_dir, offline, replay, refresh=refresh, token_file=token_file
        )
        pgn = {pgn_file: "the --pgn input"} if pgn_file is not None else None
        check_not_inputs(output, chart, source, pgn, html=html)
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
        with paused_gc():
            with progress_bars(quiet) as (progress, replay_bar):
                run = run_report(
                    username,
                    source,
                    settings,
                    pgn_file=pgn_file,
                    progress=progress,
                    replay_progress=replay_bar,
                    on_warning=warn,
                    scorecard=view in (View.accuracy, View.predictions)
                    or fmt is OutputFormat.json
                    or html is not None,
                    fit_k=fit_k,
                    fide_id=fide_id,
                )
            for report in run.reports:
                if report.message:
                    warn(report.message)
            if run.count_short and since is not None:
                note(_count_note(run, since))
            with paged(not no_pager and output is None):
                _print(run, fmt, view, output)
            if chart is not None and view == View.accuracy:
                write_accuracy_chart(run.reports, run.accuracy, chart, run.user)
            elif chart is not None:
                write_chart(run.reports, chart, user=run.user)
                if fmt is OutputFormat.table and not quiet:
                    typer.echo(f"chart written to {chart}", err=True)
            if html is not None:
                stream_output(
                    html, lambda out: write_report_html(out, run.user, run.reports, run.accuracy)
                )
                if fmt is OutputFormat.table and not quiet:
                    typer.echo(f"page written to {html}", err=True)


def _count_note(run: ReportRun, since: str) -> str:
    """One line: K's 30-game count before ``since`` would need more months than were read."""
    perfs = " and ".join(run.count_short)
    return (
        f"K's 30-game rule counts the rated {perfs} games before {since}: the "
        f"{run.months_back} months read before it hold fewer than 30 and the account is "
        "older, so K treats them as the first; pass --games-before N with the real count"
    )


def _print(run: ReportRun, output_format: OutputFormat, view: View, output: Path | None) -> None:
    """Print the report (or write it to ``output``) in the chosen format and view.

    JSON and the games and periods CSV are written row by row, never held whole.
    """
    if view == View.predictions:
        if output_format == OutputFormat.csv:
            stream_output(output, lambda out: write_predictions_csv(out, run.reports, run.accuracy))
        else:
            document = predictions_document(run.user, run.reports, run.accuracy)
            write_output(output, dump_json(document) + "\n")
        return
    if output_format == OutputFormat.json:
        stream_output(
            output, lambda out: write_report_json(out, run.user, run.reports, run.accuracy)
        )
        return
    if output_format == OutputFormat.csv and view == View.accuracy:
        text = accuracy_csv(run.reports, run.accuracy)
    elif output_format == OutputFormat.csv:
        stream_output(output, lambda out: write_report_csv(out, run.reports, view.value))
        return
    elif view == View.accuracy:
        width = stdout_width() if output is None else None
        text = accuracy_text(run.reports, run.accuracy, run.user, width)
    else:
        width = stdout_width() if output is None else None
        text = "\n".join(report_lines(run.reports, view.value, width)) + "\n"
    write_output(output, text)


def register(app: typer.Typer) -> None:
    """Add ``report`` to ``app``."""
    app.command("report")(report_command)
