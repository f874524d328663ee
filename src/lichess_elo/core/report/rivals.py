"""Glicko-1 and Stephenson's rating as scorecard contenders: online, monthly, nothing fitted.

Both run on the player's own counted games of a perf, oldest first, with calendar months
(UTC) as rating periods. Every game of a month is predicted from the player's rating and RD
at the end of the previous month, with the RD grown by step 1 below for the months since
(known before the month), so no game sees its own result or a later one.
Opponents are taken at their pre-game Lichess rating, with the RD the scorecard derives
from the provisional flag (``predictions.opponent_deviation``: 60 or 110).

One engine serves both, as in the R package PlayerRatings, whose ``steph`` "is written so
that Glicko is obtained as a special case upon setting all of the parameters hval, bval
and lambda to zero" (``man/steph.Rd``; the algorithm is the appendix "Stephenson System"
of its vignette ``ChessRatings.Rnw``, the C loop ``stephenson_c`` in ``src/ratings.c``).
With q = ln 10 / 400, k(v) = 1 / sqrt(1 + 3 q² v / π²), a month of m games against
opponents (r_j, v_j) with scores s_j:

1. v = min(v + c² t, 350²), t the months since the player last played (1 after a month
   with games, and in the first month);
2. e_j = 1 / (1 + 10^(-k(v_j) (r - r_j) / 400)), d = q² Σ k(v_j)² e_j (1 - e_j);
3. v* = 1 / (1 / (v + h² m) + d);
4. r* = r + q v* Σ k(v_j) (s_j - e_j + b) + λ (r̄ - r), r̄ the opponents' mean rating.

The prediction of a game is PlayerRatings' ``predict.rating`` (the vignette's "Prediction"),
on the RD after step 1:
E = 1 / (1 + 10^(-k(v + v_j) (r - r_j + γ w) / 400)), w = +1 as White, -1 as Black.

The starting point of both is the player's Lichess rating before the perf's first counted
game, with the RD the same rule gives the player as any Lichess rating (60, or 110 when
provisional): every Lichess rating in the scorecard has one RD rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from lichess_elo.core.months import month_index
from lichess_elo.core.value import value_class

__all__ = [
    "GLICKO1",
    "GLICKO1_C",
    "K3",
    "RD_MAX",
    "STEPHENSON",
    "STEPHENSON_WHITE_ADVANTAGE",
    "Opponent",
    "Q",
    "RivalRules",
    "TrackGame",
    "expected",
    "inflate",
    "k_factor",
    "month_index",
    "period_update",
    "track",
]

Q = math.log(10) / 400
"""Glickman's q = ln 10 / 400."""
K3 = 3 * Q * Q / (math.pi * math.pi)
"""k(v) = 1 / sqrt(1 + K3 v): K3 = 3 q² / π²."""

RD_MAX = 350.0
"""The ceiling of the RD (Glickman 1999's unrated RD; PlayerRatings' ``rdmax``)."""
GLICKO1_C = math.sqrt((350.0**2 - 50.0**2) / 100)
"""Glicko-1's c, by Glickman's own rule in "The Glicko system" (step 1): a typical RD of 50
returns to 350 after 100 rating periods without games, c = sqrt((350² - 50²) / 100) = 34.64
(here a period is a month: about 8 years)."""
STEPHENSON_WHITE_ADVANTAGE = 30.0
"""γ of PlayerRatings' ``predict`` (its default, "roughly optimal across all systems" on
the FIDE data of the vignette), applied to standard chess only."""


@dataclass(frozen=True)
class RivalRules:
    """The constants of one contender (PlayerRatings' ``steph`` arguments, on its scale).

    ``c`` and ``h`` are ``cval`` and ``hval`` (RD points), ``bonus`` is ``bval / 100``,
    ``neighbourhood`` is ``lambda / 100``; ``white_advantage`` is the prediction's γ.
    """

    key: str
    c: float
    h: float = 0.0
    bonus: float = 0.0
    neighbourhood: float = 0.0
    white_advantage: float = 0.0
    rd_max: float = RD_MAX


GLICKO1 = RivalRules("glicko1", c=GLICKO1_C)
"""Glicko-1 (Glickman 1999): c by Glickman's rule, no colour term, RD at most 350."""
STEPHENSON = RivalRules(
    "stephenson",
    c=10.0,
    h=10.0,
    bonus=0.0,
    neighbourhood=0.02,
    white_advantage=STEPHENSON_WHITE_ADVANTAGE,
)
"""Stephenson's rating with PlayerRatings' published defaults: ``cval=10, hval=10, bval=0,
lambda=2, gamma=0`` for the update (``rdmax=350``), and ``predict``'s ``gamma=30``."""


