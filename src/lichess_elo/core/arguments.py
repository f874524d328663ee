"""The type and value checks of the library's public calls (pure).

Each check returns the value (a score as the engine's ``Decimal``) or raises the library's
own error naming the argument: ``WrongType`` (also a ``TypeError``) for a value of the
wrong type, ``BadArgument`` (also a ``ValueError``) or ``OutOfRange`` for a value outside
what the call takes. ``bool`` is never taken for a number.

A game score is 0, 0.5 or 1, given as an ``int``, ``float``, ``Fraction``, ``Decimal`` or
a ``str`` that equals one of them exactly (``"0.5"``, ``"1/2"``): ``0.7`` is refused,
whatever its type.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, TypeVar

from lichess_elo.errors import BadArgument, OutOfRange, UnknownChoice, UnknownKeyword, WrongType

WHOLE = "a whole number (int)"
NUMBER = "a number (int or float)"
SCORE_TYPES = "a score: an int, float, Fraction, Decimal or str"
SCORES_ALLOWED = "a score of 0, 0.5 or 1"

_ZERO, _HALF, _ONE = Decimal(0), Decimal("0.5"), Decimal(1)
#: The three scores, by exact value (a float, Fraction or Decimal equal to one matches).
_SCORES: dict[object, Decimal] = {0: _ZERO, Fraction(1, 2): _HALF, 1: _ONE}
_ENGINE_SCORES = frozenset(_SCORES.values())
_T = TypeVar("_T")


def whole(field: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is an ``int`` (not a ``bool``) within ``low..high`` (either open)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongType(field, value, WHOLE)
    number = value
    if (low is not None and number < low) or (high is not None and number > high):
        raise OutOfRange(
            field, number, -math.inf if low is None else low, math.inf if high is None else high
        )
    return number


def real(
    field: str,
    value: object,
    *,
    low: float | None = None,
    above: bool = False,
    high: float | None = None,
) -> float:
    """``value`` if it is a finite ``int`` or ``float`` (not a ``bool``), at least ``low``
    (more than ``low`` when ``above``) and at most ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WrongType(field, value, NUMBER)
    number = float(value)
    if not math.isfinite(number):
        raise BadArgument(field, value, "a finite number")
    if low is not None and (number <= low if above else number < low):
        bound = f"more than {low:g}" if above else f"{low:g} or more"
        raise BadArgument(field, value, f"a number {bound}")
    if high is not None and number > high:
        raise BadArgument(field, value, f"a number up to {high:g}")
    return number


def flag(field: str, value: object) -> bool:
    """``value`` if it is a ``bool``."""
    if not isinstance(value, bool):
        raise WrongType(field, value, "True or False (bool)")
    return value


def text(field: str, value: object) -> str:
    """``value`` if it is a ``str``."""
    if not isinstance(value, str):
        raise WrongType(field, value, "a str")
    return value


def choice(field: str, value: object, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices`` (a ``str``)."""
    if not isinstance(value, str):
        raise WrongType(field, value, f"a str, one of {', '.join(choices)}")
    if value not in choices:
        raise UnknownChoice(field, value, choices)
    return value


def instance(field: str, value: object, kind: type[Any], what: str, *, where: str = "") -> Any:
    """``value`` if it is a ``kind``; ``what`` names it in the error (``"a GameResult"``)."""
    if not isinstance(value, kind):
        raise WrongType(field, value, what, where=where)
    return value


def sequence(field: str, value: object, what: str) -> Sequence[Any]:
    """``value`` if it is a list or tuple (a ``str`` is not one), ``what`` its items."""
    if not isinstance(value, list | tuple):
        raise WrongType(field, value, f"a list or tuple of {what}")
    return value


def game_score(value: object, *, field: str = "score", where: str = "") -> Decimal:
    """The score ``value`` (see the module docstring) as the engine's ``Decimal``."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction | Decimal | str):
        raise WrongType(field, value, SCORE_TYPES, where=where)
    try:
        exact = Fraction(value.strip()) if isinstance(value, str) else Fraction(value)
    except (ValueError, ZeroDivisionError, OverflowError, InvalidOperation, TypeError):
        raise BadArgument(field, value, SCORES_ALLOWED, where=where) from None
    found = _SCORES.get(exact)
    if found is None:
        raise BadArgument(field, value, SCORES_ALLOWED, where=where)
    return found


def is_engine_score(value: object) -> bool:
    """Whether ``value`` is a ``Decimal`` equal to 0, 0.5 or 1 already (the fast path)."""
    return isinstance(value, Decimal) and not value.is_nan() and value in _ENGINE_SCORES


#: The Glicko-2 ratings taken (Lichess keeps 400..4000; further apart than this the
#: expected score is 0 or 1 to the last bit and the calculator's variance has no value).
GLICKO_RATING = (0.0, 5000.0)
GLICKO_DEVIATION_MAX = 1000.0


def glicko_rating(field: str, value: object, kind: type[Any]) -> None:
    """Refuse ``value`` unless it is a ``kind`` (``glicko.Rating``) with a rating within
    ``GLICKO_RATING``, a deviation above 0 up to 1000 and a volatility above 0 up to 1."""
    rating = instance(field, value, kind, "a glicko.Rating")
    real(f"{field} rating", rating.rating, low=GLICKO_RATING[0], high=GLICKO_RATING[1])
    real(f"{field} deviation", rating.deviation, low=0, above=True, high=GLICKO_DEVIATION_MAX)
    real(f"{field} volatility", rating.volatility, low=0, above=True, high=1.0)


def keywords_checked(target: _T) -> _T:
    """``target`` (a function, or a class's ``__init__``) refusing an unknown keyword with
    ``UnknownKeyword``, which names the keywords it takes and the closest one, where Python
    raises a bare ``TypeError``.

    The keywords are looked at only once a call has raised a ``TypeError`` (an unknown
    keyword fails a call before its body runs), so a call that succeeds pays one frame.
    """
    is_class = isinstance(target, type)
    item: Any = target
    func = item.__init__ if is_class else item
    parameters = list(inspect.signature(func).parameters.values())[1 if is_class else 0 :]
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return target
    takes = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    accepted = tuple(p.name for p in parameters if p.kind in takes)
    call = item.__name__

    @functools.wraps(func)
    def checked(*positional: Any, **keywords: Any) -> Any:
        try:
            return func(*positional, **keywords)
        except TypeError:
            for keyword in keywords:
                if keyword not in accepted:
                    raise UnknownKeyword(call, keyword, accepted) from None
            raise

    if is_class:
        item.__init__ = checked
        return target
    result: _T = checked  # type: ignore[assignment]  # the same signature, wrapped
    return result
