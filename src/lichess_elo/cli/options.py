"""Option declarations shared by the commands: each option means the same everywhere.

``--format``, ``--output``, ``--chart``, ``--pgn``, ``--perf``, ``--quiet`` and the source
options (``--token``, ``--offline``, ``--refresh``, ``--replay``, ``--api-url``,
``--chesscom-url``, ``--cache-dir``, ``--since``, ``--until``) are declared once here;
``make_source``, ``chesscom_source`` and ``parse_dates`` turn them into the library's
settings. The player argument's site prefix (``chess.com:NAME``) is read by
``core.accounts.parse_account``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lichess_elo.cli.errors import remember_token
from lichess_elo.core.fide.editions import CHAPTER_CHOICES, ChapterChoice
from lichess_elo.core.games import parse_day, parse_month_or_day
from lichess_elo.errors import BadInput, Conflict, Malformed, UnknownChoice
from lichess_elo.sources.lichess.checks import forbid_core_dumps, read_token_file
from lichess_elo.sources.lichess.session import DEFAULT_API_URL, LichessSettings, cache_files

if TYPE_CHECKING:
    from lichess_elo.sources.base import GameSource
    from lichess_elo.sources.game_sources import ChessComGames

#: The panels ``--help`` groups the options into (typer's ``rich_help_panel``).
WHICH_GAMES = "Which games"
RULES = "Rules"
OUTPUT = "Output"
NETWORK = "Cache and network"

UsernameArg = Annotated[
    str,
    typer.Argument(
        help="Lichess username, or chess.com:NAME for a Chess.com account, e.g. OnBoard247."
    ),
]
UsernamesArg = Annotated[
    list[str],
    typer.Argument(
        metavar="USERNAME...",
        help="Lichess username, or chess.com:NAME for a Chess.com account, e.g. OnBoard247; "
        "two accounts of one person, one per site, side by side, e.g. OnBoard247 "
        "chess.com:NAME.",
        show_default=False,
    ),
]
TokenOpt = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="LICHESS_TOKEN",
        help="Lichess API token, e.g. lip_abc123 (or LICHESS_TOKEN; --token-file keeps it out "
        "of the process list). Never stored.",
        show_default=False,
        rich_help_panel=NETWORK,
    ),
]
TokenFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--token-file",
        help="Read the API token from this file (yours only), e.g. --token-file ~/.lichess-token.",
        show_default=False,
        rich_help_panel=NETWORK,
    ),
]
OfflineOpt = Annotated[
    bool,
    typer.Option(
        "--offline",
        envvar="LICHESS_ELO_OFFLINE",
        help="Send nothing over the network, use the cache only, e.g. --offline.",
        rich_help_panel=NETWORK,
    ),
]
RefreshOpt = Annotated[
    bool,
    typer.Option(
        "--refresh",
        help="Fetch every month again, ignoring the cache, e.g. --refresh.",
        rich_help_panel=NETWORK,
    ),
]
ReplayOpt = Annotated[
    Path | None,
    typer.Option(
        "--replay",
        help="Serve every HTTP request from this vcrpy cassette, e.g. cassettes/onboard247.yaml.",
        show_default=False,
        rich_help_panel=NETWORK,
    ),
]
ReplaysOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--replay",
        help="Serve every HTTP request from this vcrpy cassette, e.g. "
        "cassettes/onboard247.yaml; with two accounts, once per account in their order "
        "(or once for both).",
        show_default=False,
        rich_help_panel=NETWORK,
    ),
]
ApiUrlOpt = Annotated[
    str,
    typer.Option(
        "--api-url",
        envvar="LICHESS_API_URL",
        help="Lichess server, e.g. http://localhost:9663 for a self-hosted lila.",
        rich_help_panel=NETWORK,
    ),
]
ChessComUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--chesscom-url",
        metavar="URL",
        help="Chess.com API server for chess.com:NAME (or CHESSCOM_API_URL), "
        "e.g. http://127.0.0.1:8080 for a local copy.",
        show_default=False,
        rich_help_panel=NETWORK,
    ),
]
CacheDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        envvar="LICHESS_ELO_CACHE_DIR",
        help="Where the caches live, e.g. ~/.cache/lichess-elo (default: the user cache "
        "directory).",
        show_default=False,
        rich_help_panel=NETWORK,
    ),
]
SinceOpt = Annotated[
    str | None,
    typer.Option(
        "--since",
        help="First month or day, YYYY-MM or YYYY-MM-DD, e.g. 2023-01 or 2023-01-25.",
        show_default=False,
        rich_help_panel=WHICH_GAMES,
    ),
]
UntilOpt = Annotated[
    str | None,
    typer.Option(
        "--until",
        help="Stop before this month or day, YYYY-MM or YYYY-MM-DD, e.g. 2023-01 or 2023-01-25.",
        show_default=False,
        rich_help_panel=WHICH_GAMES,
    ),
]
QuietOpt = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No progress bar and no notes on stderr (errors still show), e.g. -q in a script.",
        rich_help_panel=OUTPUT,
    ),
]
NoPagerOpt = Annotated[
    bool,
    typer.Option(
        "--no-pager",
        help="Print long output straight to the terminal, not through $PAGER (less), "
        "e.g. --no-pager.",
        rich_help_panel=OUTPUT,
    ),
]


def _starting(choices: tuple[str, ...]) -> Callable[[str], list[str]]:
    """A shell-completion callback (typer's ``autocompletion``): the ``choices`` that start
    with what is typed (``bl`` offers ``blitz``; typer keeps only candidates that start
    with the typed text as typed, so completion is by prefix and case)."""

    def complete(incomplete: str) -> list[str]:
        return [c for c in choices if c.startswith(incomplete)]

    return complete


def complete_perf(incomplete: str) -> list[str]:
    """Shell completion of ``--perf``: every perf (and ``all``) starting with what is typed."""
    from lichess_elo.core.games import PERFS

    return _starting(("all", *PERFS))(incomplete)


def complete_one_perf(incomplete: str) -> list[str]:
    """Shell completion of a ``--perf`` that takes one perf, not ``all`` (``glicko``)."""
    from lichess_elo.core.games import PERFS

    return _starting(PERFS)(incomplete)


def complete_speed(incomplete: str) -> list[str]:
    """Shell completion of the ``db`` commands' ``--perf``: the speeds the lists rate."""
    from lichess_elo.core.population.schema import PERFS

    return _starting(PERFS)(incomplete)


def format_option(subject: str, panel: str | None = OUTPUT) -> Any:
    """The one ``--format``/``-f`` option, for ``Annotated[str, format_option(subject)]``:
    its metavar and help list the formats the renderer registry has for ``subject``, and
    shell completion offers them; the command checks the value with
    ``output.registry.choose_format`` (one message everywhere).
    """
    from lichess_elo.output.registry import formats_of

    formats = formats_of(subject)
    words = ", ".join(formats[:-1]) + f" or {formats[-1]}" if len(formats) > 1 else formats[0]
    return typer.Option(
        "--format",
        "-f",
        metavar="|".join(formats),
        help=f"Output format: {words}, e.g. --format json.",
        rich_help_panel=panel,
        autocompletion=_starting(tuple(formats)),
    )


OutputOpt = Annotated[
    Path | None,
    typer.Option(
        "--output",
        metavar="FILE",
        help="Write the output to this file instead of the terminal, e.g. --output out.json.",
        show_default=False,
        rich_help_panel=OUTPUT,
    ),
]
ChartOpt = Annotated[
    Path | None,
    typer.Option(
        "--chart",
        metavar="FILE",
        help="Also draw a chart, .png or .svg, e.g. --chart me.png.",
        show_default=False,
        rich_help_panel=OUTPUT,
    ),
]
HtmlOpt = Annotated[
    Path | None,
    typer.Option(
        "--html",
        metavar="FILE",
        help="Also write it as one page to open in a browser (offline, printable), "
        "e.g. --html me.html.",
        show_default=False,
        rich_help_panel=OUTPUT,
    ),
]
PgnOpt = Annotated[
    Path | None,
    typer.Option(
        "--pgn",
        metavar="FILE",
        help="Read the games from a Lichess PGN export instead of Lichess, "
        "e.g. --pgn my_games.pgn.",
        show_default=False,
        rich_help_panel=WHICH_GAMES,
    ),
]


def fold_perf(value: str | None) -> str | None:
    """A ``--perf`` value as people type it (``Blitz``, ``KINGOFTHEHILL``) as the perf it
    names when only one matches with case and accents folded; else left for the command's
    check to refuse with its closest names."""
    from lichess_elo.core.games import PERFS
    from lichess_elo.core.words import match_folded

    if value is None:
        return None
    found = match_folded(value, ("all", *PERFS))
    return found[0] if len(found) == 1 else value


def fold_perfs(values: list[str] | None) -> list[str] | None:
    """``fold_perf`` on each value of a repeatable ``--perf``."""
    return None if values is None else [fold_perf(v) or v for v in values]


PerfOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--perf",
        callback=fold_perfs,
        metavar="PERF",
        autocompletion=complete_perf,
        help="Only this perf (repeatable; report also takes all), e.g. --perf blitz.",
        show_default=False,
        rich_help_panel=WHICH_GAMES,
    ),
]
DEFAULT_URL = DEFAULT_API_URL


