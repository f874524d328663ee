"""``lichess-elo fetch``: import a player's games into the cache."""

from __future__ import annotations

import typer

from lichess_elo.app.fetch import FetchSettings, run_fetch
from lichess_elo.cli.errors import library_errors, warn
from lichess_elo.cli.options import (
    DEFAULT_URL,
    SUMMARY_FORMATS,
    ApiUrlOpt,
    CacheDirOpt,
    OfflineOpt,
    OutputFormat,
    QuietOpt,
    RefreshOpt,
    ReplayOpt,
    SinceOpt,
    SummaryFormatOpt,
    TokenOpt,
    UntilOpt,
    UsernameArg,
    choose_format,
    make_source,
    parse_dates,
)
from lichess_elo.output.common import dump_json
from lichess_elo.output.fetch import fetch_document, print_fetch_summary
from lichess_elo.output.progress import fetch_progress


def fetch_command(
    username: UsernameArg,
    token: TokenOpt = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = DEFAULT_URL,
    cache_dir: CacheDirOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    output_format: SummaryFormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Fetch every game of USERNAME from Lichess, one request per month, into the cache.

    Example: lichess-elo fetch OnBoard247 --replay cassettes/onboard247.yaml
    """
    with library_errors():
        fmt = choose_format(output_format, SUMMARY_FORMATS)
        source = make_source(api_url, token, cache_dir, offline, replay, refresh=refresh)
        settings = FetchSettings(*parse_dates(since, until))
        with fetch_progress(quiet) as bar:
            result = run_fetch(username, source, settings, progress=bar, on_warning=warn)
    if fmt is OutputFormat.json:
        typer.echo(dump_json(fetch_document(result)))
    else:
        print_fetch_summary(result, replay=replay is not None)


def register(app: typer.Typer) -> None:
    """Add ``fetch`` to ``app``."""
    app.command("fetch")(fetch_command)
