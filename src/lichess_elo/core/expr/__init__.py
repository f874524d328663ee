"""Rules as expressions over columns, written once and rendered for each executor: SQL for
DuckDB and Spark (``sql.render``) and numpy arrays for ``db rate`` on one machine
(``arrays.evaluate``). The nodes are in ``nodes``; the rules built from them live with
their rulebook (``core/fide/expressions.py``, ``core/report/rival_expressions.py``)."""

from lichess_elo.core.expr.nodes import (
    Case,
    Col,
    Expr,
    IsIn,
    Lit,
    Op,
    abs_,
    case,
    coalesce,
    col,
    greatest,
    least,
    lit,
    power,
    sqrt,
    to_double,
)

__all__ = [
    "Case", "Col", "Expr", "IsIn", "Lit", "Op", "abs_", "case", "coalesce", "col",
    "greatest", "least", "lit", "power", "sqrt", "to_double",
]  # fmt: skip
