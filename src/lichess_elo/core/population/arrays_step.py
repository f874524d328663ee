"""``db rate``'s monthly FIDE step over numpy arrays: the same month as ``stages.step_sql``
rates in SQL, with every rule evaluated from the same expressions
(``core/fide/expressions.py``), and the engine as the loop.

Players are dense integer keys (``pid``: one per name and perf, given at ``db ingest``), so
the list is a handful of arrays indexed by key (``ListState``) and a month is:

1. the compressions the month carries, over every listed player (``rulebook_sql.adjusted``);
2. its newcomers entered at their seed: the ``...Elo`` of their first game (smallest
   ``ord``) of the perf (``MonthStep.seed``);
3. each side of each game rated against the list at the month's start: the 600/2600 rule,
   the 400-point rule, table 8.1.2 by lookup, summed per player and chapter
   (``MonthStep.add``, in chunks of games: partial sums are added up, so a month need not
   be held whole);
4. once per event, the upgrade of the 400-point rule kept for the one game with the
   greatest difference (then the earliest) of each player, chapter and event: each
   chunk rates every game without it and keeps the few games where it would apply, with
   the difference it makes, for ``finish`` to add to the winners;
5. K by the player's state, the 700 rule and the rounding per chapter part; the parts
   summed into the player's month, K and edition the main part's (most games, then the
   earliest game) (``MonthStep.finish``), and the list moved on.

Arithmetic is in whole hundredths, as in SQL: every executor gives the same integers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from lichess_elo.core.expr.arrays import evaluate
from lichess_elo.core.expr.nodes import Col, Expr, lit
from lichess_elo.core.fide import expressions as fx
from lichess_elo.core.fide.editions import Edition
from lichess_elo.core.population import rulebook_sql, stages
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.stages import Opponents

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
#: The Lichess rating of a player with none yet (SQL's NULL).
NO_RATING = -1
_LAST = np.iinfo(np.int64).max

#: The columns of a chunk of games (``MonthStep.add``): the players' keys, White's score
#: in hundredths, the order, whether the standard chapter rates the game, both ratings
#: before and after the game (``...Elo`` plus the rating diff, 0 when none), and, under
#: the once-per-event rule only, the event's number (-1: none).
CHUNK_COLUMNS = ("white", "black", "score", "ord", "standard", "white_elo", "black_elo",
                 "white_after", "black_after")  # fmt: skip
Chunk = Mapping[str, npt.NDArray[Any]]


def _pd_by_d() -> Ints:
    """PD in hundredths for D = -736 .. 736 (at D + 736): the L column below 0, the H
    column from 0 (``stages.pd_rows``: table 8.1.2, 736 standing for every |D| > 735)."""
    rows = np.array(list(stages.pd_rows()), dtype=np.int64)
    return np.concatenate((rows[:0:-1, 2], rows[:, 1]))


_PD_BY_D = _pd_by_d()


def expected(d: Ints) -> Ints:
    """PD of table 8.1.2 in hundredths for each (capped) D: the H column for D >= 0, the
    L column below, every |D| beyond 735 as 736."""
    beyond = stages.PD_BEYOND
    return _PD_BY_D[np.clip(d, -beyond, beyond) + beyond]


@dataclass
class ListState:
    """The list at the start of a month, by player key: rating, rated games before,
    highest rating so far, last Lichess rating (``NO_RATING``), whether the player has
    entered, and whether the standard chapter rates the key's perf."""

    rating: Ints
    games_before: Ints
    peak: Ints
    lichess: Ints
    listed: Bools
    standard: Bools

    @classmethod
    def empty(cls, standard: Bools) -> ListState:
        """Nobody listed yet; ``standard`` per key."""
        size = len(standard)
        zeros = np.zeros(size, dtype=np.int64)
        return cls(zeros, zeros.copy(), zeros.copy(), np.full(size, NO_RATING, np.int64),
                   np.zeros(size, dtype=np.bool_), standard)  # fmt: skip

    def compress(self, rules: MonthRules) -> None:
        """The month's compressions over every listed player with rated games."""
        if not rules.compressions:
            return
        chosen = np.flatnonzero(self.listed & (self.games_before > 0))
        done = evaluate(
            rulebook_sql.adjusted(rules.compressions, Col("standard"), Col("rating")),
            {"standard": self.standard[chosen], "rating": self.rating[chosen]},
        )
        self.rating[chosen] = done
        self.peak[chosen] = np.maximum(self.peak[chosen], done)


