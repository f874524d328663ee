"""FIDE's chapter of a game from its clock, by the Laws of Chess, Appendix A (issue #41).

Every expected value is worked out by hand from the Laws' thresholds
(/work/shared/reference/notes/fide-rules.md, "Which chapter a game belongs to"; docs/rules.md
"The chapter of a game"): the Laws count the time allotted plus 60 x the increment; 60
minutes or more is standard; more than 10 (15 before 1 July 2013) and less than 60 is rapid;
10 (15) minutes or less is blitz. Rapid and blitz share the Rapid & Blitz regulations.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

import pytest

from lichess_elo.core.fide import fide_chapter, fide_speed
from lichess_elo.core.games import Clock, Game, parse_time_control
from lichess_elo.core.report import ReportSettings, build_report
from lichess_elo.core.report.editions import game_chapter
from tests.helpers import ME, game

# (PGN TimeControl, the Laws' count in minutes worked by hand, FIDE speed, chapter)
EDGES = [
    ("600+0", "10 + 60 x 0 s = 10 min: 10 or less", "blitz", "rapid-blitz"),
    ("600+1", "10 + 60 x 1 s = 11 min: more than 10", "rapid", "rapid-blitz"),
    ("3540+1", "59 + 60 x 1 s = 60 min: 60 or more", "standard", "standard"),
    ("3600+0", "60 min", "standard", "standard"),
    ("2700+15", "45 + 60 x 15 s = 45 + 15 = 60 min", "standard", "standard"),
    ("1500+0", "25 min: Lichess's classical from 25, FIDE's rapid", "rapid", "rapid-blitz"),
    ("3540+0", "59 min: less than 60", "rapid", "rapid-blitz"),
    ("1800+0", "30 min: Lichess classical, FIDE rapid", "rapid", "rapid-blitz"),
    ("1800+20", "30 + 20 = 50 min", "rapid", "rapid-blitz"),
    ("900+15", "15 + 15 = 30 min", "rapid", "rapid-blitz"),
    ("5400+30", "90 + 30 = 120 min", "standard", "standard"),
]


@pytest.mark.parametrize(("tag", "count", "speed", "chapter"), EDGES)
def test_the_laws_thresholds_at_their_edges(tag: str, count: str, speed: str, chapter: str) -> None:
    clock = parse_time_control(tag)
    assert fide_speed(clock) == speed, count
    assert fide_chapter(clock) == chapter, count


def test_the_blitz_line_was_15_minutes_before_july_2013() -> None:
    # The 2009 Laws: rapid "more than 15 minutes but less than 60"; 10 from 1 July 2013.
    fifteen = Clock(900, 0)
    assert fide_speed(fifteen, date(2013, 6, 30)) == "blitz"  # 15 min: 15 or less
    assert fide_speed(fifteen, date(2013, 7, 1)) == "rapid"  # more than 10
    # 14 min + 60 x 1 s = 15 min: blitz under the 2009 line; 15 + 1 = 16 min: rapid
    assert fide_speed(Clock(840, 1), date(2012, 1, 1)) == "blitz"
    assert fide_speed(Clock(900, 1), date(2012, 1, 1)) == "rapid"
    # the chapter never depends on the date: both sides of the line are Rapid & Blitz
    assert fide_chapter(fifteen) == "rapid-blitz"


def test_no_clock_is_correspondence_and_keeps_the_standard_chapter() -> None:
    assert fide_speed(None) is None
    assert fide_chapter(None) == "standard"
    assert fide_chapter(parse_time_control("-")) == "standard"


def _classical(
    gid: str, when: datetime, tag: str, rating: int, opponent: int, score: float
) -> Game:
    """A classical game of Hero with the clock ``tag``."""
    return replace(
        game(gid, when, rating, 0, opponent, score, perf="classical"),
        clock=parse_time_control(tag),
    )


def test_game_chapter_under_auto_and_forced() -> None:
    thirty = _classical("a", datetime(2020, 3, 2, tzinfo=UTC), "1800+0", 2450, 2450, 1)
    assert game_chapter(thirty, "auto") == "rapid-blitz"
    assert game_chapter(thirty, "standard") == "standard"
    no_clock = replace(thirty, clock=None)  # clock unknown: the speed's chapter
    assert game_chapter(no_clock, "auto") == "standard"


def test_a_period_spanning_chapters_is_rated_in_parts() -> None:
    # A 2450 player in March 2020, established (30 games before), wins two classical games
    # against 2450 (D = 0, PD .50). 30+0 is FIDE rapid: the Rapid & Blitz rules of 2014-2022
    # give everyone K 20: 20 x (1 - .50) = +10. 90+30 is standard: the standard rules give
    # K 10 from 2400: 10 x (1 - .50) = +5. The period: +10 + +5 = +15, 2450 -> 2465.
    games = [
        _classical("r", datetime(2020, 3, 2, tzinfo=UTC), "1800+0", 2450, 2450, 1),
        _classical("s", datetime(2020, 3, 9, tzinfo=UTC), "5400+30", 2450, 2450, 1),
    ]
    auto = ReportSettings(perfs=("classical",), games_before=30)
    (report,) = build_report(ME, games, {}, settings=auto)
    (period,) = report.periods
    assert [(r.id, r.chapter, r.k) for r in report.games] == [
        ("r", "rapid-blitz", 20),
        ("s", "standard", 10),
    ]
    assert (period.elo_start, period.elo_change, period.elo_end) == (2450, 15, 2465)
    # one game each: the tie goes to the earlier game's chapter, shown first
    assert [(p.chapter, p.games, p.k, p.change) for p in period.parts] == [
        ("rapid-blitz", 1, 20, 10),
        ("standard", 1, 10, 5),
    ]
    assert period.edition.chapter == "rapid-blitz"
    # --rules standard forces one chapter: K 10 for both, 10 x (2 - 1.00) = +10
    forced = replace(auto, rules="standard")
    (report,) = build_report(ME, games, {}, settings=forced)
    assert [(r.chapter, r.k) for r in report.games] == [("standard", 10), ("standard", 10)]
    assert report.periods[0].elo_change == 10
