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
from typing import TYPE_CHECKING, Annotated, NoReturn, TextIO

import typer

from lichess_elo import __version__
from lichess_elo.errors import LichessEloError

if TYPE_CHECKING:
    from lichess_elo.sources.lichess import api as lichess
    from lichess_elo.app.report import ReportRun

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
#: Tokens of this run, never printed: every message goes through ``redact``.
_secrets: set[str] = set()


def redact(text: str) -> str:
    """``text`` with every token of this run replaced by ``***`` (``lichess_input.scrub``)."""
    from lichess_elo.sources.lichess.checks import scrub

    return scrub(text, _secrets)


def _remember_token(token: str | None) -> None:
    """Add ``token`` to ``_secrets`` (one of at least 8 characters; see ``scrub``)."""
    from lichess_elo.sources.lichess.checks import MIN_SECRET_LENGTH

    if token and token.strip() and len(token) >= MIN_SECRET_LENGTH:
        _secrets.add(token)


def _unexpected(exc: Exception) -> str:
    """The one line for an exception nothing expected: its type and its message's first line.

    Tokens are redacted by the caller (``fail`` or ``main``).
    """
    lines = str(exc).strip().splitlines()
    return f"unexpected {type(exc).__name__}: {lines[0] if lines else '(no message)'}"


class OutputFormat(StrEnum):
    """Output formats shared by the commands."""

    table = "table"
    json = "json"
    csv = "csv"


