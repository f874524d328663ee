"""The report under FIDE's rules by chapter and date (``core/report/editions.py`` and its use
in ``build_report``), and the real FIDE comparison (``core/report/fide_compare.py``).

Numbers are derived beside them from table 8.1.2 and the K of the edition named.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

from lichess_elo.core.fide_record import parse_player
from lichess_elo.core.games import Game, Side
from lichess_elo.core.report.build import ReportSettings, build_report
from lichess_elo.core.report.editions import game_event, k_warning, perf_chapter

ME = "Hero"


def game(
    gid: str,
    when: datetime,
    rating: int,
    opponent: int,
    score: float,
    *,
    speed: str = "blitz",
    perf: str | None = None,
    provisional: bool = False,
    tournament: str | None = None,
) -> Game:
    me = Side(user_id="hero", name=ME, rating=rating, rating_diff=1, provisional=provisional)
    opp = Side(user_id="opp", name="Opp", rating=opponent, rating_diff=-1)
    winner = None if score == 0.5 else ("white" if score == 1 else "black")
    return Game(
        id=gid,
        rated=True,
        variant="standard" if perf is None else perf,
        speed=speed,
        perf=perf or speed,
        created_at=when,
        status="draw" if score == 0.5 else "resign",
        white=me,
        black=opp,
        winner=winner,  # type: ignore[arg-type]
        tournament_id=tournament,
    )


def at(year: int, month: int, day: int = 5) -> datetime:
    return datetime(year, month, day, 12, tzinfo=UTC)


def test_chapter_of_a_perf() -> None:
    blitz = [game("a", at(2023, 1), 1500, 1500, 1)]
    classical = [game("b", at(2023, 1), 1500, 1500, 1, speed="classical")]
    assert perf_chapter(blitz, "auto") == "rapid-blitz"
    assert perf_chapter(classical, "auto") == "standard"
    assert perf_chapter(blitz, "standard") == "standard"
    # a variant perf: the most common speed of its games (2 blitz, 1 classical)
    mixed = [
        game(g, at(2023, 1), 1500, 1500, 1, speed=s, perf="chess960")
        for g, s in (("c", "blitz"), ("d", "classical"), ("e", "blitz"))
    ]
    assert perf_chapter(mixed, "auto") == "rapid-blitz"


def test_event_of_a_game() -> None:
    plain = game("a", at(2023, 1), 1500, 1500, 1)
    assert game_event(plain) is None
    assert game_event(replace(plain, tournament_id="eeBEJAda")) == "arena:eeBEJAda"
    assert game_event(replace(plain, swiss_id="Zr5kTq1B")) == "swiss:Zr5kTq1B"


def test_k_warning_only_when_the_games_contradict_the_count() -> None:
    # 30: the new-player count of every edition (8.3.3 "at least 30 games" [H24][CE2014])
    first = game("a", at(2023, 1), 2100, 2100, 1)
    kw = {"count_given": False, "new_player_games": 30}
    warning = k_warning((first, "white"), 3, k_given=False, **kw)
    assert warning is not None and (warning.counted_before, warning.assumed_before) == (3, 30)
    assert "(a), which Lichess shows established (2100, not provisional)" in warning.text
    provisional = replace(first, white=replace(first.white, provisional=True))
    assert k_warning((provisional, "white"), 3, k_given=False, **kw) is None
    assert k_warning((first, "white"), 30, k_given=False, **kw) is None
    assert (
        k_warning((first, "white"), 3, count_given=True, k_given=False, new_player_games=30) is None
    )
    assert k_warning((first, "white"), 3, k_given=True, **kw) is None
    assert k_warning(None, 0, k_given=False, **kw) is None


def test_k_warning_counts_to_the_editions_number() -> None:
    # A made-up edition whose new player has 20 games: 25 counted is established (no
    # warning), 19 is contradicted by the established first game and assumed 20.
    first = game("a", at(2023, 1), 2100, 2100, 1)
    kw = {"count_given": False, "k_given": False, "new_player_games": 20}
    assert k_warning((first, "white"), 25, **kw) is None
    warning = k_warning((first, "white"), 19, **kw)
    assert warning is not None and (warning.counted_before, warning.assumed_before) == (19, 20)
    assert "established player (20+ games)" in warning.text


def test_k_from_a_pgn_claims_nothing_lichess_did_not_write() -> None:
    # A PGN never carries the provisional flag.
    kwargs = {
        "count_given": False,
        "k_given": False,
        "provisional_known": False,
        "new_player_games": 30,  # every edition's (8.3.3)
    }
    # A first game at exactly Lichess's 1500 start: a new account, the count (0) stands.
    new = game("n", at(2023, 1), 1500, 1500, 1)
    assert k_warning((new, "white"), 0, **kwargs) is None
    # Any other first rating: games came before it; K as established, said plainly.
    seasoned = game("s", at(2023, 1), 1682, 1500, 1)
    warning = k_warning((seasoned, "white"), 0, **kwargs)
    assert warning is not None and (warning.basis, warning.assumed_before) == ("not_start", 30)
    assert "rated 1682, not Lichess's 1500 start" in warning.text
    assert "shows established" not in warning.text
    # The user's count or K still wins.
    assert k_warning((seasoned, "white"), 0, **{**kwargs, "count_given": True}) is None


def test_a_new_account_s_first_pgn_games_are_rated_at_k_40() -> None:
    # 3 classical games (standard chapter: K 40 before 30 games) from 1500 (the new
    # account's start), no count given: 0 games before the first, so K 40, no warning.
    # Under the API's flags the same games, not marked provisional, would have been taken
    # as established (K 20).
    games = [
        game(g, at(2023, 1, d), r, 1500, 1, speed="classical")
        for g, d, r in (("a", 1, 1500), ("b", 2, 1520), ("c", 3, 1538))
    ]
    (from_pgn,) = build_report(ME, games, {}, settings=ReportSettings(), provisional_known=False)
    assert (from_pgn.periods[0].k, from_pgn.k_warning) == (40, None)
    (from_api,) = build_report(ME, games, {}, settings=ReportSettings())
    assert from_api.periods[0].k == 20 and from_api.k_warning is not None


def test_each_period_by_its_own_date_or_one_date() -> None:
    # classical (standard chapter), 1500 beats 1500 each June, 40 games before:
    # 2013 K 15 -> +7.5 -> +8; 2015 K 20 -> +10 (1508 v 1500: D 8, .51 -> 20 x .49 = 9.8)
    games = [
        game("a", at(2013, 6), 1500, 1500, 1, speed="classical"),
        game("b", at(2015, 6), 1510, 1500, 1, speed="classical"),
    ]
    settings = ReportSettings(games_before=40)
    (report,) = build_report(ME, games, {}, settings=settings)
    first, second = report.periods
    assert (first.edition.key, first.k, first.elo_change) == ("standard-2012-07", 15, 8)
    assert (second.edition.key, second.k, second.elo_change) == ("standard-2014-07", 20, 10)
    # --rules-as-of 2013-01-01 for both: K 15; second 15 x .49 = 7.35 -> +7
    as_of = replace(settings, rules_as_of=date(2013, 1, 1))
    (report,) = build_report(ME, games, {}, settings=as_of)
    assert [(p.k, p.elo_change) for p in report.periods] == [(15, 8), (15, 7)]


def test_600_2600_game_is_shown_not_rated() -> None:
    # blitz, January 2025: 2650 beats 2000 (650 apart, 2650 > 2600): not rated, change 0;
    # the loss v 2640 (D 10, .51): K 10 (2650 >= 2400) x -.51 = -5.1 -> -5.
    games = [
        game("a", at(2025, 1, 5), 2650, 2000, 1),
        game("b", at(2025, 1, 6), 2655, 2640, 0),
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(games_before=100))
    excluded, counted = report.games
    assert (excluded.not_rated, excluded.elo_change, excluded.chapter) == (
        "600/2600",
        Decimal(0),
        "rapid-blitz",
    )
    assert "not_rated" in excluded.flags and counted.not_rated is None
    (period,) = report.periods
    assert (period.k, period.elo_change, period.score) == (10, -5, Decimal(0))


def test_the_peak_of_the_track_ends_the_junior_k() -> None:
    # classical, standard chapter 2024 ("end of the year of the 18th birthday"), born 2008,
    # 40 games before. January: 2290, a junior below 2300: K 40; beats 2290: +20 -> 2310.
    # February: 2310 -> no junior K (rated 2300); K 20; loses v 2310: -10 -> 2300.
    # March: 2300 loses v 2300 (D 0, .50): -10 -> 2290. April: 2290, below 2300 again,
    # but the track's peak 2310 keeps K 20.
    games = [
        game("a", at(2024, 4), 2290, 2290, 1, speed="classical"),
        game("b", at(2024, 5), 2300, 2310, 0, speed="classical"),
        game("c", at(2024, 6), 2290, 2300, 0, speed="classical"),
        game("d", at(2024, 7), 2280, 2290, 1, speed="classical"),
    ]
    settings = ReportSettings(born=2008, games_before=40)
    (report,) = build_report(ME, games, {}, settings=settings)
    assert [(p.elo_start, p.k, p.k_reason) for p in report.periods] == [
        (2290, 40, "junior"),
        (2310, 20, "standard"),
        (2300, 20, "standard"),
        (2290, 20, "standard"),
    ]
    # a given peak counts from the start: --peak 2350 -> K 20 from January (+10)
    (report,) = build_report(ME, games, {}, settings=replace(settings, peak=2350))
    assert report.periods[0].k == 20 and report.periods[0].elo_change == 10


def test_fide_comparison_per_period() -> None:
    player = parse_player(
        {"id": 5, "name": "P", "year": 1990, "blitz": 1800},
        {"blitz": [2023011700, 2023021750], "standard": [], "rapid": []},
    )
    games = [
        game("a", at(2023, 1), 1700, 1700, 1, provisional=True),
        game("b", at(2023, 2), 1720, 1700, 1, provisional=True),
        game("c", at(2023, 3), 1730, 1700, 1, provisional=True),
    ]
    (report,) = build_report(
        ME, games, {}, settings=ReportSettings(games_before=40), fide_player=player
    )
    # K 20 for everyone (blitz 2023). Jan: 1700 beats 1700 -> +10 -> 1710; Feb: 1710 v 1700
    # D 10 (.51) -> +9.8 -> +10 -> 1720; Mar: 1720 v 1700 D 20 (.53) -> +9.4 -> +9 -> 1729.
    assert [p.elo_end for p in report.periods] == [1710, 1720, 1729]
    # FIDE blitz: Jan 1700, Feb 1750, March not on the list (no point covers it)
    assert [p.fide_rating for p in report.periods] == [1700, 1750, None]
    fide = report.fide
    assert fide is not None and fide.fide_list == "blitz"
    # offsets 1710 - 1700 = +10 and 1720 - 1750 = -30: mean -10, last -30
    assert (fide.periods_compared, fide.mean_offset, fide.last_offset) == (2, -10.0, -30)
    assert fide.history == ((date(2023, 1, 1), 1700), (date(2023, 2, 1), 1750))
    assert fide.message is None
    # the birth year (1990) feeds the junior rule: no junior here; the blitz peak 1800 < 2400
    rapid = [replace(g, speed="rapid", perf="rapid") for g in games]
    (report,) = build_report(
        ME, rapid, {}, settings=ReportSettings(games_before=40), fide_player=player
    )
    assert report.fide is not None and report.fide.message == "no FIDE rating in this list"
