"""``lichess-elo db ...``: typer commands only; the work is in ``app/db.py``."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from lichess_elo.cli.interrupts import interruptible
from lichess_elo.cli.options import (
    NoPagerOpt,
    OutputOpt,
    QuietOpt,
    complete_speed,
    fold_perf,
    fold_perfs,
    format_option,
    parse_rules_as_of,
)
from lichess_elo.core.fide.adjustments import COMPRESSION_2024
from lichess_elo.core.fide.wording import day_text

db_app = typer.Typer(
    name="db",
    help=(
        "All of Lichess under FIDE rules: ingest the open database's monthly dumps, build "
        "FIDE-rules monthly lists for every player (DuckDB, or Spark past one machine), "
        "and compare them with Lichess's Glicko-2.\n\n"
        "Example: lichess-elo db ingest lichess_db_standard_rated_2024-01.pgn.zst"
    ),
    no_args_is_help=True,
)


class OpponentsName(StrEnum):
    """Where an opponent's rating comes from."""

    list = "list"
    lichess = "lichess"


class EngineName(StrEnum):
    """Engines that run the rating stages."""

    duckdb = "duckdb"
    duckdb_sql = "duckdb-sql"
    spark = "spark"


DbOpt = Annotated[
    Path,
    typer.Option(
        "--db",
        metavar="FILE",
        help="The DuckDB database file, e.g. --db lichess.duckdb.",
        dir_okay=False,
    ),
]
PerfsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--perf",
        callback=fold_perfs,
        metavar="PERF",
        autocompletion=complete_speed,
        help="A speed: ultraBullet, bullet, blitz, rapid, classical or correspondence (repeat "
        "it; default all), e.g. --perf blitz.",
    ),
]


#: The option (or argument) that gives each logical input of the db commands.
NAMES = {
    "files": "FILE", "db": "--db", "month": "--month", "engine": "--engine", "band": "--band",
    "memory": "--memory",
    "top": "--top", "min_games": "--min-games", "sample": "--sample",
    "resamples": "--resamples", "chart": "--chart", "rules_as_of": "--rules-as-of",
    "opponents": "--opponents",
}  # fmt: skip


#: The players ``db list`` shows in a terminal unless ``--top`` says otherwise.
LIST_TOP = 50


def _not_read(output: Path | None, db: Path, files: tuple[Path, ...] = ()) -> None:
    """Refuse an ``--output`` that names the database or a file the command reads."""
    if output is not None:
        from lichess_elo.cli.options import check_not_inputs

        reads = {db: "the --db database", **{f: f"the input {f}" for f in files}}
        check_not_inputs(output, None, None, reads)


def _out(
    subject: str, value: object, fmt: str, output: Path | None = None, *, pager: bool = False
) -> None:
    """Render ``value`` (a ``subject``, in ``fmt``) on stdout, through the pager when
    ``pager`` and it is long (``cli.pager``), or to ``output`` (whole, through the one
    atomic writer; a table on one line a row)."""
    from lichess_elo.cli.pager import paged
    from lichess_elo.output import registry as render
    from lichess_elo.output.formats import Format

    target = render.Target.of(output)  # the terminal's width, before the pager holds it
    with paged(pager and output is None):
        render.render(subject, value, Format(fmt), target=target)


def _format(value: str, subject: str) -> str:
    """The ``--format`` value checked against what ``subject`` renders (one message)."""
    from lichess_elo.output.registry import choose_format

    return choose_format(value, subject)


@db_app.command("ingest")
def ingest_cmd(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Dumps (.pgn.zst), a player's own Lichess export (.pgn), Parquet files, "
            "or directories of them.",
        ),
    ],
    db: DbOpt = Path("lichess.duckdb"),
    quiet: QuietOpt = False,
    fmt: Annotated[str, format_option("db-ingest", panel=None)] = "table",
    output: OutputOpt = None,
) -> None:
    """Read dumps (headers, plies up to 2) into the database, replacing each month they cover."""
    from lichess_elo.cli.errors import library_errors

    with library_errors(NAMES), interruptible():
        from lichess_elo.app import db as app
        from lichess_elo.output.progress import db as db_progress

        fmt = _format(fmt, "db-ingest")
        paths = app.expand_dumps(tuple(files))
        _not_read(output, db, paths)
        with db_progress.ingest_progress(quiet, [p.name for p in paths]) as bar:
            result = app.ingest(app.IngestSettings(paths, db, bar.callback))
    _out("db-ingest", result, fmt, output)


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_size(text: str) -> int:
    """``4G``, ``500M``, ``2GiB``, ``1.5GB`` or a number of bytes, as bytes (powers of 1024).

    Raises:
        BadInput: anything else, naming ``--memory``.
    """
    import re

    from lichess_elo.errors import BadInput

    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", text.upper())
    if not found or float(found.group(1)) <= 0:
        raise BadInput("is not a size such as 4G, 500M or 2GiB", field="memory", value=text)
    return int(float(found.group(1)) * _UNITS[found.group(2)])


