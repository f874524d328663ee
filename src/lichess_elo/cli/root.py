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
import os
import sys
from typing import Annotated, Any, NoReturn

import click
import typer
import typer.core

from lichess_elo._version import __version__
from lichess_elo.cli.gc_pause import paused_gc
from lichess_elo.cli.interrupts import Interrupted, interrupts_raise

# ``cli.errors`` (and with it ``lichess_elo.errors``) is imported where it is used: a
# command, a token on the line or a failure; ``--help`` and ``--version`` need none of it.

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
    with paused_gc(freeze=True):  # the command's imports (``paused_gc``)
        # the libraries' warnings as one line each, from the first command that runs (the
        # root's help and --version log nothing, and go without ``logging``'s import)
        from lichess_elo.cli.library_log import route_library_logs

        route_library_logs()
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
            "--version",
            "-V",
            callback=_version_callback,
            is_eager=True,
            help="Print the version.",
        ),
    ] = False,
    no_color: Annotated[
        bool,
        typer.Option(
            "--no-color",
            help="No colour on errors and warnings (also NO_COLOR=1; colour is only ever "
            "used on a terminal).",
        ),
    ] = False,
) -> None:
    """Global options."""
    from lichess_elo.cli.errors import run_state

    run_state().debug = debug or os.environ.get("LICHESS_ELO_DEBUG") == "1"


def _take_debug(args: list[str]) -> list[str]:
    """Take ``--debug`` and ``--no-color`` from anywhere on the command line (before ``--``).

    Debug is switched on through ``LICHESS_ELO_DEBUG``, which the root callback reads, so
    ``lichess-elo report X --debug`` works like ``lichess-elo --debug report X``;
    ``--no-color`` sets ``NO_COLOR``, which this tool and rich both honour, so it holds for
    the parser's own errors too.
    """
    end = args.index("--") if "--" in args else len(args)
    taken = {"--debug": ("LICHESS_ELO_DEBUG", "1"), "--no-color": ("NO_COLOR", "1")}
    found = [a for a in args[:end] if a in taken]
    if not found:
        return args
    for option in found:
        name, value = taken[option]
        os.environ[name] = value
    return [a for a in args[:end] if a not in taken] + args[end:]


def _tokens_in(args: list[str]) -> set[str]:
    """The tokens given on the command line (``--token X``, ``--token=X``) or in LICHESS_TOKEN,
    and the user name and password inside an ``--api-url`` (or LICHESS_API_URL)."""
    given: dict[str, list[str]] = {
        "--token": [os.environ.get("LICHESS_TOKEN", "")],
        "--api-url": [os.environ.get("LICHESS_API_URL", "")],
    }
    for i, arg in enumerate(args):
        for option, values in given.items():
            if arg == option and i + 1 < len(args):
                values.append(args[i + 1])
            elif arg.startswith(f"{option}="):
                values.append(arg.removeprefix(f"{option}="))
    found, urls = set(given["--token"]), given["--api-url"]
    if any(u.strip() for u in urls):  # the URL checks (and the errors they raise) only then
        from lichess_elo.sources.lichess.checks import url_secrets

        for url in urls:
            found.update(url_secrets(url))
    return {t for t in found if t.strip()}


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


def _help_keeps_words() -> None:
    """Make ``--help`` keep option names and metavars whole at any width.

    typer's help tables let rich shrink every column with an ellipsis, so at 80 columns
    ``--count-time-control`` became ``--count-time-cont…``. Here every column but the help
    text keeps its content on one line (rich never shrinks a ``no_wrap`` column below it),
    and the help text wraps between words, folding only a word wider than its column (a
    long URL) rather than cutting it. Called only when help is shown, so a command's start
    is not slowed by rich.
    """
    from rich.columns import Columns
    from rich.table import Table
    from rich.text import Text
    from typer import rich_utils

    if getattr(getattr(rich_utils, "Table"), "keeps_words", False):  # noqa: B009
        return

    class WholeWordsTable(Table):
        keeps_words = True

        def add_row(self, *renderables: Any, **kwargs: Any) -> None:
            for cell in renderables:  # the help text: its parts fold, never "…"
                parts = cell.renderables if isinstance(cell, Columns) else [cell]
                for part in parts:
                    if isinstance(part, Text):
                        part.overflow = "fold"
            super().add_row(*renderables, **kwargs)
            for i, column in enumerate(self.columns):
                column.overflow = "fold"
                column.no_wrap = i < len(self.columns) - 1

    setattr(rich_utils, "Table", WholeWordsTable)  # noqa: B010 (not exported by typer)


