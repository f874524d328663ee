"""``core.value.value_class``: what the frozen dataclass it stands in for guaranteed, kept.

At run time: equality and a hash over the fields, slots (no ``__dict__``), ``replace``,
and no assignment to a field (a hashed value cannot change under its hash), pickles.
For the type checker: an assignment to a field is an error (checked by running mypy on a
two-line use, as ``mypy --strict src`` checks the package).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from lichess_elo.core.games import Clock, Side


def test_equality_hash_slots_and_replace() -> None:
    a, b = Side(name="Ann", rating=1500), Side(name="Ann", rating=1500)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Side(name="Ann", rating=1501)
    assert not hasattr(a, "__dict__")
    assert dataclasses.replace(a, rating=1600).rating == 1600 and a.rating == 1500
    assert {Clock(180, 2): "blitz"}[Clock(180, 2)] == "blitz"


def test_a_value_is_frozen_at_run_time_too() -> None:
    side = Side(name="Ann", rating=1500)
    held = {side: "kept"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        side.rating = 1600  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del side.name  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(side, "rating", 1600)  # noqa: B010 - the spelling mypy does not see
    assert held[Side(name="Ann", rating=1500)] == "kept" and side.rating == 1500
    for again in (pickle.loads(pickle.dumps(side)), copy.copy(side), copy.deepcopy(side)):
        assert again == side and type(again) is Side
    assert Side.__slots__ == tuple(f.name for f in dataclasses.fields(Side))
    assert repr(Clock(180, 2)) == "Clock(initial=180, increment=2)"


def test_mypy_refuses_an_assignment_to_a_field(tmp_path: Path) -> None:
    use = tmp_path / "use.py"
    use.write_text(
        "from lichess_elo.core.value import value_class\n\n\n"
        "@value_class\nclass Point:\n    x: int\n\n\n"
        "p = Point(1)\np.x = 2\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(use)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout
    assert 'Property "x" defined in "Point" is read-only' in done.stdout


def test_a_value_made_from_its_plain_twin_is_the_value() -> None:
    from lichess_elo.core.value import plain_twin

    made = plain_twin(Side)("u1", "Ann", "GM", 2500, -4, True, None)
    made.__class__ = Side
    given = Side("u1", "Ann", "GM", 2500, -4, True, None)
    assert (made, hash(made), repr(made)) == (given, hash(given), repr(given))
    assert type(made) is Side and made.rating == 2500
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rating = 2400  # type: ignore[misc]
    with pytest.raises(TypeError, match="Clock is not a value_class"):
        plain_twin(Clock)  # a frozen dataclass, not a value_class
