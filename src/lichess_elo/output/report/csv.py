"""``lichess-elo report`` CSV: one row per period or per game, written row by row.

An edge module (it writes text, no maths). The cells are the JSON document's values
(``output.report.json``), so CSV and JSON never disagree.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from lichess_elo.output.common import iso_utc, stream_csv
from lichess_elo.output.report.json import number, period_json

if TYPE_CHECKING:
    from lichess_elo.core.report import PerfReport


REPORT_GAME_FIELDS = (
    "perf", "id", "url", "played_at", "period", "color", "opponent", "opponent_title",
    "opponent_rating",
    "opponent_provisional", "score", "status", "endings", "lichess_rating", "lichess_diff",
    "provisional", "elo_rating", "expected", "k", "elo_change", "replay_valid", "plies",
    "gap_before", "gap_cause", "flags", "chapter",
)  # fmt: skip
REPORT_PERIOD_FIELDS = (
    "perf", "period", "games", "score", "expected", "performance", "games_before", "k",
    "k_requested", "k_reason", "k_700_rule", "elo_start", "elo_change", "elo_change_exact",
    "elo_end", "lichess_start", "lichess_change", "lichess_end", "difference",
    "change_difference", "gap_count", "gap_points", "gap_before_start", "long_break",
    "below_floor", "adjustment", "adjusted_from", "chapter", "chapters",
)  # fmt: skip


def game_rows(reports: Sequence[PerfReport]) -> Iterator[dict[str, Any]]:
    """The games view's rows, a dict per game (``REPORT_GAME_FIELDS``)."""
    for r in reports:
        for g in r.games:
            row = {k: getattr(g, k, None) for k in REPORT_GAME_FIELDS}
            row.update(
                perf=r.perf,
                played_at=iso_utc(g.played_at),
                score=number(g.score),
                expected=number(g.expected, 4),
                elo_change=number(g.elo_change, 4),
                endings=" ".join(g.endings),
                flags=" ".join(g.flags),
            )
            yield row


def period_rows(reports: Sequence[PerfReport]) -> Iterator[dict[str, Any]]:
    """The periods view's rows, a dict per period (``REPORT_PERIOD_FIELDS``)."""
    for r in reports:
        for p in r.periods:
            row = period_json(p)
            yield {
                "perf": r.perf,
                **{k: row[k] for k in REPORT_PERIOD_FIELDS[1:11]},
                "elo_start": p.elo_start,
                "elo_change": p.elo_change,
                "elo_change_exact": number(p.elo_change_exact, 4),
                "elo_end": p.elo_end,
                "lichess_start": p.lichess_start,
                "lichess_change": p.lichess_change,
                "lichess_end": p.lichess_end,
                "difference": p.difference,
                "change_difference": p.change_difference,
                "gap_count": len(p.gaps),
                "gap_points": sum(g.size for g in p.gaps),
                "gap_before_start": p.gap_before_start,
                "long_break": p.long_break,
                "below_floor": p.below_floor,
                "adjustment": p.adjustment.key if p.adjustment is not None else None,
                "adjusted_from": p.adjusted_from,
                "chapter": p.edition.chapter,
                # the period's games by chapter, the main one first: ``rapid-blitz:1 standard:1``
                "chapters": " ".join(f"{part.chapter}:{part.games}" for part in p.parts),
            }


def write_report_csv(out: TextIO, reports: Sequence[PerfReport], view: str) -> None:
    """Write CSV to ``out`` row by row: one row per game (``view == "games"``) or per
    period (otherwise)."""
    if view == "games":
        stream_csv(out, game_rows(reports), REPORT_GAME_FIELDS)
    else:
        stream_csv(out, period_rows(reports), REPORT_PERIOD_FIELDS)


def report_csv(reports: Sequence[PerfReport], view: str) -> str:
    """``write_report_csv``'s CSV as one text."""
    buffer = io.StringIO()
    write_report_csv(buffer, reports, view)
    return buffer.getvalue()
