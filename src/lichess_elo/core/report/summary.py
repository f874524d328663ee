"""The report's summary: totals, peaks, agreement, disagreements and endings.

Pure code, no I/O; ``report.build_report`` calls ``summarize`` for each perf.

Definitions (documented in ``docs/commands.md#report-fide-elo-next-to-lichess`` and
``docs/json.md#report``):

- **Elo change** of the report: the sum of the rounded period changes. **Lichess change**:
  the sum of the ratingDiffs; **gaps**: the sum of the chain gaps; so the final Lichess
  rating = first rating + change + gaps. ``overlap_gaps`` of the ``gap_count`` gaps came
  from overlapping games, the others from missing games or adjustments.
- **Correlation** (Pearson) and **mean absolute difference** compare each game's Elo change
  (K x (score - E), unrounded) with its ratingDiff.
- **Disagreement** of a game: |Elo change - ratingDiff|; of a period: |rounded Elo change -
  sum of ratingDiffs|. Each carries the reasons that apply (``REASONS``).
- **The Elo value of an ending** ("7 losses on time while ahead in material: -52 Elo") is
  the sum of the per-game Elo changes K x (score - E) of the games that ended that way:
  what those results moved the Elo rating against the expectation. The Lichess value is
  the sum of their ratingDiffs.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, TypeVar

from lichess_elo.core.replay_facts import ENDING_WORDS
from lichess_elo.core.report.model import Disagreement, EndingStat, Summary

if TYPE_CHECKING:
    from lichess_elo.core.report.model import GameRow, PeriodRow

#: Days without a game in the perf after which a game is said to follow a long break.
LONG_BREAK_DAYS = 30
#: How many games and periods the summary lists as the largest disagreements.
TOP = 5
#: Ratings this far apart (shadow track) are named as a reason for a disagreement.
APART = 50

#: Reasons a disagreement may carry.
REASONS = (
    "high RD",
    "long break",
    "400 cap",
    "700 rule",
    "K 40 (new)",
    "K 40 (junior)",
    "BOT",
    "gap",
    "ratings apart",
    "different rules",
)

#: FIDE K reasons that give K 40 (a "new" or "junior" player moves twice as fast as K 20).
_HIGH_K = frozenset({"new", "junior"})

#: An ending's words in the summary (``core.replay_facts.ENDING_WORDS``).
ENDING_LABELS: dict[str, str] = {name: words for name, (_, words) in ENDING_WORDS.items()}

__all__ = ["Disagreement", "EndingStat", "Summary", "summarize"]


def _known_sum(changes: Sequence[int | None]) -> int | None:
    """The sum of the changes the site gave, ``None`` when it gave none."""
    known = [c for c in changes if c is not None]
    return sum(known) if known else None


def _pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def _apart(track: str, elo: int, lichess: int) -> bool:
    return track == "shadow" and abs(elo - lichess) >= APART


def game_reasons(row: GameRow, period: PeriodRow, track: str) -> tuple[str, ...]:
    """The reasons that may explain a game's disagreement (``different rules`` if none)."""
    found = [
        name
        for name, on in (
            ("high RD", row.provisional),
            ("long break", (row.days_since_previous or 0) >= LONG_BREAK_DAYS),
            ("400 cap", row.capped),
            ("700 rule", period.k_limited),
            (f"K 40 ({period.k_reason})", period.k_reason in _HIGH_K and not period.k_limited),
            ("BOT", row.opponent_bot),
            ("gap", row.gap_before is not None),
            ("ratings apart", _apart(track, row.elo_rating, row.lichess_from)),
        )
        if on
    ]
    return tuple(found) or ("different rules",)


def period_reasons(period: PeriodRow, rows: Sequence[GameRow], track: str) -> tuple[str, ...]:
    """The reasons that may explain a period's disagreement (``different rules`` if none)."""
    found = [
        name
        for name, on in (
            ("high RD", any(r.provisional for r in rows)),
            ("long break", period.long_break),
            ("400 cap", any(r.capped for r in rows)),
            ("700 rule", period.k_limited),
            (f"K 40 ({period.k_reason})", period.k_reason in _HIGH_K and not period.k_limited),
            ("BOT", any(r.opponent_bot for r in rows)),
            ("gap", bool(period.gaps)),
            ("ratings apart", _apart(track, period.elo_start, period.lichess_start)),
        )
        if on
    ]
    return tuple(found) or ("different rules",)


_Item = TypeVar("_Item")


