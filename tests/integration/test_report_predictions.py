"""``report --view predictions``: every score recomputed from the per-game rows.

The CSV of the real OnBoard247 cassette is scored here by scikit-learn (log-loss on the
clamped predictions, each draw as a half-weighted win plus a half-weighted loss, which is
exactly -(s ln p + (1-s) ln(1-p)); deviance = log-loss / ln 10; Brier = the mean squared
error against 1, 0.5, 0) and by docs/scorecard.md's five lines of pandas, and compared with
``--view accuracy --format csv``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss, mean_squared_error

from tests.helpers import REPO
from tests.runners import invoke

CASSETTE = REPO / "cassettes" / "onboard247.yaml"
KEYS = ["lichess", "fide", "elo_on_lichess", "score_rate", "glicko1", "stephenson"]


def _run(cache: Path, *args: str) -> Any:
    result = invoke(
        ["report", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(cache), *args],
    )
    return result


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def rows(cache: Path) -> list[dict[str, str]]:
    result = _run(cache, "--perf", "all", "--view", "predictions", "--format", "csv")
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


@pytest.fixture(scope="module")
def scores(cache: Path) -> dict[tuple[str, str], dict[str, str]]:
    result = _run(cache, "--perf", "all", "--view", "accuracy", "--format", "csv")
    assert result.exit_code == 0, result.output
    return {(r["perf"], r["contender"]): r for r in csv.DictReader(io.StringIO(result.stdout))}


def test_one_row_per_counted_game(rows: list[dict[str, str]]) -> None:
    # the cassette's counted games per perf (the data's README)
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["perf"]] = counts.get(r["perf"], 0) + 1
    assert counts == {
        "bullet": 57, "blitz": 130, "rapid": 15, "classical": 8, "correspondence": 6,
        "chess960": 5,
    }  # fmt: skip
    assert list(rows[0]) == ["perf", "id", "played_at", "color", "opponent_rating", "score", *KEYS]
    assert len({r["id"] for r in rows}) == len(rows)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", r["played_at"]) for r in rows)
    assert {r["score"] for r in rows} <= {"1", "0.5", "0"}


def _draw_expanded(p: list[float], s: list[float]) -> tuple[list[float], list[float], list[float]]:
    y, q, w = [], [], []
    for pi, si in zip(p, s, strict=True):
        if si == 0.5:
            y, q, w = [*y, 1.0, 0.0], [*q, pi, pi], [*w, 0.5, 0.5]
        else:
            y, q, w = [*y, si], [*q, pi], [*w, 1.0]
    return y, q, w


@pytest.mark.parametrize("key", KEYS)
def test_scikit_learn_recomputes_every_score(
    rows: list[dict[str, str]], scores: dict[tuple[str, str], dict[str, str]], key: str
) -> None:
    for perf in {r["perf"] for r in rows}:
        mine = [r for r in rows if r["perf"] == perf]
        p = [float(r[key]) for r in mine]
        s = [float(r["score"]) for r in mine]
        y, q, w = _draw_expanded([min(max(x, 0.01), 0.99) for x in p], s)
        if len(set(y)) < 2:  # sklearn needs both labels; a perf of only wins or losses
            continue
        ll = log_loss(y, q, sample_weight=w, labels=[0.0, 1.0])
        got = scores[perf, key]
        assert float(got["log_loss"]) == pytest.approx(ll, abs=1e-6), (perf, key)
        assert float(got["deviance"]) == pytest.approx(ll / math.log(10), abs=1e-6), (perf, key)
        assert float(got["brier"]) == pytest.approx(mean_squared_error(s, p), abs=1e-6)
        assert int(got["games"]) == len(mine)


def _readme_snippet() -> str:
    text = (REPO / "docs" / "scorecard.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- predictions-pandas -->\n```python\n(.*?)```", text, re.S)
    assert match, "docs/scorecard.md's pandas recomputation is missing"
    return match.group(1)


def test_readme_pandas_lines_recompute_the_deviance(
    cache: Path, tmp_path: Path, scores: dict[tuple[str, str], dict[str, str]]
) -> None:
    snippet = _readme_snippet()
    assert len(snippet.strip().splitlines()) == 5
    out = tmp_path / "predictions.csv"
    result = _run(
        cache, "--perf", "all", "--view", "predictions", "--format", "csv", "--output", str(out)
    )
    assert result.exit_code == 0, result.output
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        space: dict[str, Any] = {}
        exec(compile(snippet, "docs/scorecard.md", "exec"), space)
    finally:
        os.chdir(here)
    deviance: pd.DataFrame = space["deviance"]
    assert list(deviance.columns) == KEYS
    for (perf, key), row in scores.items():
        assert deviance.loc[perf, key] == pytest.approx(float(row["deviance"]), abs=1e-6)
    e, s = space["e"], space["s"]  # the page's Brier expression, on the same names
    brier = ((e - s) ** 2).groupby(space["by"]).mean()
    for (perf, key), row in scores.items():
        assert brier.loc[perf, key] == pytest.approx(float(row["brier"]), abs=1e-6)


def test_json_has_the_same_rows(cache: Path, rows: list[dict[str, str]]) -> None:
    result = _run(cache, "--perf", "all", "--view", "predictions", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [c["key"] for c in doc["contenders"]] == KEYS
    assert doc["left_out"] == dict.fromkeys(doc["left_out"], 0) and len(doc["left_out"]) == 6
    assert len(doc["games"]) == len(rows)
    for got, want in zip(doc["games"], rows, strict=True):
        assert got["id"] == want["id"] and str(got["score"]) == want["score"]
        assert np.allclose([got[k] for k in KEYS], [float(want[k]) for k in KEYS], atol=0)


def test_predictions_need_csv_or_json(cache: Path) -> None:
    result = _run(cache, "--view", "predictions")
    assert result.exit_code == 2
    assert (
        result.stderr.strip() == "lichess-elo: error: --view predictions takes --format csv or json"
    )
