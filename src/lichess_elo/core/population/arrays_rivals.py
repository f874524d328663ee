"""The Glicko-1 and Stephenson tracks' monthly step over numpy arrays, for ``db rate`` on
one machine: the same expressions as the SQL of ``rivals_sql`` (``rival_expressions``,
evaluated by ``core.expr.arrays``), with the grouping done here (``numpy.unique`` and
``numpy.bincount``: "the engine is the loop"). Pure: no I/O.

The semantics are ``rivals_sql``'s (``rivals_initial_sql``, ``rivals_step_sql``,
``rivals_advance_sql``): a player's state is each track's rating and RD after their last
month with games and the month index of that month (``last``, -1 before any); a month's
games are predicted from it with the RD grown by step 1 for the months since ``last`` (1 in
the first month), and steps 2 to 4 give the state after the month. Every opponent is at
their Lichess rating before the game, with the established RD (``rivals_sql.LICHESS_RD``).

Players are dense integer keys (``pid``, 0 to size - 1), as the engine numbers them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from lichess_elo.core.expr.arrays import evaluate
from lichess_elo.core.months import month_index
from lichess_elo.core.population.arrays_step import group
from lichess_elo.core.population.rivals_sql import LICHESS_RD, tracks
from lichess_elo.core.report import rival_expressions as rx
from lichess_elo.core.report.rivals import RivalRules

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class RivalState:
    """Every player's state between months: per track key, rating ``r`` and ``rd``
    (float64, NaN for a player not entered yet), and ``last`` (int64, the month index of
    the last month with games, -1 before any), all indexed by pid."""

    def __init__(self, rules: Sequence[RivalRules], size: int) -> None:
        self.rules: tuple[RivalRules, ...] = tuple(rules)
        self.r: dict[str, Floats] = {t.key: np.full(size, np.nan) for t in self.rules}
        self.rd: dict[str, Floats] = {t.key: np.full(size, np.nan) for t in self.rules}
        self.last: Ints = np.full(size, -1, dtype=np.int64)
        #: The grouping's hash (``arrays_step.group``), one slot a pid.
        self.scratch: Ints = np.empty(size, dtype=np.int64)

    @classmethod
    def empty(cls, size: int, rules: Sequence[RivalRules] | None = None) -> RivalState:
        """A state for ``size`` pids, none entered; ``rules`` the tracks (default
        ``rivals_sql.tracks()``: every registered contender's)."""
        return cls(tracks() if rules is None else rules, size)

    @property
    def size(self) -> int:
        """How many pids the state holds."""
        return int(self.last.size)

    def grow(self, size: int) -> None:
        """Room for pids up to ``size`` - 1; the new ones are not entered.

        Raises:
            ValueError: ``size`` is below the current size.
        """
        more = size - self.size
        if more < 0:
            raise ValueError(f"cannot shrink the rival state from {self.size} to {size} players")
        for key in self.r:
            self.r[key] = np.concatenate([self.r[key], np.full(more, np.nan)])
            self.rd[key] = np.concatenate([self.rd[key], np.full(more, np.nan)])
        self.last = np.concatenate([self.last, np.full(more, -1, dtype=np.int64)])

    def enter(self, pids: npt.ArrayLike, seeds: npt.ArrayLike) -> None:
        """Newcomers (``rivals_initial_sql``): each track at the seed (the Lichess rating of
        the player's first game), the established RD, no month yet."""
        at = np.asarray(pids, dtype=np.int64)
        rating = np.asarray(seeds, dtype=np.float64)
        for key in self.r:
            self.r[key][at] = rating
            self.rd[key][at] = float(LICHESS_RD)
        self.last[at] = -1


def _summed(inverse: Ints, values: object, players: int, sides: int) -> Floats:
    """``values`` (one a side, or one number for every side) summed per player."""
    weights = np.broadcast_to(np.asarray(values, dtype=np.float64), (sides,))
    return np.bincount(inverse, weights=weights, minlength=players).astype(np.float64)


def rivals_month(
    state: RivalState,
    month: int,
    pid: npt.ArrayLike,
    opp: npt.ArrayLike,
    score: npt.ArrayLike,
) -> dict[str, np.ndarray]:
    """One month of every track (``rivals_step_sql`` then ``rivals_advance_sql``).

    ``month`` is YYYYMM; ``pid``, ``opp`` and ``score`` hold one row per side of the
    month's games: the side's pid, the opponent's Lichess rating before the game, the
    side's score (1.0, 0.5, 0.0). Returns one row per pid with games (in the order of
    their first side): ``pid``, ``games`` and per track the columns of ``rivals_sql.rival_columns``
    (the rating and RD the games are predicted from, then after the month); ``state``
    becomes the state after the month.

    Raises:
        ValueError: a pid outside the state, or one that was never entered.
    """
    now = month_index(month // 100, month % 100)
    side_pid = np.asarray(pid, dtype=np.int64)
    if side_pid.size and (side_pid.min() < 0 or side_pid.max() >= state.size):
        raise ValueError(f"a pid of month {month} is outside the {state.size} players")
    if len(state.scratch) < state.size:
        state.scratch = np.empty(state.size, dtype=np.int64)
    inverse, heads = group(side_pid, state.scratch)
    players = side_pid[heads]
    count, n = players.size, side_pid.size
    sides: dict[str, object] = {
        rx.OPPONENT: np.asarray(opp, dtype=np.float64),
        rx.SCORE: np.asarray(score, dtype=np.float64),
    }
    games = np.bincount(inverse, minlength=count).astype(np.int64)
    per_player: dict[str, object] = {
        rx.GAMES: games,
        rx.LAST: state.last[players],
        rx.OPPONENTS_SUM: _summed(inverse, evaluate(rx.OPPONENTS, sides), count, n),
    }
    out: dict[str, np.ndarray] = {"pid": players, "games": games}
    after: list[tuple[str, Floats, Floats]] = []
    with np.errstate(over="ignore"):  # 10^x past the largest double: e = 0, as the reference
        for rules in state.rules:
            step = rx.rival_step(rules, now, LICHESS_RD)
            rating = state.r[rules.key][players]
            if np.isnan(rating).any():
                raise ValueError(f"a player of month {month} was never entered")
            sides[step.column("r")] = rating[inverse]
            sides[step.column("e")] = evaluate(step.expected, sides)
            for name, summand in step.sums:
                per_player[name] = _summed(inverse, evaluate(summand, sides), count, n)
            per_player[step.column("r")] = rating
            per_player[step.column("rd")] = state.rd[rules.key][players]
            per_player[step.column("rd1")] = evaluate(step.rd, per_player)
            per_player[step.column("v")] = evaluate(step.variance, per_player)
            new = np.asarray(evaluate(step.next_rating, per_player), dtype=np.float64)
            new_rd = np.asarray(evaluate(step.next_rd, per_player), dtype=np.float64)
            out[f"{rules.key}_rating"] = rating
            out[f"{rules.key}_rd"] = np.asarray(per_player[step.column("rd1")], dtype=np.float64)
            out[f"{rules.key}_next_rating"] = new
            out[f"{rules.key}_next_rd"] = new_rd
            after.append((rules.key, new, new_rd))
    for key, new, new_rd in after:
        state.r[key][players] = new
        state.rd[key][players] = new_rd
    state.last[players] = now
    return out
