"""Hypothesis properties of the report model."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from lichess_elo.core import fide
from lichess_elo.core.games import Game
from lichess_elo.core.report import ReportSettings, build_report
from tests.helpers import ME, game

START = datetime(2022, 12, 20, tzinfo=UTC)


@st.composite
def histories(draw: st.DrawFn) -> list[Game]:
    """1-25 blitz games of Hero over a few months, with arbitrary ratings (so gaps too)."""
    n = draw(st.integers(1, 25))
    when = START
    games = []
    for i in range(n):
        when += timedelta(minutes=draw(st.integers(1, 60 * 24 * 20)))
        games.append(
            game(
                f"g{i:03d}",
                when,
                draw(st.integers(1000, 2800)),
                draw(st.integers(-40, 40)),
                draw(st.integers(800, 3000)),
                draw(st.sampled_from([0, 0.5, 1])),
                color=draw(st.sampled_from(["white", "black"])),
            )
        )
    return games


K_CHOICES = st.one_of(st.none(), st.integers(1, 60))
PERIODS = st.sampled_from(["month", "week", "day", "game"])


@settings(max_examples=60, deadline=None)
@given(histories(), K_CHOICES, PERIODS, st.one_of(st.none(), st.integers(1990, 2015)))
def test_shadow_and_lichess_tracks_agree_on_the_first_period(
    games: list[Game], k: int | None, period: str, born: int | None
) -> None:
    common = {"k": k, "period": period, "born": born}
    (shadow,) = build_report(ME, games, {}, settings=ReportSettings(track="shadow", **common))  # type: ignore[arg-type]
    (lichess,) = build_report(ME, games, {}, settings=ReportSettings(track="lichess", **common))  # type: ignore[arg-type]
    assert shadow.periods[0] == lichess.periods[0]
    first = shadow.periods[0].label
    assert [g for g in shadow.games if g.period == first] == [
        g for g in lichess.games if g.period == first
    ]


@settings(max_examples=60, deadline=None)
@given(histories(), st.integers(1, 60), st.booleans(), st.booleans())
def test_period_game_with_fixed_k_is_calc_game_by_game(
    games: list[Game], k: int, formula: bool, cap: bool
) -> None:
    method: fide.Method = "formula" if formula else "table"
    options = ReportSettings(period="game", k=k, method=method, cap=cap)
    (report,) = build_report(ME, games, {}, settings=options)
    rating = games[0].side("white" if games[0].white.name == ME else "black").rating
    assert rating is not None
    for g, row, period in zip(games, report.games, report.periods, strict=True):
        color = "white" if g.white.name == ME else "black"
        opponent = g.opponent(color).rating
        assert opponent is not None
        score = Decimal(str(g.score(color)))
        # the same edition as the report's period (its chapter and date)
        calc = fide.rate_period(
            rating,
            [fide.GameResult(opponent, score)],
            k=k,
            method=method,
            cap=cap,
            edition=period.edition,
        )
        assert period.label == g.id
        assert (period.elo_start, period.elo_change, period.elo_end) == (
            rating,
            calc.rounded_change,
            calc.new_rating,
        )
        assert (row.expected, row.elo_change, row.k) == (
            calc.games[0].expected,
            calc.games[0].change,
            calc.k,
        )
        rating = calc.new_rating


@settings(max_examples=60, deadline=None)
@given(histories(), PERIODS)
def test_glicko_changes_sum_to_the_rating_moved_less_the_gaps(
    games: list[Game], period: str
) -> None:
    (report,) = build_report(ME, games, {}, settings=ReportSettings(period=period))  # type: ignore[arg-type]
    first, last = report.games[0], report.games[-1]
    gaps = sum(g.gap_before or 0 for g in report.games)
    total = sum(p.lichess_change for p in report.periods)
    assert total == last.lichess_rating + last.lichess_diff - first.lichess_rating - gaps
    assert report.summary.lichess_change == total
    assert report.summary.lichess_gaps == gaps
