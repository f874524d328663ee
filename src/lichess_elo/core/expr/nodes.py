"""The nodes of a rule's expression: columns, literals, operators and CASE.

An expression is a tree of frozen dataclasses, built with Python's operators
(``col("own") - col("opp")``, ``k * n > 700``, ``a & b``) and a few functions
(``case``, ``greatest``, ``least``, ``abs_``, ``sqrt``, ``power``, ``coalesce``).
``==`` keeps its Python meaning (two trees alike); the SQL ``=`` is ``.eq()``.

Integer division (``//``) is meant for non-negative operands only: the executors round it
differently below zero (SQL truncates, numpy floors), so a rule never divides a negative.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

#: What a literal may hold.
Scalar = int | float | bool | str
#: What the operators take beside an expression: a literal.
Operand = Union["Expr", int, float, bool, str]


class Expr:
    """The base of every node: the operators build new nodes."""

    def __add__(self, other: Operand) -> Expr:
        return Op("+", (self, wrap(other)))

    def __radd__(self, other: Operand) -> Expr:
        return Op("+", (wrap(other), self))

    def __sub__(self, other: Operand) -> Expr:
        return Op("-", (self, wrap(other)))

    def __rsub__(self, other: Operand) -> Expr:
        return Op("-", (wrap(other), self))

    def __mul__(self, other: Operand) -> Expr:
        return Op("*", (self, wrap(other)))

    def __rmul__(self, other: Operand) -> Expr:
        return Op("*", (wrap(other), self))

    def __truediv__(self, other: Operand) -> Expr:
        return Op("/", (self, wrap(other)))

    def __rtruediv__(self, other: Operand) -> Expr:
        return Op("/", (wrap(other), self))

    def __floordiv__(self, other: Operand) -> Expr:
        return Op("//", (self, wrap(other)))

    def __rfloordiv__(self, other: Operand) -> Expr:
        return Op("//", (wrap(other), self))

    def __neg__(self) -> Expr:
        return Op("neg", (self,))

    def __lt__(self, other: Operand) -> Expr:
        return Op("<", (self, wrap(other)))

    def __le__(self, other: Operand) -> Expr:
        return Op("<=", (self, wrap(other)))

    def __gt__(self, other: Operand) -> Expr:
        return Op(">", (self, wrap(other)))

    def __ge__(self, other: Operand) -> Expr:
        return Op(">=", (self, wrap(other)))

    def __and__(self, other: Operand) -> Expr:
        return Op("and", (self, wrap(other)))

    def __or__(self, other: Operand) -> Expr:
        return Op("or", (self, wrap(other)))

    def __invert__(self) -> Expr:
        return Op("not", (self,))

    def eq(self, other: Operand) -> Expr:
        """SQL's ``=``."""
        return Op("=", (self, wrap(other)))

    def isin(self, values: tuple[Scalar, ...]) -> Expr:
        """SQL's ``IN (...)`` over literals."""
        return IsIn(self, tuple(values))


@dataclass(frozen=True, eq=True)
class Col(Expr):
    """A column by name (in SQL, the name is written as given: it may be any SQL the
    caller has for the value, e.g. ``l.peak``)."""

    name: str


@dataclass(frozen=True, eq=True)
class Lit(Expr):
    """A literal number, truth value or string."""

    value: Scalar


@dataclass(frozen=True, eq=True)
class Op(Expr):
    """An operator or function over its arguments (``+ - * / // neg < <= > >= = and or not
    abs greatest least sqrt power coalesce double``)."""

    op: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=True)
class Case(Expr):
    """``CASE WHEN c1 THEN v1 ... ELSE default END``: the first true condition wins."""

    whens: tuple[tuple[Expr, Expr], ...]
    default: Expr


@dataclass(frozen=True, eq=True)
class IsIn(Expr):
    """True where ``arg`` is one of ``values``."""

    arg: Expr
    values: tuple[Scalar, ...]


def wrap(value: Operand) -> Expr:
    """``value`` as an expression (a literal unless it is one already)."""
    return value if isinstance(value, Expr) else Lit(value)


def col(name: str) -> Col:
    """The column ``name``."""
    return Col(name)


def lit(value: Scalar) -> Lit:
    """The literal ``value``."""
    return Lit(value)


def case(*whens: tuple[Operand, Operand], default: Operand) -> Expr:
    """``CASE`` over (condition, value) pairs; a literal ``True`` condition ends the list."""
    pairs: list[tuple[Expr, Expr]] = []
    for cond, value in whens:
        if cond is True:
            return Case(tuple(pairs), wrap(value)) if pairs else wrap(value)
        if cond is False:
            continue
        pairs.append((wrap(cond), wrap(value)))
    return Case(tuple(pairs), wrap(default)) if pairs else wrap(default)


def abs_(value: Operand) -> Expr:
    """|value|."""
    return Op("abs", (wrap(value),))


def greatest(a: Operand, b: Operand) -> Expr:
    """The larger of two values."""
    return Op("greatest", (wrap(a), wrap(b)))


def least(a: Operand, b: Operand) -> Expr:
    """The smaller of two values."""
    return Op("least", (wrap(a), wrap(b)))


def sqrt(value: Operand) -> Expr:
    """The square root (a double)."""
    return Op("sqrt", (wrap(value),))


def power(base: Operand, exponent: Operand) -> Expr:
    """``base`` to the power ``exponent`` (doubles)."""
    return Op("power", (wrap(base), wrap(exponent)))


def coalesce(value: Operand, otherwise: Operand) -> Expr:
    """``value`` where it is not NULL, else ``otherwise`` (SQL only: arrays hold no NULL)."""
    return Op("coalesce", (wrap(value), wrap(otherwise)))


def to_double(value: Operand) -> Expr:
    """``value`` as a double."""
    return Op("double", (wrap(value),))
