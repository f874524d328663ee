"""One game of a FIDE rating period, as the engine takes it (its own module so that the
argument checks and the engine both use it)."""

from __future__ import annotations

from decimal import Decimal

from lichess_elo.core.value import value_class


@value_class  # frozen for mypy; built as fast as a plain slotted dataclass (one a game)
class GameResult:
    """One game of a period: the opponent's rating, the score (1, 0.5 or 0) and its event.

    ``event`` names the tournament for the once-per-event 400-point rule (2022-2024);
    games without one form one event, the period.
    """

    opponent: int
    score: Decimal
    event: str | None = None
