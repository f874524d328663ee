"""Glicko-1 and Stephenson's monthly step (``rivals.py``) as expressions over columns
(``core.expr``), each built from a ``RivalRules`` and written once: ``db rate`` renders them
as SQL for DuckDB and Spark (``population/rivals_sql.py``) and evaluates them over numpy
arrays on one machine (``population/arrays_rivals.py``). ``rivals.period_update`` and
``rivals.track`` stay the readable reference; the differential tests hold every executor to
it (1e-9).

Sums are no expressions: the executor groups ("the engine is the loop"). A track's month is

1. per side of a game, with the player's state at the start of the month beside it:
   the expected score e (``update_expected``: the update's e_j, the opponent at
   ``opponent_rd``), then the summands ``information`` k² e (1 - e) and ``gain``
   k (s - e + b), and the opponent's rating (``OPPONENTS``);
2. the executor sums the summands per player and counts the games (``GAMES``);
3. per player: step 1 (``periods``, ``inflate``), step 3 (``variance``), step 4
   (``next_rating`` with the neighbourhood pull to the opponents' mean, ``next_rd``).

``RivalStep`` holds one track's expressions for one month over the columns it names: the
state ``<key>_r``, ``<key>_rd`` and ``last`` (the month index of the player's last month
with games, -1 before any), the side's ``opp`` and ``score``, the sums ``n``, ``opp_sum``,
``<key>_d`` and ``<key>_gain``, and its own results ``<key>_e``, ``<key>_rd1`` (after step 1)
and ``<key>_v``. Each expression follows ``rivals.py``'s operations in their order, so every
executor does the same arithmetic in doubles (only the order of a sum's terms may differ).
"""

from __future__ import annotations

from dataclasses import dataclass

from lichess_elo.core.expr.nodes import Expr, Lit, case, col, least, lit, power, sqrt, to_double
from lichess_elo.core.report import rivals
from lichess_elo.core.report.rivals import RivalRules

#: The side's opponent's rating (their Lichess rating before the game).
OPPONENT = "opp"
#: The side's score (1, 0.5, 0).
SCORE = "score"
#: The month index of the player's last month with games, -1 before any.
LAST = "last"
#: The player's games of the month (the executor's count).
GAMES = "n"
#: The player's opponents' ratings summed (the executor's sum of ``OPPONENTS``).
OPPONENTS_SUM = "opp_sum"
#: The summand of ``OPPONENTS_SUM``, one a side (shared by every track).
OPPONENTS = to_double(col(OPPONENT))


def k(variance: Expr) -> Expr:
    """k(v) = 1 / sqrt(1 + 3 q² v / π²) (``rivals.k_factor``); a literal variance gives
    the literal k."""
    if isinstance(variance, Lit) and isinstance(variance.value, int | float):
        return lit(rivals.k_factor(float(variance.value)))
    return 1 / sqrt(1 + lit(rivals.K3) * variance)


def _logistic(k_value: Expr, difference: Expr) -> Expr:
    """1 / (1 + 10^(-k x difference / 400)) (``rivals._over_one_plus_ten_to``: an executor
    gives 0 where the power is past the largest double)."""
    return 1 / (1 + power(10.0, -k_value * difference / 400))


def expected(rating: Expr, rd: Expr, opponent: Expr, opponent_rd: Expr, advantage: Expr) -> Expr:
    """The prediction of a game (``rivals.expected``):
    1 / (1 + 10^(-k(RD² + RD_j²)(r - r_j + advantage) / 400))."""
    return _logistic(k(rd * rd + opponent_rd * opponent_rd), rating - opponent + advantage)


def advantage(rules: RivalRules, colour: Expr) -> Expr:
    """The prediction's colour term γ x colour (+1 White, -1 Black)."""
    return lit(rules.white_advantage) * colour


def update_expected(rating: Expr, opponent: Expr, opponent_rd: float) -> Expr:
    """Step 2's e_j = 1 / (1 + 10^(-k(RD_j²)(r - r_j) / 400)), every opponent at
    ``opponent_rd``."""
    return _logistic(k(lit(opponent_rd * opponent_rd)), rating - opponent)