def group(keys: Ints, scratch: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int32], Ints]:
    """Each row's group among equal ``keys`` (0..g-1, in the order of the groups' rows
    ``heads``) and one row of each group, with ``scratch`` (int32, at least max(keys) + 1
    long) as the hash: every row writes its number at its key, and the row whose number
    stays there stands for the group. No sort; 32-bit numbers (a chunk holds fewer than
    2^31 rows) halve the memory traffic of the scattered writes."""
    rows = np.arange(len(keys), dtype=np.int32)
    scratch[keys] = rows
    rep = scratch[keys]
    heads = np.flatnonzero(rep == rows)
    number = np.empty(len(keys), dtype=np.int32)
    number[heads] = np.arange(len(heads), dtype=np.int32)
    return number[rep], heads


@dataclass
class _Parts:
    """Sums per player and chapter (key = pid x 2 + standard)."""

    key: Ints
    n: Ints
    points: Ints
    expected: Ints
    first_ord: Ints
    last_ord: Ints
    last_lichess: Ints

    @classmethod
    def reduce(cls, rows: _Parts, scratch: npt.NDArray[np.int32]) -> _Parts:
        """The rows with equal keys added up (ords: first and last; Lichess: the last)."""
        inv, heads = group(rows.key, scratch)
        count = len(heads)
        first = np.full(count, _LAST, dtype=np.int64)
        np.minimum.at(first, inv, rows.first_ord)
        last = np.full(count, -1, dtype=np.int64)
        np.maximum.at(last, inv, rows.last_ord)
        lichess = np.empty(count, dtype=np.int64)
        at_last = rows.last_ord == last[inv]
        lichess[inv[at_last]] = rows.last_lichess[at_last]

        def total(values: Ints) -> Ints:
            return np.bincount(inv, weights=values, minlength=count).astype(np.int64)

        return cls(rows.key[heads], total(rows.n), total(rows.points), total(rows.expected),
                   first, last, lichess)  # fmt: skip

    @classmethod
    def joined(cls, parts: list[_Parts]) -> _Parts:
        """All rows of ``parts`` in one."""
        names = ("key", "n", "points", "expected", "first_ord", "last_ord", "last_lichess")
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in names))


@dataclass
class _Upgrades:
    """Games where the once-per-event upgrade would apply: their part key, event, D,
    order and the expected score it adds (hundredths)."""

    key: list[Ints] = field(default_factory=list)
    event: list[Ints] = field(default_factory=list)
    diff: list[Ints] = field(default_factory=list)
    ord: list[Ints] = field(default_factory=list)
    delta: list[Ints] = field(default_factory=list)

    def winners(self) -> tuple[Ints, Ints]:
        """(part key, delta) of the game each part's event keeps: the greatest D, then the
        earliest."""
        if not self.key:
            return np.empty(0, np.int64), np.empty(0, np.int64)
        key, event, diff, order, delta = (
            np.concatenate(x) for x in (self.key, self.event, self.diff, self.ord, self.delta)
        )
        sort = np.lexsort((order, -diff, event, key))
        key, event = key[sort], event[sort]
        first = np.ones(len(key), dtype=np.bool_)
        first[1:] = (key[1:] != key[:-1]) | (event[1:] != event[:-1])
        return key[first], delta[sort][first]


def _by_chapter(rules: MonthRules, standard: Expr, build: Callable[[Edition], Expr]) -> Expr:
    """A rule built for each chapter's edition, chosen by ``standard``."""
    return fx.by_chapter(standard, build(rules.standard), build(rules.rapid_blitz))


@dataclass
class MonthRows:
    """The month's rows of ``lists`` (``schema.LISTS_COLUMNS`` without perf, name and
    month): one per player with rated games, by key ``pid``; ``lichess_rating`` and
    ``next_lichess`` hold ``NO_RATING`` for none; ``standard_main`` says which chapter's
    edition rated the main part."""

    columns: dict[str, npt.NDArray[Any]]


