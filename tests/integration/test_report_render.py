"""The report's JSON and CSV writers on a small hand-made history."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest

from lichess_elo.core.report import PerfReport, ReportSettings, build_report
from lichess_elo.output import common as render
from lichess_elo.output.report import csv as render_csv
from lichess_elo.output.report import json as render_report
from lichess_elo.output.report import text as report_text
from tests.helpers import ME, day, game


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
    periods = render_csv.report_csv(reports, "periods").splitlines()
    assert periods[0].split(",") == list(render_csv.REPORT_PERIOD_FIELDS)
    # 2 games, 1.5 points, .64 + .36 = 1 expected; no performance rating from fewer than 5
    # games (FIDE 7.1.4 publishes none from fewer); 0 games before; K 20 fixed;
    # not cut by the 700 rule (false, as in the JSON); 1500 + 10 (10 exact) = 1510.
    assert periods[1].startswith("blitz,2023-01,2,1.5,1,,0,20,20,given,false,1500,10,10,1510,")
    games = render_csv.report_csv(reports, "games").splitlines()
    assert len(games) == 1 + 3
    assert games[3].startswith("rapid,g3,https://lichess.org/g3,2023-02-07T12:00:00Z,2023-02,")
    # g1: score 1, expected .64, K 20, change +7.2 (numbers as in the JSON).
    assert ",1,resign,,1500,10,false,1500,0.64,20,7.2," in games[1]


def test_write_atomic_errors_name_the_target_not_the_temporary_file(tmp_path: Path) -> None:
    # Renaming the temporary file onto a folder that holds a file fails (EISDIR or
    # ENOTEMPTY, by platform); the error must name the target and nothing is left behind.
    target = tmp_path / "r.json"
    target.mkdir()
    (target / "inside").write_text("x", encoding="utf-8")
    with pytest.raises(OSError) as caught:
        render.write_atomic(target, "{}")
    assert caught.value.filename == str(target)
    assert ".tmp" not in str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_write_atomic_syncs_the_data_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A power loss after the rename must not leave an empty file: the data is flushed
    # and fsync'd while the target still holds the old text. Modes behave as before.
    target = tmp_path / "r.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    real_fsync = os.fsync
    seen: list[tuple[int, str]] = []

    def spy(fd: int) -> None:
        seen.append((os.fstat(fd).st_size, target.read_text(encoding="utf-8")))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    render.write_atomic(target, '{"new": 1}')
    assert seen == [(len(b'{"new": 1}'), "old")]
    assert target.read_text(encoding="utf-8") == '{"new": 1}'
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # an existing file keeps its mode
    fresh = tmp_path / "new.csv"
    umask = os.umask(0o022)
    try:
        render.write_atomic(fresh, b"a\n")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # a new one: 0666 less the umask
    assert len(seen) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.csv", "r.json"]


def test_write_atomic_sync_failure_names_the_target_and_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "r.json"
    target.write_text("old", encoding="utf-8")

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError) as caught:
        render.write_atomic(target, "{}")
    assert caught.value.filename == str(target)
    assert caught.value.errno == errno.EIO
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_text_wording_singulars_header_and_gaps_footnote() -> None:
    # g1 1500 +10, g2 shows 1515 (1510 expected): one gap of +5, one month, two games.
    games = [game("g1", day(1, 5), 1500, 10, 1500, 1), game("g2", day(1, 6), 1515, -5, 1500, 0)]
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    text = report_text.report_text([report], "periods")
    assert "blitz: 2 games in 1 month\n" in text
    assert "(+5 in games, +5 in 1 gap)" in text
    assert "FIDE − Lichess" in text and " Diff " not in text
    assert report_text.GAPS_FOOTNOTE in text
    summary = report_text.report_text([report], "summary")
    assert "0 invalid replays" in summary
    (single,) = build_report(ME, games[:1], {}, settings=ReportSettings(k=20))
    text = report_text.report_text([single], "periods")
    assert "blitz: 1 game in 1 month\n" in text
    assert report_text.GAPS_FOOTNOTE not in text  # no gap, no footnote


def test_chart_names_the_span_and_counts_in_the_singular(tmp_path: Path) -> None:
    # Text kept as text in the SVG (svg.fonttype none) so the labels can be read back.
    import matplotlib

    from lichess_elo.output.charts import report as chart

    (single,) = build_report(
        ME,
        [game("g1", day(1, 5), 1500, 10, 1500, 1)],
        {},
        settings=ReportSettings(k=20, track="lichess"),
    )
    path = tmp_path / "c.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        chart.write_chart([single], path)
    svg = path.read_text(encoding="utf-8")
    # One game on 2023-01-05 12:00 UTC: the span is that day; no "2023-Jan" offset.
    assert "2023-01-05 to 2023-01-05 (UTC)" in svg
    assert "(1 game)" in svg and "over 1 restarted period," in svg
    assert "2023-Jan" not in svg
