"""``glicko``: what Lichess's Glicko-2 would do with one rated game."""

from __future__ import annotations

import math
from dataclasses import dataclass

from lichess_elo.core import glicko
from lichess_elo.core.fide import check_choice
from lichess_elo.core.games import COLORS, RATING_MAX, RATING_MIN, Color, parse_score
from lichess_elo.errors import BadInput, Malformed, OutOfRange

#: The colour advantages by name.
ADVANTAGES = tuple(glicko.ADVANTAGE)


@dataclass(frozen=True)
class GlickoSettings:
    """One game to rate: both players before it, White's score and the circumstances.

    Attributes:
        white: White's stored perf (rating, RD at the last game, volatility).
        black: Black's stored perf.
        white_score: 1, 0.5 or 0 from White's side.
        perf: The perf whose rating regulator applies, or ``None`` for none.
        advantage: ``standard``, ``crazyhouse`` or ``none`` (see ``glicko.ADVANTAGE``).
        days_white: Days since White's previous rated game in the perf.
        days_black: The same for Black.
        bot: The colour played by a BOT account, if any.
    """

    white: glicko.Rating
    black: glicko.Rating
    white_score: float
    perf: str | None = None
    advantage: str = "standard"
    days_white: float = 0.0
    days_black: float = 0.0
    bot: Color | None = None

    def check(self) -> None:
        """Check every value before any work.

        Raises:
            BadInput: a rating outside 0..4000, an RD or volatility not above 0, a score
                other than 1/0.5/0, negative or infinite days, an unknown advantage, perf
                or BOT colour.
        """
        for field, player in (("white", self.white), ("black", self.black)):
            check_player(player, field)
        if self.white_score not in (0.0, 0.5, 1.0):
            raise BadInput("must be 1, 0.5 or 0", field="score", value=self.white_score)
        for field, days in (("days_white", self.days_white), ("days_black", self.days_black)):
            if not 0 <= days < math.inf:
                raise BadInput("must be 0 or more", field=field, value=days)
        check_choice("advantage", self.advantage, ADVANTAGES)
        if self.bot is not None:
            check_choice("bot", self.bot, COLORS)
        glicko.regulator_factor(self.perf)


def check_player(player: glicko.Rating, field: str) -> None:
    """Check one side: every number finite, rating within 0..4000, RD and volatility above 0.

    Raises:
        BadInput: naming ``field`` (``white`` or ``black``) and the bad number.
    """
    values = (player.rating, player.deviation, player.volatility)
    if not all(math.isfinite(v) for v in values):
        raise BadInput("numbers must be finite", field=field, value=values)
    if not RATING_MIN <= player.rating <= RATING_MAX:
        raise OutOfRange(f"{field}_rating", player.rating, RATING_MIN, RATING_MAX)
    if player.deviation <= 0:
        raise BadInput("RD must be above 0", field=field, value=player.deviation)
    if player.volatility <= 0:
        raise BadInput("volatility must be above 0", field=field, value=player.volatility)


def parse_player(text: str, field: str) -> glicko.Rating:
    """Parse ``RATING/RD[/VOLATILITY]`` (volatility defaults to 0.09), then check it.

    Raises:
        Malformed: not two or three numbers separated by ``/``.
        BadInput: a value out of range (``check_player``).
    """
    parts = text.strip().split("/")
    try:
        if len(parts) not in (2, 3):
            raise ValueError(text)
        values = [float(p) for p in parts]
    except ValueError:
        raise Malformed(field, text.strip(), "RATING/RD[/VOLATILITY] like 1500/60") from None
    volatility = values[2] if len(values) == 3 else glicko.DEFAULT.volatility
    player = glicko.Rating(values[0], values[1], volatility)
    check_player(player, field)
    return player


def parse_white_score(text: str) -> float:
    """White's score from a result in any accepted spelling (``1-0``, ``½-½``, ``0:1``...)."""
    return float(parse_score(text, "result"))


def rate_game(settings: GlickoSettings) -> tuple[glicko.SideResult, glicko.SideResult]:
    """Check ``settings`` and rate the game as lila does (``glicko.lichess_game``)."""
    settings.check()
    return glicko.lichess_game(
        settings.white,
        settings.black,
        settings.white_score,
        perf=settings.perf,
        advantage=glicko.ADVANTAGE[settings.advantage],
        days_white=settings.days_white,
        days_black=settings.days_black,
        bot=settings.bot,
    )
