"""The scorecard of a report run: score every perf, and scan K when asked (an app module).

``score_reports`` joins the pure parts: ``core.report.predictions.score_perf`` on each perf's
counted games, and for the K scan the FIDE-rules track with K fixed (``core.report.scan``,
the same arithmetic as the report's rows) and the report builder run again under the K rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from lichess_elo.core.report import PerfReport, ReportSettings, build_report
from lichess_elo.core.report.predictions import (
    K_SCAN,
    LEFT_OUT_REASONS,
    PerfAccuracy,
    fit_k,
    results_of,
    score_perf,
)
from lichess_elo.core.report.scan import scan_expected

if TYPE_CHECKING:
    from lichess_elo.core.games import Game, UserInfo


def _shadow_reports(
    user: str,
    games: Sequence[Game],
    settings: ReportSettings,
    info: UserInfo | None,
    k: int | None,
    provisional_known: bool = True,
) -> dict[str, PerfReport]:
    """Each perf's report on the shadow track with K fixed (``None``: the K rules)."""
    shadow = replace(settings, track="shadow", k=k)
    built = build_report(
        user, games, {}, settings=shadow, user_info=info, provisional_known=provisional_known
    )
    return {r.perf: r for r in built}


def _expected(report: PerfReport) -> list[float]:
    return [float(r.expected) for r in report.games]


def _scanned(scans: Mapping[int, Mapping[str, list[float]]], perf: str, k: int) -> list[float]:
    return scans[k][perf]


def score_reports(
    user: str,
    games: Sequence[Game],
    settings: ReportSettings,
    info: UserInfo | None,
    reports: Sequence[PerfReport],
    *,
    fit: bool = False,
    provisional_known: bool = True,
) -> dict[str, PerfAccuracy]:
    """The scorecard of every perf of ``reports``, by perf; with ``fit``, the K scan too.

    ``provisional_known`` is false for games from a PGN (``build_report``'s K warning).

    The scan rates the shadow track (on the lichess track every period restarts from the
    Lichess rating, so K would change no prediction) once per K of ``K_SCAN``
    (``core.report.scan``: the track alone) and reruns the report once under the K rules,
    for the perfs that have games.

    Args:
        user: The player, as the reports were built for.
        games: The games the reports were built from.
        settings: The reports' settings (``since``/``until`` filled in).
        info: The user's public data the reports used, if any.
        reports: The built reports.
        fit: Also scan K from 5 to 60.
    """
    cards = {
        r.perf: score_perf(r.games, left_out=sum(r.excluded.get(x, 0) for x in LEFT_OUT_REASONS))
        for r in reports
    }
    perfs = tuple(r.perf for r in reports if r.games)
    if not fit or not perfs:
        return cards
    base = replace(settings, perfs=perfs)
    # only the expected scores of each K: the track alone, not the report's rows
    scans = scan_expected(user, games, replace(base, track="shadow"), K_SCAN, user_info=info)
    rules = _shadow_reports(user, games, base, info, None, provisional_known)
    for perf in perfs:
        report = rules[perf]
        cards[perf] = replace(
            cards[perf],
            fit=fit_k(
                partial(_scanned, scans, perf),
                results_of(report.games),
                rules_expected=_expected(report),
                rules_k=[p.k for p in report.periods],
                periods=[(p.label, p.games) for p in report.periods],
            ),
        )
    return cards
