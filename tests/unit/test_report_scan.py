"""The K scan's tracks (core/report/scan.py) against the report's own rows.

The scan rates the FIDE-rules track with K fixed without building the report. What it
must give is what ``build_report`` gives in its rows' ``expected`` with the same settings
and that K, for every perf, period kind, track, method and rules edition: seeded games
(a fixed count) crossing the March 2024 adjustment and the 2024/2025 editions, with
opponents far apart (the 400-point rule) and below 1000 (the 600/2600 rule).
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from lichess_elo.core.games import Game
from lichess_elo.core.report import ReportSettings, build_report
from lichess_elo.core.report.scan import scan_expected
from tests.helpers import game


def _games(seed: int, count: int = 160) -> list[Game]:
    """``count`` games of Hero from 2023-11 on (blitz and rapid), about a day apart."""
    rng = random.Random(seed)
    when = datetime(2023, 11, 1, tzinfo=UTC)
    ratings = {"blitz": rng.randint(700, 2300), "rapid": rng.randint(700, 2300)}
    games = []
    for i in range(count):
        perf = rng.choice(("blitz", "rapid"))
        own = ratings[perf]
        opponent = max(400, own + rng.choice((-700, -450, -100, 0, 80, 300, 500, 900)))
        score = rng.choice((0.0, 0.5, 1.0))
        diff = rng.randint(-9, 9)
        games.append(game(f"g{i}", when, own, diff, opponent, score, perf=perf))
        ratings[perf] = own + diff
        when += timedelta(hours=rng.randint(2, 60))
    return games


def _rows_expected(games: list[Game], settings: ReportSettings, k: int) -> dict[str, list[float]]:
    reports = build_report("Hero", games, {}, settings=replace(settings, k=k))
    return {r.perf: [float(row.expected) for row in r.games] for r in reports}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "settings",
    [
        ReportSettings(perfs=("all",), track="shadow"),
        ReportSettings(perfs=("all",), track="shadow", period="week", method="formula"),
        ReportSettings(perfs=("blitz",), track="shadow", period="day", cap=False),
        ReportSettings(perfs=("all",), track="shadow", adjustments=False, start_rating=1500),
        ReportSettings(perfs=("all",), track="lichess"),
    ],
)
def test_scan_gives_the_rows_expected_scores(seed: int, settings: ReportSettings) -> None:
    games = _games(seed)
    ks = (5, 20, 40, 60)
    scans = scan_expected("Hero", games, settings, ks)
    assert set(scans) == set(ks)
    for k in ks:
        assert scans[k] == _rows_expected(games, settings, k)
    # K changes the shadow track's predictions (so the comparison above can fail)
    if settings.track == "shadow":
        assert scans[5] != scans[60]


def test_scan_of_no_counted_games_is_empty_per_perf() -> None:
    settings = ReportSettings(perfs=("blitz",), track="shadow")
    assert scan_expected("Hero", [], settings, (10,)) == {10: {"blitz": []}}
