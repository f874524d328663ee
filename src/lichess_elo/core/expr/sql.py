"""An expression rendered as SQL, in DuckDB's or Spark's dialect (``population.dialect``)."""

from __future__ import annotations

import re

from lichess_elo.core.expr.nodes import Case, Col, Expr, IsIn, Lit, Op, Scalar
from lichess_elo.core.population.dialect import Dialect

#: A column name or a qualified one (``l.peak``), written bare; any other SQL a caller
#: gives for a column is put in parentheses.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_INFIX = {"+", "-", "*", "/", "<", "<=", ">", ">=", "="}
_FUNCTIONS = {"abs": "ABS", "greatest": "GREATEST", "least": "LEAST", "sqrt": "SQRT",
              "power": "POWER", "coalesce": "COALESCE"}  # fmt: skip


def literal(value: Scalar) -> str:
    """A literal both engines read exactly (a float as a DOUBLE: Spark reads ``0.5`` as a
    DECIMAL)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"CAST('{value!r}' AS DOUBLE)"
    return "'" + value.replace("'", "''") + "'"


def render(expr: Expr, d: Dialect) -> str:
    """``expr`` as SQL of dialect ``d``."""
    if isinstance(expr, Col):
        return expr.name if _NAME.fullmatch(expr.name) else f"({expr.name})"
    if isinstance(expr, Lit):
        return literal(expr.value)
    if isinstance(expr, Case):
        whens = " ".join(f"WHEN {render(c, d)} THEN {render(v, d)}" for c, v in expr.whens)
        return f"(CASE {whens} ELSE {render(expr.default, d)} END)"
    if isinstance(expr, IsIn):
        return f"({render(expr.arg, d)} IN ({', '.join(literal(v) for v in expr.values)}))"
    if isinstance(expr, Op):
        args = [render(a, d) for a in expr.args]
        if expr.op in _INFIX:
            return f"({args[0]} {expr.op} {args[1]})"
        if expr.op == "//":
            return d.idiv(args[0], args[1])
        if expr.op in ("and", "or"):
            return f"({args[0]} {expr.op.upper()} {args[1]})"
        if expr.op == "not":
            return f"(NOT {args[0]})"
        if expr.op == "neg":
            return f"(-{args[0]})"
        if expr.op == "double":
            return f"CAST({args[0]} AS DOUBLE)"
        if expr.op in _FUNCTIONS:
            return f"{_FUNCTIONS[expr.op]}({', '.join(args)})"
    raise ValueError(f"no SQL for {expr!r}")