class MonthStep:
    """One month of ``rules`` over ``state``: ``seed`` every chunk, then ``add`` every
    chunk, then ``finish`` (which moves ``state`` on)."""

    def __init__(self, state: ListState, rules: MonthRules, opponents: Opponents) -> None:
        self.state, self.rules, self.opponents = state, rules, opponents
        size = len(state.rating)
        self._scratch = np.empty(2 * size + 2, dtype=np.int32)
        self._parts: list[_Parts] = []
        self._upgrades = _Upgrades()
        self._new_pid: list[Ints] = []
        self._new_ord: list[Ints] = []
        self._new_elo: list[Ints] = []
        self.per_event = rulebook_sql.per_event(rules)
        std, own, opp = Col("standard"), Col("own"), Col("opp")
        self._not_rated = (
            _by_chapter(rules, std, lambda e: fx.not_rated(e, own, opp))
            if rulebook_sql.has_rule_600(rules)
            else None
        )
        self._capped = [self._capped_at(rank) for rank in (1, 2)]
        state.compress(rules)

    def _capped_at(self, rank: int) -> Expr:
        """D after the 400-point rule for a game of place ``rank`` in its event."""
        own, diff = Col("own"), Col("diff")
        return _by_chapter(
            self.rules, Col("standard"), lambda e: fx.capped_difference(e, own, diff, lit(rank))
        )

    def seed(self, chunk: Chunk) -> None:
        """Note the chunk's sides of players not yet listed (their seed is the rating of
        their first game of the month, wherever it falls): the first side of each such
        player in the chunk, so what is kept grows with the players, not the games."""
        pids, orders, elos = [], [], []
        for side in ("white", "black"):
            pid = chunk[side].astype(np.int64, copy=False)
            new = ~self.state.listed[pid]
            if new.any():
                pids.append(pid[new])
                orders.append(chunk["ord"][new].astype(np.int64, copy=False))
                elos.append(chunk[f"{side}_elo"][new].astype(np.int64, copy=False))
        if pids:
            pid, order, elo = np.concatenate(pids), np.concatenate(orders), np.concatenate(elos)
            self._new_pid.append(pid)
            self._new_ord.append(order)
            self._new_elo.append(elo)
            self._firsts()

    def _firsts(self) -> None:
        """The newcomers noted so far, reduced to each one's first side."""
        pid, order, elo = (np.concatenate(x) for x in (self._new_pid, self._new_ord, self._new_elo))
        inv, heads = group(pid, self._scratch)
        first = np.full(len(heads), _LAST, dtype=np.int64)
        np.minimum.at(first, inv, order)
        seed = np.empty(len(heads), dtype=np.int64)
        at_first = order == first[inv]
        seed[inv[at_first]] = elo[at_first]
        self._new_pid, self._new_ord, self._new_elo = [pid[heads]], [first], [seed]

    def enter(self) -> Ints:
        """List the newcomers at their seeds (after every chunk is seeded); return their keys."""
        if not self._new_pid:
            return np.empty(0, np.int64)
        self._firsts()
        (keys,), (seed,) = self._new_pid, self._new_elo
        s = self.state
        s.rating[keys] = s.peak[keys] = seed
        s.games_before[keys] = 0
        s.lichess[keys] = NO_RATING
        s.listed[keys] = True
        self._new_pid, self._new_ord, self._new_elo = [], [], []
        return keys

    def add(self, chunk: Chunk) -> None:
        """Rate both sides of a chunk of the month's games against the list at its start."""
        s = self.state
        white = chunk["white"].astype(np.int64, copy=False)
        black = chunk["black"].astype(np.int64, copy=False)
        rw, rb = s.rating[white], s.rating[black]
        if self.opponents == "list":
            ow, ob = rb, rw
        else:
            ow = chunk["black_elo"].astype(np.int64, copy=False)
            ob = chunk["white_elo"].astype(np.int64, copy=False)
        score = chunk["score"].astype(np.int64, copy=False)
        cols: dict[str, npt.NDArray[Any]] = {
            "pid": np.concatenate((white, black)),
            "own": np.concatenate((rw, rb)),
            "opp": np.concatenate((ow, ob)),
            "s": np.concatenate((score, 100 - score)),
            "ord": np.concatenate((chunk["ord"], chunk["ord"])).astype(np.int64, copy=False),
            "after": np.concatenate((chunk["white_after"], chunk["black_after"])).astype(
                np.int64, copy=False
            ),
            "standard": np.concatenate((chunk["standard"], chunk["standard"])),
        }
        if self.per_event:
            cols["event"] = np.concatenate((chunk["event"], chunk["event"]))
        if self._not_rated is not None:
            left_out = np.broadcast_to(evaluate(self._not_rated, cols), cols["pid"].shape)
            if left_out.any():
                cols = {k: v[~left_out] for k, v in cols.items()}
        cols["diff"] = cols["own"] - cols["opp"]
        d2 = np.broadcast_to(evaluate(self._capped[1], cols), cols["diff"].shape)
        e2 = expected(d2)
        key = cols["pid"] * 2 + cols["standard"]
        if self.per_event:
            d1 = np.broadcast_to(evaluate(self._capped[0], cols), d2.shape)
            moved = np.flatnonzero(d1 != d2)
            if len(moved):
                up = self._upgrades
                up.key.append(key[moved])
                up.event.append(cols["event"][moved].astype(np.int64, copy=False))
                up.diff.append(cols["diff"][moved])
                up.ord.append(cols["ord"][moved])
                up.delta.append(expected(d1[moved]) - e2[moved])
        ones = np.ones(len(key), dtype=np.int64)
        side = _Parts(key, ones, cols["s"], e2, cols["ord"], cols["ord"], cols["after"])
        self._parts.append(_Parts.reduce(side, self._scratch))
        if len(self._parts) > 1:  # the month's sums so far in one: they grow with the players
            self._parts = [_Parts.reduce(_Parts.joined(self._parts), self._scratch)]

    def finish(self) -> MonthRows:
        """The month's rows, and the list moved on to the next month."""
        if not self._parts:
            return MonthRows({})
        (parts,) = self._parts
        self._parts = []
        won_key, won_delta = self._upgrades.winners()
        if len(won_key):
            self._scratch[parts.key] = np.arange(len(parts.key), dtype=np.int32)
            np.add.at(parts.expected, self._scratch[won_key], won_delta)
        return self._rows(parts)

    def _rows(self, p: _Parts) -> MonthRows:
        s, rules = self.state, self.rules
        pid, std = p.key // 2, (p.key % 2).astype(np.bool_)
        std_col = Col("standard")
        values = {"standard": std, "peak": s.peak[pid], "gb": s.games_before[pid], "n": p.n}
        k = evaluate(_by_chapter(rules, std_col, lambda e: fx.k(e, Col("peak"), Col("gb"))), values)
        values["k"] = np.broadcast_to(k, pid.shape).astype(np.int64)
        k_used = evaluate(
            _by_chapter(rules, std_col, lambda e: fx.k_limited(e, Col("k"), Col("n"))), values
        )
        k_used = np.broadcast_to(k_used, pid.shape).astype(np.int64)
        change = evaluate(fx.rounded_change(Col("x")), {"x": k_used * (p.points - p.expected)})
        change = np.asarray(change, dtype=np.int64)
        # The parts of one player: the first part of each pid stands for it, a second
        # (the other chapter) is added to it; the main part has the most games, then the
        # earliest first game.
        inv, heads = group(pid, self._scratch)
        is_head = np.zeros(len(pid), dtype=np.bool_)
        is_head[heads] = True
        other = np.flatnonzero(~is_head)
        head_of_other = heads[inv[other]]
        main = heads[inv].copy()  # the main part of each row's player
        swap = (p.n[other] > p.n[head_of_other]) | (
            (p.n[other] == p.n[head_of_other]) & (p.first_ord[other] < p.first_ord[head_of_other])
        )
        main[head_of_other[swap]] = other[swap]
        later = p.last_ord[other] > p.last_ord[head_of_other]
        last_part = np.arange(len(pid))
        last_part[head_of_other[later]] = other[later]

        def summed(values: Ints) -> Ints:
            out = values[heads].copy()
            np.add.at(out, inv[other], values[other])
            return out

        m = main[heads]
        who = pid[heads]
        games, points, exp, moved = (
            summed(p.n),
            summed(p.points),
            summed(p.expected),
            summed(change),
        )
        last_lichess = p.last_lichess[last_part[heads]]
        rating, before, peak, lichess = (
            s.rating[who],
            s.games_before[who],
            s.peak[who],
            s.lichess[who],
        )
        nxt = rating + moved
        next_lichess = np.where(last_lichess != NO_RATING, last_lichess, lichess)
        rows = {
            "pid": who, "rating": rating, "games_before": before, "k": values["k"][m],
            "peak": peak, "lichess_rating": lichess, "games": games, "points": points,
            "expected": exp, "k_used": k_used[m], "change": moved, "next_rating": nxt,
            "next_games_before": before + games, "next_peak": np.maximum(peak, nxt),
            "next_lichess": next_lichess, "standard_main": std[m],
        }  # fmt: skip
        s.rating[who], s.games_before[who] = nxt, before + games
        s.peak[who], s.lichess[who] = rows["next_peak"], next_lichess
        return MonthRows(rows)
