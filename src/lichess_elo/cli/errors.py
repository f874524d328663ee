"""The one error path of the command line: library errors worded with option names.

Every command runs its library calls inside ``library_errors(names)``; ``main`` catches the
same errors outside a command (the option parser's own). A library error carries structured
fields (which input, which value, which bounds); ``OPTION_NAMES`` (plus a command's own
``names``) turns each logical input into the option that gave it, so ``k`` becomes ``--k``
and ``games_before`` becomes ``--games`` in ``calc`` but ``--games-before`` in ``report``.

Tokens never reach the terminal: every message goes through ``redact``. The run's state
(``--debug``, the tokens to hide) lives in a context variable, not in module globals.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import NoReturn

import typer

from lichess_elo.errors import (
    CannotConnect,
    DamagedAnswer,
    FetchFailed,
    LichessEloError,
    NoRenderer,
    NotCached,
    TooLarge,
)
from lichess_elo.sources.lichess.checks import MIN_SECRET_LENGTH, scrub

#: The option (or argument) that gives each logical input, for every command.
OPTION_NAMES: Mapping[str, str] = {
    "k": "--k",
    "games_before": "--games-before",
    "birth_year": "--born",
    "peak": "--peak",
    "rules": "--rules",
    "rules_as_of": "--rules-as-of",
    "fide_id": "--fide-id",
    "start_rating": "--start-rating",
    "track": "--track",
    "period": "--period",
    "method": "--formula",
    "cap": "--no-cap",
    "unrated": "--unrated",
    "since": "--since",
    "until": "--until",
    "perf": "--perf",
    "username": "USERNAME",
    "token": "--token",
    "token_file": "--token-file",
    "api_url": "--api-url",
    "cache_dir": "--cache-dir",
    "replay": "--replay",
    "pgn": "--pgn",
    "offline": "--offline",
    "refresh": "--refresh",
    "output": "--output",
    "chart": "--chart",
    "html": "--html",
    "format": "--format",
    "view": "--view",
    "player": "--player",
    "advantage": "--advantage",
    "bot": "--bot",
    "days_white": "--days-white",
    "days_black": "--days-black",
    "white": "WHITE",
    "black": "BLACK",
    "white_rating": "WHITE",
    "black_rating": "BLACK",
    "result": "RESULT",
    "config": "--config",
    "start": "--start",
    "provisional": "--provisional",
    "return_k": "--return-k",
    "count_time_control": "--count-time-control",
    "update": "--update",
    "rounding": "--rounding",
}


@dataclass
class RunState:
    """What one run knows: whether ``--debug`` is on and which tokens to hide."""

    debug: bool = False
    secrets: set[str] = field(default_factory=set)


_RUN: ContextVar[RunState] = ContextVar("lichess_elo_run")


def run_state() -> RunState:
    """This run's state (a fresh one the first time it is asked for)."""
    try:
        return _RUN.get()
    except LookupError:
        state = RunState()
        _RUN.set(state)
        return state


def remember_token(token: str | None) -> None:
    """Hide ``token`` in every later message (one of at least 8 characters; see ``scrub``)."""
    if token and token.strip() and len(token) >= MIN_SECRET_LENGTH:
        run_state().secrets.add(token)


def redact(text: str) -> str:
    """``text`` with every token of this run replaced by ``***``."""
    return scrub(text, run_state().secrets)


#: The colour of each kind of line on a terminal (SGR codes): errors red, warnings yellow.
_COLOURS = {"error": "1;31", "warning": "33"}


def colour_on_stderr() -> bool:
    """Whether stderr takes colour: a terminal, no ``NO_COLOR`` (https://no-color.org: any
    non-empty value) and no ``--no-color`` (which sets ``NO_COLOR``), and not ``TERM=dumb``."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def _terminal_columns() -> int | None:
    """The columns of the terminal stderr is, or ``None`` (a file or a pipe)."""
    try:
        if not sys.stderr.isatty():
            return None
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return None


def say(kind: str, message: str) -> None:
    """Print ``lichess-elo: KIND: MESSAGE`` on stderr (tokens redacted), the kind in its
    colour when stderr is a terminal that takes colour. An error is always one line; a
    note or a warning on a terminal is split between words to fit it (one line in a file
    or a pipe)."""
    text = f"lichess-elo: {kind}: {redact(message)}"
    columns = _terminal_columns() if kind != "error" else None
    if columns is not None:
        from lichess_elo.output.tables import wrap_words

        text = "\n".join(wrap_words(text, columns, "  "))
    code = _COLOURS.get(kind)
    if code is not None and colour_on_stderr():
        head = f"lichess-elo: {kind}:"
        text = f"lichess-elo: \x1b[{code}m{kind}:\x1b[0m" + text.removeprefix(head)
    typer.echo(text, err=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error on stderr (tokens redacted) and exit with ``code``."""
    say("error", message)
    raise typer.Exit(code)


