"""``value_class``: a frozen, slotted dataclass whose ``__init__`` stays as fast as a plain one.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``: about
1.7 µs for a 17-field ``Game`` against 0.2 µs for a plain one, paid for every game each
time a run decodes the parsed-games cache or slims the games. ``value_class`` builds the
value with a plain slotted twin's ``__init__`` and then gives it its own class, whose
``__setattr__`` and ``__delattr__`` refuse (``dataclasses.FrozenInstanceError``) like a
frozen dataclass's: a value that is hashed (a dict key, a set member) cannot change under
its hash. ``mypy --strict`` sees a frozen dataclass (PEP 681's ``frozen_default``);
equality, the hash over the fields, ``repr``, ``replace``, ``fields``, copies and pickles
are the dataclass's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NoReturn, TypeVar, dataclass_transform

T = TypeVar("T")


def _refuse(self: object, name: str, value: object = None) -> NoReturn:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


@dataclass_transform(frozen_default=True)
def value_class(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen slotted dataclass with equality and a hash over its fields,
    built as fast as a plain one (see the module docstring)."""
    plain: Any = dataclasses.dataclass(slots=True, unsafe_hash=True)(cls)
    names = tuple(f.name for f in dataclasses.fields(plain))

    def __new__(kind: type[Any], *args: Any, **kwargs: Any) -> Any:
        value = plain(*args, **kwargs)
        value.__class__ = kind  # the same slots: a frozen view of the same object
        return value

    def __reduce__(self: object) -> tuple[Any, tuple[Any, ...]]:
        return type(self), tuple(getattr(self, name) for name in names)

    frozen: Any = type(
        plain.__name__,
        (plain,),
        {
            "__slots__": (),
            "__new__": __new__,
            "__init__": object.__init__,  # nothing left to do, in C: __new__ set the fields
            "__setattr__": _refuse,
            "__delattr__": _refuse,
            "__reduce__": __reduce__,
            "__module__": plain.__module__,
            "__qualname__": plain.__qualname__,
            "__doc__": plain.__doc__,
        },
    )
    frozen.__slots__ = plain.__slots__  # the field names, as on the dataclass (no new slots)
    return frozen  # type: ignore[no-any-return]


def plain_twin(cls: type[Any]) -> Any:
    """The plain slotted dataclass the value class ``cls`` is built from: ``value =
    plain_twin(cls)(*fields)`` then ``value.__class__ = cls`` is ``cls(*fields)``, the same
    value, without ``__new__``'s Python call (about 0.5 µs less a value: for loops that
    make one per game)."""
    twin = cls.__mro__[1]
    if cls.__dict__.get("__setattr__") is not _refuse:
        raise TypeError(f"{cls.__name__} is not a value_class")
    return twin