def information(e: Expr, opponent_rd: float) -> Expr:
    """A side's summand of step 2's d (before q²): k(RD_j²)² e (1 - e)."""
    k_opp = k(lit(opponent_rd * opponent_rd))
    return k_opp * k_opp * e * (1 - e)


def gain(rules: RivalRules, e: Expr, score: Expr, opponent_rd: float) -> Expr:
    """A side's summand of step 4: k(RD_j²) (s - e + b)."""
    return k(lit(opponent_rd * opponent_rd)) * (score - e + rules.bonus)


def periods(now: Expr, last: Expr) -> Expr:
    """The rating periods of step 1: the months since ``last``, 1 before any (``last`` < 0)."""
    return case((last < 0, 1), default=now - last)


def inflate(rules: RivalRules, rd: Expr, elapsed: Expr) -> Expr:
    """Step 1 (``rivals.inflate``): sqrt(RD² + c² t) after ``elapsed`` periods t, at most
    ``rd_max``."""
    return least(sqrt(rd * rd + lit(rules.c * rules.c) * elapsed), rules.rd_max)


def variance(rules: RivalRules, rd: Expr, games: Expr, information_sum: Expr) -> Expr:
    """Step 3: v* = 1 / (1 / (RD² + h² m) + q² Σ k² e (1 - e)), ``rd`` after step 1."""
    d = lit(rivals.Q * rivals.Q) * information_sum
    return 1 / (1 / (rd * rd + lit(rules.h * rules.h) * games) + d)


def next_rating(
    rules: RivalRules, rating: Expr, v_star: Expr, gain_sum: Expr, mean_opponent: Expr
) -> Expr:
    """Step 4: r* = r + q v* Σ k (s - e + b) + λ (r̄ - r)."""
    pull = lit(rules.neighbourhood) * (mean_opponent - rating)
    return rating + lit(rivals.Q) * v_star * gain_sum + pull


def next_rd(v_star: Expr) -> Expr:
    """The RD after the month: sqrt(v*)."""
    return sqrt(v_star)


@dataclass(frozen=True)
class RivalStep:
    """One track's month as expressions over named columns (the module's docstring).

    Attributes:
        key: The track's key (``RivalRules.key``), the prefix of its columns.
        expected: Per side: e, the column ``<key>_e``.
        sums: Per side, over ``<key>_e``: each summand and the column its sum per player
            is named (``<key>_d``, ``<key>_gain``).
        rd: Per player: the RD after step 1, the column ``<key>_rd1``.
        variance: Per player, over ``<key>_rd1``: v*, the column ``<key>_v``.
        next_rating: Per player, over ``<key>_v``: the rating after the month.
        next_rd: Per player, over ``<key>_v``: the RD after the month.
    """

    key: str
    expected: Expr
    sums: tuple[tuple[str, Expr], ...]
    rd: Expr
    variance: Expr
    next_rating: Expr
    next_rd: Expr

    def column(self, what: str) -> str:
        """The name of the track's column ``what`` (``r``, ``rd``, ``e``, ``rd1``, ``v``)."""
        return f"{self.key}_{what}"


def rival_step(rules: RivalRules, now: int, opponent_rd: float) -> RivalStep:
    """The expressions of ``rules``' track in the month of index ``now``
    (``months.month_index``), every opponent at ``opponent_rd``."""
    key = rules.key

    def c(what: str) -> Expr:
        return col(f"{key}_{what}")

    games = col(GAMES)
    v = c("v")
    return RivalStep(
        key=key,
        expected=update_expected(c("r"), col(OPPONENT), opponent_rd),
        sums=(
            (f"{key}_d", information(c("e"), opponent_rd)),
            (f"{key}_gain", gain(rules, c("e"), col(SCORE), opponent_rd)),
        ),
        rd=inflate(rules, c("rd"), periods(lit(now), col(LAST))),
        variance=variance(rules, c("rd1"), games, c("d")),
        next_rating=next_rating(rules, c("r"), v, c("gain"), col(OPPONENTS_SUM) / games),
        next_rd=next_rd(v),
    )
