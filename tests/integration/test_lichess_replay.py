"""``--replay``: the bundled vcrpy cassettes, served through the real berserk client.

The cassettes are built by scripts/build_cassettes.py from tests/data/lichess (see
cassettes/README.md): real game lines split by month, plus a built /api/user answer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from lichess_elo.errors import CassetteMissing
from lichess_elo.lichess import Source, cassette_time, fetch_games

REPO = Path(__file__).resolve().parents[2]
ONBOARD = REPO / "cassettes" / "onboard247.yaml"
EDGES = REPO / "cassettes" / "edgecases.yaml"


def test_onboard247_cassette_replays_221_games_in_two_months(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    result = fetch_games("OnBoard247", Source(replay=ONBOARD, cache_dir=cache_dir))
    assert len(result.games) == 221  # tests/data/lichess/README.md
    assert (result.months_total, result.months_from_network, result.months_from_cache) == (
        2,
        2,
        0,
    )
    # "now" is the recording time written in the cassette's Date headers
    assert result.now == datetime(2023, 2, 20, 12, 0, tzinfo=UTC)
    assert result.cache_path == ONBOARD
    assert not cache_dir.exists()  # a replay writes no cache


def test_cassette_lines_are_the_real_export_lines(data_dir: Path) -> None:
    data = yaml.safe_load(ONBOARD.read_text(encoding="utf-8"))
    real = (data_dir / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson").read_text()
    bodies = [
        i["response"]["body"]["string"]
        for i in data["interactions"]
        if "/api/games/user/" in i["request"]["uri"]
    ]
    assert len(bodies) == 2
    assert sorted(line for b in bodies for line in b.splitlines()) == sorted(
        line for line in real.splitlines() if line
    )
    user = data["interactions"][0]
    assert user["request"]["uri"] == "https://lichess.org/api/user/onboard247"
    assert "built" in user["response"]["headers"]["X-Lichess-Elo-Built"][0]


def test_edge_case_account(tmp_path: Path) -> None:
    result = fetch_games("Lance5500", Source(replay=EDGES, cache_dir=tmp_path))
    games = {g.id: g for g in result.games}
    assert len(games) == 15  # 13 production lines of lance5500 + 2 re-pointed exports
    # 2017-12 .. 2026-07: 1 month of 2017, 8 x 12 of 2018-2025, 7 of 2026 = 104
    assert result.months_total == 104
    assert result.now == datetime(2026, 7, 7, 9, 0, tzinfo=UTC)

    ai = games["qVChCOTc"]
    assert ai.white.ai_level == 1 and ai.white.rating is None and ai.white.user_id is None
    assert ai.black.user_id == "lance5500" and ai.black.provisional
    assert games["xerffrRn"].status == "aborted" and games["xerffrRn"].winner is None
    assert not games["nfjOkkBQ"].rated
    assert games["X2XgFMIc"].black.provisional and games["X2XgFMIc"].black.rating_diff == 34
    assert games["sOGnIulY"].perf == "threeCheck" and games["sOGnIulY"].rated
    assert games["1vdsvmxp"].status == "variantEnd"
    assert games["Lr0wZGIA"].tournament_id == "kwfVwY5B"  # old "tournament" string
    assert games["q7ZvsdUF"].tournament_id == "winter17"  # new "arenaTour" object
    assert games["wVI5NKlo"].moves == ()  # finished with zero moves


def test_request_missing_from_the_cassette_is_named(tmp_path: Path) -> None:
    with pytest.raises(CassetteMissing) as caught:
        fetch_games("Lance5500", Source(replay=ONBOARD, cache_dir=tmp_path))
    assert "the Lichess user 'Lance5500'" in str(caught.value)
    assert str(ONBOARD) in str(caught.value)


def test_cassette_time_is_the_latest_date_header() -> None:
    assert cassette_time(EDGES) == datetime(2026, 7, 7, 9, 0, tzinfo=UTC)
