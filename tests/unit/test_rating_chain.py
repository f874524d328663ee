"""The rating chain read from whichever ratings a site publishes (``core.games.chain_link``).

Lichess publishes the rating before a game and its change; a site such as Chess.com only
the rating after it. Every expected value here is worked out by hand in the comment above
it, from the ratings the games carry.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from lichess_elo.core.games import Game, Side, chain_link
from lichess_elo.core.report.build import build_report
from lichess_elo.core.report.selection import exclusion_reason
from lichess_elo.core.report.settings import ReportSettings
from tests.helpers import ME


def _after_only(gid: str, day: int, mine: int, theirs: int, score: float) -> Game:
    """A blitz game of Hero (white) on ``day`` May 2024 from a site that publishes only
    post-game ratings: Hero's ``mine`` and the opponent's ``theirs``, after the game."""
    me = Side(user_id="hero", name=ME, rating_after=mine)
    opp = Side(user_id="opp", name="Opp", rating_after=theirs)
    winner = None if score == 0.5 else ("white" if score == 1 else "black")
    return Game(
        id=gid,
        rated=True,
        variant="standard",
        speed="blitz",
        perf="blitz",
        created_at=datetime(2024, 5, day, 10, tzinfo=UTC),
        status="draw" if winner is None else "resign",
        white=me,
        black=opp,
        winner=winner,  # type: ignore[arg-type]
    )


# Hero's ratings after three games: 1500, 1512, 1498. Changes: the first unknown (no rating
# before it was published), 1512 - 1500 = +12, 1498 - 1512 = -14. Opponents after: 1500,
# 1600, 1400; Hero wins, wins, loses.
GAMES = [
    _after_only("g1", 2, 1500, 1500, 1),
    _after_only("g2", 9, 1512, 1600, 1),
    _after_only("g3", 16, 1498, 1400, 0),
]


def test_lichess_before_and_change_chain_as_before() -> None:
    # 1500 + 8 = 1508 after the first game; the next shows 1508 before: no gap, change -6.
    # 1508 - 6 = 1502 after it; the third shows 1520: a gap of 1520 - 1502 = +18.
    first = Side(rating=1500, rating_diff=8)
    second = Side(rating=1508, rating_diff=-6)
    third = Side(rating=1520, rating_diff=3)
    assert chain_link(None, first) == (1500, 8, None)
    assert chain_link(first, second) == (1508, -6, None)
    assert chain_link(second, third) == (1520, 3, 18)


def test_post_game_ratings_only_chain_with_no_gap() -> None:
    # afters 1500, 1512, 1498: (before, change, gap) = (None, None, None) for the first,
    # (1500, 1512 - 1500 = +12, None), (1512, 1498 - 1512 = -14, None)
    sides = [Side(rating_after=r) for r in (1500, 1512, 1498)]
    links = [chain_link(p, s) for p, s in zip([None, *sides], sides, strict=False)]
    assert links == [(None, None, None), (1500, 12, None), (1512, -14, None)]


def test_before_and_after_without_a_change() -> None:
    # before 1500, after 1510: change +10; the next game shows 1515 before, after 1505:
    # change 1505 - 1515 = -10, and a gap of 1515 - 1510 = +5 (both ratings were published)
    first = Side(rating=1500, rating_after=1510)
    second = Side(rating=1515, rating_after=1505)
    assert chain_link(None, first) == (1500, 10, None)
    assert chain_link(first, second) == (1515, -10, 5)


def test_the_rating_a_game_leaves_and_the_rating_shown() -> None:
    # Lichess: 1500 + 8 = 1508 after, 1500 shown; post-game only: 1512 both; neither: None
    assert (Side(rating=1500, rating_diff=8).rating_end, Side(rating=1500).rating_shown) == (
        1508,
        1500,
    )
    assert (Side(rating_after=1512).rating_end, Side(rating_after=1512).rating_shown) == (
        1512,
        1512,
    )
    assert (Side(rating=1500).rating_end, Side().rating_shown) == (None, None)


def test_a_post_game_rated_game_counts() -> None:
    # Hero's after and the opponent's after are published: the game counts (no reason);
    # without Hero's after, Hero has no rating and no change: no_rating_change
    assert exclusion_reason(GAMES[0], "white", "blitz") is None
    bare = Game(
        id="g0",
        rated=True,
        variant="standard",
        speed="blitz",
        perf="blitz",
        created_at=datetime(2024, 5, 1, tzinfo=UTC),
        status="resign",
        white=Side(user_id="hero", name=ME),
        black=Side(user_id="opp", name="Opp", rating_after=1500),
        winner="white",
    )
    assert exclusion_reason(bare, "white", "blitz") == "no_rating_change"


def test_a_report_of_post_game_ratings_has_no_false_gap() -> None:
    (report,) = build_report(ME, GAMES, {}, settings=ReportSettings(perfs=("blitz",), k=20))
    rows = report.games
    # before: unknown, then the previous game's after; change as worked out above
    assert [r.lichess_rating for r in rows] == [None, 1500, 1512]
    assert [r.lichess_diff for r in rows] == [None, 12, -14]
    assert [r.lichess_after for r in rows] == [1500, 1512, 1498]
    assert [r.gap_before for r in rows] == [None, None, None]
    assert [r.opponent_rating for r in rows] == [1500, 1600, 1400]  # the published ones
    (period,) = report.periods  # all in May 2024
    # the site's track starts at the first published rating, 1500: 1500 + (12 - 14) = 1498
    assert (period.lichess_start, period.lichess_change, period.lichess_end) == (1500, -2, 1498)
    assert period.gaps == ()
    summary = report.summary
    assert (summary.lichess_start, summary.lichess_final, summary.lichess_change) == (
        1500,
        1498,
        -2,
    )
    assert (summary.gap_count, summary.lichess_gaps) == (0, 0)
    # FIDE track from 1500 (the first published rating), K 20; FIDE table 8.1.2: D 0 ->
    # .50, D -100 (v 1600) -> .36, D +100 (v 1400) -> .64; score 2 - 1.50 = .50 x 20 = +10
    assert [r.expected for r in rows] == [Decimal("0.50"), Decimal("0.36"), Decimal("0.64")]
    assert (period.elo_start, period.elo_change, period.elo_end) == (1500, 10, 1510)


def test_the_first_game_in_range_chains_from_the_game_before() -> None:
    # since 5 May: g1 (2 May) is held but not reported; g2's before is g1's after, 1500,
    # so its change is known, +12; no gap is reported before the first game in range
    settings = ReportSettings(perfs=("blitz",), k=20, since=date(2024, 5, 5))
    (report,) = build_report(ME, GAMES, {}, settings=settings)
    rows = report.games
    assert [r.id for r in rows] == ["g2", "g3"]
    assert [(r.lichess_rating, r.lichess_diff, r.gap_before) for r in rows] == [
        (1500, 12, None),
        (1512, -14, None),
    ]
    (period,) = report.periods
    # 1500 + 12 - 14 = 1498
    assert (period.lichess_start, period.lichess_change, period.lichess_end) == (1500, -2, 1498)
