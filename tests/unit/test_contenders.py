"""A contender is declared in one place (``core.contenders``): a toy one registered there,
and nowhere else, shows in every output of the scorecard (its text, the report's JSON, the
CSV, the predictions view in CSV and JSON, the chart's legend and the HTML page), and
``db compare`` leaves it out by name since it has no ``db`` step."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from lichess_elo.app.report import ReportRun
from lichess_elo.core import contenders
from lichess_elo.core.contenders import Contender, PerfGames
from lichess_elo.core.population import scorecard
from lichess_elo.core.report import PerfReport, ReportSettings, build_report
from lichess_elo.core.report.predictions import score_perf
from lichess_elo.output import registry as render
from lichess_elo.output.charts.figure import pyplot
from lichess_elo.output.charts.scorecard import draw_accuracy_chart
from lichess_elo.output.formats import CSV, JSON, TABLE, Format
from lichess_elo.output.html.report import report_html
from tests.helpers import ME, game

TOY_LABEL = "Toy even odds"
TOY_COLOUR = "#123456"


def _even_odds(games: PerfGames) -> list[float]:
    return [0.5] * len(games.rows)


@pytest.fixture
def toy() -> Iterator[Contender]:
    """The toy contender, registered for one test (the one place it is declared)."""
    added = contenders.register(
        Contender(
            "toy",
            TOY_LABEL,
            short="Toy",
            subject="the toy",
            predict=_even_odds,
            colour=TOY_COLOUR,
            mark=("p", "-"),
        )
    )
    try:
        yield added
    finally:
        contenders.unregister("toy")


def _run() -> ReportRun:
    # 40 blitz games, one a day, against 1300..1690 (steps of 10): wins against the lower
    # half, losses against the upper (no draw).
    start = datetime(2023, 1, 1, 12, tzinfo=UTC)
    games = [
        game(f"g{i}", start + timedelta(days=i), 1500, 5 if i < 20 else -5, 1300 + 10 * i,
             1 if i < 20 else 0)
        for i in range(40)
    ]  # fmt: skip
    (report,) = build_report(ME, games, {}, settings=ReportSettings(k=20))
    return ReportRun(ME, (report,), 40, {report.perf: score_perf(report.games)})


def _rendered(run: ReportRun, fmt: Format, view: str) -> str:
    made = render.check("report", fmt, view)(run, render.Target(None, None))
    if isinstance(made, str):
        return made
    out = io.StringIO()
    made(out)
    return out.getvalue()


def test_the_toy_is_scored_like_every_contender(toy: Contender) -> None:
    card = _run().accuracy["blitz"]
    assert [c.contender.key for c in card.contenders][-1] == "toy"
    assert list(card.expected["toy"]) == [0.5] * 40
    (scored,) = [c for c in card.contenders if c.contender.key == "toy"]
    # by hand: p = 0.5 in every game, so each game's deviance is -log10(0.5) = 0.30103 win
    # or loss; Brier (0.5 - 1)^2 = (0.5 - 0)^2 = 0.25; a prediction of exactly 0.5 counts
    # half "correct" on a win or a loss.
    assert scored.scores.deviance == pytest.approx(0.30103, abs=1e-5)
    assert scored.scores.brier == pytest.approx(0.25)
    assert scored.scores.correct == pytest.approx(0.5)
    # 7 contenders: 7 x 6 / 2 = 21 pairs; the verdict is still Lichess against FIDE's rules.
    assert len(card.comparisons) == 21
    assert (card.comparisons[0].first, card.comparisons[0].second) == ("lichess", "fide")


def test_the_toy_shows_in_the_text_json_csv_and_predictions(toy: Contender) -> None:
    run = _run()
    text = _rendered(run, TABLE, "accuracy")
    assert f"\n{TOY_LABEL} " in text  # its row of the scores table
    assert re.search(f"^Lichess Glicko-2 +{TOY_LABEL} ", text, re.M)  # a row of the pairs table
    # seven contenders: four calibration columns, then the other three, the toy among them
    assert f"Calibration, continued: Glicko-1 and Stephenson and {TOY_LABEL}" in text

    document = json.loads(_rendered(run, JSON, "accuracy"))
    block = document["reports"][0]["accuracy"]
    last = block["contenders"][-1]
    assert (last["key"], last["label"]) == ("toy", TOY_LABEL)
    assert ("lichess", "toy") in {(m["first"], m["second"]) for m in block["comparisons"]}

    rows = list(csv.DictReader(io.StringIO(_rendered(run, CSV, "accuracy"))))
    assert [r["contender"] for r in rows][-1] == "toy"

    predicted = list(csv.DictReader(io.StringIO(_rendered(run, CSV, "predictions"))))
    assert len(predicted) == 40 and {r["toy"] for r in predicted} == {"0.5"}
    shown = json.loads(_rendered(run, JSON, "predictions"))
    assert shown["contenders"][-1] == {"key": "toy", "label": TOY_LABEL}
    assert {g["toy"] for g in shown["games"]} == {0.5}


def test_the_toy_shows_in_the_chart_legend_and_the_html_page(toy: Contender) -> None:
    run = _run()
    report: PerfReport = run.reports[0]
    fig = draw_accuracy_chart([report], run.accuracy, ME)
    try:
        ax = fig.axes[0]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        marks = {c.get_gid(): c for c in ax.collections if c.get_gid()}
    finally:
        pyplot().close(fig)
    # deviance 0.30103 by hand (above), printed with three decimals
    assert f"{TOY_LABEL} (deviance 0.301)" in legend
    edge = marks["calibration-toy"].get_edgecolor()[0]
    assert "#" + "".join(f"{round(v * 255):02x}" for v in edge[:3]) == TOY_COLOUR
    assert TOY_LABEL in report_html(ME, list(run.reports), run.accuracy)


def test_db_compare_leaves_out_a_contender_without_a_db_step(toy: Contender) -> None:
    assert toy.db is None
    assert [c.key for c in scorecard.systems()] == ["fide", "lichess", "glicko1", "stephenson"]
    assert "toy" not in {c.key for c in scorecard.tracked()}


def test_a_contender_is_registered_once_and_a_db_track_needs_its_track(toy: Contender) -> None:
    with pytest.raises(ValueError, match="registered already"):
        contenders.register(toy)
    with pytest.raises(ValueError, match="no track"):
        contenders.register(Contender("toy2", "Toy 2", "Toy 2", "toy 2", _even_odds, db="track"))
    assert "toy2" not in {c.key for c in contenders.contenders()}