@db_app.command("rate")
def rate_cmd(
    db: DbOpt = Path("lichess.duckdb"),
    perf: PerfsOpt = None,
    engine: Annotated[
        EngineName,
        typer.Option(
            "--engine",
            metavar="duckdb|duckdb-sql|spark",
            help="Where the months are rated: duckdb (arrays on this machine, the fastest), "
            "duckdb-sql (the SQL of earlier releases, kept for one release) or spark, "
            "e.g. --engine spark.",
        ),
    ] = EngineName.duckdb,
    master: Annotated[
        str,
        typer.Option(
            "--master", metavar="URL", help="Spark master URL, e.g. --master spark://host:7077."
        ),
    ] = "local[*]",
    warehouse: Annotated[
        Path | None,
        typer.Option(
            "--warehouse",
            metavar="DIR",
            help="Spark: where games and lists are written as Parquet (a shared mount on a "
            "cluster; default DB.spark), e.g. --warehouse /mnt/shared/lichess.",
        ),
    ] = None,
    rules_as_of: Annotated[
        str,
        typer.Option(
            "--rules-as-of",
            metavar="month|today|YYYY-MM-DD",
            help="Which date's FIDE editions rate the months: month (each month by the "
            "editions in force on its first day), today, or one day for every month, e.g. "
            "--rules-as-of 2025-10-01. See docs/rules.md.",
        ),
    ] = "month",
    opponents: Annotated[
        OpponentsName,
        typer.Option(
            "--opponents",
            metavar="list|lichess",
            help="An opponent's rating: list (their own list rating in the run) or lichess "
            "(their Lichess rating in the game, as report does), e.g. --opponents lichess.",
        ),
    ] = OpponentsName.list,
    no_adjustment: Annotated[
        bool,
        typer.Option(
            "--no-adjustment",
            help="Leave out the one-time compression of "
            f"{day_text(COMPRESSION_2024.day, long=True)} (ratings under "
            f"{COMPRESSION_2024.below} raised by {COMPRESSION_2024.factor} x "
            f"({COMPRESSION_2024.below} - R)), e.g. --no-adjustment.",
        ),
    ] = False,
    rule_600: Annotated[
        bool,
        typer.Option(
            "--rule-600", hidden=True, help="Gone: the 600/2600 rule follows the editions."
        ),
    ] = False,
    memory: Annotated[
        str | None,
        typer.Option(
            "--memory",
            metavar="SIZE",
            help="The most memory the duckdb engine may take (default: what is free); a "
            "population needing more is refused before any work, e.g. --memory 4G.",
        ),
    ] = None,
    quiet: QuietOpt = False,
) -> None:
    """Build every player's FIDE-rules monthly lists, all months again.

    Each month is rated under its own FIDE editions unless --rules-as-of says otherwise."""
    from lichess_elo.cli.errors import library_errors

    with library_errors(NAMES), interruptible():
        from lichess_elo.app import db as app
        from lichess_elo.errors import BadInput
        from lichess_elo.output.common import console
        from lichess_elo.output.db import results as render
        from lichess_elo.output.progress import db as db_progress

        if rule_600:
            from lichess_elo.core.fide import EDITIONS

            first = next(e for e in EDITIONS if e.non_rating_gap is not None)
            raise BadInput(
                f"--rule-600 is gone: the {first.non_rating_gap}/{first.non_rating_above} rule "
                f"now follows each month's edition (from {day_text(first.effective_from)}); "
                f"--rules-as-of {first.effective_from.isoformat()} applies it to every month"
            )
        settings = app.RateSettings(
            db,
            tuple(perf or ()),
            engine.value,
            master=master,
            warehouse=warehouse,
            rules_as_of=parse_rules_as_of(rules_as_of, date.today(), own="month"),
            opponents=opponents.value,
            adjustments=not no_adjustment,
            memory=None if memory is None else parse_size(memory),
        )
        settings.checked()
        if settings.engine == "duckdb":
            from lichess_elo.cli.heap import keep_freed_memory

            keep_freed_memory()  # the array engine frees and takes large arrays each month
        with db_progress.rate_progress(quiet) as progress:
            result = app.rate(replace(settings, progress=progress))
    render.print_rate(result, console())


@db_app.command("list")
def list_cmd(
    perf: Annotated[
        str,
        typer.Option(
            "--perf",
            callback=fold_perf,
            metavar="PERF",
            autocompletion=complete_speed,
            help="ultraBullet, bullet, blitz, rapid, classical or correspondence, e.g. "
            "--perf blitz.",
        ),
    ],
    month: Annotated[
        str,
        typer.Option(
            "--month", metavar="YYYY-MM", help="The list of YYYY-MM, e.g. --month 2024-02."
        ),
    ],
    db: DbOpt = Path("lichess.duckdb"),
    fmt: Annotated[str, format_option("db-list", panel=None)] = "table",
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            "--limit",
            metavar="N",
            help=f"Only the first N players (0: all). Default: {LIST_TOP} in a terminal, all "
            "in a file or a pipe, e.g. --top 100.",
            show_default=False,
        ),
    ] = None,
    output: OutputOpt = None,
    no_pager: NoPagerOpt = False,
) -> None:
    """The list published at the start of a month."""
    from lichess_elo.cli.errors import library_errors

    with library_errors(NAMES), interruptible():
        from lichess_elo.app import db as app
        from lichess_elo.errors import BadInput
        from lichess_elo.output.renderers import ListShown

        fmt = _format(fmt, "db-list")
        if top is not None and top < 0:
            raise BadInput("must be 0 (all) or more", field="top", value=top)
        _not_read(output, db)
        result = app.rating_list(app.ListSettings(perf, month, db))
    if top is None:
        top = LIST_TOP if output is None and fmt == "table" and sys.stdout.isatty() else 0
    held = len(result.players)
    if top and held > top:
        result = replace(result, players=result.players[:top])
    more = held - top if top and held > top else 0
    _out("db-list", ListShown(result, more), fmt, output, pager=not no_pager)


