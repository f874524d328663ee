"""The report on the rulebook by date: the 1 March 2024 compression, the floor, Rapid &
Blitz K from 1 October 2022, and K from the FIDE ratings published by each period.

Every number is worked out by hand beside it from table 8.1.2 (rows quoted) and the
editions of ``core/fide/editions.py`` (sources in ``docs/rules.md``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from lichess_elo.core.fide_record import FidePlayer
from lichess_elo.core.report import ReportSettings, build_report
from lichess_elo.output.report.csv import report_csv
from lichess_elo.output.report.json import report_json
from lichess_elo.output.report.text import report_text
from lichess_elo.output.report.words import headline
from tests.helpers import game


def _at(year: int, month: int, day: int = 10) -> datetime:
    return datetime(year, month, day, 12, tzinfo=UTC)


def _record(current: dict, history: dict) -> FidePlayer:  # type: ignore[type-arg]
    return FidePlayer(
        id=1, name="Hero", federation=None, birth_year=None, title=None, current=current,
        history=history,
    )  # fmt: skip


def _one(games: list, **settings: object):  # type: ignore[no-untyped-def]
    (report,) = build_report("Hero", games, {}, settings=ReportSettings(**settings))  # type: ignore[arg-type]
    return report


# Two classical games a month apart either side of 1 March 2024 (standard chapter).
# February: Hero 1500 beats 1500, D 0 -> .50; K 20 (30 games before given): 20 x .5 = +10
# -> 1510. Between the periods FIDE's compression: 1510 + 0.4 x (2000 - 1510) = 1510 + 196
# = 1706 (QC24). March: 1706 vs 1700 (D 6, row 4-10 .51), a draw: 20 x (.5 - .51) = -0.2
# -> 0 -> 1706.
ACROSS = [
    game("f1", _at(2024, 2), 1500, 8, 1500, 1, perf="classical"),
    game("m1", _at(2024, 3), 1508, 0, 1700, 0.5, perf="classical"),
]


def test_the_compression_is_a_step_between_periods_not_a_game() -> None:
    report = _one(ACROSS, games_before=30)
    feb, mar = report.periods
    assert (feb.elo_start, feb.elo_end, feb.adjustment) == (1500, 1510, None)
    assert mar.adjustment is not None and mar.adjustment.key == "compression-2024-03"
    assert (mar.adjusted_from, mar.elo_start, mar.elo_change, mar.elo_end) == (1510, 1706, 0, 1706)
    assert len(report.games) == 2  # no game row for it
    assert report.summary.elo_final == 1706


def test_the_compression_shows_in_every_format_and_can_be_left_out() -> None:
    report = _one(ACROSS, games_before=30)
    text = report_text([report], "periods")
    assert "adjusted" in text and "1510→1706 (+196)" in text
    assert "1 Mar 2024: every rating below 2000 raised by 0.4 x (2000 - R)" in text
    # the summary's change is the games' (+10); the adjustment is said beside it
    assert "FIDE rules  1500 → 1706 (+10 in games, +196 by FIDE's adjustment)" in text
    doc = report_json("Hero", [report])
    assert '"adjustment": {"key": "compression-2024-03"' in doc.replace("\n", "")
    csv = report_csv([report], "periods").splitlines()
    header = csv[0].split(",")
    march = dict(zip(header, csv[2].split(","), strict=True))
    assert (march["adjustment"], march["adjusted_from"], march["elo_start"]) == (
        "compression-2024-03",
        "1510",
        "1706",
    )
    # left out: March starts where February ended, 1510 vs 1700: D -190, row 189-197 L .25;
    # a draw: 20 x (.5 - .25) = +5 -> 1515
    plain = _one(ACROSS, games_before=30, adjustments=False)
    assert plain.periods[1].adjustment is None
    assert (plain.periods[1].elo_start, plain.periods[1].elo_end) == (1510, 1515)


def test_the_headline_adds_the_compression_to_the_games() -> None:
    # The games: +10 (February, above); the compression: 1510 -> 1706 = +196 (QC24); the
    # track: 1500 -> 1706 = +206 = +10 + 196, so the headline's numbers add up. Lichess: the
    # two games' +8 and 0 = +8; 10 - 8 = 2 points apart (within the 5 of agreement).
    report = _one(ACROSS, games_before=30)
    assert headline(report) == (
        "Under FIDE rules your 2 classical games would have gained 10 points where Lichess "
        "gained 8; the two agree to within 2 points. Adding FIDE's compression of 1 Mar 2024 "
        "(+196) to the games' +10, the FIDE-rules track ended 206 points higher: "
        "1500 → 1706."
    )
    # Without the adjustment nothing is added: March's draw at 1510 vs 1700 gives +5 (below),
    # so the games gained 10 + 5 = 15, the whole of the track's move.
    plain = _one(ACROSS, games_before=30, adjustments=False)
    assert "Adding" not in headline(plain) and "gained 15 points" in headline(plain)


def test_no_compression_with_the_rules_of_one_day_or_on_the_lichess_track() -> None:
    from datetime import date

    fixed = _one(ACROSS, games_before=30, rules_as_of=date(2025, 1, 1))
    assert all(p.adjustment is None for p in fixed.periods)
    restarted = _one(ACROSS, games_before=30, track="lichess")
    assert all(p.adjustment is None for p in restarted.periods)


def test_a_track_below_the_floor_is_computed_and_marked() -> None:
    # March 2024 (floor 1400 [H24 7.2.1]): Hero 1380 loses to 1380, D 0 -> .50: K 20 x -.5 =
    # -10 -> 1370, under 1400: FIDE would not list it. February 2024 (floor 1000): 1380 is
    # listed.
    games = [
        game("a", _at(2024, 2), 1380, -8, 1380, 0.5, perf="classical"),
        game("b", _at(2024, 3), 1380, -8, 1380, 0, perf="classical"),
    ]
    report = _one(games, games_before=30, adjustments=False)
    feb, mar = report.periods
    assert (feb.elo_end, feb.below_floor) == (1380, False)
    assert (mar.elo_end, mar.below_floor) == (1370, True)
    text = report_text([report], "periods")
    assert "1380→1370† (-10)" in text
    assert "below the 1400 floor: FIDE would not list this rating" in text
    assert '"below_floor": true' in report_json("Hero", [report])


def test_rapid_blitz_k_changes_on_1_october_2022() -> None:
    # Blitz, 40 games before given, a 2500 player (so K 10 once the standard K text applies).
    # September 2022 (K 20 for everyone [RB22]): 2500 beats 2500, .50 -> 20 x .5 = +10 ->
    # 2510. October 2022 (the standard K: reached 2400 -> 10): 2510 beats 2510 -> +5.
    games = [
        game("s", _at(2022, 9), 2500, 5, 2500, 1),
        game("o", _at(2022, 10), 2505, 5, 2510, 1),
    ]
    report = _one(games, games_before=40)
    sep, october = report.periods
    assert (sep.k, sep.k_reason, sep.elo_end) == (20, "flat", 2510)
    assert (october.k, october.k_reason, october.elo_end) == (10, "2400", 2515)
    assert october.edition.key == "rapid-blitz-2022-10"


def test_fide_record_counts_only_ratings_published_by_the_period() -> None:
    # 8.3.3: K 10 "once a player's published rating has reached 2400". The real record
    # reaches 2410 only on the 2024-06 list; a report of 2024-01 games must not take K 10
    # from it. January 2024 blitz, 40 games before: K 20 ("standard"): 2300 beats 2300 ->
    # +10. June 2024: the 2024-06 list (2410) is published -> K 10: 2310 beats 2310 -> +5.
    history = {(2023, 12): 2300, (2024, 1): 2300, (2024, 6): 2410}
    record = _record(
        {"standard": None, "rapid": None, "blitz": 2410},
        {"standard": {}, "rapid": {}, "blitz": history},
    )
    games = [
        game("j", _at(2024, 1), 2300, 5, 2300, 1),
        game("u", _at(2024, 6), 2305, 5, 2310, 1),
    ]
    (report,) = build_report(
        "Hero", games, {}, settings=ReportSettings(games_before=40), fide_player=record
    )
    jan, jun = report.periods
    assert (jan.k, jan.k_reason, jan.elo_end) == (20, "standard", 2310)
    assert (jun.k, jun.k_reason, jun.elo_end) == (10, "2400", 2315)


def test_the_chart_marks_the_compression_and_the_floor(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from lichess_elo.output.charts.report import write_chart

    across = write_chart([_one(ACROSS, games_before=30)], tmp_path / "a.svg", user="Hero")
    text = across.read_text(encoding="utf-8")
    assert "FIDE adjustment +196" in text and "not a game" in text
    low = [
        game("a", _at(2024, 2), 1380, -8, 1380, 0.5, perf="classical"),
        game("b", _at(2024, 3), 1380, -8, 1380, 0, perf="classical"),
    ]
    under = write_chart([_one(low, games_before=30, adjustments=False)], tmp_path / "b.svg")
    assert "FIDE floor 1400" in under.read_text(encoding="utf-8")


def test_jumps_the_one_time_adjustments_explain_are_named() -> None:
    from lichess_elo.core.report.fide_compare import adjustment_notes

    # Rapid: 1500 on the September 2022 list, 1900 on October's, with standard 2000: the
    # uplift to standard - 100 = 1900 [RB22]. February 2024 1900 -> March 1900 + 0.4 x 100
    # = 1940: the compression [QC24]. Blitz rose 1500 -> 1650 in October 2022 (not 1900):
    # games, not the uplift; 1650 -> 1700 in March 2024 is not 1650 + 140 = 1790: not named.
    record = _record(
        {"standard": 2000, "rapid": 1940, "blitz": 1700},
        {
            "standard": {(2022, 9): 2000, (2022, 10): 2000},
            "rapid": {(2022, 9): 1500, (2022, 10): 1900, (2024, 2): 1900, (2024, 3): 1940},
            "blitz": {(2022, 9): 1500, (2022, 10): 1650, (2024, 2): 1650, (2024, 3): 1700},
        },
    )
    rapid = adjustment_notes(record, "rapid")
    assert len(rapid) == 2
    assert rapid[0].startswith("rapid 1500 -> 1900 on the October 2022 list: not games")
    assert "(standard 2000)" in rapid[0]
    assert rapid[1].startswith("rapid 1900 -> 1940 on the March 2024 list: not games")
    assert adjustment_notes(record, "blitz") == ()


def test_games_the_600_rule_left_unrated_do_not_count_as_games_before() -> None:
    # December 2024 blitz (RB24 as amended 1 Dec 2024): Hero 2700 beats a 2050 (650 apart,
    # 2700 above 2600: not rated) and draws a 2700. January 2025 has 0 + 2 held games
    # before, of which 1 was rated: games before = 1 (8.3.3 counts rated games).
    games = [
        game("d1", _at(2024, 12, 5), 2700, 1, 2050, 1),
        game("d2", _at(2024, 12, 6), 2701, 0, 2700, 0.5),
        game("j1", _at(2025, 1, 5), 2701, 0, 2701, 0.5),
    ]
    dec, jan = _one(games, games_before=0).periods
    assert [g.not_rated for g in _one(games, games_before=0).games] == ["600/2600", None, None]
    assert (dec.games_before, jan.games_before) == (0, 1)


def test_the_rules_line_names_each_edition_once_in_order() -> None:
    # Four monthly periods of classical (standard) games, January to April 2024: January and
    # February under the edition of 1 Jan 2022, March and April under that of 1 Mar 2024
    # (editions.py). Four periods, two editions: the Rules line names each once, oldest first.
    games = [
        game(f"g{m}", _at(2024, m), 1500, 0, 1500, 0.5, perf="classical") for m in (1, 2, 3, 4)
    ]
    text = report_text([_one(games, games_before=30, adjustments=False)], "periods")
    (rules,) = [line for line in text.splitlines() if line.lstrip().startswith("Rules:")]
    assert rules.strip() == (
        "Rules: FIDE Rating Regulations, 1 Jan 2022; FIDE Rating Regulations, 1 Mar 2024"
    )
