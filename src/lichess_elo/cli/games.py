"""``lichess-elo games``: every game, replayed."""

from __future__ import annotations

from typing import Annotated

import typer

from lichess_elo.app.games import ListSettings, list_games
from lichess_elo.cli.errors import library_errors, warn
from lichess_elo.cli.options import (
    DEFAULT_URL,
    ApiUrlOpt,
    CacheDirOpt,
    ChessComUrlOpt,
    NoPagerOpt,
    OfflineOpt,
    OutputOpt,
    PerfOpt,
    PgnOpt,
    QuietOpt,
    RefreshOpt,
    ReplayOpt,
    SinceOpt,
    TokenFileOpt,
    TokenOpt,
    UntilOpt,
    UsernameArg,
    check_not_inputs,
    format_option,
    make_source,
    parse_dates,
    pgn_input,
    site_source,
)
from lichess_elo.cli.pager import paged
from lichess_elo.output import registry as render
from lichess_elo.output.common import check_output_path
from lichess_elo.output.progress.bars import progress_bars


def games_command(
    username: UsernameArg,
    perf: PerfOpt = None,
    rated: Annotated[
        bool | None,
        typer.Option(
            "--rated/--casual",
            help="Only rated or only casual games (default both), e.g. --rated.",
            show_default=False,
        ),
    ] = None,
    pgn_file: PgnOpt = None,
    output_format: Annotated[str, format_option("games")] = "table",
    output: OutputOpt = None,
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
    quiet: QuietOpt = False,
    no_pager: NoPagerOpt = False,
) -> None:
    """List a player's games with what the replay found: validity, material, how it ended.

    Example: lichess-elo games OnBoard247 --replay cassettes/onboard247.yaml --perf blitz
    """
    with library_errors():
        fmt = render.choose_format(output_format, "games")
        source = make_source(
            api_url, token, cache_dir, offline, replay, refresh=refresh, token_file=token_file
        )
        settings = ListSettings(tuple(perf or ()), rated, *parse_dates(since, until))
        if output is not None:
            check_output_path(output)
        check_not_inputs(output, None, source, pgn_input(pgn_file))
        name, games_from = site_source(username, pgn_file, chesscom_url, source)
        with progress_bars(quiet) as (bar, replay_bar):
            listed = list_games(
                name,
                source,
                settings,
                pgn_file=pgn_file,
                games_from=games_from,
                progress=bar,
                replay_progress=replay_bar,
                on_warning=warn,
            )
        target = render.Target.of(output)  # the terminal's width, before the pager holds it
        with paged(not no_pager and output is None):
            render.render("games", listed, fmt, target=target)


def register(app: typer.Typer) -> None:
    """Add ``games`` to ``app``."""
    app.command("games")(games_command)
