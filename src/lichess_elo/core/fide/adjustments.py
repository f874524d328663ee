"""FIDE's one-time changes to published ratings between two lists (pure): the Rapid & Blitz
uplift of 1 October 2022 and the compression of 1 March 2024, and the arithmetic of the
compression."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from lichess_elo.core.fide.kinds import Chapter


@dataclass(frozen=True)
class Adjustment:
    """A one-time change FIDE made to published ratings between two lists.

    ``compression`` (1 March 2024): every rating below ``below`` is raised by
    ``factor`` x (``below`` - R), rounded half away from zero. ``uplift`` (1 October 2022,
    Rapid & Blitz): a rating more than ``below`` points under the player's standard rating
    is raised to standard - ``below``; it needs the standard rating, so only a real FIDE
    record shows it.

    Attributes:
        key: Short stable name (used in JSON).
        day: The first list with the adjusted ratings.
        chapters: The chapters whose lists were adjusted.
        kind: ``compression`` or ``uplift``.
        title: What happened, in words.
        below: The 2000 of the compression; the 100 of the uplift.
        factor: The 0.4 of the compression (``None`` for the uplift).
        sources: Keys of ``SOURCES``.
    """

    key: str
    day: date
    chapters: tuple[Chapter, ...]
    kind: Literal["compression", "uplift"]
    title: str
    below: int
    factor: Decimal | None
    sources: tuple[str, ...]


#: The Rapid & Blitz uplift of 1 October 2022 (shown where a real FIDE record has it).
UPLIFT_2022 = Adjustment(
    key="rapid-blitz-uplift-2022-10",
    day=date(2022, 10, 1),
    chapters=("rapid-blitz",),
    kind="uplift",
    title="1 Oct 2022: rapid and blitz ratings more than 100 below the standard rating "
    "raised to standard - 100",
    below=100,
    factor=None,
    sources=("RB22",),
)

#: The compression of 1 March 2024, applied to a track that crosses that day.
COMPRESSION_2024 = Adjustment(
    key="compression-2024-03",
    day=date(2024, 3, 1),
    chapters=("standard", "rapid-blitz"),
    kind="compression",
    title="1 Mar 2024: every rating below 2000 raised by 0.4 x (2000 - R)",
    below=2000,
    factor=Decimal("0.4"),
    sources=("QC24", "FN2538"),
)

#: The one-time adjustments, oldest first.
ADJUSTMENTS: tuple[Adjustment, ...] = (UPLIFT_2022, COMPRESSION_2024)


def adjusted(adjustment: Adjustment, rating: int) -> int:
    """A rating after the compression: R + 0.4 x (2000 - R) below 2000, rounded half away
    from zero (1000 -> 1400, 1500 -> 1700, 1950 -> 1970; QC24); 2000 and above unchanged.

    Raises:
        ValueError: for the uplift, which needs the standard rating as well.
    """
    if adjustment.factor is None:
        raise ValueError(f"{adjustment.key} needs the player's standard rating")
    if rating >= adjustment.below:
        return rating
    raised = adjustment.factor * (adjustment.below - rating)
    return rating + int(raised.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def adjustment_between(chapter: Chapter, after: date, on_or_before: date) -> Adjustment | None:
    """The compression a track of ``chapter`` crosses from a period on ``after`` to one on
    ``on_or_before`` (the uplift needs a standard rating, so a track never crosses it)."""
    for adjustment in ADJUSTMENTS:
        if (
            adjustment.kind == "compression"
            and chapter in adjustment.chapters
            and after < adjustment.day <= on_or_before
        ):
            return adjustment
    return None
