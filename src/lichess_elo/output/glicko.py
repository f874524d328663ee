"""``glicko`` output: both sides before and after the game, as text or JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lichess_elo.core.glicko import ADVANTAGE, regulator_factor

if TYPE_CHECKING:
    from lichess_elo.app.glicko import GlickoSettings
    from lichess_elo.core.glicko import Rating, SideResult


def _glicko_rating(r: Rating) -> dict[str, float]:
    return {"rating": r.rating, "deviation": r.deviation, "volatility": r.volatility}


def glicko_json(white: SideResult, black: SideResult) -> dict[str, Any]:
    """Return the ``glicko`` command's JSON object; ``after`` numbers are unrounded."""
    return {
        color: {
            "before": _glicko_rating(side.before),
            "after": _glicko_rating(side.after),
            "rating_diff": side.rating_diff,
        }
        for color, side in (("white", white), ("black", black))
    }


def _glicko_shown(r: Rating) -> str:
    """The rating as Lichess displays it: truncated, with "?" when provisional."""
    return f"{int(r.rating)}{'?' if r.provisional else ''}"


def glicko_heading(
    result: str, *, perf: str | None, factor: float, advantage: str, points: float, bot: str | None
) -> str:
    """Return the first line of the ``glicko`` table: result, regulator, advantage, BOT."""
    if perf is None:
        regulator = "no perf given, no regulator"
    elif factor == 1.0:
        regulator = f"perf {perf} (no regulator)"
    else:
        regulator = f"perf {perf} (gains x{factor:g})"
    colour = f"colour advantage {points} ({advantage})" if points else "no colour advantage"
    return f"Lichess Glicko-2: {result}, {regulator}, {colour}" + (
        f", {bot} is a BOT" if bot else ""
    )


def glicko_text(
    white: SideResult, black: SideResult, *, heading: str, width: int | None = None
) -> str:
    """Return the ``glicko`` command's table: each side before and after, and the ratingDiff
    (the tables' one style, fitted to ``width``; ``None``: no limit)."""
    from lichess_elo.output.tables import Column, Table, render_table, wrap_words

    columns = [
        Column("", "left"),
        Column("Rating"),
        Column("RD"),
        Column("Volatility", short="Vol."),
        Column("→ Rating", short="→ Rtg"),
        Column("RD after", short="→ RD"),
        Column("Volatility after", short="→ Vol."),
        Column("Lichess shows", "left", short="Shows"),
    ]
    rows = []
    for color, side in (("White", white), ("Black", black)):
        b, a = side.before, side.after
        rows.append(
            [
                color,
                f"{b.rating:.2f}",
                f"{b.deviation:.2f}",
                f"{b.volatility:.6f}",
                f"{a.rating:.2f}",
                f"{a.deviation:.2f}",
                f"{a.volatility:.6f}",
                f"{_glicko_shown(a)} ({side.rating_diff:+d})",
            ]
        )
    table = render_table(Table(columns, rows), width)
    return "\n".join([*wrap_words(heading, width, "  "), "", *table])


def glicko_table(
    settings: GlickoSettings,
    result: str,
    sides: tuple[SideResult, SideResult],
    width: int | None = None,
) -> str:
    """The ``glicko`` table for one rated game, with its heading, fitted to ``width``."""
    white, black = sides
    heading = glicko_heading(
        result.strip(),
        perf=settings.perf,
        factor=regulator_factor(settings.perf),
        advantage=settings.advantage,
        points=ADVANTAGE[settings.advantage],
        bot=settings.bot,
    )
    return glicko_text(white, black, heading=heading, width=width)
