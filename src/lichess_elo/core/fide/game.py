"""One game of a FIDE rating period, as the engine takes it (its own module so that the
argument checks and the engine both use it)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a period: the opponent's rating, the score (1, 0.5 or 0) and its event.

    ``event`` names the tournament for the once-per-event 400-point rule (2022-2024);
    games without one form one event, the period.
    """

    opponent: int
    score: Decimal
    event: str | None = None
