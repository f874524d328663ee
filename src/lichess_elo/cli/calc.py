"""``lichess-elo calc``: the FIDE calculator."""

from __future__ import annotations

from datetime import date
from typing import Annotated

import typer

from lichess_elo.app import calc
from lichess_elo.cli.errors import fail, library_errors
from lichess_elo.cli.options import (
    PEAK_HELP,
    OutputOpt,
    RulesAsOfOpt,
    RulesOpt,
    format_option,
    parse_rules,
    parse_rules_as_of,
)
from lichess_elo.core import fide
from lichess_elo.core.games import RATING_MAX, RATING_MIN
from lichess_elo.output import registry as render

#: How calc calls the logical inputs in its messages.
NAMES = {
    "rating": "RATING",
    "games": "OPP:SCORE",
    "game": "game",
    "games_before": "--games",
    "opponent rating": "opponent rating",
    "time_control": "--time-control",
}

_CALC_ARGS_HELP = (
    f"RATING ({RATING_MIN}..{RATING_MAX}), then one OPP:SCORE per game, "
    "e.g. 1400:1 1600:0.5 1550:0. "
    "A score is 1, 0.5, ½, 1/2, 0, w, d or l. With --unrated there is no RATING."
)


def calc_command(
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
    peak: Annotated[
        str | None,
        typer.Option("--peak", metavar="RATING", help=PEAK_HELP, show_default=False),
    ] = None,
    time_control: Annotated[
        str | None,
        typer.Option(
            "--time-control",
            metavar="TC",
            help="The games' clock, minutes+increment or seconds+increment, e.g. 30+0 or "
            "1800+0: --rules auto then takes FIDE's chapter of it (Laws of Chess, Appendix "
            "A: standard from base + 60 x increment = 60 minutes, else Rapid & Blitz).",
            show_default=False,
        ),
    ] = None,
    rules: RulesOpt = "auto",
    rules_as_of: RulesAsOfOpt = "game",
    output_format: Annotated[str, format_option("calc")] = "table",
    output: OutputOpt = None,
) -> None:
    """FIDE Elo for one rating period: each game's expected score and change, the new rating.

    Example: [bold]lichess-elo calc 1500 1400:1 1600:0.5 1550:0 --k 20[/bold]
    prints +7.2, +2.8, -8.6, total +1.4 and the new rating 1501.

    Without --k, K follows FIDE 8.3.3 from the rating, --games, --born and --peak. The
    period change is rounded once, 0.5 away from zero. A difference marked * was capped at
    400. The rules are today's standard chapter unless --time-control / --rules /
    --rules-as-of say otherwise (without --time-control, auto means standard).
    """
    items = list(args or [])
    for item in items:
        if item.startswith("-") and not item[1:2].isdigit():
            fail(f"no such option: {item}")
    with library_errors(NAMES):
        fmt = render.choose_format(output_format, "calc")
        rating: int | None = None
        if not unrated and items and ":" not in items[0]:
            rating = fide.check_rating(calc.parse_whole(items[0], "rating"))
            items = items[1:]
        settings = calc.CalcSettings(
            rating=rating,
            games=calc.parse_games(items),
            k=_whole(k, "k"),
            games_before=_whole(games, "games_before"),
            birth_year=_whole(born, "birth_year"),
            method="formula" if formula else "table",
            cap=not no_cap,
            unrated=unrated,
            peak=_whole(peak, "peak"),
            rules=parse_rules(rules),
            rules_as_of=parse_rules_as_of(rules_as_of, date.today()),
            time_control=None if time_control is None else calc.parse_time_control(time_control),
        )
        result = calc.run_calc(settings)
        render.render("calc", result, fmt, target=render.Target.of(output))


def _whole(text: str | None, field: str) -> int | None:
    return None if text is None else calc.parse_whole(text, field)


def register(app: typer.Typer) -> None:
    """Add ``calc`` to ``app``."""
    app.command("calc", context_settings={"ignore_unknown_options": True})(calc_command)