@value_class  # frozen for mypy; built as fast as a plain slotted dataclass (one a game)
class Opponent:
    """One game of a rating period from the player's side: the opponent's rating and RD,
    the player's score (1, 0.5, 0) and colour sign (+1 White, -1 Black, 0 unknown)."""

    rating: float
    rd: float
    score: float
    colour: int = 0


def k_factor(variance: float) -> float:
    """k(v) = 1 / sqrt(1 + 3 q² v / π²), v a variance (RD²)."""
    return 1.0 / math.sqrt(1.0 + K3 * variance)


_k = k_factor


def expected(
    rating: float, rd: float, opponent: float, opponent_rd: float, advantage: float = 0.0
) -> float:
    """The predicted score: 1/(1 + 10^(-k(RD² + RD_j²)(r - r_j + advantage)/400))."""
    k = _k(rd * rd + opponent_rd * opponent_rd)
    return _over_one_plus_ten_to(-k * (rating - opponent + advantage) / 400.0)


def _over_one_plus_ten_to(x: float) -> float:
    """1/(1 + 10^x); 0.0 where 10^x is past the largest double (x > 308.25: a track run
    far away, e.g. Stephenson's over thousands of games a month), not an OverflowError."""
    try:
        return 1.0 / (1.0 + math.pow(10.0, x))
    except OverflowError:
        return 0.0


def inflate(rd: float, periods: int, rules: RivalRules) -> float:
    """Step 1: the RD after ``periods`` (>= 0) rating periods, sqrt(RD² + c² t), at most
    ``rd_max``."""
    return min(math.sqrt(rd * rd + rules.c * rules.c * periods), rules.rd_max)


def period_update(
    rating: float, rd: float, games: Sequence[Opponent], rules: RivalRules
) -> tuple[float, float]:
    """Steps 2 to 4: the rating and RD after one period's ``games`` from ``rd`` (already
    through step 1). No games: nothing changes."""
    if not games:
        return rating, rd
    v = rd * rd
    d = 0.0
    gain = 0.0
    bonus = rules.bonus
    ks: dict[float, float] = {}  # k(v_j) by opponent RD: the scorecard's RDs are two values
    for g in games:
        k = ks.get(g.rd)
        if k is None:
            k = ks[g.rd] = _k(g.rd * g.rd)
        e = _over_one_plus_ten_to(-k * (rating - g.rating) / 400.0)
        d += k * k * e * (1.0 - e)
        gain += k * (g.score - e + bonus)
    d *= Q * Q
    m = len(games)
    v_new = 1.0 / (1.0 / (v + rules.h * rules.h * m) + d)
    mean_opponent = sum(g.rating for g in games) / m
    new = rating + Q * v_new * gain + rules.neighbourhood * (mean_opponent - rating)
    return new, math.sqrt(v_new)


@value_class  # frozen for mypy; built as fast as a plain slotted dataclass (one a game)
class TrackGame:
    """What a contender's track needs of one counted game."""

    month: int
    opponent: Opponent
    white_advantage: bool
    """Whether the prediction's colour term applies (standard chess)."""


def track(
    games: Sequence[TrackGame], start: float, start_rd: float, rules: RivalRules
) -> list[float]:
    """The predicted score of every game (oldest first): each from the rating at the end of
    the month before it and the RD at the start of its month (step 1, which needs only the
    months elapsed); ``start``/``start_rd`` before the first month."""
    out: list[float] = []
    rating, rd = start, start_rd
    last: int | None = None
    advantage = rules.white_advantage
    i = 0
    while i < len(games):
        month = games[i].month
        j = i
        while j < len(games) and games[j].month == month:
            j += 1
        batch = [g.opponent for g in games[i:j]]
        rd = inflate(rd, 1 if last is None else month - last, rules)
        v = rd * rd
        ks: dict[float, float] = {}  # ``expected``'s k(RD² + RD_j²) by opponent RD
        for g, o in zip(games[i:j], batch, strict=True):
            k = ks.get(o.rd)
            if k is None:
                k = ks[o.rd] = _k(v + o.rd * o.rd)
            gamma = advantage * o.colour if g.white_advantage else 0.0
            out.append(_over_one_plus_ten_to(-k * (rating - o.rating + gamma) / 400.0))
        rating, rd = period_update(rating, rd, batch, rules)
        last = month
        i = j
    return out
