"""Lichess's Glicko-2 tables by variant and perf: the colour advantage (since when) and the
rating regulator (pure; ``glicko`` re-exports every name)."""

from __future__ import annotations

from datetime import UTC, datetime

from lichess_elo.core.games import PERFS
from lichess_elo.errors import UnknownChoice, WrongType

#: Colour advantage in rating points (scalachess ``ColorAdvantage``); White +A/2, Black -A/2.
ADVANTAGE: dict[str, float] = {"standard": 11.782457, "crazyhouse": 20.30966, "none": 0.0}

#: Approximate moment Lichess started using the colour advantage (lila PR #18629). The exact
#: deployment date is not in the sources: the PR was still under review on 2025-11-17 and the
#: advantage was live by 2026-07 (lila #21025). This is the earliest possible date, so games of
#: the following days may be rated here with an advantage Lichess did not yet apply.
ADVANTAGE_SINCE = datetime(2025, 11, 17, tzinfo=UTC)

#: Rating regulator per perf (lila ``RatingRegulator`` @ b97af467): gains are multiplied by
#: the factor, losses are untouched. Perfs not listed upstream have factor 1.
REGULATOR: dict[str, float] = {perf: 1.0 for perf in PERFS} | {
    "rapid": 1.015,
    "classical": 1.015,
    "blitz": 1.005,
    "bullet": 1.015,
    "ultraBullet": 1.013,
    "atomic": 1.02,
    "antichess": 1.02,
}


def advantage_for(variant: str, played_at: datetime | None = None) -> float:
    """Return the colour advantage Lichess applies to a game of ``variant``.

    Standard chess gets 11.782457, crazyhouse 20.30966, every other variant (chess960,
    fromPosition, atomic, ...) 0. Games played before :data:`ADVANTAGE_SINCE` (an approximate
    date, see there) get 0. A naive ``played_at`` is taken as UTC.

    Args:
        variant: Lichess variant key, e.g. ``"standard"`` or ``"crazyhouse"``.
        played_at: when the game was played; None means "now" (advantage on).
    """
    if not isinstance(variant, str):
        raise WrongType("variant", variant, "a str")
    if played_at is not None and not isinstance(played_at, datetime):
        raise WrongType("played_at", played_at, "a datetime")
    if played_at is not None:
        when = played_at if played_at.tzinfo else played_at.replace(tzinfo=UTC)
        if when < ADVANTAGE_SINCE:
            return 0.0
    if variant in ("standard", "crazyhouse"):
        return ADVANTAGE[variant]
    return 0.0


def regulator_factor(perf: str | None) -> float:
    """Return the rating-regulator factor of a perf (1 when ``perf`` is None).

    Raises:
        UnknownChoice: for a perf Lichess does not have; it lists the valid ones.
    """
    if perf is None:
        return 1.0
    if not isinstance(perf, str) or perf not in REGULATOR:
        raise UnknownChoice("perf", perf, tuple(REGULATOR))
    return REGULATOR[perf]
