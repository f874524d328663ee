"""The ``lichess-elo`` command line (typer).

This module only parses options, calls one library function and prints. Library errors
(``errors.py``) become a one-line message on stderr and an exit code: 2 for bad input,
1 for runtime failures. No traceback reaches the user unless ``--debug`` is given.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from lichess_elo import __version__
from lichess_elo.errors import LichessEloError

app = typer.Typer(
    name="lichess-elo",
    help=(
        "What FIDE-style Elo would have made of your Lichess games, next to what "
        "Lichess's Glicko-2 did.\n\n"
        "Example: lichess-elo report OnBoard247 --replay cassettes/onboard247.yaml"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

_state = {"debug": False}


class OutputFormat(StrEnum):
    """Output formats shared by the commands."""

    table = "table"
    json = "json"
    csv = "csv"


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error on stderr and exit with ``code``."""
    typer.echo(f"lichess-elo: error: {message}", err=True)
    raise typer.Exit(code)


def warn(message: str) -> None:
    """Print a one-line warning on stderr."""
    typer.echo(f"lichess-elo: warning: {message}", err=True)


@contextmanager
def library_errors() -> Iterator[None]:
    """Turn a library error raised inside the block into a one-line message and exit code.

    Every command wraps its library call in this, so ``CliRunner`` tests see the same
    exit codes as a real shell.
    """
    try:
        yield
    except LichessEloError as exc:
        if _state["debug"]:
            raise
        fail(str(exc), exc.exit_code)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"lichess-elo {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback when something fails.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version_callback, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Global options."""
    _state["debug"] = debug or os.environ.get("LICHESS_ELO_DEBUG") == "1"


# --- shared source options (fetch, games, report) -------------------------------------

UsernameArg = Annotated[str, typer.Argument(help="Lichess username, e.g. OnBoard247.")]
TokenOpt = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="LICHESS_TOKEN",
        help="Lichess API token (or LICHESS_TOKEN). Sent as a Bearer header, never stored.",
        show_default=False,
    ),
]
OfflineOpt = Annotated[
    bool,
    typer.Option(
        "--offline",
        envvar="LICHESS_ELO_OFFLINE",
        help="Send nothing over the network; serve everything from the cache.",
    ),
]
RefreshOpt = Annotated[
    bool, typer.Option("--refresh", help="Ignore the cache and fetch every month again.")
]
ReplayOpt = Annotated[
    Path | None,
    typer.Option(
        "--replay",
        help="Serve every HTTP request from this vcrpy cassette, e.g. cassettes/onboard247.yaml.",
        show_default=False,
    ),
]
ApiUrlOpt = Annotated[
    str,
    typer.Option(
        "--api-url",
        envvar="LICHESS_API_URL",
        help="Lichess server, e.g. http://localhost:9663 for a self-hosted lila.",
    ),
]
CacheDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        envvar="LICHESS_ELO_CACHE_DIR",
        help="Where the HTTP and replay caches live (default: the user cache directory).",
        show_default=False,
    ),
]
SinceOpt = Annotated[
    str | None,
    typer.Option("--since", help="First month or day, YYYY-MM or YYYY-MM-DD.", show_default=False),
]
UntilOpt = Annotated[
    str | None,
    typer.Option(
        "--until", help="Stop before this month or day, YYYY-MM or YYYY-MM-DD.", show_default=False
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


# --- calc (rating core) ----------------------------------------------------------------


# --- glicko (rating core) --------------------------------------------------------------


# --- fetch (import) --------------------------------------------------------------------


# --- games (replay) --------------------------------------------------------------------


# --- report ------------------------------------------------------------------------------


# --- club --------------------------------------------------------------------------------


def main() -> None:
    """Entry point: run the app and turn library errors into one-line messages."""
    try:
        app()
    except LichessEloError as exc:
        if _state["debug"]:
            raise
        typer.echo(f"lichess-elo: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        typer.echo("lichess-elo: interrupted", err=True)
        sys.exit(130)