class FetchFormat(StrEnum):
    """The formats of ``fetch`` (a summary: no csv)."""

    table = "table"
    json = "json"


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error on stderr (tokens redacted) and exit with ``code``."""
    typer.echo(f"lichess-elo: error: {redact(message)}", err=True)
    raise typer.Exit(code)


def warn(message: str) -> None:
    """Print a one-line warning on stderr (tokens redacted)."""
    typer.echo(f"lichess-elo: warning: {redact(message)}", err=True)


@contextmanager
def library_errors() -> Iterator[None]:
    """Turn an error raised inside the block into a one-line message and exit code.

    A library error gives its own message and exit code; any other exception gives
    "unexpected <type>: <message>" and exit 1 (a traceback only with ``--debug``). Tokens
    are redacted by ``fail``. Every command wraps its library calls in this, so
    ``CliRunner`` tests (which bypass ``main``) see the same lines and exit codes as a
    real shell; ``main`` handles the same way what fails outside a command.
    """
    try:
        yield
    except LichessEloError as exc:
        if _state["debug"]:
            raise
        fail(str(exc), exc.exit_code)
    except (typer.Exit, typer.Abort):
        raise
    except Exception as exc:
        if _state["debug"]:
            raise
        fail(_unexpected(exc), 1)


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
        help=(
            "Lichess API token, e.g. lip_abc123; or set LICHESS_TOKEN. "
            "Sent as a Bearer header, never stored."
        ),
        show_default=False,
    ),
]
OfflineOpt = Annotated[
    bool,
    typer.Option(
        "--offline",
        envvar="LICHESS_ELO_OFFLINE",
        help="Send nothing over the network; serve everything from the cache, "
        "e.g. --offline to rerun without a connection after one online run.",
    ),
]
RefreshOpt = Annotated[
    bool,
    typer.Option(
        "--refresh",
        help="Ignore the cache and fetch every month again, e.g. --refresh when a cached "
        "month looks wrong.",
    ),
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
        help=(
            "Where the HTTP and replay caches live, e.g. ~/.cache/lichess-elo "
            "(default: the user cache directory)."
        ),
        show_default=False,
    ),
]
SinceOpt = Annotated[
    str | None,
    typer.Option(
        "--since",
        help="First month or day, YYYY-MM or YYYY-MM-DD, e.g. 2023-01 or 2023-01-25.",
        show_default=False,
    ),
]
UntilOpt = Annotated[
    str | None,
    typer.Option(
        "--until",
        help="Stop before this month or day, YYYY-MM or YYYY-MM-DD, e.g. 2023-01 or 2023-01-25.",
        show_default=False,
    ),
]
QuietOpt = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress bar, e.g. -q in a script.")
]


def _source(
    api_url: str,
    token: str | None,
    cache_dir: Path | None,
    offline: bool,
    replay: Path | None,
    *,
    refresh: bool = False,
) -> lichess.Source:
    """The ``lichess.Source`` the shared source options describe (an empty token is none)."""
    from lichess_elo.sources.lichess import api as lichess

    _remember_token(token)
    return lichess.Source(
        api_url=api_url,
        token=token or None,
        cache_dir=cache_dir,
        offline=offline,
        refresh=refresh,
        replay=replay,
    )


# --- calc (rating core) ----------------------------------------------------------------

_CALC_ARGS_HELP = (
    "RATING (0..4000), then one OPP:SCORE per game, e.g. 1400:1 1600:0.5 1550:0. "
    "A score is 1, 0.5, ½, 1/2, 0, w, d or l. With --unrated there is no RATING."
)


def _calc_int(text: str | None, name: str) -> int | None:
    """Parse a whole number for ``name`` (``None`` stays ``None``) or fail with one line.

    Only the parsing: ``fide.calculate`` checks the ranges and the combinations.
    """
    if text is None:
        return None
    try:
        return int(text.strip())
    except ValueError:
        fail(f"{name} {text!r} is not a whole number")


@app.command("calc", context_settings={"ignore_unknown_options": True})
def calc(
    args: Annotated[
        list[str] | None,
        typer.Argument(metavar="RATING OPP:SCORE...", help=_CALC_ARGS_HELP, show_default=False),
    ] = None,
    k: Annotated[
        str | None,
        typer.Option(
            "--k",
            metavar="N",
            help="The player's K instead of working it out from --games/--born, e.g. --k 20. "
            "The 700 rule still applies. A player once rated 2400+ has K 10: pass --k 10.",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            metavar="N",
            help="Rated games played before this period; fewer than 30 gives K 40, "
            "e.g. --games 12. Default without --k: 30 (an established player), and the output "
            "says so.",
            show_default=False,
        ),
    ] = None,
    born: Annotated[
        str | None,
        typer.Option(
            "--born",
            metavar="YEAR",
            help="Year of birth: K 40 through the year of the 18th birthday while the "
            "rating is below 2300 (the current year is used), e.g. --born 2010.",
            show_default=False,
        ),
    ] = None,
    formula: Annotated[
        bool,
        typer.Option(
            "--formula",
            help="Expected score from the logistic 1/(1+10^(-D/400)) instead of FIDE table "
            "8.1.2, e.g. lichess-elo calc 1500 1000:1 --formula",
        ),
    ] = False,
    no_cap: Annotated[
        bool,
        typer.Option(
            "--no-cap",
            help="Use the real rating difference: switch off the 400-point rule "
            "(which FIDE applies to players below 2650), e.g. lichess-elo calc 1500 1000:1 "
            "--no-cap",
        ),
    ] = False,
    unrated: Annotated[
        bool,
        typer.Option(
            "--unrated",
            help="No RATING: compute an initial rating (FIDE 8.2) from at least 5 games, "
            "e.g. lichess-elo calc --unrated 1902:0.5 1877:0.5 1884:1 2012:0 1832:1",
        ),
    ] = False,
    output: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="table|json",
            help="Output format: table or json, e.g. --format json.",
        ),
    ] = "table",
) -> None:
    """FIDE Elo for one rating period: each game's expected score and change, the new rating.

    Example: [bold]lichess-elo calc 1500 1400:1 1600:0.5 1550:0 --k 20[/bold]
    prints +7.2, +2.8, -8.6, total +1.4 and the new rating 1501.

    Without --k, K follows FIDE 8.3.3 from the rating, --games and --born. The period
    change is rounded once, 0.5 away from zero. A difference marked * was capped at 400.
    """
    from datetime import date

    from lichess_elo.core import fide
    from lichess_elo.output import common as render

    fmt = output.strip().lower()
    if fmt not in ("table", "json"):
        fail(f"--format {output!r} is not table or json")
    items = list(args or [])
    for item in items:
        if item.startswith("-") and not item[1:2].isdigit():
            fail(f"no such option: {item}")
    this_year = date.today().year
    rating: int | None = None
    if not unrated:
        if not items:
            fail("missing argument RATING, e.g. lichess-elo calc 1500 1400:1 1600:0.5")
        if ":" in items[0]:
            fail(f"missing argument RATING before {items[0]!r} (or add --unrated)")
        rating = _calc_int(items[0], "RATING")
        items = items[1:]
    with library_errors():
        if rating is not None:
            fide.check_rating(rating, "RATING")  # reported before a bad game
        result = fide.calculate(
            rating,
            [fide.parse_game(item) for item in items],
            k=_calc_int(k, "--k"),
            games_before=_calc_int(games, "--games"),
            birth_year=_calc_int(born, "--born"),
            year=this_year,
            method="formula" if formula else "table",
            cap=not no_cap,
            unrated=unrated,
        )
    typer.echo(render.calc_output(result, fmt))


# --- glicko (rating core) --------------------------------------------------------------


@app.command("glicko")
def glicko_command(
    white: Annotated[
        str,
        typer.Argument(
            help="White before the game: RATING/RD\\[/VOLATILITY], e.g. 1500/60 or 1500/60/0.06 "
            "(volatility defaults to 0.09).",
            show_default=False,
        ),
    ],
    black: Annotated[
        str,
        typer.Argument(
            help="Black before the game, same form, e.g. 1600/80.",
            show_default=False,
        ),
    ],
    result: Annotated[
        str,
        typer.Argument(help="1-0, 0-1 or 1/2-1/2 (½-½ works too).", show_default=False),
    ],
    perf: Annotated[
        str | None,
        typer.Option(
            "--perf",
            help="Lichess perf whose rating regulator applies (gains x1.005 in blitz, x1.015 in "
            "bullet/rapid/classical, ...), e.g. --perf blitz. Without it no regulator is applied.",
            show_default=False,
        ),
    ] = None,
    advantage: Annotated[
        str,
        typer.Option(
            "--advantage",
            help="Colour advantage: standard (11.782457 points, standard chess), crazyhouse "
            "(20.30966) or none (other variants, and games before late November 2025), "
            "e.g. --advantage none.",
        ),
    ] = "standard",
    days_white: Annotated[
        str,
        typer.Option(
            "--days-white",
            metavar="DAYS",
            help="Days since White's previous rated game in this perf; RD grows with them "
            "(0: no growth), e.g. --days-white 2.",
        ),
    ] = "0",
    days_black: Annotated[
        str,
        typer.Option(
            "--days-black",
            metavar="DAYS",
            help="Days since Black's previous rated game in this perf, e.g. --days-black 30.5.",
        ),
    ] = "0",
    bot: Annotated[
        str | None,
        typer.Option(
            "--bot",
            metavar="white|black",
            help="The side played by a BOT account; the human's change is halved, "
            "e.g. --bot black.",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        str,
        typer.Option(
            "--format", metavar="table|json", help="Output: table or json, e.g. --format json."
        ),
    ] = "table",
) -> None:
    """What Lichess would do with one rated game (Glicko-2, tau 0.75, one game = one period).

    Prints each side's rating, RD and volatility before and after the game, and the ratingDiff
    Lichess shows: trunc(new rating) - trunc(old rating). The ±700 limit, RD bounds 45..500,
    volatility cap 0.1 and rating floor 400 apply as on Lichess.

    Example: lichess-elo glicko 1500/60 1600/80 1-0 --perf blitz --days-black 30
    """
    from lichess_elo.core import glicko
    from lichess_elo.output import common as render

    if output not in ("table", "json"):
        fail(f"--format: expected table or json, got {output!r}")
    if advantage not in glicko.ADVANTAGE:
        fail(f"--advantage: expected standard, crazyhouse or none, got {advantage!r}")
    if bot not in (None, "white", "black"):
        fail(f"--bot: expected white or black, got {bot!r}")
    days = {"--days-white": days_white, "--days-black": days_black}
    parsed_days: dict[str, float] = {}
    for option, text in days.items():
        try:
            parsed_days[option] = float(text)
        except ValueError:
            fail(f"{option}: expected a number of days, got {text!r}")
        if not 0 <= parsed_days[option] < float("inf"):
            fail(f"{option}: days must be 0 or more, got {text!r}")
    with library_errors():
        white_before = glicko.parse_player(white, "WHITE")
        black_before = glicko.parse_player(black, "BLACK")
        score = glicko.parse_result(result)
        white_side, black_side = glicko.lichess_game(
            white_before,
            black_before,
            score,
            perf=perf,
            advantage=glicko.ADVANTAGE[advantage],
            days_white=parsed_days["--days-white"],
            days_black=parsed_days["--days-black"],
            bot="white" if bot == "white" else "black" if bot == "black" else None,
        )
    if output == "json":
        typer.echo(render.dump_json(render.glicko_json(white_side, black_side)))
        return
    heading = render.glicko_heading(
        result.strip(),
        perf=perf,
        factor=glicko.regulator_factor(perf),
        advantage=advantage,
        points=glicko.ADVANTAGE[advantage],
        bot=bot,
    )
    typer.echo(render.glicko_text(white_side, black_side, heading=heading))


# --- fetch (import) --------------------------------------------------------------------


@app.command("fetch")
def fetch_command(
    username: UsernameArg,
    token: TokenOpt = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = "https://lichess.org",
    cache_dir: CacheDirOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    output: Annotated[FetchFormat, typer.Option("--format", help="table or json.")] = (
        FetchFormat.table
    ),
    quiet: QuietOpt = False,
) -> None:
    """Fetch every game of USERNAME from Lichess, one request per month, into the cache.

    Example: lichess-elo fetch OnBoard247 --replay cassettes/onboard247.yaml
    """
    from lichess_elo.sources.lichess import api as lichess
    from lichess_elo.output import common as render
    from lichess_elo.sources.lichess.checks import parse_date_range

    with library_errors():
        first, stop = parse_date_range(since, until)
        source = _source(api_url, token, cache_dir, offline, replay, refresh=refresh)
        with render.fetch_progress(quiet) as bar:
            result = lichess.fetch_games(  # counts the games, keeps none
                username,
                source,
                since=first,
                until=stop,
                progress=bar,
                on_warning=warn,
                keep_games=False,
            )
    if output is FetchFormat.json:
        typer.echo(render.dump_json(render.fetch_document(result)))
    else:
        render.print_fetch_summary(result, replay=replay is not None)


# --- games (replay) --------------------------------------------------------------------


@app.command("games")
def games_command(
    username: UsernameArg,
    perf: Annotated[
        list[str] | None,
        typer.Option(
            "--perf",
            metavar="PERF",
            help="Only this perf (repeatable), e.g. --perf blitz --perf rapid.",
            show_default=False,
        ),
    ] = None,
    rated: Annotated[
        bool | None,
        typer.Option(
            "--rated/--casual",
            help="Only rated or only casual games (default both).",
            show_default=False,
        ),
    ] = None,
    pgn_file: Annotated[
        Path | None,
        typer.Option(
            "--pgn",
            metavar="FILE",
            help=(
                "Read the games from this Lichess PGN export instead of Lichess, "
                "e.g. lichess_me.pgn."
            ),
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        OutputFormat, typer.Option("--format", help="table, csv or json.")
    ] = OutputFormat.table,
    token: TokenOpt = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = "https://lichess.org",
    cache_dir: CacheDirOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """List a player's games with what the replay found: validity, material, how it ended.

    Example: lichess-elo games OnBoard247 --replay cassettes/onboard247.yaml --perf blitz
    """
    from lichess_elo.app import games as listing
    from lichess_elo.output import common as render
    from lichess_elo.sources.lichess.checks import parse_date_range

    with library_errors():
        source = _source(api_url, token, cache_dir, offline, replay, refresh=refresh)
        first, stop = parse_date_range(since, until)
        with (
            render.fetch_progress(quiet or pgn_file is not None) as bar,
            render.replay_progress(quiet) as replay_bar,
        ):
            listed = listing.list_games(
                username,
                source,
                pgn_file=pgn_file,
                perfs=perf or (),
                rated=rated,
                since=first,
                until=stop,
                progress=bar,
                replay_progress=replay_bar,
                on_warning=warn,
            )
    if output is OutputFormat.json:
        typer.echo(render.dump_json(render.games_document(listed.user, listed.rows)))
    elif output is OutputFormat.csv:
        typer.echo(render.games_csv(listed.rows), nl=False)
    else:
        render.print_games(listed.user, listed.rows, render.console())


# --- report ------------------------------------------------------------------------------


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


@app.command("report")
def report_command(
    username: UsernameArg,
    perf: Annotated[
        list[str] | None,
        typer.Option(
            "--perf",
            metavar="PERF",
            help="Perf to report, repeatable, or 'all', e.g. --perf blitz --perf rapid. "
            "Default: the perf with the most rated games.",
            show_default=False,
        ),
    ] = None,
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
    output_format: Annotated[
        OutputFormat,
        typer.Option("--format", help="table (rich), csv or json, e.g. --format json."),
    ] = OutputFormat.table,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            metavar="FILE",
            help="Write the output to this file instead of the terminal, e.g. --output r.json.",
            show_default=False,
        ),
    ] = None,
    chart: Annotated[
        Path | None,
        typer.Option(
            "--chart",
            metavar="FILE",
            help="Also draw both ratings over time to a .png or .svg, e.g. --chart me.png.",
            show_default=False,
        ),
    ] = None,
    pgn_file: Annotated[
        Path | None,
        typer.Option(
            "--pgn",
            metavar="FILE",
            help="Read the games from a Lichess PGN export instead of Lichess, "
            "e.g. --pgn my_games.pgn.",
            show_default=False,
        ),
    ] = None,
    token: TokenOpt = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = "https://lichess.org",
    cache_dir: CacheDirOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """What FIDE-style Elo would have made of a player's Lichess games, next to Glicko-2.

    Example: [bold]lichess-elo report OnBoard247 --replay cassettes/onboard247.yaml
    --chart onboard247.png[/bold]
    """
    from lichess_elo.output import chart_report as chart_mod
    from lichess_elo.output import common as render
    from lichess_elo.sources.lichess.checks import parse_date_range
    from lichess_elo.core.report.build import ReportSettings, check_settings
    from lichess_elo.app.report import paused_gc, run_report

    if output_format == OutputFormat.csv and view == View.summary:
        fail("--format csv takes --view periods or games")
    with library_errors():
        if chart is not None:
            chart_mod.check_chart_path(chart)
        if output is not None:
            render.check_output_path(output)
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
        )
        check_settings(settings)
        source = _source(api_url, token, cache_dir, offline, replay, refresh=refresh)
        since_day, until_day = parse_date_range(since, until)
        with paused_gc():
            with (
                render.fetch_progress(quiet or pgn_file is not None) as progress,
                render.replay_progress(quiet) as replay_progress,
            ):
                run = run_report(
                    username,
                    source,
                    settings,
                    pgn_file=pgn_file,
                    since=since_day,
                    until=until_day,
                    progress=progress,
                    replay_progress=replay_progress,
                    on_warning=warn,
                )
            for report in run.reports:
                if report.message:
                    warn(report.message)
            _report_output(run, output_format, view, output)
            if chart is not None:
                chart_mod.write_chart(run.reports, chart, user=run.user)
                if output_format == OutputFormat.table and not quiet:
                    typer.echo(f"chart written to {chart}", err=True)


def _report_output(
    run: ReportRun, output_format: OutputFormat, view: View, output: Path | None
) -> None:
    """Print the report (or write it to ``output``) in the chosen format and view.

    JSON and CSV are written row by row (``output.report_write``), never held whole.
    """
    from lichess_elo.output import common as render
    from lichess_elo.output import report as render_report
    from lichess_elo.output import report_write

    def write(out: TextIO) -> None:
        if output_format == OutputFormat.json:
            report_write.write_report_json(out, run.user, run.reports)
        elif output_format == OutputFormat.csv:
            report_write.write_report_csv(out, run.reports, view.value)
        else:
            out.write(render_report.report_text(run.reports, view.value))

    if output is not None:
        try:
            with render.atomic_writer(output) as handle:
                write(handle)
        except OSError as exc:
            fail(f"--output {output}: {exc.strerror or exc}", 1)
    elif output_format in (OutputFormat.json, OutputFormat.csv):
        write(sys.stdout)
    else:
        render_report.print_report(run.reports, view.value, render.console())


# --- club --------------------------------------------------------------------------------


class ClubUpdate(StrEnum):
    """When club ratings change."""

    event = "event"
    month = "month"
    game = "game"


class ClubMethodOpt(StrEnum):
    """How the club computes expected scores."""

    formula = "formula"
    fide_table = "fide-table"


class ClubRounding(StrEnum):
    """When club ratings are rounded."""

    display = "display"
    update = "update"


@app.command("club")
def club_command(
    inputs: Annotated[
        list[str],
        typer.Argument(
            help="Players/games CSV files, PGN files and Lichess arena or swiss tournaments "
            "(id or URL), in any mix, e.g. players.csv games.csv https://lichess.org/swiss/ID.",
            show_default=False,
        ),
    ],
    config: Annotated[
        Path | None,
        typer.Option("--config", help="The club's rules, e.g. club.toml.", show_default=False),
    ] = None,
    k: Annotated[
        list[str] | None,
        typer.Option(
            "--k",
            help="K: 20 (default), or per group/player: --k children=40. Repeatable.",
            show_default=False,
        ),
    ] = None,
    start: Annotated[
        list[str] | None,
        typer.Option(
            "--start",
            help="Newcomers' rating: 1000, fide (FIDE initial rating after 5 games), or per "
            "group/player: --start beginner=800. Repeatable.",
            show_default=False,
        ),
    ] = None,
    update: Annotated[
        ClubUpdate | None,
        typer.Option(
            "--update",
            help="event (ratings frozen per event, default), month or game.",
            show_default=False,
        ),
    ] = None,
    method: Annotated[
        ClubMethodOpt | None,
        typer.Option(
            "--method",
            help="formula 1/(1+10^(-D/400)) (default) or fide-table (table 8.1.2).",
            show_default=False,
        ),
    ] = None,
    rounding: Annotated[
        ClubRounding | None,
        typer.Option(
            "--rounding",
            help="display: keep full precision, round what is shown (default); update: round "
            "each change.",
            show_default=False,
        ),
    ] = None,
    cap: Annotated[
        bool | None,
        typer.Option(
            "--cap/--no-cap",
            help="The 400-point rule (default: off for formula, on for fide-table).",
            show_default=False,
        ),
    ] = None,
    newcomers: Annotated[
        bool | None,
        typer.Option(
            "--newcomers/--no-newcomers",
            help="Allow players missing from the players file.",
            show_default=False,
        ),
    ] = None,
    provisional: Annotated[
        str | None,
        typer.Option(
            "--provisional",
            help="Provisional K for the first games, K:GAMES, e.g. 40:12.",
            show_default=False,
        ),
    ] = None,
    return_k: Annotated[
        str | None,
        typer.Option(
            "--return-k",
            help="Higher K after a break, K:MONTHS:GAMES, e.g. 40:6:5 (K 40 for 5 games after "
            "more than 6 months away).",
            show_default=False,
        ),
    ] = None,
    count_event: Annotated[
        list[str] | None,
        typer.Option(
            "--count-event",
            help="Only events matching this pattern count, e.g. 'Club*'.",
            show_default=False,
        ),
    ] = None,
    count_time_control: Annotated[
        list[str] | None,
        typer.Option(
            "--count-time-control",
            help="Only these time controls count: a speed (rapid), 15+10 (or 900+10 in "
            "seconds) or a pattern like '15+*'. Repeatable.",
            show_default=False,
        ),
    ] = None,
    exclude_event: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude-event", help="Events matching this pattern do not count.", show_default=False
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player", help="Show one player's history and progress only.", show_default=False
        ),
    ] = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="table, csv or json.")
    ] = OutputFormat.table,
    output: Annotated[
        Path | None,
        typer.Option("--output", help="Write to this file instead of stdout.", show_default=False),
    ] = None,
    chart: Annotated[
        Path | None,
        typer.Option(
            "--chart",
            help="Chart of the rating over time, .png or .svg: --player's, or the top --top "
            "players, e.g. --chart ladder.svg.",
            show_default=False,
        ),
    ] = None,
    top: Annotated[int, typer.Option("--top", help="Players in the chart.", min=1)] = 5,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No notes on stderr (errors still show).")
    ] = False,
    token: TokenOpt = None,
    offline: OfflineOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = "https://lichess.org",
    cache_dir: CacheDirOpt = None,
) -> None:
    """An internal Elo ladder for a chess club, from CSV, PGN or Lichess tournaments.

    Example: lichess-elo club players.csv games.csv --config club.toml --k 40
    """
    from lichess_elo.output import chart_report as chart_mod
    from lichess_elo.core.club import rating as club
    from lichess_elo.sources import club_files as club_io
    from lichess_elo.core.club import rules as club_rules
    from lichess_elo.output import common as render
    from lichess_elo.output import club as render_club

    with library_errors():
        if chart is not None:
            chart_mod.check_chart_path(chart)
        if output is not None:
            render.check_output_path(output)
        prov = club_rules.parse_numbers(provisional, "--provisional", ("K", "GAMES"), "40:12")
        ret = club_rules.parse_numbers(return_k, "--return-k", ("K", "MONTHS", "GAMES"), "40:6:5")
        overrides = {
            "update": update.value if update else None,
            "method": method.value if method else None,
            "rounding": rounding.value if rounding else None,
            "cap": cap,
            "newcomers": newcomers,
            "provisional_k": prov[0] if prov else None,
            "provisional_games": prov[1] if prov else None,
            "return_k": ret[0] if ret else None,
            "return_months": ret[1] if ret else None,
            "return_games": ret[2] if ret else None,
            "count_events": tuple(count_event) if count_event else None,
            "count_time_controls": tuple(count_time_control) if count_time_control else None,
            "exclude_events": tuple(exclude_event) if exclude_event else None,
        }
        source = _source(api_url, token, cache_dir, offline, replay)
        result = club_io.load_club(
            inputs,
            config=config,
            k=k or (),
            start=start or (),
            overrides=overrides,
            source=source,
            on_warning=warn,
        )
        for note in () if quiet else result.notes:
            typer.echo(f"lichess-elo: note: {note}", err=True)
        fmt = output_format.value
        if player is not None:
            standing = club.find_player(result, player)
            recent = club.recent_change(standing, result.last_day, club.RECENT_MONTHS)
            target = club.next_target(standing, result.rules)
            text = render_club.club_player_output(standing, recent, club.RECENT_MONTHS, target, fmt)
            names = [standing.name]
        else:
            text = render_club.club_output(result, fmt)
            names = [s.name for s in result.standings[:top]]
        if chart is not None:
            render_club.write_club_chart(result, names, chart)
        # the message names the user's path, never write_atomic's temporary file
        if output is not None:
            try:
                render.write_atomic(output, text if text.endswith("\n") else text + "\n")
            except OSError as exc:
                fail(f"--output {output}: cannot write ({exc.strerror or exc})", 1)
    if output is None:
        typer.echo(text.rstrip("\n"))


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
    """The tokens given on the command line (``--token X``, ``--token=X``) or in LICHESS_TOKEN."""
    found = {os.environ.get("LICHESS_TOKEN", "")}
    for i, arg in enumerate(args):
        if arg == "--token" and i + 1 < len(args):
            found.add(args[i + 1])
        elif arg.startswith("--token="):
            found.add(arg.removeprefix("--token="))
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


def main() -> None:
    """Entry point: run the app and turn every error into a one-line message.

    Usage errors found by the option parser itself (a missing argument, an unknown option)
    are caught here too, so the shell sees one line and exit code 2, not a boxed panel.
    """
    command = typer.main.get_command(app)
    args = _take_debug(sys.argv[1:])
    for token in _tokens_in(args):
        _remember_token(token)
    try:
        code = command.main(args=args, prog_name="lichess-elo", standalone_mode=False)
        _exit_now(code if isinstance(code, int) else 0)
    except LichessEloError as exc:
        if _state["debug"]:
            raise
        typer.echo(f"lichess-elo: error: {redact(str(exc))}", err=True)
        sys.exit(exc.exit_code)
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("lichess-elo: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        # The parser's own errors (click's UsageError family, vendored by typer) carry an
        # exit code and a message; duck-typed so it works across typer versions.
        code = getattr(exc, "exit_code", None)
        if not isinstance(code, int) or not hasattr(exc, "format_message"):
            if _state["debug"]:
                raise
            typer.echo(f"lichess-elo: error: {redact(_unexpected(exc))}", err=True)
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