@db_app.command("player")
def player_cmd(
    name: Annotated[str, typer.Argument(metavar="USER", help="A Lichess user name (any case).")],
    db: DbOpt = Path("lichess.duckdb"),
    perf: Annotated[
        str | None,
        typer.Option(
            "--perf",
            callback=fold_perf,
            metavar="PERF",
            autocompletion=complete_speed,
            help="Only this perf, e.g. --perf rapid.",
        ),
    ] = None,
    fmt: Annotated[str, format_option("db-player", panel=None)] = "table",
    output: OutputOpt = None,
    no_pager: NoPagerOpt = False,
) -> None:
    """One player's monthly rows: list rating, games, score, PD, K and change."""
    from lichess_elo.cli.errors import library_errors

    with library_errors(NAMES), interruptible():
        from lichess_elo.app import db as app

        fmt = _format(fmt, "db-player")
        _not_read(output, db)
        result = app.player(app.PlayerSettings(name, db, perf))
    _out("db-player", result, fmt, output, pager=not no_pager)


@db_app.command("compare")
def compare_cmd(
    db: DbOpt = Path("lichess.duckdb"),
    perf: PerfsOpt = None,
    band: Annotated[
        int,
        typer.Option("--band", metavar="POINTS", help="Width of a rating band, e.g. --band 100."),
    ] = 200,
    top: Annotated[
        int, typer.Option("--top", metavar="N", help="Players who differ most, e.g. --top 20.")
    ] = 10,
    min_games: Annotated[
        int,
        typer.Option(
            "--min-games",
            metavar="N",
            help="Differ only with this many games, e.g. --min-games 50.",
        ),
    ] = 30,
    sample: Annotated[
        int,
        typer.Option(
            "--sample", metavar="N", help="Games scored per month and perf, e.g. --sample 100000."
        ),
    ] = 50_000,
    resamples: Annotated[
        int,
        typer.Option(
            "--resamples", metavar="N", help="Bootstrap resamples, e.g. --resamples 1000."
        ),
    ] = 200,
    chart: Annotated[
        Path | None,
        typer.Option(
            "--chart", metavar="FILE", help="Draw Elo - Lichess by band, e.g. --chart bands.png."
        ),
    ] = None,
    fmt: Annotated[str, format_option("db-compare", panel=None)] = "table",
    output: OutputOpt = None,
    no_pager: NoPagerOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Elo - Lichess by band and month, which predicts better, who differs most."""
    from lichess_elo.cli.errors import library_errors

    with library_errors(NAMES), interruptible():
        from lichess_elo.app import db as app
        from lichess_elo.output.charts.figure import check_chart_path
        from lichess_elo.output.progress import db as db_progress

        fmt = _format(fmt, "db-compare")
        if chart is not None:
            check_chart_path(chart)
        if chart is not None or output is not None:
            from lichess_elo.cli.options import check_not_inputs

            check_not_inputs(output, chart, None, {db: "the --db database"})
        settings = app.CompareSettings(
            db, tuple(perf or ()), band, top, min_games, sample, resamples
        )
        with db_progress.compare_progress(quiet) as progress:
            result = app.compare(replace(settings, progress=progress))
        said = None
        if chart is not None:
            from lichess_elo.output import registry as render
            from lichess_elo.output.formats import CHART

            said = render.render("db-compare", result, CHART, target=render.Target(chart))
        _out("db-compare", result, fmt, output, pager=not no_pager)
    if said is not None and fmt == "table":
        typer.echo(said)


@db_app.command("months")
def months_cmd(
    db: DbOpt = Path("lichess.duckdb"),
    fmt: Annotated[str, format_option("db-months", panel=None)] = "table",
    output: OutputOpt = None,
    no_pager: NoPagerOpt = False,
) -> None:
    """What the database holds: games by month and perf, unusable games, players rated."""
    from lichess_elo.cli.errors import library_errors

    with library_errors(NAMES), interruptible():
        from lichess_elo.app.db import MonthsSettings, holdings
        from lichess_elo.output.renderers import Months

        fmt = _format(fmt, "db-months")
        _not_read(output, db)
        held = holdings(MonthsSettings(db))
        _out("db-months", Months(held, db), fmt, output, pager=not no_pager)
