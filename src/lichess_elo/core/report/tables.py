"""The report as tables for a notebook: one plain dict a game, a period or a prediction
(``ReportRun.to_dict`` and ``to_frame``). Pure code, no I/O.

Each row names its perf and its site, so the rows of several perfs (and sites) sit in one
table. The values are Python's own, ready for pandas: a score, an expected score or an
exact change is a ``float`` (the report keeps them as ``Decimal``), a time a UTC
``datetime``, a list of words one string (``"provisional cap"``), a missing value
``None``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from lichess_elo.core.contenders import contenders
from lichess_elo.core.report.model import PerfReport
from lichess_elo.core.report.predictions import PerfAccuracy

#: The tables of a report: ``games`` (one row a counted game), ``periods`` (one a rating
#: period) and ``predictions`` (one a game the scorecard predicted: ``--view predictions``).
Table = Literal["games", "periods", "predictions"]
TABLES: tuple[Table, ...] = ("games", "periods", "predictions")

GAME_COLUMNS = (
    "perf", "site", "id", "url", "played_at", "period", "chapter", "color", "opponent",
    "opponent_title", "opponent_rating", "opponent_estimated", "opponent_provisional",
    "opponent_bot", "score", "status", "endings", "lichess_rating", "lichess_diff",
    "lichess_after", "provisional", "elo_rating", "expected", "k", "elo_change", "plies",
    "replay_valid", "gap_before", "gap_cause", "not_rated", "flags",
)  # fmt: skip
"""The ``games`` table's columns, in order."""

PERIOD_COLUMNS = (
    "perf", "site", "period", "first_day", "games", "score", "expected", "performance",
    "games_before", "k", "k_requested", "k_reason", "k_700_rule", "edition", "chapter",
    "elo_start", "elo_change", "elo_change_exact", "elo_end", "lichess_start",
    "lichess_change", "lichess_end", "difference", "change_difference", "gap_count",
    "gap_points", "long_break", "below_floor", "adjustment", "adjusted_from",
)  # fmt: skip
"""The ``periods`` table's columns, in order."""

PREDICTION_GAME_COLUMNS = ("perf", "site", "id", "played_at", "color", "opponent_rating", "score")
"""The ``predictions`` table's first columns; one column a contender follows."""


def prediction_columns() -> tuple[str, ...]:
    """The ``predictions`` table's columns: the game's, then each registered contender's
    expected score of the player before the game (``core.contenders``), by key."""
    return (*PREDICTION_GAME_COLUMNS, *(c.key for c in contenders()))


def columns_of(table: Table) -> tuple[str, ...]:
    """The columns of ``table``, in order."""
    if table == "games":
        return GAME_COLUMNS
    if table == "periods":
        return PERIOD_COLUMNS
    return prediction_columns()


def game_records(reports: Sequence[PerfReport]) -> Iterator[dict[str, Any]]:
    """One dict a counted game (``GAME_COLUMNS``), the perfs in the reports' order."""
    for report in reports:
        for g in report.games:
            yield {
                "perf": report.perf,
                "site": g.site,
                "id": g.id,
                "url": g.url,
                "played_at": g.played_at,
                "period": g.period,
                "chapter": g.chapter,
                "color": g.color,
                "opponent": g.opponent,
                "opponent_title": g.opponent_title,
                "opponent_rating": g.opponent_rating,
                "opponent_estimated": g.opponent_estimated,
                "opponent_provisional": g.opponent_provisional,
                "opponent_bot": g.opponent_bot,
                "score": float(g.score),
                "status": g.status,
                "endings": " ".join(g.endings),
                "lichess_rating": g.lichess_rating,
                "lichess_diff": g.lichess_diff,
                "lichess_after": g.lichess_after,
                "provisional": g.provisional,
                "elo_rating": g.elo_rating,
                "expected": float(g.expected),
                "k": g.k,
                "elo_change": float(g.elo_change),
                "plies": g.plies,
                "replay_valid": g.replay_valid,
                "gap_before": g.gap_before,
                "gap_cause": g.gap_cause,
                "not_rated": g.not_rated,
                "flags": " ".join(g.flags),
            }


def period_records(reports: Sequence[PerfReport]) -> Iterator[dict[str, Any]]:
    """One dict a rating period (``PERIOD_COLUMNS``), the perfs in the reports' order.
    ``k_700_rule`` is whether the 700 rule lowered K (``PeriodRow.k_limited``)."""
    for report in reports:
        for p in report.periods:
            yield {
                "perf": report.perf,
                "site": report.site,
                "period": p.label,
                "first_day": p.first_day,
                "games": p.games,
                "score": float(p.score),
                "expected": float(p.expected),
                "performance": p.performance,
                "games_before": p.games_before,
                "k": p.k,
                "k_requested": p.k_requested,
                "k_reason": p.k_reason,
                "k_700_rule": p.k_limited,
                "edition": p.edition.key,
                "chapter": p.edition.chapter,
                "elo_start": p.elo_start,
                "elo_change": p.elo_change,
                "elo_change_exact": float(p.elo_change_exact),
                "elo_end": p.elo_end,
                "lichess_start": p.lichess_start,
                "lichess_change": p.lichess_change,
                "lichess_end": p.lichess_end,
                "difference": p.difference,
                "change_difference": p.change_difference,
                "gap_count": len(p.gaps),
                "gap_points": sum(g.size for g in p.gaps),
                "long_break": p.long_break,
                "below_floor": p.below_floor,
                "adjustment": p.adjustment.key if p.adjustment is not None else None,
                "adjusted_from": p.adjusted_from,
            }


def prediction_records(
    reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy]
) -> Iterator[dict[str, Any]]:
    """One dict a game of each perf the scorecard scored (``prediction_columns()``): the
    player's score and every contender's expected score, the same floats the scorecard
    was computed from (``--view predictions``). A perf without a scorecard gives none."""
    keys = [c.key for c in contenders()]
    for report in reports:
        card = cards.get(report.perf)
        if card is None:
            continue
        for i, g in enumerate(report.games):
            yield {
                "perf": report.perf,
                "site": g.site,
                "id": g.id,
                "played_at": g.played_at,
                "color": g.color,
                "opponent_rating": g.opponent_rating,
                "score": float(g.score),
                **{key: card.expected[key][i] for key in keys},
            }


def table_records(
    table: Table, reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy]
) -> Iterator[dict[str, Any]]:
    """The rows of ``table`` (``TABLES``)."""
    if table == "games":
        return game_records(reports)
    if table == "periods":
        return period_records(reports)
    return prediction_records(reports, cards)
