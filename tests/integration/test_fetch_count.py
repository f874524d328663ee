"""A counting fetch (``fetch_games(keep_games=False)``, what ``lichess-elo fetch`` does) keeps
no game in memory and counts the same games a report's import keeps.

Reference numbers: the OnBoard247 export holds 221 games between 2023-01-25 and
2023-02-19, all rated: blitz 130, bullet 57, rapid 15, classical 8, correspondence 6,
chess960 5 (tests/data/lichess/README.md).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lichess_elo.sources.lichess import LichessSettings, fetch_games
from tests.fake_lichess import FakeLichess

UNTIL_MARCH = date(2023, 3, 1)  # OnBoard247 was created 2023-01-24: two months
SPLIT = {
    "blitz": (130, 0),
    "bullet": (57, 0),
    "rapid": (15, 0),
    "classical": (8, 0),
    "correspondence": (6, 0),
    "chess960": (5, 0),
}


def test_a_counting_fetch_keeps_no_game(onboard_server: FakeLichess, tmp_path: Path) -> None:
    source = LichessSettings(api_url=onboard_server.url, cache_dir=tmp_path / "cache")
    counted = fetch_games("OnBoard247", source, until=UNTIL_MARCH, keep_games=False)
    assert counted.games == ()
    assert counted.count == 221
    assert dict(counted.split) == SPLIT
    assert counted.months_total == 2 and counted.months_from_network == 2
    # again from the cache, keeping the games: the same count, and the games themselves
    kept = fetch_games("OnBoard247", source, until=UNTIL_MARCH)
    assert kept.months_from_cache == 2
    assert kept.count == len(kept.games) == 221
    assert dict(kept.split) == SPLIT


def test_a_window_is_counted_as_it_is_kept(onboard_server: FakeLichess, tmp_path: Path) -> None:
    # From 2023-02-01 on: the README's February games only; counted and kept agree.
    source = LichessSettings(api_url=onboard_server.url, cache_dir=tmp_path / "cache")
    since = date(2023, 2, 1)
    kept = fetch_games("OnBoard247", source, since=since, until=UNTIL_MARCH)
    counted = fetch_games("OnBoard247", source, since=since, until=UNTIL_MARCH, keep_games=False)
    assert 0 < counted.count == len(kept.games) < 221
    assert sum(r + c for r, c in counted.split.values()) == counted.count


def test_counting_back_needs_the_games_kept(onboard_server: FakeLichess, tmp_path: Path) -> None:
    source = LichessSettings(api_url=onboard_server.url, cache_dir=tmp_path / "cache")
    with pytest.raises(ValueError, match="kept"):
        fetch_games("OnBoard247", source, count_back=("all",), keep_games=False)