def check_not_inputs(
    output: Path | None,
    chart: Path | None,
    source: LichessSettings | None,
    inputs: dict[Path, str] | None = None,
    html: Path | None = None,
) -> None:
    """Refuse an ``--output``, ``--chart`` or ``--html`` that names a file the run reads: one
    of ``inputs`` (file -> what it is), the ``--replay`` cassette or a file of the cache; or
    two of them that name one file.

    Raises:
        BadInput: exit 2, one line, before any work.
    """
    from lichess_elo.output.writer import check_not_read, is_stream

    reads = dict(inputs or {})
    if source is not None:
        reads.update(cache_files(source))
        if source.replay is not None:
            reads[source.replay] = "the --replay cassette"
    for path, field in ((output, "output"), (chart, "chart"), (html, "html")):
        if path is not None:
            check_not_read(path, field, reads)
    if output is not None and chart is not None:
        check_not_read(chart, "chart", {output: "the --output file"})
    for other, name in ((output, "output"), (chart, "chart")):
        same = html is not None and other is not None and not is_stream(html)
        if same and os.path.realpath(str(html)) == os.path.realpath(str(other)):
            raise BadInput(
                f"is also the --{name} file; give another file name", field="html", value=html
            )


def check_targets(output: Path | None, chart: Path | None = None, html: Path | None = None) -> None:
    """Check that the ``--output``, ``--chart`` and ``--html`` files given can be written
    (a chart as .png or .svg), before any work.

    Raises:
        BadInput: one line naming the option.
    """
    from lichess_elo.output.charts.figure import check_chart_path
    from lichess_elo.output.writer import check_target

    if chart is not None:
        check_chart_path(chart)
    if output is not None:
        check_target(output, "output")
    if html is not None:
        check_target(html, "html")


