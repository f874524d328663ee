"""``lichess-elo fetch``: import a player's games into the cache."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from lichess_elo.app.fetch import FetchSettings, run_chesscom_fetch, run_fetch
from lichess_elo.cli.errors import library_errors, warn
from lichess_elo.cli.options import (
    DEFAULT_URL,
    ApiUrlOpt,
    CacheDirOpt,
    ChessComUrlOpt,
    OfflineOpt,
    OutputOpt,
    QuietOpt,
    RefreshOpt,
    ReplayOpt,
    SinceOpt,
    TokenFileOpt,
    TokenOpt,
    UntilOpt,
    UsernameArg,
    check_not_inputs,
    chesscom_source,
    format_option,
    make_source,
    parse_dates,
)
from lichess_elo.core.accounts import parse_account
from lichess_elo.core.games import CHESSCOM
from lichess_elo.output import registry as render
from lichess_elo.output.common import check_output_path
from lichess_elo.output.progress.bars import progress_bars
from lichess_elo.output.renderers import Fetched

if TYPE_CHECKING:
    from lichess_elo.app.fetch import SiteFetch
    from lichess_elo.sources.lichess.api import FetchResult


def fetch_command(
    username: UsernameArg,
    token: TokenOpt = None,
    token_file: TokenFileOpt = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = DEFAULT_URL,
    chesscom_url: ChessComUrlOpt = None,
    cache_dir: CacheDirOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    output_format: Annotated[str, format_option("fetch")] = "table",
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Fetch every game of USERNAME from Lichess, one request per month, into the cache.

    A Chess.com account is chess.com:NAME.

    Example: lichess-elo fetch OnBoard247 --replay cassettes/onboard247.yaml
    """
    with library_errors():
        account = parse_account(username)
        fmt = render.choose_format(output_format, "fetch")
        source = make_source(
            api_url, token, cache_dir, offline, replay, refresh=refresh, token_file=token_file
        )
        settings = FetchSettings(*parse_dates(since, until))
        if output is not None:
            check_output_path(output)
        check_not_inputs(output, None, source)
        result: FetchResult | SiteFetch
        if account.site == CHESSCOM:
            chesscom = chesscom_source(chesscom_url, cache_dir, offline, replay, refresh=refresh)
            with progress_bars(quiet) as (bar, _):
                result = run_chesscom_fetch(
                    account.name, chesscom.settings, settings, progress=bar, on_warning=warn
                )
        else:
            with progress_bars(quiet) as (bar, _):
                result = run_fetch(username, source, settings, progress=bar, on_warning=warn)
        shown = Fetched(result, replay=replay is not None)
        render.render("fetch", shown, fmt, target=render.Target.of(output))


def register(app: typer.Typer) -> None:
    """Add ``fetch`` to ``app``."""
    app.command("fetch")(fetch_command)
