"""Each FIDE rule written once (``core/fide/expressions.py``) and run by every executor:
rendered to SQL and run by DuckDB, and evaluated over numpy arrays; both must give what the
scalar engine (``core/fide/engine.py``, the readable reference) gives, for every edition of
the rulebook, on a grid of inputs that crosses each rule's edges."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import duckdb
import numpy as np
import pytest

from lichess_elo.core import fide
from lichess_elo.core.expr.arrays import evaluate
from lichess_elo.core.expr.nodes import Col, Expr, case, col, greatest, least, lit
from lichess_elo.core.expr.sql import render
from lichess_elo.core.fide import EDITIONS_BY_KEY, editions
from lichess_elo.core.fide import expressions as fx
from lichess_elo.core.population.dialect import DUCKDB


def _both(expr: Expr, rows: list[dict[str, int]]) -> tuple[list[Any], list[Any]]:
    """``expr`` over ``rows`` by DuckDB (its SQL) and by numpy (its arrays)."""
    names = list(rows[0])
    values = ", ".join("(" + ", ".join(str(r[n]) for n in names) + ")" for r in rows)
    con = duckdb.connect()
    sql = f"SELECT {render(expr, DUCKDB)} FROM (VALUES {values}) t({', '.join(names)})"
    # VALUES keeps its order in a single-threaded scan of a constant table.
    by_sql = [row[0] for row in con.execute(sql).fetchall()]
    arrays = {n: np.array([r[n] for r in rows], dtype=np.int64) for n in names}
    found = np.broadcast_to(evaluate(expr, arrays), (len(rows),))
    return by_sql, [v.item() for v in found]


_RATINGS = (1000, 1399, 1400, 1999, 2000, 2399, 2400, 2600, 2601, 2649, 2650, 2700)
EDITION_KEYS = sorted(EDITIONS_BY_KEY)


@pytest.mark.parametrize("key", EDITION_KEYS)
def test_k_and_the_700_rule_agree_with_the_engine(key: str) -> None:
    edition = EDITIONS_BY_KEY[key]
    rows = [{"peak": p, "gb": g, "n": n}
            for p, g, n in itertools.product(_RATINGS, (0, 29, 30, 31, 500), (1, 17, 35, 70, 71))]  # fmt: skip
    k = fx.k(edition, col("peak"), col("gb"))
    limited = fx.k_limited(edition, k, col("n"))
    want = []
    for r in rows:
        base, _ = fide.k_factor(min(r["peak"], 2000), games_before=r["gb"], peak=r["peak"],
                                edition=edition)  # fmt: skip
        want.append(fide.limit_k(base, r["n"], edition=edition))
    by_sql, by_arrays = _both(limited, rows)
    assert by_sql == want and by_arrays == want


@pytest.mark.parametrize("key", EDITION_KEYS)
def test_the_400_and_600_rules_agree_with_the_engine(key: str) -> None:
    edition = EDITIONS_BY_KEY[key]
    rows = [{"own": a, "opp": b} for a, b in itertools.product(_RATINGS, _RATINGS)]
    rows += [{"own": 2000, "opp": 1600}, {"own": 2000, "opp": 1599}, {"own": 1600, "opp": 2001}]
    own, opp = col("own"), col("opp")
    capped = fx.capped_difference(edition, own, own - opp, lit(1))
    by_sql, by_arrays = _both(capped, rows)
    want = [fide.difference_used(r["own"], r["opp"], edition=edition)[0] for r in rows]
    assert by_sql == want and by_arrays == want
    left_out = fx.not_rated(edition, own, opp)
    if edition.non_rating_gap is None:
        assert left_out == lit(False)
    else:
        by_sql, by_arrays = _both(left_out, rows)
        want_out = [fide.not_rated(r["own"], r["opp"], edition=edition) for r in rows]
        assert by_sql == want_out and by_arrays == want_out


def test_once_per_event_the_upgrade_is_the_first_ranked_game_s() -> None:
    # H22 8.3.1 (standard-2022-01): an upgrade (D > 400) is capped only for the game of
    # rank 1 in its event; rank 2 keeps the real D; a downgrade is capped always.
    edition = EDITIONS_BY_KEY["standard-2022-01"]
    rows = [{"own": 2000, "opp": 1500, "rank": 1}, {"own": 2000, "opp": 1500, "rank": 2},
            {"own": 1500, "opp": 2000, "rank": 2}]  # fmt: skip
    own = col("own")
    expr = fx.capped_difference(edition, own, own - col("opp"), col("rank"))
    assert _both(expr, rows) == ([400, 500, -400], [400, 500, -400])


def test_the_rounding_is_half_away_from_zero() -> None:
    # 8.3.4: K x sum(S - PD) in hundredths, rounded once: 250 -> 3, -250 -> -3, 249 -> 2,
    # -249 -> -2, 0 -> 0, 6720 -> 67 (the made-up edition's C: 16 x 4.20 = 67.20).
    xs = [250, -250, 249, -249, 0, 6720, -6896, 50, -50]
    rows = [{"x": x} for x in xs]
    want = [fide.round_half_away(Decimal(x) / 100) for x in xs]
    assert want == [3, -3, 2, -2, 0, 67, -69, 1, -1]
    assert _both(fx.rounded_change(col("x")), rows) == (want, want)


def test_the_compression_agrees_with_the_engine() -> None:
    (adj,) = [a for a in editions.ADJUSTMENTS if a.kind == "compression"]
    rows = [{"r": r} for r in (1000, 1001, 1399, 1400, 1999, 2000, 2100, 1234)]
    want = [fide.adjusted(adj, r["r"]) for r in rows]
    # 0.4 x (2000 - R) half up: 1000 -> 1400, 1001 -> 1001 + 399.6 -> 1401, 1999 -> 1999 + 0.4
    # -> 1999, 1234 -> 1234 + 306.4 -> 1540; 2000 and above unchanged.
    assert want == [1400, 1401, 1639, 1640, 1999, 2000, 2100, 1540]
    assert _both(fx.compressed(adj, col("r")), rows) == (want, want)


def test_every_node_means_the_same_in_sql_and_in_arrays() -> None:
    a, b = col("a"), col("b")
    exprs: list[Expr] = [
        a + b, a - b, a * b, -a, (a + 100) // 7, greatest(a, b), least(a, b),
        case((a > b, a), (a.eq(b), 0), default=b), (a >= 3) & ~(b < 2) | a.eq(5),
        a.isin((1, 5, 9)), Col("a") * 2 - 1,
    ]  # fmt: skip
    rows = [{"a": x, "b": y} for x, y in itertools.product((0, 1, 3, 5, 9, 12), (0, 2, 5, 12))]
    for expr in exprs:
        by_sql, by_arrays = _both(expr, rows)
        assert by_sql == by_arrays, render(expr, DUCKDB)
