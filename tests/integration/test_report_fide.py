"""``report --fide-id``: the real FIDE record beside the track, end to end over the fake
server (real berserk session, real caches) and from the labelled cassette."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.fake_fide import encode_history
from tests.fake_lichess import FakeLichess
from tests.helpers import REPO
from tests.runners import Cli, invoke

FIDE_CASSETTE = REPO / "cassettes" / "onboard247-fide.yaml"
#: A made-up FIDE player for the fake server: born 2008, blitz list 2300 in Dec 2022,
#: 2310 in Jan 2023, 2290 in Feb 2023; rapid empty; standard peak 2405 (Jun 2022).
FIDE_ID = 99000001


@pytest.fixture
def fide_server(onboard_server: FakeLichess) -> FakeLichess:
    onboard_server.fide_players[FIDE_ID] = {
        "id": FIDE_ID, "name": "Test Player", "federation": "POL", "year": 2008,
        "title": "FM", "standard": 2380, "rapid": None, "blitz": 2290,
    }  # fmt: skip
    onboard_server.fide_ratings[FIDE_ID] = {
        "blitz": encode_history([(2022, 12, 2300), (2023, 1, 2310), (2023, 2, 2290)]),
        "standard": encode_history([(2022, 6, 2405), (2022, 7, 2380)]),
        "rapid": [],
    }
    return onboard_server


def _report(server: FakeLichess, tmp_path: Path, *extra: str) -> Any:
    return invoke([
            "report", "OnBoard247", "--api-url", server.url, "--cache-dir",
            str(tmp_path / "cache"), "--until", "2023-03", *extra,
        ],
    )  # fmt: skip


def _json(result: Any) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_fide_ratings_beside_the_track(fide_server: FakeLichess, tmp_path: Path) -> None:
    doc = _json(
        _report(
            fide_server, tmp_path, "--perf", "blitz", "--fide-id", str(FIDE_ID), "--format", "json"
        )
    )
    (report,) = doc["reports"]
    jan, feb = report["periods"]
    # the blitz list in the month of each period's first game
    assert (jan["fide_rating"], feb["fide_rating"]) == (2310, 2290)
    fide = report["summary"]["fide"]
    assert (fide["fide_id"], fide["name"], fide["list"]) == (FIDE_ID, "Test Player", "blitz")
    # offsets = Elo end - FIDE rating. January ends at 2385 as derived in
    # test_report_onboard (2450 - 65): the FIDE record (peak, birth year) changes nothing
    # there, as the track's own 2450 has reached 2400 (K 10).
    assert jan["elo"]["end"] == 2385
    assert fide["periods_compared"] == 2
    assert fide["last_offset"] == feb["elo"]["end"] - 2290
    assert fide["mean_offset"] == pytest.approx(
        ((2385 - 2310) + (feb["elo"]["end"] - 2290)) / 2, abs=0.05
    )
    assert "not a prediction of a FIDE rating" in fide["warning"]
    paths = [r.path for r in fide_server.requests if r.path.startswith("/api/fide/")]
    assert paths == [f"/api/fide/player/{FIDE_ID}", f"/api/fide/player/{FIDE_ID}/ratings"]


def test_fide_birth_year_and_peak_feed_k(fide_server: FakeLichess, tmp_path: Path) -> None:
    # Classical: born 2008 -> a junior in 2023 (2023 - 2008 = 15), but the standard list
    # peaked at 2405: "K = 10 once a player's published rating has reached 2400" -> K 10
    # for both periods. January holds two chapters by the clock (Laws, Appendix A):
    # 6T3K6vPY, 25+10 = 35 minutes, Rapid & Blitz (win, PD .81: 1 - .81 = .19), and
    # WFbsvZMz, 0+180 = 180 minutes, standard (win, PD .43: .57); each part is rated and
    # rounded on its own: .19 x 10 = 1.9 -> +2 and .57 x 10 = 5.7 -> +6: +8 -> 2391.
    args = ("--perf", "classical", "--fide-id", str(FIDE_ID), "--format", "json")
    report = _json(_report(fide_server, tmp_path, *args))["reports"][0]
    jan = report["periods"][0]
    assert (jan["k"], jan["k_reason"], jan["peak_before"]) == (10, "2400", 2405)
    assert jan["elo"]["change"] == 8
    # --peak given: it wins over FIDE's 2405. 2383 >= 2300, so no junior K 40 ("as long as
    # their rating remains under 2300"); under 30 games counted, but Lichess shows the
    # first game established: the K warning, K 20; .19 x 20 = 3.8 -> +4 and
    # .57 x 20 = 11.4 -> +11: +15.
    report = _json(_report(fide_server, tmp_path, *args, "--peak", "2383"))["reports"][0]
    jan = report["periods"][0]
    assert (jan["k"], jan["k_reason"], jan["elo"]["change"]) == (20, "standard", 15)
    assert report["summary"]["k_warning"] is not None
    # the count given as right: K 40 "new"; .19 x 40 = 7.6 -> +8 and .57 x 40 = 22.8 -> +23:
    # +31 (one standard period of both games would have rounded 30.4 to +30)
    extra = ("--peak", "2383", "--games-before", "0")
    jan = _json(_report(fide_server, tmp_path, *args, *extra))["reports"][0]["periods"][0]
    assert (jan["k"], jan["k_reason"], jan["elo"]["change"]) == (40, "new", 31)


def test_empty_list_is_no_rating_not_an_error(fide_server: FakeLichess, tmp_path: Path) -> None:
    result = _report(fide_server, tmp_path, "--perf", "rapid", "--fide-id", str(FIDE_ID))
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert "Real FIDE: Test Player (99000001), rapid list: no FIDE rating in this list" in flat


def test_bad_and_unknown_ids(fide_server: FakeLichess, tmp_path: Path) -> None:
    unknown = _report(fide_server, tmp_path, "--fide-id", "123")
    assert unknown.exit_code == 1
    assert unknown.stderr.strip() == "lichess-elo: error: no FIDE player with id 123"
    for bad in ("abc", "0", "12345678901"):
        result = _report(fide_server, tmp_path, "--fide-id", bad)
        assert result.exit_code == 2, bad
        assert result.stderr.count("\n") == 1 and "--fide-id" in result.stderr
    # a malformed id is refused before any request
    assert not [r for r in fide_server.requests if r.path.startswith("/api/fide/player/0")]


def test_offline_and_retries(fide_server: FakeLichess, tmp_path: Path) -> None:
    fide_server.fide_faults.append(429)
    first = _report(fide_server, tmp_path, "--perf", "blitz", "--fide-id", str(FIDE_ID))
    assert first.exit_code == 0, first.output
    assert "HTTP 429" in first.stderr
    sent = len(fide_server.requests)
    again = _report(
        fide_server, tmp_path, "--perf", "blitz", "--fide-id", str(FIDE_ID), "--offline"
    )
    assert again.exit_code == 0, again.output
    assert len(fide_server.requests) == sent  # all from the cache
    missing = _report(fide_server, tmp_path, "--perf", "blitz", "--fide-id", "7", "--offline")
    assert missing.exit_code == 1 and "FIDE player 7 is not in the cache" in missing.stderr


def test_the_profile_fide_id_is_used(fide_server: FakeLichess, tmp_path: Path) -> None:
    # where the public data carries a fideId, it is used without --fide-id
    original = fide_server.user_json

    def with_fide(account: Any) -> dict[str, Any]:
        return {**original(account), "fideId": FIDE_ID}

    fide_server.user_json = with_fide  # type: ignore[method-assign]
    report = _json(_report(fide_server, tmp_path, "--perf", "blitz", "--format", "json"))
    assert report["reports"][0]["summary"]["fide"]["fide_id"] == FIDE_ID


def test_cassette_and_chart_with_the_fide_line(cli: Cli, tmp_path: Path) -> None:
    chart = tmp_path / "fide.png"
    result = cli([
            "report", "OnBoard247", "--replay", str(FIDE_CASSETTE), "--cache-dir",
            str(tmp_path / "c"), "--perf", "rapid", "--fide-id", "35009192", "--chart",
            str(chart), "--format", "json",
        ],
    )  # fmt: skip
    report = _json(result)["reports"][0]
    # the documented history: rapid 1620 from 2022-10 to 2024-02
    assert [p["fide_rating"] for p in report["periods"]] == [1620, 1620]
    # the documented player was born 2003 (20 in 2023: no junior); rapid 2023 follows the
    # standard K text [RB22], and the track's own 2590 has reached 2400 -> K 10 both months
    assert [p["k"] for p in report["periods"]] == [10, 10]
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "fide.svg"
    again = cli([
            "report", "OnBoard247", "--replay", str(FIDE_CASSETTE), "--cache-dir",
            str(tmp_path / "c"), "--perf", "rapid", "--fide-id", "35009192", "--chart",
            str(svg), "--quiet",
        ],
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert "real FIDE rating (rapid list, monthly)" in svg.read_text(encoding="utf-8")
    # blitz: the documented history's blitz list is empty - said on the chart, no line
    blitz = tmp_path / "blitz.svg"
    third = cli([
            "report", "OnBoard247", "--replay", str(FIDE_CASSETTE), "--cache-dir",
            str(tmp_path / "c"), "--perf", "blitz", "--fide-id", "35009192", "--chart",
            str(blitz), "--quiet",
        ],
    )  # fmt: skip
    assert third.exit_code == 0, third.output
    text = blitz.read_text(encoding="utf-8")
    assert "no FIDE rating in this list (blitz)" in text and "real FIDE rating (" not in text