def _wants_help(args: list[str]) -> bool:
    """Whether this run prints help: ``-h``/``--help`` before ``--``, no arguments, or a
    group (``db``) without its command."""
    end = args.index("--") if "--" in args else len(args)
    return not args or args == ["db"] or any(a in ("-h", "--help") for a in args[:end])


def _one_suggestion(message: str) -> str:
    """``message`` with a repeated "Did you mean ...?" said once: click (8.4+, its
    ``NoSuchCommand``) and typer's group (``suggest_commands``) each add the same one."""
    import re

    return re.sub(r"( Did you mean [^?]*\?)(?:\1)+", r"\1", message)


def main() -> None:
    """Entry point: run the app and turn every error into a one-line message.

    Usage errors found by the option parser itself (a missing argument, an unknown option)
    are caught here too, so the shell sees one line and exit code 2, not a boxed panel.
    """
    command = typer.main.get_command(app)
    args = _prepared(sys.argv[1:])
    try:
        with interrupts_raise():
            code = command.main(args=args, prog_name="lichess-elo", standalone_mode=False)
        _exit_now(code if isinstance(code, int) else 0)
    except Interrupted:
        typer.echo("lichess-elo: interrupted", err=True)
        sys.exit(130)
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("lichess-elo: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader of stdout went away (``| head``): nothing more to tell it, and no
        # message either. stdout is pointed at /dev/null so the exit's flush cannot fail,
        # and the process ends as cat, seq or git do there: by SIGPIPE (status 141 in the
        # shell), not with an error code of its own that would read as a failure of the run.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        _die_of_sigpipe()
    except SystemExit:
        # click answers a broken pipe itself (exit 1, stdout wrapped so that its flush is
        # quiet): that is the reader gone too, not a failure of the run.
        from click.utils import PacifyFlushWrapper

        if isinstance(sys.stdout, PacifyFlushWrapper):
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the standard output descriptor
            _die_of_sigpipe()
        raise
    except Exception as exc:
        from lichess_elo.cli.errors import message_for, run_state, say
        from lichess_elo.errors import LichessEloError

        if isinstance(exc, LichessEloError):
            if run_state().debug:
                raise
            say("error", message_for(exc))
            sys.exit(exc.exit_code)
        if run_state().debug and not _is_usage_error(exc):
            raise
        _exit_for(exc)


def _die_of_sigpipe() -> None:
    """End the process by SIGPIPE, the default action Python turns off at start-up."""
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
    sys.exit(128 + signal.SIGPIPE)  # not reached where SIGPIPE kills; a fallback elsewhere


def _prepared(args: list[str]) -> list[str]:
    """The command line with ``--debug``/``--no-color`` taken out (``_take_debug``); the
    help renderer set up when help is wanted; every token on it remembered (hidden in
    every message) and core dumps forbidden when there is one."""
    args = _take_debug(args)
    if _wants_help(args):
        from lichess_elo.cli.rich_help import import_rich_utils

        import_rich_utils()  # the help renderer, without the parts of rich it never uses
        _help_keeps_words()  # then its tables keep option names whole
    tokens = _tokens_in(args)
    if tokens:
        from lichess_elo.cli.errors import remember_token

        for token in tokens:
            remember_token(token)
        from lichess_elo.sources.lichess.checks import forbid_core_dumps

        forbid_core_dumps()
    return args


def _is_usage_error(exc: Exception) -> bool:
    """Whether ``exc`` is one of the parser's own errors (click's UsageError family,
    vendored by typer): an exit code and a message; duck-typed across typer versions."""
    return isinstance(getattr(exc, "exit_code", None), int) and hasattr(exc, "format_message")


def _exit_for(exc: Exception) -> NoReturn:
    """Exit with one line for ``exc``: a parser error's first line (and its exit code), or
    "unexpected ..." (exit 1) for anything else."""
    from lichess_elo.cli.errors import say, unexpected

    if not _is_usage_error(exc):
        say("error", unexpected(exc))
        sys.exit(1)
    code: int = getattr(exc, "exit_code")  # noqa: B009
    message = str(getattr(exc, "format_message")())  # noqa: B009
    if type(exc).__name__ == "NoArgsIsHelpError":
        typer.echo(message)
        sys.exit(code)
    ctx = getattr(exc, "ctx", None)
    where = getattr(ctx, "command_path", "lichess-elo") if ctx is not None else "lichess-elo"
    first_line = message.strip().splitlines()[0] if message.strip() else type(exc).__name__
    say("error", f"{_one_suggestion(first_line)} (see '{where} --help')")
    sys.exit(code)
