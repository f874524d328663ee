"""The report's JSON and CSV writers on a small hand-made history."""

from __future__ import annotations

import json

from lichess_elo import render, render_report
from lichess_elo.report import PerfReport, ReportSettings, build_report
from tests.unit.test_report import ME, day, game


def _reports() -> list[PerfReport]:
    games = [
        game("g1", day(1, 5), 1500, 10, 1400, 1),
        game("g2", day(1, 6), 1510, 2, 1600, 0.5),
        game("g3", day(2, 7), 1520, -9, 1550, 0, perf="rapid"),
    ]
    return build_report(ME, games, {}, settings=ReportSettings(perfs=("all",), k=20))


def test_json_text_is_the_document_with_numbers_as_numbers() -> None:
    reports = _reports()
    doc = json.loads(render_report.report_json(ME, reports))
    assert doc == json.loads(render.dump_json(render_report.report_document(ME, reports)))
    blitz, rapid = doc["reports"]
    # 1500 v 1400 win at K 20: PD .64 -> +7.2; v 1600 draw: PD .36 -> +2.8; +10 -> 1510.
    assert [g["elo"]["change"] for g in blitz["games"]] == [7.2, 2.8]
    assert blitz["periods"][0]["elo"] == {
        "start": 1500,
        "change": 10,
        "change_exact": 10,
        "end": 1510,
    }
    assert blitz["games"][0]["score"] == 1 and blitz["games"][1]["score"] == 0.5
    assert rapid["summary"]["excluded"]["other_perf"] == 2
    assert json.loads(render_report.report_json(ME, [])) == {"user": ME, "reports": []}


def test_csv_per_period_and_per_game() -> None:
    reports = _reports()
    periods = render_report.report_csv(reports, "periods").splitlines()
    assert periods[0].split(",") == list(render_report.REPORT_PERIOD_FIELDS)
    # 2 games, 1.5 points, .64 + .36 = 1 expected; performance: Ra 1500, p .75 -> dp 193
    # -> 1693; 0 games before; K 20 fixed; 1500 + 10 (10 exact) = 1510.
    assert periods[1].startswith("blitz,2023-01,2,1.5,1,1693,0,20,20,fixed,False,1500,10,10,1510,")
    games = render_report.report_csv(reports, "games").splitlines()
    assert len(games) == 1 + 3
    assert games[3].startswith("rapid,g3,https://lichess.org/g3,2023-02-07T12:00:00Z,2023-02,")
    # g1: score 1, expected .64, K 20, change +7.2 (numbers as in the JSON).
    assert ",1,resign,,1500,10,False,1500,0.64,20,7.2," in games[1]
