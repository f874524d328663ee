"""The K scan's tracks: each perf's expected scores with K fixed, for many K at once.

Pure code, no I/O. ``fit_k`` needs the FIDE-rules track's expected scores with K fixed at
each of 56 values. Building the whole report once per K (rows, periods, summaries) cost
about 11x the report itself; here the games are classified and grouped into periods once,
each period's opponents, edition and rating adjustment are found once, and each K then only
rates the periods in turn (``fide.period_expected``: the arithmetic of ``rate_period``,
with no record made). The numbers are those of ``build_report``'s rows with the same
settings and K (tests/unit/test_report_scan.py checks that they are).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lichess_elo.core import fide
from lichess_elo.core.fide.kinds import Chapter
from lichess_elo.core.fide.period import period_expected
from lichess_elo.core.games import Color, Game
from lichess_elo.core.report.build import period_label
from lichess_elo.core.report.editions import (
    game_chapter,
    game_event,
    main_chapter,
    perf_chapter,
    period_edition,
)
from lichess_elo.core.report.rows import site_start
from lichess_elo.core.report.selection import classify, in_range, select_perfs
from lichess_elo.core.report.settings import ReportSettings

if TYPE_CHECKING:
    from lichess_elo.core.games import UserInfo


@dataclass(frozen=True)
class _Period:
    """What a period's rating needs whatever K is."""

    lichess_start: int
    adjustment: fide.Adjustment | None
    #: One part a chapter (``perf._parts``): its edition, its games' places in the
    #: period and their results.
    parts: tuple[tuple[fide.Edition, tuple[int, ...], tuple[fide.GameResult, ...]], ...]


def _plan(
    held: Sequence[tuple[Game, Color]], settings: ReportSettings
) -> tuple[int, list[_Period]]:
    """The start rating and the periods of one perf, as ``build._perf_report`` finds them."""
    chosen = [i for i, (g, _) in enumerate(held) if in_range(g, settings.start, settings.stop)]
    if not chosen:
        return 0, []
    groups: dict[str, list[tuple[Game, Color]]] = {}
    heads: dict[str, int] = {}  # each period's first game, by its index in ``held``
    for i in chosen:
        g, c = held[i]
        label = period_label(g, settings.period)
        heads.setdefault(label, i)
        groups.setdefault(label, []).append((g, c))
    chapter = perf_chapter([g for g, _ in held], settings.rules)

    def site_before(i: int) -> int:
        """The site's rating before ``held[i]`` (``rows.site_start``)."""
        previous = held[i - 1][0].side(held[i - 1][1]) if i else None
        return site_start(previous, held[i][0].side(held[i][1]))

    own = site_before(chosen[0])
    start = settings.start_rating if settings.start_rating is not None else own
    periods: list[_Period] = []
    previous_day = None
    for label, items in groups.items():
        head_game = items[0][0]
        day = head_game.created_at.date()
        adjustment = None
        if previous_day is not None and settings.adjustments and settings.rules_as_of is None:
            adjustment = fide.adjustment_between(chapter, previous_day, day)
        previous_day = day
        chapters = [game_chapter(g, settings.rules) for g, _ in items]
        places: dict[Chapter, list[int]] = {main_chapter(chapters): []}
        for place, game_chapter_ in enumerate(chapters):
            places.setdefault(game_chapter_, []).append(place)
        parts = tuple(
            (
                period_edition(part, head_game, settings.rules_as_of),
                tuple(where),
                tuple(
                    fide.GameResult(
                        opponent=g.opponent(c).rating_shown or 0,
                        score=g.points(c),
                        event=game_event(g),
                    )
                    for g, c in (items[p] for p in where)
                ),
            )
            for part, where in places.items()
        )
        periods.append(_Period(site_before(heads[label]), adjustment, parts))
    return (start if start is not None else 0), periods


def _track(start: int, periods: Sequence[_Period], settings: ReportSettings, k: int) -> list[float]:
    """The expected score of every game of the perf with K fixed at ``k``."""
    rating = start
    expected: list[float] = []
    for period in periods:
        if settings.track == "lichess":
            rating = period.lichess_start
        elif period.adjustment is not None:
            rating = fide.adjusted(period.adjustment, rating)
        found = [0.0] * sum(len(where) for _, where, _ in period.parts)
        change = 0
        for edition, where, results in period.parts:
            scores, after = period_expected(
                rating, results, k=k, method=settings.method, cap=settings.cap, edition=edition
            )
            change += after - rating
            for place, score in zip(where, scores, strict=True):
                found[place] = float(score)
        rating += change
        expected.extend(found)
    return expected


def scan_expected(
    user: str,
    games: Sequence[Game],
    settings: ReportSettings,
    ks: Iterable[int],
    *,
    user_info: UserInfo | None = None,
) -> dict[int, dict[str, list[float]]]:
    """For each K of ``ks``, each selected perf's expected scores game by game: the
    ``expected`` of ``build_report``'s rows with ``settings`` and that K given.

    Args:
        user: The player's Lichess name (any case).
        games: The games held, as for ``build_report``.
        settings: The options (their ``k`` is ignored: each K of ``ks`` is given instead).
        ks: The K values.
        user_info: The user's public data, for the default perf.

    Raises:
        BadInput: an unknown perf.
    """
    counted, _, _ = classify(user, games, settings.start, settings.stop)
    plans = {
        p: _plan(counted.get(p, []), settings)
        for p in select_perfs(settings.perfs, counted, user_info)
    }
    return {
        k: {perf: _track(start, periods, settings, k) for perf, (start, periods) in plans.items()}
        for k in ks
    }
