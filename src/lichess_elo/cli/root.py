"""The ``lichess-elo`` typer app: the global options, the commands and the entry point.

Each command lives in its own module (``calc``, ``glicko``, ``fetch``, ``games``, ``report``,
``club``, ``db``), which only declares options, calls one ``app/`` function, prints and leaves
errors to ``cli.errors``. No traceback reaches the user unless ``--debug`` is given.

A command's module is imported only when that command runs (or shows its own help), so
each command imports only what it uses: ``lichess-elo --help`` lists the commands from
``COMMANDS`` below, whose one-line summaries are the first paragraphs of the commands' own
help (a test holds them equal), and ``--version`` imports no command at all.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any, NoReturn

import click
import typer
import typer.core

from lichess_elo import __version__
from lichess_elo.cli.errors import (
    message_for,
    redact,
    remember_token,
    run_state,
    unexpected,
    warn,
)
from lichess_elo.cli.interrupts import Interrupted, interrupts_raise
from lichess_elo.errors import LichessEloError

#: The commands in the order ``--help`` lists them: name and the summary ``--help`` shows
#: (the first paragraph of the command's help). Each lives in ``lichess_elo.cli.<name>``.
COMMANDS: dict[str, str] = {
    "calc": (
        "FIDE Elo for one rating period: each game's expected score and change, the new rating."
    ),
    "glicko": (
        "What Lichess would do with one rated game (Glicko-2, tau 0.75, one game = one period)."
    ),
    "fetch": "Fetch every game of USERNAME from Lichess, one request per month, into the cache.",
    "games": (
        "List a player's games with what the replay found: validity, material, how it ended."
    ),
    "report": "What FIDE-style Elo would have made of a player's Lichess games, next to Glicko-2.",
    "club": "An internal Elo ladder for a chess club, from CSV, PGN or Lichess tournaments.",
    "db": (
        "All of Lichess under FIDE rules: ingest the open database's monthly dumps, build "
        "FIDE-rules monthly lists for every player (DuckDB, or Spark past one machine), "
        "and compare them with Lichess's Glicko-2."
    ),
}


def load_command(name: str) -> click.Command:
    """The click command ``name``, built from its module (imported now)."""
    module = importlib.import_module(f"lichess_elo.cli.{name}")
    if name == "db":
        typer_app: typer.Typer = module.db_app
    else:
        typer_app = typer.Typer(rich_markup_mode="rich", pretty_exceptions_enable=False)
        module.register(typer_app)
    typer_app._add_completion = False  # only the root has --install-completion
    return typer.main.get_command(typer_app)


class _LazyGroup(typer.core.TyperGroup):
    """The root group: a command's module is imported when that command is wanted.

    ``commands`` holds light stand-ins (the name and summary), so the root's help and the
    "No such command" suggestions need no command's module; ``get_command`` builds the real
    command, except while the root's own help is being written.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands.update({n: click.Command(n, help=h) for n, h in COMMANDS.items()})
        self._loaded: dict[str, click.Command] = {}
        self._listing = False

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The real command ``cmd_name`` (its stand-in while the root's help is written)."""
        if cmd_name not in COMMANDS or self._listing:
            return super().get_command(ctx, cmd_name)
        if cmd_name not in self._loaded:
            self._loaded[cmd_name] = load_command(cmd_name)
        return self._loaded[cmd_name]

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The root's help, listing the commands from their stand-ins."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


app = typer.Typer(
    cls=_LazyGroup,
    name="lichess-elo",
    help=(
        "What FIDE-style Elo would have made of your Lichess games, next to what "
        "Lichess's Glicko-2 did.\n\n"
        "Example: lichess-elo report OnBoard247 --replay cassettes/onboard247.yaml"
    ),
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (bash, zsh, fish...)
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


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
    run_state().debug = debug or os.environ.get("LICHESS_ELO_DEBUG") == "1"


def _take_debug(args: list[str]) -> list[str]:
    """Take ``--debug`` from anywhere on the command line (before ``--``).

    Debug is switched on through ``LICHESS_ELO_DEBUG``, which the root callback reads, so
    ``lichess-elo report X --debug`` works like ``lichess-elo --debug report X``.
    """
    end = args.index("--") if "--" in args else len(args)
    if "--debug" not in args[:end]:
        return args
    os.environ["LICHESS_ELO_DEBUG"] = "1"
    return [a for a in args[:end] if a != "--debug"] + args[end:]


def _tokens_in(args: list[str]) -> set[str]:
    """The tokens given on the command line (``--token X``, ``--token=X``) or in LICHESS_TOKEN,
    and the user name and password inside an ``--api-url`` (or LICHESS_API_URL)."""
    from lichess_elo.sources.lichess.checks import url_secrets

    found = {os.environ.get("LICHESS_TOKEN", "")}
    found.update(url_secrets(os.environ.get("LICHESS_API_URL", "")))
    for i, arg in enumerate(args):
        for option, add in (("--token", found.add), ("--api-url", _add_url(found))):
            if arg == option and i + 1 < len(args):
                add(args[i + 1])
            elif arg.startswith(f"{option}="):
                add(arg.removeprefix(f"{option}="))
    return {t for t in found if t.strip()}


def _add_url(found: set[str]) -> Callable[[str], None]:
    from lichess_elo.sources.lichess.checks import url_secrets

    return lambda url: found.update(url_secrets(url))


def _exit_now(code: int) -> NoReturn:
    """Exit without tearing the heap down, once the output is flushed.

    A report holds hundreds of thousands of small objects; freeing them one by one at exit
    took 0.7 s at 100,000 games. Only a command that returned comes here: it has closed
    its caches and files itself (context managers), and what it printed is flushed now. If
    the flush fails (a closed pipe), the ordinary exit reports it.
    """
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)


class _LibraryLog(logging.Handler):
    """The log records of the libraries (requests-cache, urllib3...), each as one
    ``lichess-elo: warning:`` line naming its logger (they were printed bare)."""

    def emit(self, record: logging.LogRecord) -> None:
        """Print ``record`` as one warning line (tokens redacted by ``warn``)."""
        try:
            lines = record.getMessage().strip().splitlines()
        except Exception:  # a record whose arguments do not format
            lines = [str(record.msg)]
        source = record.name.split(".")[0].replace("_", "-")
        warn(f"{source}: {lines[0] if lines else '(no message)'}")


def _route_library_logs() -> None:
    """Send the warnings the libraries log through ``_LibraryLog`` (once per process)."""
    root = logging.getLogger()
    if not any(isinstance(h, _LibraryLog) for h in root.handlers):
        root.addHandler(_LibraryLog(logging.WARNING))


def main() -> None:
    """Entry point: run the app and turn every error into a one-line message.

    Usage errors found by the option parser itself (a missing argument, an unknown option)
    are caught here too, so the shell sees one line and exit code 2, not a boxed panel.
    """
    _route_library_logs()
    command = typer.main.get_command(app)
    args = _take_debug(sys.argv[1:])
    tokens = _tokens_in(args)
    for token in tokens:
        remember_token(token)
    if tokens:
        from lichess_elo.sources.lichess.checks import forbid_core_dumps

        forbid_core_dumps()
    if not args or args == ["db"] or "--help" in args or "-h" in args:
        from lichess_elo.cli.rich_help import import_rich_utils

        import_rich_utils()  # the help renderer, without the parts of rich it never uses
    try:
        with interrupts_raise():
            code = command.main(args=args, prog_name="lichess-elo", standalone_mode=False)
        _exit_now(code if isinstance(code, int) else 0)
    except Interrupted:
        typer.echo("lichess-elo: interrupted", err=True)
        sys.exit(130)
    except LichessEloError as exc:
        if run_state().debug:
            raise
        typer.echo(f"lichess-elo: error: {redact(message_for(exc))}", err=True)
        sys.exit(exc.exit_code)
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("lichess-elo: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader of stdout went away (``| head``): nothing more to tell it, and no
        # message either. stdout is pointed at /dev/null so the exit's flush cannot fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as exc:
        # The parser's own errors (click's UsageError family, vendored by typer) carry an
        # exit code and a message; duck-typed so it works across typer versions.
        code = getattr(exc, "exit_code", None)
        if not isinstance(code, int) or not hasattr(exc, "format_message"):
            if run_state().debug:
                raise
            typer.echo(f"lichess-elo: error: {redact(unexpected(exc))}", err=True)
            sys.exit(1)
        message = str(exc.format_message())
        if type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(message)
            sys.exit(code)
        ctx = getattr(exc, "ctx", None)
        where = getattr(ctx, "command_path", "lichess-elo") if ctx is not None else "lichess-elo"
        first_line = message.strip().splitlines()[0] if message.strip() else type(exc).__name__
        typer.echo(f"lichess-elo: error: {redact(first_line)} (see '{where} --help')", err=True)
        sys.exit(code)
