"""An expression evaluated over numpy arrays (the columns by name), element by element as
SQL evaluates it row by row: ``CASE`` takes the first true condition (``numpy.where``, from
the last branch), integer division floors (a rule divides only non-negative numbers, where
SQL agrees), and
there is no NULL (``coalesce`` is refused: the engine fills its columns itself)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from lichess_elo.core.expr.nodes import Case, Col, Expr, IsIn, Lit, Op

#: A column's values: an array, or one number for every row.
Values = Any

_BINARY: dict[str, Callable[[Values, Values], Values]] = {
    "+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide,
    "<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
    "=": np.equal, "and": np.logical_and, "or": np.logical_or,
    "greatest": np.maximum, "least": np.minimum, "power": np.power,
}  # fmt: skip
_UNARY: dict[str, Callable[[Values], Values]] = {
    "neg": np.negative, "not": np.logical_not, "abs": np.abs, "sqrt": np.sqrt,
}  # fmt: skip


def evaluate(expr: Expr, columns: Mapping[str, Values]) -> Values:
    """``expr`` over ``columns`` (arrays of one length, or scalars).

    Raises:
        KeyError: a column ``expr`` names is not in ``columns``.
        ValueError: an operator arrays cannot take (``coalesce``).
    """
    if isinstance(expr, Col):
        return columns[expr.name]
    if isinstance(expr, Lit):
        return expr.value
    if isinstance(expr, Case):
        # From the last branch to the first, so the first true condition wins.
        out = evaluate(expr.default, columns)
        for cond, value in reversed(expr.whens):
            out = np.where(evaluate(cond, columns), evaluate(value, columns), out)
        return out
    if isinstance(expr, IsIn):
        return np.isin(evaluate(expr.arg, columns), np.array(expr.values))
    if isinstance(expr, Op):
        args = [evaluate(a, columns) for a in expr.args]
        if expr.op == "//":
            with np.errstate(divide="ignore"):
                return np.floor_divide(args[0], args[1])
        if expr.op == "double":
            return np.asarray(args[0], dtype=np.float64)
        if expr.op in _BINARY:
            return _BINARY[expr.op](args[0], args[1])
        if expr.op in _UNARY:
            return _UNARY[expr.op](args[0])
    raise ValueError(f"arrays cannot evaluate {expr!r}")
