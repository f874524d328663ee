"""``report --view accuracy`` end to end on the real OnBoard247 cassette.

Every score is checked against an independent computation written out here (its own
formulas, a plain loop), from the per-game fields of the same JSON report: the player's and
the opponent's pre-game Lichess ratings, the opponent's provisional flag, the FIDE-rules
expected score of the Elo track, the date, colour and the result. All the games are from
January and February 2023, before Lichess's colour advantage began (late 2025), so it adds
nothing to Glicko-2.

Games per perf and month (the data's README): blitz 62/68, bullet 15/42, rapid 3/12,
classical 2/6, chess960 1/4, correspondence 0/6.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO
from tests.runners import invoke

CASSETTE = REPO / "cassettes" / "onboard247.yaml"
PERFS = {"bullet": 57, "blitz": 130, "rapid": 15, "classical": 8, "correspondence": 6}
PERFS["chess960"] = 5


def _run(cache: Path, *args: str) -> Any:
    return invoke(
        ["report", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(cache), *args],
    )


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def doc(cache: Path) -> dict[str, Any]:
    result = _run(cache, "--perf", "all", "--format", "json", "--fit-k")
    assert result.exit_code == 0, result.output
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def _report(doc: dict[str, Any], perf: str) -> dict[str, Any]:
    (report,) = [r for r in doc["reports"] if r["perf"] == perf]
    return report


def _contender(report: dict[str, Any], key: str) -> dict[str, Any]:
    (found,) = [c for c in report["accuracy"]["contenders"] if c["key"] == key]
    return found


# --- the independent computation ----------------------------------------------------------


def _deviance(p: float, s: float) -> float:
    """Deloitte/FIDE challenge: -(s log10 p + (1-s) log10 (1-p)), p clamped to [0.01, 0.99]."""
    q = min(max(p, 0.01), 0.99)
    return -(s * math.log10(q) + (1 - s) * math.log10(1 - q))


def _glicko(own: int, opponent: int, provisional: bool) -> float:
    """Glicko-2's E with the opponent's RD 110 when provisional, else 60 (no advantage)."""
    phi = (110 if provisional else 60) / 173.7178
    g = 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)
    return 1 / (1 + math.exp(-g * (own - opponent) / 173.7178))


def _rival(report: dict[str, Any], c: float, h: float, lam: float, gamma: float) -> list[float]:
    """Glicko-1 / Stephenson written out from PlayerRatings' vignette appendix: calendar
    months, each game predicted from the rating after the last month and the RD after the
    month's c² t; every Lichess RD 60, or 110 when provisional; gamma in prediction only,
    for standard chess (every perf here but chess960)."""
    q = math.log(10) / 400

    def k(v: float) -> float:
        return 1 / math.sqrt(1 + 3 * q * q * v / math.pi**2)

    games = report["games"]
    if report["perf"] == "chess960":
        gamma = 0.0
    first = games[0]
    r, v = first["lichess"]["rating"], (110.0 if first["lichess"]["provisional"] else 60.0) ** 2
    out: list[float] = []
    months = sorted({int(g["played_at"][:4]) * 12 + int(g["played_at"][5:7]) for g in games})
    last = None
    for month in months:
        batch = [
            g for g in games if int(g["played_at"][:4]) * 12 + int(g["played_at"][5:7]) == month
        ]
        v = min(v + c * c * (1 if last is None else month - last), 350.0**2)
        d, gain, opp_sum = 0.0, 0.0, 0.0
        for g in batch:
            vj = (110.0 if g["opponent_provisional"] else 60.0) ** 2
            w = 1 if g["color"] == "white" else -1
            rj = g["opponent_rating"]
            out.append(1 / (1 + 10 ** (-k(v + vj) * (r - rj + gamma * w) / 400)))
            e = 1 / (1 + 10 ** (-k(vj) * (r - rj) / 400))
            d += q * q * k(vj) ** 2 * e * (1 - e)
            gain += k(vj) * (g["score"] - e)
            opp_sum += rj
        v = 1 / (1 / (v + h * h * len(batch)) + d)
        r = r + q * v * gain + lam * (opp_sum / len(batch) - r)
        last = month
    return out


def _predictions(report: dict[str, Any]) -> dict[str, list[float]]:
    games = report["games"]
    rates, total = [], 0.0
    for i, g in enumerate(games):
        rates.append(total / i if i else 0.5)
        total += g["score"]
    return {
        "lichess": [
            _glicko(g["lichess"]["rating"], g["opponent_rating"], g["opponent_provisional"])
            for g in games
        ],
        "fide": [g["elo"]["expected"] for g in games],
        "elo_on_lichess": [
            1 / (1 + 10 ** ((g["opponent_rating"] - g["lichess"]["rating"]) / 400)) for g in games
        ],
        "score_rate": rates,
        # Glickman's c = sqrt((350² - 50²) / 100); PlayerRatings' steph() defaults
        "glicko1": _rival(report, math.sqrt(1200), 0.0, 0.0, 0.0),
        "stephenson": _rival(report, 10.0, 10.0, 0.02, 30.0),
    }


def _scores(p: list[float], s: list[float]) -> dict[str, float]:
    n = len(s)
    correct = 0.0
    for pi, si in zip(p, s, strict=True):
        if si == 0.5 or pi == 0.5:
            correct += 1.0 if si == pi else 0.5
        elif (pi > 0.5) == (si == 1):
            correct += 1.0
    return {
        "deviance": sum(_deviance(pi, si) for pi, si in zip(p, s, strict=True)) / n,
        "brier": sum((pi - si) ** 2 for pi, si in zip(p, s, strict=True)) / n,
        "correct": correct / n,
    }


# --- tests ------------------------------------------------------------------------------------


def test_every_perf_has_a_scorecard(doc: dict[str, Any]) -> None:
    assert {r["perf"]: r["accuracy"]["games"] for r in doc["reports"]} == PERFS
    for report in doc["reports"]:
        keys = [c["key"] for c in report["accuracy"]["contenders"]]
        assert keys == [
            "lichess", "fide", "elo_on_lichess", "score_rate", "glicko1", "stephenson"
        ]  # fmt: skip
        assert len(report["accuracy"]["comparisons"]) == 15  # every pair of six
        assumptions = report["accuracy"]["assumptions"]
        assert {k: assumptions[k] for k in list(assumptions)[:4]} == {
            "deviance_clamp": [0.01, 0.99],
            "opponent_rd_established": 60.0,
            "opponent_rd_provisional": 110.0,
            "first_game_rate": 0.5,
        }
        glicko1, steph = assumptions["glicko1"], assumptions["stephenson"]
        assert (glicko1["c"], glicko1["h"], glicko1["neighbourhood"]) == (34.641016, 0, 0)
        assert (steph["c"], steph["h"], steph["neighbourhood"], steph["bonus"]) == (10, 10, 0.02, 0)
        assert (steph["white_advantage"], steph["rd_max"]) == (30, 350)
        assert "PlayerRatings" in steph["source"] and "Glickman" in glicko1["source"]
        assert report["accuracy"]["left_out"] == 0  # no AI games in the cassette


@pytest.mark.parametrize("perf", sorted(PERFS))
def test_scores_match_an_independent_computation(doc: dict[str, Any], perf: str) -> None:
    report = _report(doc, perf)
    results = [g["score"] for g in report["games"]]
    for key, predicted in _predictions(report).items():
        want = _scores(predicted, results)
        got = _contender(report, key)
        assert got["deviance"] == pytest.approx(want["deviance"], abs=1e-6), key
        assert got["log_loss"] == pytest.approx(want["deviance"] * math.log(10), abs=1e-6), key
        assert got["brier"] == pytest.approx(want["brier"], abs=1e-6), key
        assert got["correct"] == pytest.approx(want["correct"], abs=1e-6), key


def test_blitz_pinned_values(doc: dict[str, Any]) -> None:
    # The rounded figures of the loop above for blitz (130 games), written down so that a
    # change of data or formula shows here by name.
    report = _report(doc, "blitz")
    results = [g["score"] for g in report["games"]]
    predicted = _predictions(report)
    fide = _scores(predicted["fide"], results)
    lichess = _scores(predicted["lichess"], results)
    assert round(fide["deviance"], 3) == round(_contender(report, "fide")["deviance"], 3)
    assert round(lichess["deviance"], 3) == round(_contender(report, "lichess")["deviance"], 3)
    assert sum(results) == 69.0  # 130 games, mean actual 0.530769 -> 69 points
    assert _contender(report, "fide")["mean_actual"] == pytest.approx(69 / 130, abs=1e-6)


def test_calibration_counts(doc: dict[str, Any]) -> None:
    for report in doc["reports"]:
        for key, predicted in _predictions(report).items():
            counts = [0] * 10
            for p in predicted:
                counts[min(int(p * 10 + 1e-9), 9)] += 1  # bands of 0.1, the last one closed
            bands = _contender(report, key)["calibration"]
            assert [b["games"] for b in bands] == counts, (report["perf"], key)
            assert [(b["low"], b["high"]) for b in bands][:2] == [(0.0, 0.1), (0.1, 0.2)]


def test_verdict_follows_the_lichess_fide_interval(doc: dict[str, Any]) -> None:
    for report in doc["reports"]:
        acc = report["accuracy"]
        first = acc["comparisons"][0]
        assert (first["first"], first["second"]) == ("lichess", "fide")
        assert (first["level"], first["resamples"], first["seed"]) == (0.95, 1000, 12)
        assert first["low"] <= first["difference"] <= first["high"]
        v = acc["verdict"]
        crosses = first["low"] <= 0 <= first["high"]
        assert v["outcome"] == ("no_clear_winner" if crosses else "clear")
        n = report["accuracy"]["games"]
        if crosses:
            assert v["text"].startswith(f"No clear winner over {n} {report['perf']} games")
        else:
            assert f"predicted OnBoard247's {n} {report['perf']} games better" in v["text"]


def test_bootstrap_is_reproducible(doc: dict[str, Any], cache: Path) -> None:
    again = _run(cache, "--perf", "all", "--format", "json")
    assert again.exit_code == 0, again.output
    other = json.loads(again.stdout)
    for a, b in zip(doc["reports"], other["reports"], strict=True):
        assert a["accuracy"]["comparisons"] == b["accuracy"]["comparisons"]
        assert b["accuracy"]["fit_k"] is None  # asked only with --fit-k


def test_fit_k_curve(doc: dict[str, Any], cache: Path) -> None:
    blitz = _report(doc, "blitz")["accuracy"]["fit_k"]
    curve = {p["k"]: p["deviance"] for p in blitz["curve"]}
    assert list(curve) == list(range(5, 61))
    assert blitz["best_deviance"] == min(curve.values())
    assert curve[blitz["best_k"]] == blitz["best_deviance"]
    # the rules' deviance is the FIDE contender's (default: shadow track, K by the rules)
    fide = _contender(_report(doc, "blitz"), "fide")["deviance"]
    assert blitz["rules_deviance"] == pytest.approx(fide, abs=1e-6)
    # 700 rule: 700 // 62 = 11 in January, 700 // 68 = 10 in February, so every K from 11
    # on acts as 11 and 10: the curve is flat from K = 11
    assert blitz["k_limited"] == [
        {"period": "2023-01", "games": 62, "k_max": 11},
        {"period": "2023-02", "games": 68, "k_max": 10},
    ]
    assert {curve[k] for k in range(11, 61)} == {curve[11]}
    # correspondence: one period (February), so the frozen rating never moves: flat
    corr = _report(doc, "correspondence")["accuracy"]["fit_k"]
    assert len({p["deviance"] for p in corr["curve"]}) == 1
    # a flat curve's lowest point is its smallest K, at the edge of the scan: no best K
    assert (corr["best_k"], corr["best_k_resolved"]) == (5, False)
    # K = 20 on the curve is the report run with --k 20, scored by the loop above
    fixed = _run(cache, "--perf", "bullet", "--format", "json", "--k", "20")
    assert fixed.exit_code == 0, fixed.output
    report = json.loads(fixed.stdout)["reports"][0]
    want = _scores(
        [g["elo"]["expected"] for g in report["games"]], [g["score"] for g in report["games"]]
    )
    bullet = {p["k"]: p["deviance"] for p in _report(doc, "bullet")["accuracy"]["fit_k"]["curve"]}
    assert bullet[20] == pytest.approx(want["deviance"], abs=1e-6)


def test_table_view_shows_every_perf(cache: Path) -> None:
    result = _run(cache, "--perf", "all", "--view", "accuracy", "--fit-k")
    assert result.exit_code == 0, result.output
    for perf, n in PERFS.items():
        assert f"{perf}: how well each rating predicted {n} games" in result.stdout
    assert result.stdout.count("K scan: the FIDE-rules track's deviance") == len(PERFS)
    # each perf names its best K or says why not; correspondence's curve is flat (one
    # period, above), so its lowest point is the tie's smallest K, 5: the edge of the scan
    assert result.stdout.count("Best K ") + result.stdout.count("No best K: ") == len(PERFS)
    assert re.search(
        r"No best K: the lowest deviance \(K 5, [0-9.]+\) is at the edge", result.stdout
    )
    assert "caps K at 11 in 2023-01 (62 games), 10 in 2023-02 (68 games)" in result.stdout
    assert "Calibration: games, mean expected → actual score" in result.stdout


def test_csv_view(cache: Path) -> None:
    result = _run(cache, "--perf", "all", "--view", "accuracy", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 6 * len(PERFS)
    blitz = {r["contender"]: r for r in rows if r["perf"] == "blitz"}
    assert blitz["lichess"]["vs_lichess"] == ""
    # FIDE minus Lichess = -(Lichess minus FIDE)
    diff = float(blitz["fide"]["deviance"]) - float(blitz["lichess"]["deviance"])
    assert float(blitz["fide"]["vs_lichess"]) == pytest.approx(diff, abs=2e-6)


def test_accuracy_chart(cache: Path, tmp_path: Path) -> None:
    chart = tmp_path / "accuracy.png"
    result = _run(cache, "--perf", "blitz", "--view", "accuracy", "--fit-k", "--chart", str(chart))
    assert result.exit_code == 0, result.output
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_fit_k_needs_the_accuracy_view(cache: Path) -> None:
    result = _run(cache, "--view", "games", "--fit-k")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "lichess-elo: error: --fit-k takes --view accuracy or --format json"
    )


def test_empty_perf_has_an_empty_scorecard(cache: Path) -> None:
    # OnBoard247 played no rated antichess: the report is empty, and so is its scorecard
    result = _run(cache, "--perf", "antichess", "--format", "json", "--fit-k")
    assert result.exit_code == 0, result.output
    acc = json.loads(result.stdout)["reports"][0]["accuracy"]
    assert acc["games"] == 0 and acc["fit_k"] is None
    assert acc["verdict"]["outcome"] == "no_games"
    assert all(c["deviance"] is None for c in acc["contenders"])
    assert all(c["low"] is None for c in acc["comparisons"])


def test_accuracy_view_to_a_file(cache: Path, tmp_path: Path) -> None:
    out = tmp_path / "card.txt"
    result = _run(cache, "--perf", "rapid", "--view", "accuracy", "--output", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "rapid: how well each rating predicted 15 games" in text
    assert "15 rapid games" in text  # the verdict, on one line in a file


def test_page_shows_the_headline_and_legend(cache: Path, tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    result = _run(cache, "--perf", "blitz", "--view", "accuracy", "--fit-k", "--html", str(page))
    assert result.exit_code == 0, result.output
    text = html.unescape(page.read_text("utf-8"))
    # blitz's Lichess-FIDE interval includes 0 (test_verdict_follows_the_lichess_fide_interval)
    assert (
        '<p class="lead">OnBoard247\'s 130 blitz games are too few to tell whether '
        "FIDE's rules or Lichess's rating predicts the results better.</p>"
    ) in text
    assert "<h3>The scorecard</h3>" in text
    assert "<b>Brier</b>: mean squared gap between expected and actual score" in text
    assert "K scan: the deviance of the FIDE-rules track at each fixed K" in text
