"""The FIDE record through the real session: berserk's Requestor over real HTTP against the
fake server's FIDE endpoints, with the real SQLite cache, offline mode, retries and the
labelled cassette (``cassettes/onboard247-fide.yaml``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lichess_elo.errors import (
    BadFideData,
    BadInput,
    DamagedAnswer,
    FetchFailed,
    FetchHint,
    FidePlayerNotFound,
    NotCached,
)
from lichess_elo.sources.lichess.fide import check_fide_id, fetch_fide_player
from lichess_elo.sources.lichess.session import LichessSettings
from tests.fake_fide import encode_history
from tests.fake_lichess import FakeLichess
from tests.helpers import REPO

HINT = FetchHint(user="someone")


@pytest.fixture
def fide_server(fake_lichess: FakeLichess, data_dir: Path) -> FakeLichess:
    lichess = data_dir / "lichess"
    player = json.loads((lichess / "fide-player-35009192.json").read_text())
    ratings = json.loads((lichess / "fide-player-ratings-example.json").read_text())
    fake_lichess.fide_players[35009192] = player
    fake_lichess.fide_ratings[35009192] = ratings
    return fake_lichess


def _source(server: FakeLichess, cache: Path, **extra: object) -> LichessSettings:
    return LichessSettings(api_url=server.url, cache_dir=cache, **extra)  # type: ignore[arg-type]


def test_player_and_history_over_http(fide_server: FakeLichess, tmp_path: Path) -> None:
    player = fetch_fide_player(35009192, _source(fide_server, tmp_path), hint=HINT)
    assert (player.name, player.birth_year, player.title) == ("Erigaisi Arjun", 2003, "GM")
    # the documented history: rapid 1620 from 2022-10 to 2024-02
    assert player.rating("rapid", (2023, 1)) == 1620
    assert player.rating("blitz", (2023, 1)) is None
    paths = [r.path for r in fide_server.requests]
    assert paths == ["/api/fide/player/35009192", "/api/fide/player/35009192/ratings"]
    assert all(r.headers["User-Agent"].startswith("lichess-elo/") for r in fide_server.requests)


def test_offline_serves_the_cache_and_names_what_is_missing(
    fide_server: FakeLichess, tmp_path: Path
) -> None:
    with pytest.raises(NotCached, match="FIDE player 35009192 is not in the cache"):
        fetch_fide_player(35009192, _source(fide_server, tmp_path, offline=True), hint=HINT)
    fetch_fide_player(35009192, _source(fide_server, tmp_path), hint=HINT)
    count = len(fide_server.requests)
    offline = fetch_fide_player(35009192, _source(fide_server, tmp_path, offline=True), hint=HINT)
    assert offline.rating("standard", (2024, 3)) == 1832
    assert len(fide_server.requests) == count  # nothing sent


def test_an_html_page_is_not_kept(fide_server: FakeLichess, tmp_path: Path) -> None:
    # The player's answer is an HTML page with 200 (a proxy's error page): a one-line
    # error, and nothing kept, so offline it is simply not cached, and online it is asked
    # for again.
    fide_server.fide_html = 1
    with pytest.raises(DamagedAnswer, match=r"the FIDE player 35009192: .*is not valid JSON"):
        fetch_fide_player(35009192, _source(fide_server, tmp_path), hint=HINT)
    with pytest.raises(NotCached, match="FIDE player 35009192 is not in the cache"):
        fetch_fide_player(35009192, _source(fide_server, tmp_path, offline=True), hint=HINT)
    player = fetch_fide_player(35009192, _source(fide_server, tmp_path), hint=HINT)
    assert player.name == "Erigaisi Arjun"


def test_429_and_500_are_retried(fide_server: FakeLichess, tmp_path: Path) -> None:
    fide_server.fide_faults.extend([429, 500])
    warnings: list[str] = []
    player = fetch_fide_player(
        35009192, _source(fide_server, tmp_path), hint=HINT, on_warning=warnings.append
    )
    assert player.id == 35009192
    assert len(warnings) == 2 and "HTTP 429" in warnings[0] and "HTTP 500" in warnings[1]


def test_retries_run_out(fide_server: FakeLichess, tmp_path: Path) -> None:
    fide_server.fide_faults.extend([500] * 6)
    with pytest.raises(FetchFailed, match="after 5 retries"):
        fetch_fide_player(35009192, _source(fide_server, tmp_path), hint=HINT)


def test_unknown_and_malformed_ids(fide_server: FakeLichess, tmp_path: Path) -> None:
    with pytest.raises(FidePlayerNotFound, match="no FIDE player with id 123") as caught:
        fetch_fide_player(123, _source(fide_server, tmp_path), hint=HINT)
    assert caught.value.exit_code == 1
    for bad in ("12ab", "0", "-5", "1234567890", ""):
        with pytest.raises(BadInput, match="FIDE id"):
            check_fide_id(bad)
    assert check_fide_id(" 35009192 ") == 35009192
    assert not fide_server.requests[1:]  # only the 404 request was sent


def test_an_empty_history_is_no_rating(fake_lichess: FakeLichess, tmp_path: Path) -> None:
    fake_lichess.fide_players[7] = {"id": 7, "name": "New Player", "year": None}
    player = fetch_fide_player(7, _source(fake_lichess, tmp_path), hint=HINT)
    assert player.history == {"standard": {}, "rapid": {}, "blitz": {}}
    assert player.peak("blitz") is None and player.birth_year is None


def test_encoded_runs_round_trip(fake_lichess: FakeLichess, tmp_path: Path) -> None:
    months = [(2024, m, 2000) for m in range(1, 7)] + [(2024, 7, 2050), (2024, 8, 2050)]
    fake_lichess.fide_players[8] = {"id": 8, "name": "B", "blitz": 2050}
    fake_lichess.fide_ratings[8] = {"blitz": encode_history(months)}
    assert fake_lichess.fide_ratings[8]["blitz"] == [2024012000, 2024062000, 2024072050, 2024082050]
    player = fetch_fide_player(8, _source(fake_lichess, tmp_path), hint=HINT)
    assert {m: player.rating("blitz", m[:2]) for m in months} == {m: m[2] for m in months}


def test_the_labelled_cassette(tmp_path: Path) -> None:
    cassette = REPO / "cassettes" / "onboard247-fide.yaml"
    assert "BUILT from the documented format" in cassette.read_text().split("interactions")[0]
    player = fetch_fide_player(
        35009192, LichessSettings(replay=cassette, cache_dir=tmp_path), hint=HINT
    )
    assert player.rating("rapid", (2023, 2)) == 1620


def test_an_answer_about_another_player_is_refused(
    fide_server: FakeLichess, tmp_path: Path
) -> None:
    # the answer for 35009192 said it was about someone else, and was used.
    fide_server.fide_players[35009192] = {**fide_server.fide_players[35009192], "id": 1503014}
    with pytest.raises(BadFideData) as caught:
        fetch_fide_player(35009192, _source(fide_server, tmp_path), hint=HINT)
    assert str(caught.value) == (
        "the FIDE answer for 35009192 is about another player (FIDE id 1503014)"
    )


def test_a_fide_data_error_says_it_comes_from_the_fide_answer(
    fide_server: FakeLichess, tmp_path: Path
) -> None:
    fide_server.fide_ratings[35009192] = {"standard": [2023191500]}  # month 19
    with pytest.raises(BadFideData) as caught:
        fetch_fide_player(35009192, _source(fide_server, tmp_path), hint=HINT)
    assert str(caught.value).startswith("the FIDE answer for 35009192: rating point ")


def test_an_answer_nested_100000_deep_is_a_damaged_answer(
    fide_server: FakeLichess, tmp_path: Path
) -> None:
    # JSON nested 100,000 deep gave "unexpected RecursionError".
    deep = b"[" * 100_000 + b"]" * 100_000
    fide_server.fide_bodies["/api/fide/player/35009192"] = deep
    with pytest.raises(DamagedAnswer) as caught:
        fetch_fide_player(35009192, _source(fide_server, tmp_path), hint=HINT)
    assert "the FIDE player 35009192" in str(caught.value)
    assert "nested too deeply" in str(caught.value)
