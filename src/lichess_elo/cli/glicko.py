"""``lichess-elo glicko``: what Lichess would do with one game."""

from __future__ import annotations

from typing import Annotated

import typer

from lichess_elo.app import glicko
from lichess_elo.cli.errors import library_errors
from lichess_elo.cli.options import OutputOpt, complete_one_perf, fold_perf, format_option
from lichess_elo.core.games import COLORS, Color
from lichess_elo.errors import Malformed, UnknownChoice
from lichess_elo.output import registry as render
from lichess_elo.output.renderers import GlickoGame


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
            callback=fold_perf,
            metavar="PERF",
            autocompletion=complete_one_perf,
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
    output_format: Annotated[str, format_option("glicko")] = "table",
    output: OutputOpt = None,
) -> None:
    """What Lichess would do with one rated game (Glicko-2, tau 0.75, one game = one period).

    Prints each side's rating, RD and volatility before and after the game, and the ratingDiff
    Lichess shows: trunc(new rating) - trunc(old rating). The ±700 limit, RD bounds 45..500,
    volatility cap 0.1 and rating floor 400 apply as on Lichess.

    Example: lichess-elo glicko 1500/60 1600/80 1-0 --perf blitz --days-black 30
    """
    with library_errors():
        fmt = render.choose_format(output_format, "glicko")
        settings = glicko.GlickoSettings(
            white=glicko.parse_player(white, "white"),
            black=glicko.parse_player(black, "black"),
            white_score=glicko.parse_white_score(result),
            perf=perf,
            advantage=advantage,
            days_white=_days(days_white, "days_white"),
            days_black=_days(days_black, "days_black"),
            bot=_bot(bot),
        )
        shown = GlickoGame(settings, result, glicko.rate_game(settings))
        render.render("glicko", shown, fmt, target=render.Target.of(output))


def _days(text: str, field: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise Malformed(field, text, "a number of days, e.g. 2 or 30.5") from None


def _bot(text: str | None) -> Color | None:
    if text is None:
        return None
    if text not in COLORS:
        raise UnknownChoice("bot", text, COLORS)
    return "white" if text == "white" else "black"


def register(app: typer.Typer) -> None:
    """Add ``glicko`` to ``app``."""
    app.command("glicko")(glicko_command)
