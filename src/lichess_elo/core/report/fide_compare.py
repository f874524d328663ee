"""The player's real FIDE record beside the report's FIDE-rules track (pure, no I/O).

For each period, the real rating of the matching FIDE list (blitz -> blitz, rapid -> rapid,
classical and correspondence -> standard; bullet -> blitz, the nearest) in the month of the
period's first game. The summary gives the offset, Elo track minus FIDE list, averaged over
the periods that have both, and the last one; and says plainly that the pools differ: the
track rates Lichess games against Lichess players, FIDE rates over-the-board games against
FIDE-rated players, so the track is no prediction of a FIDE rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from lichess_elo.core import fide
from lichess_elo.core.fide_record import FideList, FidePlayer, list_for_speed

#: Said wherever the offset is shown.
POOL_WARNING = (
    "the two pools differ (Lichess games against Lichess players, FIDE over-the-board games "
    "against FIDE-rated players): the FIDE-rules track is not a prediction of a FIDE rating"
)
#: Said when the player has no rating in the matching list.
NO_RATING = "no FIDE rating in this list"


@dataclass(frozen=True)
class FideSummary:
    """The comparison of one perf's Elo track with the player's real FIDE list.

    Attributes:
        fide_id: The FIDE id.
        name: The player's name on FIDE.
        fide_list: The list compared (``standard``, ``rapid`` or ``blitz``).
        periods_compared: Periods with both an Elo end and a FIDE rating that month.
        mean_offset: The mean of (Elo end - FIDE rating) over those periods.
        last_offset: The offset in the last of them.
        message: ``NO_RATING`` when the list is empty, else ``None``.
        history: The FIDE list's monthly ratings over the report's months (for the chart).
        notes: Jumps in the record that FIDE's one-time adjustments explain (each
            ``fide.Adjustment``, with its own day), in words.
    """

    fide_id: int
    name: str
    fide_list: FideList
    periods_compared: int
    mean_offset: float | None
    last_offset: int | None
    message: str | None
    history: tuple[tuple[date, int], ...]
    notes: tuple[str, ...] = ()

    @property
    def warning(self) -> str:
        """The plain warning that the pools differ."""
        return POOL_WARNING


def month_of(when: datetime) -> tuple[int, int]:
    """The (year, month) of a UTC time: the FIDE list month a game falls in."""
    return when.year, when.month


def fide_rating(player: FidePlayer | None, speed: str, when: datetime) -> int | None:
    """The player's rating on the list matching ``speed`` in the month of ``when``."""
    if player is None:
        return None
    return player.rating(list_for_speed(speed), month_of(when))


def _previous(month: tuple[int, int]) -> tuple[int, int]:
    year, number = month
    return (year - 1, 12) if number == 1 else (year, number - 1)


def adjustment_notes(player: FidePlayer, fide_list: FideList) -> tuple[str, ...]:
    """The jumps in ``fide_list`` that a one-time adjustment explains, each in words.

    * The uplift (``fide.UPLIFT_2022``, rapid and blitz): the rating of the month before
      rose on the list of its day to exactly the standard rating (of either month) minus
      ``below``.
    * The compression (``fide.COMPRESSION_2024``): the rating of the month before became
      exactly R + ``factor`` x (``below`` - R) on the list of its day (a month with games as
      well would not match exactly: not claimed). The words take the days and numbers from
      the adjustments.
    """
    months = player.history.get(fide_list, {})
    notes: list[str] = []
    uplift, compression = fide.UPLIFT_2022, fide.COMPRESSION_2024
    month = (uplift.day.year, uplift.day.month)
    before, after = months.get(_previous(month)), months.get(month)
    if fide_list != "standard" and before is not None and after is not None and after > before:
        standard = player.history.get("standard", {})
        for basis in (standard.get(_previous(month)), standard.get(month)):
            if basis is not None and after == basis - uplift.below:
                notes.append(
                    f"{fide_list} {before} -> {after} on the {uplift.day:%B %Y} list: not games "
                    f"but FIDE's one-time uplift of every rapid and blitz rating more than "
                    f"{uplift.below} below the standard rating to standard - {uplift.below} "
                    f"(standard {basis})"
                )
                break
    month = (compression.day.year, compression.day.month)
    before, after = months.get(_previous(month)), months.get(month)
    if (
        before is not None
        and after is not None
        and after != before
        and after == fide.adjusted(compression, before)
    ):
        notes.append(
            f"{fide_list} {before} -> {after} on the {compression.day:%B %Y} list: not games "
            f"but FIDE's one-time raise of every rating below {compression.below} by "
            f"{compression.factor} x ({compression.below} - R)"
        )
    return tuple(notes)


def compare(
    player: FidePlayer,
    speed: str,
    ends: Sequence[tuple[datetime, int, int | None]],
    span: tuple[datetime, datetime] | None,
) -> FideSummary:
    """Summarize the offset between the Elo track and the FIDE list.

    Args:
        player: The FIDE record.
        speed: The perf's speed (chooses the list).
        ends: Per period: its first game's time, the Elo end and the FIDE rating that month.
        span: The first and last game's times (the chart's months), or ``None``.
    """
    fide_list = list_for_speed(speed)
    both = [(elo, real) for _, elo, real in ends if real is not None]
    offsets = [elo - real for elo, real in both]
    months = player.history.get(fide_list, {})
    history: tuple[tuple[date, int], ...] = ()
    if span is not None:
        low, high = month_of(span[0]), month_of(span[1])
        history = tuple(
            (date(year, month, 1), rating)
            for (year, month), rating in sorted(months.items())
            if low <= (year, month) <= high
        )
    return FideSummary(
        fide_id=player.id,
        name=player.name,
        fide_list=fide_list,
        periods_compared=len(offsets),
        mean_offset=sum(offsets) / len(offsets) if offsets else None,
        last_offset=offsets[-1] if offsets else None,
        message=None if months else NO_RATING,
        history=history,
        notes=adjustment_notes(player, fide_list),
    )
