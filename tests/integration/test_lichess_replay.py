"""``--replay``: the bundled vcrpy cassettes, served through the real berserk client.

The cassettes are built by scripts/build_cassettes.py from tests/data/lichess (see
cassettes/README.md): real game lines split by month, plus a built /api/user answer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from lichess_elo.errors import BadInput, CassetteMissing
from lichess_elo.sources.lichess import LichessSettings, cassette_time, fetch_games
from tests import helpers
from tests.runners import Cli

REPO = helpers.REPO
ONBOARD = REPO / "cassettes" / "onboard247.yaml"
EDGES = REPO / "cassettes" / "edgecases.yaml"


def test_onboard247_cassette_replays_221_games_in_two_months(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    result = fetch_games("OnBoard247", LichessSettings(replay=ONBOARD, cache_dir=cache_dir))
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
    result = fetch_games("Lance5500", LichessSettings(replay=EDGES, cache_dir=tmp_path))
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
        fetch_games("Lance5500", LichessSettings(replay=ONBOARD, cache_dir=tmp_path))
    assert "the Lichess user 'Lance5500'" in str(caught.value)
    assert str(ONBOARD) in str(caught.value)


def test_cassette_time_is_the_latest_date_header() -> None:
    assert cassette_time(EDGES) == datetime(2026, 7, 7, 9, 0, tzinfo=UTC)


_REQUEST = "request: {method: GET, uri: 'https://lichess.org/api/user/onboard247', body: null}"
_RESPONSE = "response: {status: {code: 200}, body: {string: ''}, headers: {}}"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        # an unclosed flow sequence: the YAML parser stops where the next line begins
        ("interactions:\n- request: [\n", "YAML error at line 3, column 1"),
        ("", "no interactions"),  # an empty file
        ("just some words\n", "no interactions"),  # a plain-text file: a YAML string
        ("interactions: []\n", "no interactions"),
        ("version: 1\n", "no interactions"),
        ("interactions:\n- response: {headers: {}}\n", "interaction 1 is malformed"),
        # vcrpy needs the status and the body: checked here, not left to crash later
        (
            f"interactions:\n- {_REQUEST}\n  response: {{headers: {{}}}}\n",
            "interaction 1 (GET https://lichess.org/api/user/onboard247) is malformed",
        ),
        ("\xff\xfe\x00", "not UTF-8 text"),
    ],
)
def test_a_broken_cassette_is_one_line(tmp_path: Path, text: str, why: str) -> None:
    cassette = tmp_path / "broken.yaml"
    cassette.write_bytes(text.encode("latin-1"))
    with pytest.raises(BadInput) as caught:
        fetch_games("OnBoard247", LichessSettings(replay=cassette, cache_dir=tmp_path / "cache"))
    assert str(caught.value) == f"cassette {cassette}: not a readable vcrpy cassette ({why})"
    assert caught.value.describe({"replay": "--replay"}).startswith(f"--replay {cassette}: ")


def test_a_cassette_without_a_date_header_is_named(tmp_path: Path) -> None:
    cassette = tmp_path / "undated.yaml"
    cassette.write_text(f"interactions:\n- {_REQUEST}\n  {_RESPONSE}\n", encoding="utf-8")
    with pytest.raises(BadInput, match="no response has a Date header"):
        cassette_time(cassette)


def test_cli_broken_cassette_exits_2_in_one_line(cli: Cli, tmp_path: Path) -> None:

    cassette = tmp_path / "broken.yaml"
    # a tab cannot start a YAML token: the error is at the tab, line 2, column 1
    cassette.write_text("interactions:\n\t- a\n", encoding="utf-8")
    result = cli(["fetch", "OnBoard247", "--replay", str(cassette)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"lichess-elo: error: --replay {cassette}: not a readable vcrpy cassette "
        "(YAML error at line 2, column 1)"
    ]


def test_a_cassette_vcrpy_cannot_load_is_one_line(tmp_path: Path) -> None:
    # dated, with a status and a body, but the request lacks the body and headers that
    # vcrpy's Request(method, uri, body, headers) needs
    cassette = tmp_path / "nobody.yaml"
    cassette.write_text(
        "interactions:\n"
        "- request: {method: GET, uri: 'https://lichess.org/api/user/onboard247'}\n"
        "  response:\n"
        "    status: {code: 200}\n"
        "    body: {string: ''}\n"
        "    headers: {Date: ['Mon, 20 Feb 2023 10:00:00 GMT']}\n",
        encoding="utf-8",
    )
    with pytest.raises(BadInput) as caught:
        fetch_games("OnBoard247", LichessSettings(replay=cassette, cache_dir=tmp_path / "cache"))
    assert str(caught.value) == (
        f"cassette {cassette}: not a readable vcrpy cassette (vcrpy cannot load it)"
    )
