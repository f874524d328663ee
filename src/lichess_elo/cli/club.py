"""``lichess-elo club``: an Elo ladder for a club."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from lichess_elo.app.club import ClubSettings, rate_club_files
from lichess_elo.cli.errors import library_errors, note, warn
from lichess_elo.cli.options import (
    DEFAULT_URL,
    OUTPUT,
    RULES,
    WHICH_GAMES,
    ApiUrlOpt,
    CacheDirOpt,
    ChartOpt,
    HtmlOpt,
    NoPagerOpt,
    OfflineOpt,
    OutputOpt,
    QuietOpt,
    ReplayOpt,
    TokenFileOpt,
    TokenOpt,
    check_not_inputs,
    check_targets,
    format_option,
    make_source,
)
from lichess_elo.cli.pager import paged
from lichess_elo.core.club.options import ClubOptions
from lichess_elo.errors import BadInput
from lichess_elo.output import registry as render
from lichess_elo.output.formats import CHART, HTML, ClubView, Format
from lichess_elo.output.renderers import ClubLadder

#: The rules file used when ``--config`` is not given and the current folder has one.
DEFAULT_RULES = Path("club.toml")


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
        typer.Option(
            "--config",
            help="The club's rules, e.g. club.toml (default: club.toml in the current folder, "
            "if there is one).",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    k: Annotated[
        list[str] | None,
        typer.Option(
            "--k",
            metavar="K",
            help="K: 20 (default), or per group/player. Repeatable, e.g. --k 32 --k children=40.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    start: Annotated[
        list[str] | None,
        typer.Option(
            "--start",
            metavar="RATING",
            help="Newcomers' rating: 1000, fide (FIDE initial rating after 5 games), or per "
            "group/player. Repeatable, e.g. --start 1200 --start beginner=800.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    update: Annotated[
        ClubUpdate | None,
        typer.Option(
            "--update",
            metavar="MODE",
            help="event (ratings frozen per event, default), month or game, e.g. --update month.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    method: Annotated[
        ClubMethodOpt | None,
        typer.Option(
            "--method",
            metavar="METHOD",
            help="formula 1/(1+10^(-D/400)) (default) or fide-table (table 8.1.2), e.g. "
            "--method fide-table.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    rounding: Annotated[
        ClubRounding | None,
        typer.Option(
            "--rounding",
            metavar="WHEN",
            help="display: keep full precision, round what is shown (default); update: round "
            "each change, e.g. --rounding update.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    cap: Annotated[
        bool | None,
        typer.Option(
            "--cap/--no-cap",
            help="The 400-point rule (default: off for formula, on for fide-table), e.g. --cap.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    newcomers: Annotated[
        bool | None,
        typer.Option(
            "--newcomers/--no-newcomers",
            help="Allow players missing from the players file, e.g. --no-newcomers to catch typos.",
            show_default=False,
            rich_help_panel=WHICH_GAMES,
        ),
    ] = None,
    provisional: Annotated[
        str | None,
        typer.Option(
            "--provisional",
            metavar="K:GAMES",
            help="Newcomers' K for their first games, K:GAMES, e.g. 40:12 (a newcomer has no "
            "rating in the players file, or one marked ?, e.g. 1150?).",
            show_default=False,
        ),
    ] = None,
    junior: Annotated[
        str | None,
        typer.Option(
            "--junior",
            metavar="K:AGE",
            help="Juniors' K, K:AGE: for players aged AGE or under that year (the players "
            "file's born column), e.g. 40:18.",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    return_k: Annotated[
        str | None,
        typer.Option(
            "--return-k",
            metavar="K:M:G",
            help="Higher K after a break, K:MONTHS:GAMES, e.g. 40:6:5 (K 40 for 5 games after "
            "more than 6 months away).",
            show_default=False,
            rich_help_panel=RULES,
        ),
    ] = None,
    count_event: Annotated[
        list[str] | None,
        typer.Option(
            "--count-event",
            metavar="PATTERN",
            help="Only events matching this pattern count, e.g. 'Club*'.",
            show_default=False,
            rich_help_panel=WHICH_GAMES,
        ),
    ] = None,
    count_time_control: Annotated[
        list[str] | None,
        typer.Option(
            "--count-time-control",
            metavar="TC",
            help="Only these time controls count: a speed, 15+10 (or 900+10 in seconds) or a "
            "pattern. Repeatable, e.g. rapid or '15+*'.",
            show_default=False,
            rich_help_panel=WHICH_GAMES,
        ),
    ] = None,
    exclude_event: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude-event",
            metavar="PATTERN",
            help="Events matching this pattern do not count, e.g. '*Simul*'.",
            show_default=False,
            rich_help_panel=WHICH_GAMES,
        ),
    ] = None,
    min_games: Annotated[
        int | None,
        typer.Option(
            "--min-games",
            metavar="N",
            help="Publish only players with N games or more (table, CSV, JSON, HTML, chart), "
            "e.g. 10; 0 shows all.",
            show_default=False,
            rich_help_panel=OUTPUT,
        ),
    ] = None,
    hide_provisional: Annotated[
        bool,
        typer.Option(
            "--hide-provisional",
            help="Leave provisional ratings (marked ?) out of the published table, e.g. for a "
            "noticeboard.",
            show_default=False,
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    show_provisional: Annotated[
        bool,
        typer.Option(
            "--show-provisional",
            help="Show provisional ratings even when club.toml hides them, e.g. for the coach.",
            show_default=False,
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            metavar="NAME",
            help="Show one player's history and progress only, e.g. --player Ania_N.",
            show_default=False,
            rich_help_panel=OUTPUT,
        ),
    ] = None,
    view: Annotated[
        ClubView,
        typer.Option(
            "--view",
            metavar="VIEW",
            help="standings, or excluded: every game not rated and the rule that left it out "
            "(the JSON has both), e.g. --view excluded.",
            rich_help_panel=OUTPUT,
        ),
    ] = ClubView.standings,
    output_format: Annotated[str, format_option("club")] = "table",
    output: OutputOpt = None,
    chart: ChartOpt = None,
    html: HtmlOpt = None,
    top: Annotated[
        int,
        typer.Option(
            "--top",
            metavar="N",
            help="Players in the chart, e.g. --top 10.",
            min=1,
            rich_help_panel=OUTPUT,
        ),
    ] = 5,
    quiet: QuietOpt = False,
    no_pager: NoPagerOpt = False,
    token: TokenOpt = None,
    token_file: TokenFileOpt = None,
    offline: OfflineOpt = False,
    replay: ReplayOpt = None,
    api_url: ApiUrlOpt = DEFAULT_URL,
    cache_dir: CacheDirOpt = None,
) -> None:
    """An internal Elo ladder for a chess club, from CSV, PGN or Lichess tournaments.

    Example: lichess-elo club players.csv games.csv --config club.toml --k 40
    """
    option_names = {"method": "--method", "junior": "--junior", "min_games": "--min-games",
             "hide_provisional": "--hide-provisional"}  # fmt: skip
    with library_errors(option_names):
        fmt = render.choose_format(output_format, "club")
        check_targets(output, chart, html)
        if hide_provisional and show_provisional:
            raise BadInput("and --show-provisional cannot be given together",
                           field="hide_provisional")  # fmt: skip
        config = config if config is not None or not DEFAULT_RULES.is_file() else DEFAULT_RULES
        options = ClubOptions.from_text(
            k=k or (),
            start=start or (),
            provisional=provisional,
            junior=junior,
            return_k=return_k,
            update=update.value if update else None,
            method=method.value if method else None,
            rounding=rounding.value if rounding else None,
            cap=cap,
            newcomers=newcomers,
            count_events=tuple(count_event or ()),
            count_time_controls=tuple(count_time_control or ()),
            exclude_events=tuple(exclude_event or ()),
            min_games=min_games,
            hide_provisional=True if hide_provisional else False if show_provisional else None,
        )
        source = make_source(api_url, token, cache_dir, offline, replay, token_file=token_file)
        check_not_inputs(output, chart, source, _reads(inputs, config), html=html)
        run = rate_club_files(
            inputs,
            ClubSettings(config=config, options=options, player=player),
            source=source,
            on_warning=warn,
        )
        for line in () if quiet else run.notes:
            note(line)
        ladder = ClubLadder(run, str(config) if config is not None else None, top)
        _publish(ladder, view, html, chart)
        _print(ladder, fmt, view, output, pager=not no_pager)


def _reads(inputs: list[str], config: Path | None) -> dict[Path, str]:
    """The files the run reads (the inputs and the rules file), for ``check_not_inputs``."""
    reads = {Path(i): f"the input {i}" for i in inputs}
    if config is not None:
        reads[config] = "the --config file"
    return reads


def _print(ladder: ClubLadder, fmt: Format, view: str, output: Path | None, *, pager: bool) -> None:
    """Print the one player's page when one was asked for, else the ladder in ``view``
    (through the pager when ``pager`` and on a terminal), or write it to ``output``."""
    target = render.Target.of(output)  # the terminal's width, before the pager holds it
    with paged(pager and output is None):
        if ladder.run.player is not None:
            render.render("club-player", ladder.run, fmt, target=target)
        else:
            render.render("club", ladder, fmt, view, target=target)


def _publish(ladder: ClubLadder, view: str, html: Path | None, chart: Path | None) -> None:
    """Write the ``--html`` page and the ``--chart`` of the ladder or of the one player,
    each through the renderer registry."""
    one = ladder.run.player is not None
    for fmt, path in ((HTML, html), (CHART, chart)):
        if path is None:
            continue
        target = render.Target(path)
        if one:
            render.render("club-player", ladder.run, fmt, target=target)
        else:
            render.render("club", ladder, fmt, view, target=target)


def register(app: typer.Typer) -> None:
    """Add ``club`` to ``app``."""
    app.command("club")(club_command)