def warn(message: str) -> None:
    """Print a one-line warning on stderr (tokens redacted)."""
    say("warning", message)


def note(message: str) -> None:
    """Print a one-line note on stderr (tokens redacted)."""
    say("note", message)


def fetch_command(exc: NotCached | DamagedAnswer) -> str:
    """The ``lichess-elo fetch`` command line that would fetch what ``exc`` misses."""
    hint = exc.hint
    assert hint is not None
    if hint.tournament:
        return f"lichess-elo club {hint.user} (online)"
    parts = ["lichess-elo fetch", hint.user]
    if hint.fide_id is not None:
        parts = ["lichess-elo report", hint.user, "--fide-id", str(hint.fide_id)]
    if hint.since is not None:
        until = hint.until.strftime("%Y-%m") if hint.until else ""
        parts += ["--since", hint.since.strftime("%Y-%m"), "--until", until]
    if hint.api_url is not None:  # a Chess.com account's server is --chesscom-url's
        chesscom = hint.user.startswith("chess.com:")
        parts += ["--chesscom-url" if chesscom else "--api-url", hint.api_url]
    if hint.cache_dir is not None:
        parts += ["--cache-dir", str(hint.cache_dir)]
    return " ".join(parts)


def message_for(exc: LichessEloError, names: Mapping[str, str] | None = None) -> str:
    """The one-line message for a library error, with inputs called by their options."""
    options = {**OPTION_NAMES, **(names or {})}
    if isinstance(exc, NotCached):
        if exc.elsewhere:  # the same user, cached from another server: read it from there
            (one,) = exc.elsewhere if len(exc.elsewhere) == 1 else ("URL",)
            servers = " and ".join(exc.elsewhere)
            found = f" (the cache holds it from {servers}: add --api-url {one} to read it offline)"
            return (
                f"{exc.what} is not in the cache{found}; or fetch it from this server with: "
                f"{fetch_command(exc)}"
            )
        return f"{exc.what} is not in the cache; fetch it with: {fetch_command(exc)}"
    if isinstance(exc, CannotConnect):
        hint = "; the cache holds this user: add --offline to work from it" if exc.cached else ""
        return f"{exc}{hint}"
    if isinstance(exc, DamagedAnswer) and exc.hint is not None:
        return f"{exc}; fetch it again online with: {fetch_command(exc)}"
    if isinstance(exc, FetchFailed) and exc.connection_error:
        return f"{exc}; use --offline to work from the cache"
    if isinstance(exc, NoRenderer):
        return no_renderer_message(exc)
    if isinstance(exc, TooLarge):
        return str(exc).replace(
            "rate it on Spark", "rate it with --engine spark (a cluster: --master URL)"
        )
    return exc.describe(options)


def _or(words: tuple[str, ...]) -> str:
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def no_renderer_message(exc: NoRenderer) -> str:
    """The one wording of a format and view without a renderer: what the view takes when
    it has no table (``--view predictions takes --format csv or json``), else what the
    format takes among the views that have one (``--format csv takes --view periods, ...``).
    """
    if exc.view and not exc.tabled and exc.view_formats:
        return f"--view {exc.view} takes --format {_or(exc.view_formats)}"
    if exc.format_views:
        return f"--format {exc.format} takes --view {_or(exc.format_views)}"
    return f"--format {exc.format} has no {exc.view or exc.subject} output"


def unexpected(exc: BaseException) -> str:
    """The one line for an exception nothing expected: its type and its message's first line."""
    lines = str(exc).strip().splitlines()
    return f"unexpected {type(exc).__name__}: {lines[0] if lines else '(no message)'}"


@contextmanager
def library_errors(names: Mapping[str, str] | None = None) -> Iterator[None]:
    """Turn an error raised inside the block into a one-line message and exit code.

    A library error gives its message (inputs named by ``OPTION_NAMES`` and ``names``) and
    its exit code (2 for what the user gave, 1 for what happened at run time); any other
    exception gives "unexpected <type>: <message>" and exit 1. With ``--debug`` the
    traceback is shown instead.
    """
    try:
        yield
    except LichessEloError as exc:
        if run_state().debug:
            raise
        fail(message_for(exc, names), exc.exit_code)
    except (typer.Exit, typer.Abort, KeyboardInterrupt, BrokenPipeError):
        raise  # a closed stdout (``| head``) is ended quietly by ``main``
    except Exception as exc:
        if run_state().debug:
            raise
        fail(unexpected(exc), 1)
