"""Option declarations shared by the commands: each option means the same everywhere.

``--format``, ``--output``, ``--chart``, ``--pgn``, ``--perf``, ``--quiet`` and the Lichess
source options (``--token``, ``--offline``, ``--refresh``, ``--replay``, ``--api-url``,
``--cache-dir``, ``--since``, ``--until``) are declared once here; ``make_source`` and
``parse_dates`` turn them into the library's settings.
"""

from __future__ import annotations

from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from lichess_elo.cli.errors import remember_token
from lichess_elo.core.games import parse_month_or_day
from lichess_elo.errors import UnknownChoice
from lichess_elo.sources.lichess.source import DEFAULT_API_URL, Source


class OutputFormat(StrEnum):
    """Output formats shared by the commands."""

    table = "table"
    json = "json"
    csv = "csv"


#: The formats of a command whose output is a summary (no CSV rows).
SUMMARY_FORMATS = (OutputFormat.table, OutputFormat.json)


def choose_format(
    value: str, allowed: tuple[OutputFormat, ...] = tuple(OutputFormat)
) -> OutputFormat:
    """The ``--format`` value, checked against the command's ``allowed`` formats.

    Raises:
        UnknownChoice: naming the value and the valid formats.
    """
    text = value.strip().lower()
    for fmt in allowed:
        if fmt.value == text:
            return fmt
    raise UnknownChoice("format", value, [f.value for f in allowed])


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
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No progress bar and no notes on stderr (errors still show), e.g. -q in a script.",
    ),
]
FormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="table|csv|json",
        help="Output format: table, csv or json, e.g. --format json.",
    ),
]
SummaryFormatOpt = Annotated[
    str,
    typer.Option(
        "--format", metavar="table|json", help="Output format: table or json, e.g. --format json."
    ),
]
OutputOpt = Annotated[
    Path | None,
    typer.Option(
        "--output",
        metavar="FILE",
        help="Write the output to this file instead of the terminal, e.g. --output out.json.",
        show_default=False,
    ),
]
ChartOpt = Annotated[
    Path | None,
    typer.Option(
        "--chart",
        metavar="FILE",
        help="Also draw a chart, .png or .svg, e.g. --chart me.png.",
        show_default=False,
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
    ),
]
PerfOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--perf",
        metavar="PERF",
        help="Only this perf, repeatable, e.g. --perf blitz --perf rapid. "
        "report also takes 'all', and shows the perf with the most rated games by default.",
        show_default=False,
    ),
]
DEFAULT_URL = DEFAULT_API_URL


def make_source(
    api_url: str,
    token: str | None,
    cache_dir: Path | None,
    offline: bool,
    replay: Path | None,
    *,
    refresh: bool = False,
) -> Source:
    """The ``Source`` the shared source options describe (an empty token is none).

    The token is remembered first, so no later message can show it.
    """
    remember_token(token)
    return Source(
        api_url=api_url,
        token=token or None,
        cache_dir=cache_dir,
        offline=offline,
        refresh=refresh,
        replay=replay,
    )


def parse_dates(since: str | None, until: str | None) -> tuple[date | None, date | None]:
    """``--since`` and ``--until`` as days (``YYYY-MM`` is the month's first day)."""
    first = parse_month_or_day(since, "since") if since else None
    stop = parse_month_or_day(until, "until") if until else None
    return first, stop