def make_source(
    api_url: str,
    token: str | None,
    cache_dir: Path | None,
    offline: bool,
    replay: Path | None,
    *,
    refresh: bool = False,
    token_file: Path | None = None,
) -> LichessSettings:
    """The ``LichessSettings`` the shared source options describe (an empty token is none).

    The token (from ``token_file`` when given) is remembered first, so no later message
    can show it.

    Raises:
        BadFile: the token file cannot be read or is empty.
    """
    if token_file is not None:
        token = read_token_file(token_file)
    remember_token(token)
    if token:
        forbid_core_dumps()
    return LichessSettings(
        api_url=api_url,
        token=token or None,
        cache_dir=cache_dir,
        offline=offline,
        refresh=refresh,
        replay=replay,
    )


def chesscom_source(
    chesscom_url: str | None,
    cache_dir: Path | None,
    offline: bool,
    replay: Path | None,
    *,
    refresh: bool = False,
) -> ChessComGames:
    """The Chess.com games the shared source options describe: ``--chesscom-url`` (else
    ``CHESSCOM_API_URL``, else Chess.com's API), the same cache folder, ``--offline``,
    ``--refresh`` and ``--replay`` as Lichess's; checked here, before any request.

    Raises:
        BadInput: a bad server address, or ``--offline`` with ``--refresh``.
    """
    from lichess_elo.sources.chesscom.settings import settings_from_env
    from lichess_elo.sources.game_sources import ChessComGames

    settings = settings_from_env(
        chesscom_url, cache_dir=cache_dir, offline=offline, refresh=refresh, replay=replay
    )
    settings.check()
    return ChessComGames(settings)


