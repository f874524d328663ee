"""A game's clock and Lichess's speed class of it: the one ``speed_of`` for every source.

Pure code, no I/O. ``Clock`` is a time control in seconds; ``parse_time_control`` reads a
PGN ``TimeControl`` tag; ``speed_of`` is lila's ``Speed.scala`` rule (initial + 40 x
increment against fixed limits). Re-exported by ``core.games``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's time control in seconds (absent for correspondence games)."""

    initial: int
    increment: int

    @property
    def estimated_total(self) -> int:
        """Lichess's speed estimate: initial + 40 x increment, in seconds."""
        return self.initial + 40 * self.increment


#: Lichess's speed limits on initial + 40 x increment seconds (lila ``Speed.scala``):
#: a game is the first speed whose limit its estimate is below; 21600 s (6 hours) and
#: more is correspondence.
SPEED_LIMITS: tuple[tuple[int, str], ...] = (
    (30, "ultraBullet"),
    (180, "bullet"),
    (480, "blitz"),
    (1500, "rapid"),
    (21600, "classical"),
)
#: lila's user export writes a correspondence game's clock as ``N day(s) per move``.
_DAYS_PER_MOVE = re.compile(r"\d+ days? per move")
#: The speeds, fastest first.
SPEEDS = (*(name for _, name in SPEED_LIMITS), "correspondence")


def parse_time_control(tag: str) -> Clock | None:
    """A PGN ``TimeControl`` tag in seconds (``300+3``, ``600``); ``None`` for ``-``/``?``/empty
    and for lila's user-export ``3 days per move`` (no clock: correspondence).

    >>> parse_time_control("300+3"), parse_time_control("-")
    (Clock(initial=300, increment=3), None)

    Raises:
        ValueError: the tag is none of these.
    """
    if tag in ("", "-", "?") or _DAYS_PER_MOVE.fullmatch(tag):
        return None
    initial, _, increment = tag.partition("+")
    try:
        return Clock(initial=int(initial), increment=int(increment or 0))
    except ValueError as exc:
        raise ValueError(f"bad TimeControl {tag!r}") from exc


def speed_of(clock: Clock | None) -> str:
    """Lichess's speed for a clock: by initial + 40 x increment; no clock = correspondence.

    >>> speed_of(Clock(180, 2)), speed_of(Clock(21600, 0)), speed_of(None)
    ('blitz', 'correspondence', 'correspondence')
    """
    if clock is None:
        return "correspondence"
    total = clock.estimated_total
    for limit, name in SPEED_LIMITS:
        if total < limit:
            return name
    return "correspondence"
