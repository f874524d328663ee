"""``db compare`` on the hand-checked fixture (lists in ``db_fixture.py``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from lichess_elo.app import db as app
from tests.integration.db_fixture import rated_fixture
from tests.runners import Cli


@pytest.fixture(scope="module")
def rated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture ingested and rated on DuckDB."""
    return rated_fixture(tmp_path_factory.mktemp("compare"))


def test_bands_from_the_hand_lists(rated_db: Path) -> None:
    result = app.compare(app.CompareSettings(rated_db, ("blitz",), min_games=0))
    april = {b.band: b for b in result.bands if b.month == 202404}
    # Blitz list of 2024-04 (db_fixture.EXPECTED), Elo - Lichess: Dave 2450-2455 = -5 and
    # Frank 2417-2416 = +1 (band 2400), Erin 1488-1623 = -135 (1600), Carol 1949-1980 = -31
    # and SomeBot 1963-1999 = -36 (1800: mean -33.5), Alice 1582-1520 = +62 (1400), Bob
    # 1514-1387 = +127 (1200); Gina is not listed (her one blitz game fell under the
    # 600/2600 rule).
    assert {b: (r.players, r.mean) for b, r in april.items()} == {
        1200: (1, 127.0), 1400: (1, 62.0), 1600: (1, -135.0), 1800: (2, -33.5),
        2400: (2, -2.0),
    }  # fmt: skip
    # The most different on the last list: Erin (-135), then Bob (+127).
    assert [(d.name, d.difference) for d in result.differs[:2]] == [("Erin", -135), ("Bob", 127)]


def test_fide_scores_of_the_classical_month(rated_db: Path) -> None:
    result = app.compare(app.CompareSettings(rated_db, ("classical",), resamples=50))
    (march_score,) = result.scores
    fide = march_score.fide
    # White's PD from the March classical list: Gina 2700 (>= 2650, real D) vs Hank 2000:
    # D 700 -> .99, won; vs Ivan 1900: D 800 > 735 -> 1.00, drawn.
    # Brier = ((.99 - 1)^2 + (1 - .5)^2) / 2 = (.0001 + .25) / 2 = .12505.
    assert fide.brier == pytest.approx(0.12505)
    # Deviance (p clamped to [.01, .99]): game 1 -log10(.99) = .0043648; game 2
    # -(.5 log10(.99) + .5 log10(.01)) = .0021824 + 1 = 1.0021824; mean .5032736.
    assert fide.deviance == pytest.approx((-math.log10(0.99) - 0.5 * math.log10(0.99) + 1) / 2)
    assert fide.deviance == pytest.approx(0.5032736, abs=1e-7)
    # Share right: the win predicted at .99 counts 1, the draw (predicted 1.00) 1/2 -> .75.
    assert fide.correct == pytest.approx(0.75)
    assert march_score.games == march_score.sampled == 2


def test_cli_compare_json_and_chart(cli: Cli, rated_db: Path, tmp_path: Path) -> None:
    chart = tmp_path / "bands.png"
    out = cli(["db", "compare", "--db", str(rated_db), "--perf", "blitz", "--min-games", "0",
         "--chart", str(chart), "--format", "json"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["differs"][0] == {
        "perf": "blitz", "name": "Erin", "rating": 1488, "lichess_rating": 1623,
        "difference": -135, "games_before": 30,
    }  # fmt: skip
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_compare_headline_legend_and_left_out(cli: Cli, rated_db: Path) -> None:
    out = cli(["db", "compare", "--db", str(rated_db), "--resamples", "50"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())  # CliRunner is no terminal: nothing wraps, but be safe
    # Classical, March: two games, per-game deviance FIDE minus Lichess d1 < 0 < d2 (the win
    # predicted .99 by FIDE (D 700) and lower by Glicko-2 with RD 60; the draw predicted
    # 1.00, clamped .99, by FIDE against Glicko-2's lower expectation). A resample of two
    # games is both game 1 (mean d1) with chance 1/4 or both game 2 (d2) with chance 1/4,
    # so the 2.5 % and 97.5 % points are d1 and d2: the interval includes 0, no winner.
    assert (
        "classical, 1 month of games scored: too few games to tell whether FIDE's rules or "
        "Lichess's rating predicts them better."
    ) in text
    # The last blitz list (2024-04) has 7 players with a Lichess rating (the bands above);
    # games before it: Erin 30, Bob 32 (shown with --min-games 30), Alice 5, Carol 3,
    # Dave 2, Frank 1, SomeBot 1: 5 left out. Classical: Gina 2, Hank 1, Ivan 1: 3.
    assert "blitz: 5 players left out with fewer than 30 games; --min-games 0 shows them." in text
    assert "classical: 3 players left out with fewer than 30 games" in text
    legend = out.output[out.output.index("Legend:") :]
    for heading in ("band", "month", "dev. F/L", "F-L [95%]", "Brier F/L", "right F/L",
                    "player, Elo, Lichess", "Elo - Lichess", "games (scorecard)",
                    "games (players)"):  # fmt: skip
        assert f"\n  {heading}" in legend, heading
    doc = json.loads(cli(["db", "compare", "--db", str(rated_db), "--format", "json"]).output)
    assert (doc["min_games"], doc["few_games"]) == (30, {"blitz": 5, "classical": 3})
    # with --min-games 0 nobody is left out, so no note
    zero = cli(["db", "compare", "--db", str(rated_db), "--min-games", "0"])
    assert "left out with fewer than" not in zero.output