#: A player argument as a run takes it: the name, and the source of a site other than
#: Lichess (``None``: Lichess, or the ``--pgn`` file).
SiteAccount = tuple[str, "GameSource | None"]


def site_source(
    username: str, pgn_file: Path | None, chesscom_url: str | None, source: LichessSettings
) -> SiteAccount:
    """The player argument read (``core.accounts.parse_account``): its name and, for
    ``chess.com:NAME``, Chess.com's games through ``source``'s cache folder, offline,
    refresh and cassette (``chesscom_source``).

    Raises:
        BadInput: a misspelt site prefix; a Chess.com account with ``--pgn``; a bad
            ``--chesscom-url``.
    """
    from lichess_elo.core.accounts import parse_account
    from lichess_elo.core.games import CHESSCOM

    account = parse_account(username)
    if account.site != CHESSCOM:
        return account.name, None
    if pgn_file is not None:
        raise Conflict(("pgn", "username"), "the games come from Chess.com")
    games = chesscom_source(
        chesscom_url, source.cache_dir, source.offline, source.replay, refresh=source.refresh
    )
    return account.name, games


def pgn_input(pgn_file: Path | None) -> dict[Path, str] | None:
    """The ``--pgn`` file as an input no output may name (``check_not_inputs``)."""
    return {pgn_file: "the --pgn input"} if pgn_file is not None else None


def parse_dates(since: str | None, until: str | None) -> tuple[date | None, date | None]:
    """``--since`` and ``--until`` as days (``YYYY-MM`` is the month's first day)."""
    first = parse_month_or_day(since, "since") if since else None
    stop = parse_month_or_day(until, "until") if until else None
    return first, stop


# --- the FIDE rules options of calc and report (the rules are core/fide_rules.py) ---------

RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules",
        metavar="CHAPTER",
        help="FIDE chapter: auto (each game's by its clock, FIDE's Laws, Appendix A), "
        "standard or rapid-blitz, e.g. --rules standard.",
        rich_help_panel=RULES,
    ),
]
RulesAsOfOpt = Annotated[
    str,
    typer.Option(
        "--rules-as-of",
        metavar="WHEN",
        help="Which date's regulations: game (each period's own; calc: today), today or a "
        "day, e.g. --rules-as-of 2023-06-01.",
        rich_help_panel=RULES,
    ),
]
PEAK_HELP = "Highest published rating ever (the 2400 and 2300 rules of K), e.g. --peak 2350."
FideIdOpt = Annotated[
    str | None,
    typer.Option(
        "--fide-id",
        metavar="N",
        help="Show the player's real FIDE record beside the track, e.g. --fide-id 35009192.",
        show_default=False,
        rich_help_panel=RULES,
    ),
]


def parse_rules(text: str) -> ChapterChoice:
    """``auto``, ``standard`` or ``rapid-blitz`` (case and spaces do not matter).

    Raises:
        UnknownChoice: anything else.
    """
    value = text.strip().lower()
    for choice in CHAPTER_CHOICES:
        if value == choice:
            return choice
    raise UnknownChoice("rules", text, CHAPTER_CHOICES)


def parse_rules_as_of(text: str, today: date, own: str = "game") -> date | None:
    """``own`` (``game`` for the report's periods, ``month`` for db's months) -> ``None``
    (each by its own date), ``today`` -> ``today``, or a day.

    Raises:
        Malformed: anything else (the message gives the accepted forms).
    """
    value = text.strip().lower()
    if value == own:
        return None
    if value == "today":
        return today
    try:
        return parse_day(text, "rules_as_of")
    except Malformed:
        example = "2023-06-01" if own == "game" else "2025-10-01"
        raise Malformed(
            "rules_as_of", text, f"{own}, today or a day such as {example}", "a rules date"
        ) from None