def _largest_disagreements(
    items: Iterable[_Item],
    *,
    key: Callable[[_Item], str],
    elo: Callable[[_Item], Decimal],
    lichess: Callable[[_Item], int | None],
    reasons: Callable[[_Item], tuple[str, ...]],
) -> tuple[Disagreement, ...]:
    """The ``TOP`` games or periods with the largest |Elo change - Lichess change|.

    Reasons only for the few listed (heapq.nsmallest is stable, like sorted()[:n]);
    a difference of 0 is no disagreement and is never listed, nor a game whose site
    change is unknown (``GameRow.lichess_diff`` ``None``).
    """
    known = [(item, change) for item in items if (change := lichess(item)) is not None]
    top = heapq.nsmallest(
        TOP,
        ((item, change) for item, change in known if elo(item) != change),
        key=lambda pair: -abs(elo(pair[0]) - pair[1]),
    )
    return tuple(
        Disagreement(
            key=key(item),
            elo=elo(item),
            lichess=change,
            difference=abs(elo(item) - change),
            reasons=reasons(item),
        )
        for item, change in top
    )


def summarize(
    rows: Sequence[GameRow], periods: Sequence[PeriodRow], track: str, start: int | None
) -> Summary:
    """Summarize one perf's game and period rows."""
    by_period = {p.label: p for p in periods}
    rows_of: dict[str, list[GameRow]] = {}
    for row in rows:
        rows_of.setdefault(row.period, []).append(row)

    top_games = _largest_disagreements(
        rows,
        key=lambda r: r.id,
        elo=lambda r: r.elo_change,
        lichess=lambda r: r.lichess_diff,
        reasons=lambda r: game_reasons(r, by_period[r.period], track),
    )
    top_periods = _largest_disagreements(
        periods,
        key=lambda p: p.label,
        elo=lambda p: Decimal(p.elo_change),
        lichess=lambda p: p.lichess_change,
        reasons=lambda p: period_reasons(p, rows_of.get(p.label, []), track),
    )

    stats: dict[str, list[GameRow]] = {}
    for row in rows:
        for ending in row.endings:
            stats.setdefault(ending, []).append(row)
    ending_order = list(ENDING_LABELS) + sorted(set(stats) - set(ENDING_LABELS))
    ending_stats = tuple(
        EndingStat(
            ending=name,
            label=ENDING_LABELS.get(name, name.replace("_", " ")),
            games=len(stats[name]),
            elo=sum((r.elo_change for r in stats[name]), Decimal(0)),
            lichess=_known_sum([r.lichess_diff for r in stats[name]]),
            known=sum(r.lichess_diff is not None for r in stats[name]),
        )
        for name in ending_order
        if name in stats
    )

    # the games whose site change is known (every one on Lichess; a site that gives only
    # post-game ratings knows no change for the first game)
    changed = [r for r in rows if r.lichess_diff is not None]
    elo_changes = [float(r.elo_change) for r in changed]
    diffs = [float(r.lichess_diff) for r in changed if r.lichess_diff is not None]
    mad = (
        sum(abs(a - b) for a, b in zip(elo_changes, diffs, strict=True)) / len(changed)
        if changed
        else None
    )
    lichess_start = rows[0].lichess_from if rows else None
    lichess_final = rows[-1].lichess_after if rows else None
    lichess_points = [r.lichess_rating for r in rows if r.lichess_rating is not None] + [
        r.lichess_after for r in rows
    ]
    elo_points = [p.elo_start for p in periods] + [p.elo_end for p in periods]
    gaps = [r.gap_before for r in rows if r.gap_before is not None]
    return Summary(
        games=len(rows),
        periods=len(periods),
        elo_start=start,
        elo_final=periods[-1].elo_end if periods else None,
        elo_change=sum(p.elo_change for p in periods),
        elo_peak=max(elo_points) if elo_points else None,
        lichess_start=lichess_start,
        lichess_final=lichess_final,
        lichess_change=sum(diff for r in rows if (diff := r.lichess_diff) is not None),
        lichess_gaps=sum(gaps),
        gap_count=len(gaps),
        overlap_gaps=sum(r.gap_cause == "overlap" for r in rows),
        lichess_peak=max(lichess_points) if lichess_points else None,
        correlation=_pearson(elo_changes, diffs),
        mean_abs_difference=mad,
        top_games=top_games,
        top_periods=top_periods,
        endings=ending_stats,
        provisional_games=sum(r.provisional for r in rows),
        bot_games=sum(r.opponent_bot for r in rows),
        capped_games=sum(r.capped for r in rows),
        invalid_replays=sum(r.replay_valid is False for r in rows),
    )
