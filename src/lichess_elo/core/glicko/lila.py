"""What lila wraps around the Glicko-2 calculator: live RD, caps, regulator, BOT halving,
the +-700 limit, the sanity reset and the truncated ``ratingDiff``.

Pure code, no I/O; part of ``lichess_elo.core.glicko`` (the names are re-exported there).
"""

from __future__ import annotations

import math
from dataclasses import replace

from lichess_elo.core import arguments as args
from lichess_elo.core.games import COLORS, Color
from lichess_elo.core.glicko.calculator import update
from lichess_elo.core.glicko.rating import (
    DEFAULT,
    MAX_DEVIATION,
    MAX_RATING_DELTA,
    MAX_VOLATILITY,
    MIN_DEVIATION,
    MIN_RATING,
    PERIODS_PER_DAY,
    SCALE,
    Rating,
    SideResult,
    check_numbers,
)
from lichess_elo.core.glicko_tables import ADVANTAGE, regulator_factor
from lichess_elo.errors import BadInput


def _cap(r: Rating) -> Rating:
    """Lila ``GlickoExt.cap``: rating >= 400, RD within 45..500, volatility <= 0.1."""
    return Rating(
        max(r.rating, MIN_RATING),
        min(max(r.deviation, MIN_DEVIATION), MAX_DEVIATION),
        min(r.volatility, MAX_VOLATILITY),
    )


def _sane(r: Rating) -> bool:
    """Lila ``sanityCheck``: 0 < r < 4000, 0 < RD < 1000, 0 < volatility < 0.2."""
    return 0 < r.rating < 4000 and 0 < r.deviation < 1000 and 0 < r.volatility < 2 * MAX_VOLATILITY


def live_deviation(player: Rating, days: float) -> float:
    """Return the RD Lichess uses after ``days`` without a rated game in the perf.

    RD_live = sqrt(RD^2 + 0.21436 * days * (173.7178 * sigma)^2), clamped to 45..500, computed
    from the capped perf (RD within 45..500, volatility at most 0.1) as lila does. Negative
    days deflate the RD (lila's write path); the radicand never goes below 0.
    """
    args.glicko_rating("player", player, Rating)
    check_numbers(days=days)
    capped = _cap(player)
    t = PERIODS_PER_DAY * days
    growth = t * (SCALE * capped.volatility) ** 2
    live = math.sqrt(max(capped.deviation**2 + growth, 0.0))
    return min(max(live, MIN_DEVIATION), MAX_DEVIATION)


def _check_score(score: float) -> None:
    if score not in (0.0, 0.5, 1.0):
        raise BadInput("must be 1, 0.5 or 0", field="score", value=score)


def lichess_game(
    white: Rating,
    black: Rating,
    white_score: float,
    *,
    perf: str | None = None,
    advantage: float = ADVANTAGE["standard"],
    days_white: float = 0,
    days_black: float = 0,
    bot: Color | None = None,
) -> tuple[SideResult, SideResult]:
    """Rate one game the way lila does and return what each side's perf becomes.

    Steps (``docs/lichess.md``): RD grows with the days since each player's last game in the perf;
    the calculator sees capped values (rating >= 400, RD 45..500, volatility <= 0.1); gains are
    multiplied by the perf's regulator factor; a human playing a BOT gets the midpoint of the
    pre- and post-game (rating, RD, volatility); the new rating stays within +-700 of the old
    one; an insane result resets to 1500/500/0.09; the stored value is capped again;
    ``rating_diff`` = trunc(new rating) - trunc(old rating).

    Args:
        white: White's stored perf (rating, RD at the last game, volatility).
        black: Black's stored perf.
        white_score: 1, 0.5 or 0 from White's point of view.
        perf: perf key whose regulator applies (e.g. ``"blitz"``); None applies none.
        advantage: colour advantage in rating points (see :data:`ADVANTAGE`).
        days_white: days since White's previous rated game in this perf (0: no RD growth).
        days_black: the same for Black.
        bot: the colour played by a BOT account, if one side is a BOT.

    Returns:
        (White's SideResult, Black's SideResult).

    Raises:
        BadInput: a score other than 1/0.5/0, negative days or an unknown perf;
            ``WrongType``, ``BadArgument``: an argument of the wrong type or value.
    """
    args.glicko_rating("white", white, Rating)
    args.glicko_rating("black", black, Rating)
    check_numbers(white_score=white_score, advantage=advantage, days_white=days_white)
    check_numbers(days_black=days_black)
    if bot is not None:
        args.choice("bot", bot, COLORS)
    _check_score(white_score)
    if days_white < 0 or days_black < 0:
        raise BadInput("must be 0 or more", field="days", value=min(days_white, days_black))
    factor = regulator_factor(perf)
    loaded = (
        replace(white, deviation=live_deviation(white, days_white)),
        replace(black, deviation=live_deviation(black, days_black)),
    )
    pre = (_cap(loaded[0]), _cap(loaded[1]))
    post = update(pre[0], pre[1], white_score, advantage=advantage)
    sides: list[SideResult] = []
    for color, old, before, after in zip(COLORS, loaded, pre, post, strict=True):
        if factor != 1.0 and after.rating > before.rating:
            after = replace(
                after, rating=after.rating + (after.rating - before.rating) * (factor - 1)
            )
        if bot is not None and bot != color:
            after = Rating(
                (after.rating + before.rating) / 2,
                (after.deviation + before.deviation) / 2,
                (after.volatility + before.volatility) / 2,
            )
        clamped = min(
            max(after.rating, old.rating - MAX_RATING_DELTA), old.rating + MAX_RATING_DELTA
        )
        new = replace(after, rating=clamped)
        stored = _cap(new if _sane(new) else DEFAULT)
        diff = math.trunc(stored.rating) - math.trunc(old.rating)
        sides.append(SideResult(before=old, after=stored, rating_diff=diff))
    return sides[0], sides[1]
