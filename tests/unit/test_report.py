"""The pure report model on small hand-made game lists.

Every expected number is worked out in the comments from FIDE table 8.1.2 (notes/fide-rules.md
§2), the K rules (§4) and the data of the games themselves.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from lichess_elo.core.games import Game, PerfStats, UserInfo
from lichess_elo.core.replay import ReplayFacts
from lichess_elo.core.report import ReportSettings, build_report, period_label
from lichess_elo.core.report.selection import exclusion_reason
from lichess_elo.core.report.summary import period_reasons, summarize
from lichess_elo.errors import BadInput, Conflict
from tests.helpers import ME, day, game

#: The standard chapter, for the tests of its K rules (the games are blitz, which ``auto``
#: rates by the Rapid & Blitz chapter: K 20 for everyone in 2023).
STANDARD = ReportSettings(rules="standard")

# --- periods -----------------------------------------------------------------------------


def test_period_labels_use_utc_created_at() -> None:
    # 2023-01-31 is a Tuesday of ISO week 5 (Mon 30 Jan .. Sun 5 Feb).
    g = game("abcdefgh", datetime(2023, 1, 31, 23, 59, tzinfo=UTC), 1500, 5, 1500, 1)
    assert period_label(g, "month") == "2023-01"
    assert period_label(g, "week") == "2023-W05"
    assert period_label(g, "day") == "2023-01-31"
    assert period_label(g, "game") == "abcdefgh"
    # 2023-01-01 is a Sunday: it belongs to ISO week 52 of 2022.
    g = game("x", datetime(2023, 1, 1, 0, 0, tzinfo=UTC), 1500, 5, 1500, 1)
    assert period_label(g, "week") == "2022-W52"


# --- selection ---------------------------------------------------------------------------


def test_exclusion_reasons() -> None:
    t = day(1, 10)
    assert exclusion_reason(game("a", t, 1500, 5, 1500, 1), "white", "blitz") is None
    assert exclusion_reason(game("b", t, 1500, 5, 1500, 1), "white", "rapid") == "other_perf"
    casual = game("c", t, 1500, None, 1500, 1, rated=False)
    assert exclusion_reason(casual, "white", "blitz") == "casual"
    aborted = game("d", t, 1500, None, 1500, 0.5, status="aborted")
    assert exclusion_reason(aborted, "white", "blitz") == "aborted"
    # noStart: Lichess rated it when the diffs are there (it counts); without diffs and
    # with no move (the helper's games hold none) Lichess did not rate it: unplayed
    no_start = game("e", t, 1500, None, 1500, 0, status="noStart")
    assert exclusion_reason(no_start, "white", "blitz") == "unplayed"
    rated_no_start = game("e2", t, 1500, -6, 1500, 0, status="noStart")
    assert exclusion_reason(rated_no_start, "white", "blitz") is None
    # no diff, 0 plies: unplayed; 1 ply: still unplayed (at most one); 2 plies: played, so
    # only the missing change leaves it out
    no_diff = game("f", t, 1500, None, 1500, 1)
    assert exclusion_reason(no_diff, "white", "blitz") == "unplayed"
    assert exclusion_reason(replace(no_diff, moves=("e4",)), "white", "blitz") == "unplayed"
    played = replace(no_diff, moves=("e4", "e5"))
    assert exclusion_reason(played, "white", "blitz") == "no_rating_change"
    # moves no longer held: the plies given (a replay's count) decide
    assert exclusion_reason(no_diff, "white", "blitz", plies=2) == "no_rating_change"
    assert exclusion_reason(no_diff, "white", "blitz", plies=1) == "unplayed"
    ai = game("g", t, 1500, None, None, 1, rated=False, ai=3)
    assert exclusion_reason(ai, "white", "blitz") == "ai_opponent"


def test_excluded_games_are_counted_and_default_perf_has_most_games() -> None:
    games = [
        game("b1", day(1, 2), 1500, 5, 1500, 1),
        game("b2", day(1, 3), 1505, 5, 1500, 1),
        game("r1", day(1, 4), 1600, 5, 1600, 1, perf="rapid"),
        game("c1", day(1, 5), 1510, None, 1500, 1, rated=False),
        game("a1", day(1, 6), 1510, None, 1500, 0.5, status="aborted"),
        game("s1", day(1, 7), 1510, None, None, 1, rated=False, ai=2),
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings())
    assert report.perf == "blitz"  # 2 counted blitz games against 1 rapid
    assert [g.id for g in report.games] == ["b1", "b2"]
    assert report.excluded == {
        "other_perf": 1,
        "ai_opponent": 1,
        "casual": 1,
        "aborted": 1,
        "no_rating_change": 0,
    }


def test_perf_all_and_unknown_perf() -> None:
    games = [
        game("b1", day(1, 2), 1500, 5, 1500, 1),
        game("r1", day(1, 4), 1600, 5, 1600, 1, perf="rapid"),
    ]
    reports = build_report(ME, games, {}, settings=ReportSettings(perfs=("all",)))
    assert [r.perf for r in reports] == ["blitz", "rapid"]  # Lichess's perf order
    with pytest.raises(BadInput, match="valid: all, ultraBullet, bullet, blitz"):
        build_report(ME, games, {}, settings=ReportSettings(perfs=("blits",)))


def test_no_counted_games_gives_an_empty_report_with_a_message() -> None:
    games = [game("b1", day(1, 2), 1500, 5, 1500, 1)]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(perfs=("rapid",)))
    assert report.games == () and report.periods == ()
    assert report.message is not None and "no counted rapid games" in report.message
    assert report.summary.elo_final is None and report.summary.correlation is None


def test_empty_report_messages_say_what_is_true() -> None:
    casual = [game("c1", day(1, 2), 1500, None, 1500, 1, rated=False)]
    # --perf all, Hero's only game is casual: no perf is named.
    (report,) = build_report(ME, casual, {}, settings=ReportSettings(perfs=("all",)))
    assert report.message == "Hero has no counted games (rated, finished, with a rating change)"
    # Games of other players only (a PGN without the user): say so, not "no blitz games".
    two = [game("b1", day(1, 2), 1500, 5, 1500, 1), game("b2", day(1, 3), 1505, 5, 1500, 1)]
    (report,) = build_report("Zed", two, {}, settings=ReportSettings())
    assert report.message == "Zed plays in none of the 2 games read"
    (report,) = build_report(ME, [], {}, settings=ReportSettings(perfs=("all",)))
    assert report.message == "Hero has no games"
    # Hero's games exist, none in range.
    late = ReportSettings(since=date(2023, 6, 1))
    (report,) = build_report(ME, two, {}, settings=late)
    assert report.message == "Hero has no games in the selected range"


# --- the Elo track -----------------------------------------------------------------------


def test_shadow_track_freezes_the_rating_within_the_period() -> None:
    # The calc example (notes/fide-rules.md §5.4 a) as one January, K fixed at 20:
    # 1500 v 1400 win: D 100 -> PD .64 -> +0.36; v 1600 draw: D -100 -> .36 -> +0.14;
    # v 1550 loss: D -50 -> .43 -> -0.43. Sum +0.07, x20 = +1.4 -> +1 -> 1501.
    # Lichess moved Hero in between (1500 -> 1510 -> 1512); the Elo rating stays 1500.
    games = [
        game("g1", day(1, 5), 1500, 10, 1400, 1),
        game("g2", day(1, 6), 1510, 2, 1600, 0.5),
        game("g3", day(1, 7), 1512, -9, 1550, 0),
        # February: Elo 1501 v 1503 loss: D -2 -> PD .50 -> -0.50 x 20 = -10 -> 1491.
        game("g4", day(2, 1), 1503, -8, 1503, 0),
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    jan, feb = report.periods
    assert [g.elo_rating for g in report.games] == [1500, 1500, 1500, 1501]
    assert [g.expected for g in report.games] == [
        Decimal("0.64"),
        Decimal("0.36"),
        Decimal("0.43"),
        Decimal("0.50"),
    ]
    assert [g.elo_change for g in report.games] == [
        Decimal("7.2"),
        Decimal("2.8"),
        Decimal("-8.6"),
        Decimal("-10"),
    ]
    assert (jan.elo_start, jan.elo_change_exact, jan.elo_change, jan.elo_end) == (
        1500,
        Decimal("1.4"),
        1,
        1501,
    )
    assert (feb.elo_start, feb.elo_change, feb.elo_end) == (1501, -10, 1491)
    # Glicko: January 1500 + 10 + 2 - 9 = 1503, February 1503 - 8 = 1495.
    assert (jan.lichess_start, jan.lichess_change, jan.lichess_end) == (1500, 3, 1503)
    assert (feb.lichess_start, feb.lichess_change, feb.lichess_end) == (1503, -8, 1495)
    assert report.summary.elo_final == 1491 and report.summary.lichess_final == 1495
    assert (jan.k_reason, feb.k_reason) == ("given", "given")


def test_lichess_track_restarts_every_period_and_start_rating_sets_shadow() -> None:
    games = [
        game("g1", day(1, 5), 1500, 10, 1400, 1),
        game("g2", day(2, 5), 1600, -10, 1600, 0),
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20, track="lichess"))
    # January 1500 v 1400 win: +0.36 x 20 = 7.2 -> 1507; February restarts at 1600:
    # v 1600 loss: PD .50 -> -10 -> 1590.
    assert [(p.elo_start, p.elo_end) for p in report.periods] == [(1500, 1507), (1600, 1590)]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20, start_rating=1700))
    # 1700 v 1400: D 300 -> 291-302 row -> .85 -> +0.15 x 20 = 3 -> 1703;
    # 1703 v 1600 loss: D 103 -> 99-106 row -> .64 -> -12.8 -> -13 -> 1690.
    assert [(p.elo_start, p.elo_end) for p in report.periods] == [(1700, 1703), (1703, 1690)]


def test_start_rating_zero_is_used_and_lichess_track_refuses_it() -> None:
    games = [game("g1", day(1, 5), 1500, 10, 1500, 1)]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20, start_rating=0))
    # 0 v 1500: D -1500, cut to -400 by the 400 rule (below 2650) -> row 392-411, L .08;
    # a win: +0.92 x 20 = +18.4 -> +18 -> 18. (Not the Lichess 1500 in place of 0.)
    assert report.start_rating == 0
    (p,) = report.periods
    assert (p.elo_start, p.elo_change, p.elo_end) == (0, 18, 18)
    with pytest.raises(Conflict) as refused:
        ReportSettings(start_rating=1800, track="lichess").check(2026)
    assert refused.value.fields == ("start_rating", "track")
    assert str(refused.value) == (
        "start rating does not apply with track (it only applies to the shadow track)"
    )


def test_automatic_k_new_player_then_established() -> None:
    # 30 January games v equal opponents (1500 v 1500: PD .50), all draws, then one
    # February game. Before January: 0 games -> K 40 "new"; 40 x 30 = 1200 > 700 ->
    # 700 rule: K = floor(700 / 30) = 23. Before February: 30 games -> K 20 "standard".
    # The standard chapter's K (blitz takes the Rapid & Blitz chapter, K 20 for all in
    # 2023); the first game is provisional, as a new Lichess player's is (no K warning).
    games = [
        game(
            f"j{i:02d}",
            datetime(2023, 1, 1 + i % 28, i % 24, tzinfo=UTC),
            1500,
            0,
            1500,
            0.5,
            provisional=i == 0,
        )
        for i in range(30)
    ]
    games.append(game("f1", day(2, 3), 1500, 10, 1500, 1))
    (report,) = build_report(ME, games, {}, settings=STANDARD)
    assert report.k_warning is None
    jan, feb = report.periods
    assert (jan.games_before, jan.k_requested, jan.k, jan.k_reason, jan.k_limited) == (
        0,
        40,
        23,
        "new",
        True,
    )
    # February: 1500 v 1500 win: +0.50 x 20 = +10.
    assert (feb.games_before, feb.k, feb.k_reason, feb.elo_change) == (30, 20, "standard", 10)


def test_junior_rule_and_2400_for_good() -> None:
    games = [
        game("a", day(1, 5), 1500, 10, 1500, 1),
        game("b", day(2, 5), 1500, 10, 1500, 1),
    ]
    # Born 2006: in 2023 Hero is 17 (<= 18) and below 2300 -> K 40 "junior" even with
    # 100 games before.
    # (The standard chapter; 2023 -> the 2022 edition, "until their 18th birthday".)
    settings = replace(STANDARD, born=2006, games_before=100)
    (report,) = build_report(ME, games, {}, settings=settings)
    assert [p.k_reason for p in report.periods] == ["junior", "junior"]
    assert [p.games_before for p in report.periods] == [100, 101]
    # Born 2000: 23 in 2023 -> not junior; 100 games -> K 20 "standard".
    settings = replace(STANDARD, born=2000, games_before=100)
    (report,) = build_report(ME, games, {}, settings=settings)
    assert [p.k for p in report.periods] == [20, 20]
    # 2395 start, 30+ games: K 20. Win v 2395 -> +0.50 x 20 = +10 -> 2405 ends January.
    # February starts at 2405 >= 2400 -> K 10. A loss v 2405 (-0.50 x 10 = -5) -> 2400;
    # March starts at 2400 -> still K 10, and so would any later rating below 2400.
    games = [
        game("a", day(1, 5), 2395, 5, 2395, 1),
        game("b", day(2, 5), 2400, -5, 2405, 0),
        game("c", day(3, 5), 2395, -5, 2400, 0),
    ]
    (report,) = build_report(ME, games, {}, settings=replace(STANDARD, games_before=100))
    assert [(p.elo_start, p.k, p.k_reason) for p in report.periods] == [
        (2395, 20, "standard"),
        (2405, 10, "2400"),
        (2400, 10, "2400"),
    ]


def test_reached_2400_counts_period_ends_then_sticks_below() -> None:
    # 2390 start; January +2 wins v 2390 at K 20: 2 x 0.50 x 20 = +20 -> 2410 (end >= 2400).
    # February: 2410, three losses v 2410 at K 10: -15 -> 2395. March: 2395 < 2400 but
    # the rating has reached 2400 -> K 10 for good.
    games = [
        game("a1", day(1, 5), 2390, 5, 2390, 1),
        game("a2", day(1, 6), 2395, 5, 2390, 1),
        game("b1", day(2, 5), 2400, -5, 2410, 0),
        game("b2", day(2, 6), 2395, -5, 2410, 0),
        game("b3", day(2, 7), 2390, -5, 2410, 0),
        game("c1", day(3, 5), 2385, 5, 2395, 1),
    ]
    (report,) = build_report(ME, games, {}, settings=replace(STANDARD, games_before=50))
    assert [(p.elo_start, p.k, p.elo_end) for p in report.periods] == [
        (2390, 20, 2410),
        (2410, 10, 2395),
        (2395, 10, 2400),  # v 2395: D 0 -> .50 -> +0.50 x 10 = +5
    ]


def test_cap_and_formula_and_no_cap() -> None:
    # 1500 beats 1000: D 500 counts as 400 -> PD .92 -> +0.08 x 20 = +1.6 (notes §5.4 b).
    games = [game("a", day(1, 5), 1500, 1, 1000, 1)]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    assert report.games[0].capped and report.games[0].elo_change == Decimal("1.6")
    assert "cap" in report.games[0].flags
    # --no-cap: D 500 -> 485-517 row -> .96 -> +0.8.
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20, cap=False))
    assert not report.games[0].capped and report.games[0].elo_change == Decimal("0.8")
    # --formula (capped): 1/(1+10^-1) = .90909... -> +1.818...
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20, method="formula"))
    assert abs(report.games[0].elo_change - Decimal("1.8181818")) < Decimal("0.0001")


def test_games_before_since_are_the_held_games_before_it_never_the_public_count() -> None:
    info = UserInfo(
        id="hero",
        username=ME,
        created_at=datetime(2020, 1, 1, tzinfo=UTC),
        disabled=False,
        perfs={"blitz": PerfStats(games=12, rating=1510, rd=60, provisional=False)},
    )
    # provisional: 12 games is a new player on Lichess too, so the count is not contradicted
    games = [
        game("a", day(3, 5), 1500, 10, 1500, 1, provisional=True),
        game("b", day(4, 5), 1510, 1, 1500, 1, provisional=True),
    ]
    since = datetime(2023, 3, 1, tzinfo=UTC)
    settings = ReportSettings(since=since)
    (report,) = build_report(ME, games, {}, settings=settings, user_info=info)
    # The public count (12) is not used: it includes games after --until and cannot say
    # when they were played. The fetch holds the months before --since that
    # K's 30-game rule needs, so only held games count: none before March here.
    assert report.missing_games == 0
    assert [p.games_before for p in report.periods] == [0, 1]
    # A game held before --since (fetched for the count) counts where it stands.
    early = [game("z", day(2, 5), 1490, 10, 1500, 1), *games]
    (report,) = build_report(ME, early, {}, settings=settings, user_info=info)
    assert [p.games_before for p in report.periods] == [1, 2]
    # Without --since the held history is the whole account: nothing is missing.
    (report,) = build_report(ME, games, {}, settings=ReportSettings(), user_info=info)
    assert [p.games_before for p in report.periods] == [0, 1]
    # --games-before overrides.
    settings = ReportSettings(since=since, games_before=40)
    (report,) = build_report(ME, games, {}, settings=settings, user_info=info)
    assert [p.games_before for p in report.periods] == [40, 41]


# --- the Glicko track --------------------------------------------------------------------


def test_chain_gaps_are_recorded_not_hidden() -> None:
    # 1500 +10 -> 1510 expected, game 2 shows 1515: a gap of +5 before it.
    # 1515 -6 -> 1509 expected, game 3 (February) shows 1500: a gap of -9.
    games = [
        game("a", day(1, 5), 1500, 10, 1500, 1),
        game("b", day(1, 6), 1515, -6, 1500, 0),
        game("c", day(2, 6), 1500, 4, 1500, 1),
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    assert [g.gap_before for g in report.games] == [None, 5, -9]
    assert [g.flags for g in report.games] == [(), ("gap",), ("gap",)]
    jan, feb = report.periods
    assert [(x.before, x.size) for x in jan.gaps] == [("b", 5)]
    assert [(x.before, x.size) for x in feb.gaps] == [("c", -9)]
    # January: start 1500, change 10 - 6 = 4, end 1515 - 6 = 1509 (= start + change + 5).
    assert (jan.lichess_start, jan.lichess_change, jan.lichess_end) == (1500, 4, 1509)
    assert (feb.lichess_start, feb.lichess_change, feb.lichess_end) == (1500, 4, 1504)
    s = report.summary
    # 1504 - 1500 = 8 of diffs - 4 of gaps.
    assert (s.lichess_change, s.lichess_gaps, s.gap_count, s.lichess_final) == (8, -4, 2, 1504)


def at(d: int, hour: int) -> datetime:
    return datetime(2023, 1, d, hour, tzinfo=UTC)


def test_gap_causes_overlapping_games_and_missing_games() -> None:
    # Lichess shows the rating at a game's creation (notes/lichess-glicko.md §3).
    # a 10:00-13:00, 1500, win +10.
    # b 11:00-12:00, created while a runs: shows 1500, not 1510 -> gap -10, "overlap".
    # c 14:00-15:00: a (13:00) and b (12:00) both ended since b began, so c shows
    #   1500 + 10 - 6 = 1504, not b's 1500 - 6 = 1494 -> gap +10, "overlap" (a overlapped
    #   b although b had ended when c began).
    # d next day: only c ended since c began; 1504 + 4 = 1508 expected, d shows 1520
    #   -> gap +12, "missing" (a game not held, or an adjustment).
    def timed(gid: str, start: datetime, end: datetime, rating: int, diff: int) -> Game:
        return replace(game(gid, start, rating, diff, 1500, 1 if diff > 0 else 0), last_move_at=end)

    games = [
        timed("a", at(5, 10), at(5, 13), 1500, 10),
        timed("b", at(5, 11), at(5, 12), 1500, -6),
        timed("c", at(5, 14), at(5, 15), 1504, 4),
        timed("d", at(6, 12), at(6, 13), 1520, -5),
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    assert [(g.gap_before, g.gap_cause) for g in report.games] == [
        (None, None),
        (-10, "overlap"),
        (10, "overlap"),
        (12, "missing"),
    ]
    (p,) = report.periods
    assert [(x.before, x.size, x.cause) for x in p.gaps] == [
        ("b", -10, "overlap"),
        ("c", 10, "overlap"),
        ("d", 12, "missing"),
    ]
    s = report.summary
    # Sums unchanged by the causes: 1500 + (10 - 6 + 4 - 5) + (-10 + 10 + 12) = 1515.
    assert (s.lichess_change, s.lichess_gaps, s.gap_count, s.lichess_final) == (3, 12, 3, 1515)
    assert s.overlap_gaps == 2
    # Without last_move_at nothing shows an overlap: the chain check alone says "missing".
    bare = [replace(g, last_move_at=None) for g in games]
    (report,) = build_report(ME, bare, {}, settings=ReportSettings(k=20))
    assert [g.gap_cause for g in report.games] == [None, "missing", "missing", "missing"]


def test_unplayed_and_below_floor_flags() -> None:
    # January 2023 blitz: the Rapid & Blitz edition of 1 Oct 2022, whose floor is 1000 (1000
    # from 1 Jul 2012 [CV2011] until the 1400 of 1 Mar 2024 [QC24]). g1 v 999 (below it),
    # g2 v 1000 (not below), g3 with a replay of 0 plies (a zero-move game Lichess rated).
    # All three still count. (1200 v 999: D 201, no cap.)
    games = [
        game("g1", day(1, 5), 1200, 5, 999, 1),
        game("g2", day(1, 6), 1205, 5, 1000, 1),
        game("g3", day(1, 7), 1210, 5, 1500, 1, status="outoftime"),
    ]
    facts = {
        "g3": ReplayFacts(
            game_id="g3",
            valid=True,
            plies=0,
            error=None,
            error_ply=None,
            bad_move=None,
            final_fen=None,
            checkmate=False,
            stalemate=False,
            insufficient_material=False,
            variant_end=False,
            material_white=39,
            material_black=39,
            status_agrees=None,
        )
    }
    (report,) = build_report(ME, games, facts, settings=ReportSettings(k=20))
    assert [g.flags for g in report.games] == [("opp_below_floor",), (), ("unplayed",)]
    assert report.summary.games == 3


def test_the_floor_is_the_editions_of_the_game() -> None:
    # The same opponent rated 1399: in January 2023 above the floor of 1000 (no flag); in
    # April 2024 below the 1400 of the Rapid & Blitz edition of 1 Mar 2024 [QC24][RB24].
    april = datetime(2024, 4, 5, 12, tzinfo=UTC)
    games = [game("old", day(1, 5), 1500, 5, 1399, 1), game("new", april, 1505, 5, 1399, 1)]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    assert [(g.id, g.floor, g.flags) for g in report.games] == [
        ("old", 1000, ()),
        ("new", 1400, ("opp_below_floor",)),
    ]


def test_flags_and_replay_facts() -> None:
    games = [
        game("a", day(1, 5), 1500, 30, 1500, 1, provisional=True),
        game("b", day(1, 6), 1530, 2, 1500, 1, title="BOT"),
    ]
    facts = {
        "b": ReplayFacts(
            game_id="b",
            valid=False,
            plies=3,
            error="illegal move",
            error_ply=4,
            bad_move="Ke9",
            final_fen=None,
            checkmate=False,
            stalemate=False,
            insufficient_material=False,
            variant_end=False,
            material_white=0,
            material_black=0,
            status_agrees=None,
        )
    }
    (report,) = build_report(ME, games, facts, settings=ReportSettings(k=20))
    a, b = report.games
    assert a.flags == ("provisional",) and a.replay_valid is None
    assert b.flags == ("bot", "invalid_replay") and (b.replay_valid, b.plies) == (False, 3)
    s = report.summary
    assert (s.provisional_games, s.bot_games, s.invalid_replays) == (1, 1, 1)


# --- the summary -------------------------------------------------------------------------


def test_summary_correlation_disagreements_and_endings() -> None:
    # Four January games at 1500, K 20, opponents 1500 (PD .50):
    # win +10 (Lichess +8), loss -10 (-8), win +10 (+12), loss -10 (-4).
    games = [
        game("a", day(1, 5), 1500, 8, 1500, 1),
        game("b", day(1, 6), 1508, -8, 1500, 0, status="outoftime"),
        game("c", day(1, 7), 1500, 12, 1500, 1),
        game("d", day(1, 8), 1512, -4, 1500, 0, status="outoftime"),
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    s = report.summary
    # |10-8| + |-10+8| + |10-12| + |-10+4| = 2 + 2 + 2 + 6 = 12 -> mean 3.
    assert s.mean_abs_difference == pytest.approx(3.0)
    # x = (10,-10,10,-10), mean 0; y = (8,-8,12,-4), mean 2; dy = (6,-10,10,-6);
    # sxy = 60+100+100+60 = 320; sxx = 400; syy = 36+100+100+36 = 272;
    # r = 320 / sqrt(400 x 272) = 320 / 329.848... = 0.97014
    assert s.correlation == pytest.approx(0.970143, abs=1e-5)
    assert s.top_games[0].key == "d" and s.top_games[0].difference == Decimal(6)
    # Period: Elo 0 (2 - 2 = 0 x 20), Lichess 8 - 8 + 12 - 4 = 8.
    assert s.top_periods[0].key == "2023-01" and s.top_periods[0].difference == 8
    assert s.elo_peak == 1500 and s.lichess_peak == 1512 + 0  # 1500+12 = 1512 after c

    # Endings: rows carry the replay's endings; the Elo value is the sum of their
    # per-game changes: two losses on time while ahead -> -10 + -10 = -20 Elo, -12 Lichess.
    from dataclasses import replace

    rows = tuple(
        replace(r, endings=("lost_on_time_ahead",)) if r.id in ("b", "d") else r
        for r in report.games
    )
    summary = summarize(rows, report.periods, "shadow", 1500)
    (stat,) = summary.endings
    assert (stat.ending, stat.games, stat.elo, stat.lichess) == (
        "lost_on_time_ahead",
        2,
        Decimal(-20),
        -12,
    )
    assert stat.text == (
        "losses on time while 3+ points of material ahead: 2 games, -20.0 Elo (Lichess -12)"
    )


def test_disagreement_reasons() -> None:
    games = [
        game("a", day(1, 5), 1500, 30, 1500, 1, provisional=True),
        game("b", day(3, 5), 1530, 2, 1000, 1, title="BOT"),  # 59 days later
    ]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    reasons = {d.key: d.reasons for d in report.summary.top_games}
    assert reasons["a"] == ("high RD",)
    # b: long break (59 days), 400 cap (1500 v 1000), BOT opponent.
    assert reasons["b"] == ("long break", "400 cap", "BOT")
    # March: 1510 v 1000, D cut to 400 -> .92, +0.08 x 20 = +1.6 -> +2 Elo, Lichess +2: no
    # disagreement, so it is not listed (January: +10 Elo v +30 Lichess is); its reasons
    # would still be these.
    assert [d.key for d in report.summary.top_periods] == ["2023-01"]
    march = report.periods[1]
    assert period_reasons(march, report.games[1:], "shadow") == ("long break", "400 cap", "BOT")


def test_a_new_players_k_40_is_named_as_a_reason() -> None:
    # Automatic K, no game before: K 40 "new" (FIDE 8.3.3, standard chapter); 1500 beats
    # 1500: +20 Elo against Lichess's +6. (Provisional: a new player, no K warning.)
    games = [game("n", day(1, 5), 1500, 6, 1500, 1, provisional=True)]
    (report,) = build_report(ME, games, {}, settings=STANDARD)
    (top,) = report.summary.top_games
    # (the provisional game adds Lichess's "high RD" reason)
    assert (top.elo, top.lichess, top.reasons) == (Decimal(20), 6, ("high RD", "K 40 (new)"))
    assert report.summary.top_periods[0].reasons == ("high RD", "K 40 (new)")
