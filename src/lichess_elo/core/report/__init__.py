"""The report: a player's Lichess games under FIDE Elo rules, next to Glicko-2 (pure).

``settings`` (what was asked, checked by ``ReportSettings.check``), ``selection`` (which
games count), ``model`` (the rows), ``build`` (both tracks, per game and per period) and
``summary`` (totals, disagreements, endings, as numbers).
"""

from lichess_elo.core.report.build import build_report, gap_cause, period_label
from lichess_elo.core.report.model import (
    GameRow,
    Gap,
    GapCause,
    PerfReport,
    PeriodRow,
)
from lichess_elo.core.report.settings import PERIOD_KINDS, TRACKS, PeriodKind, ReportSettings, Track
from lichess_elo.core.report.summary import Summary

__all__ = [
    "PERIOD_KINDS",
    "TRACKS",
    "GameRow",
    "Gap",
    "GapCause",
    "PerfReport",
    "PeriodKind",
    "PeriodRow",
    "ReportSettings",
    "Summary",
    "Track",
    "build_report",
    "gap_cause",
    "period_label",
]
