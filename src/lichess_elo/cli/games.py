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
    FormatOpt,
    OfflineOpt,
    OutputFormat,
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
from lichess_elo.output.common import console, dump_json
from lichess_elo.output.games import games_csv, games_document, print_games
from lichess_elo.output.progress import fetch_progress, replay_progress


def games_command(
    username: UsernameArg,
    perf: PerfOpt = None,
    rated: Annotated[
        bool | None,
        typer.Option(
            "--rated/--casual",
            help="Only rated or only casual games (default both).",
            show_default=False,
        ),
    ] = None,
    pgn_file: PgnOpt = None,
    output_format: FormatOpt = "table",
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
    """List a player's games with what the replay found: validity, material, how it ended.

    Example: lichess-elo games OnBoard247 --replay cassettes/onboard247.yaml --perf blitz
    """
    with library_errors():
        fmt = choose_format(output_format)
        source = make_source(api_url, token, cache_dir, offline, replay, refresh=refresh)
        settings = ListSettings(tuple(perf or ()), rated, *parse_dates(since, until))
        with (
            fetch_progress(quiet or pgn_file is not None) as bar,
            replay_progress(quiet) as replay_bar,
        ):
            listed = list_games(
                username,
                source,
                settings,
                pgn_file=pgn_file,
                progress=bar,
                replay_progress=replay_bar,
                on_warning=warn,
            )
    if fmt is OutputFormat.json:
        typer.echo(dump_json(games_document(listed.user, listed.rows)))
    elif fmt is OutputFormat.csv:
        typer.echo(games_csv(listed.rows), nl=False)
    else:
        print_games(listed.user, listed.rows, console())


def register(app: typer.Typer) -> None:
    """Add ``games`` to ``app``."""
    app.command("games")(games_command)
