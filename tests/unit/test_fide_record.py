"""Decoding the FIDE record Lichess serves (``fide_record``), on the API docs' examples.

``tests/data/lichess/fide-player-35009192.json`` and ``fide-player-ratings-example.json``
are the documentation's examples (provenance in that folder's README); the expected months
are counted by hand below.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lichess_elo.core.fide_record import decode_history, list_for_speed, parse_player
from lichess_elo.errors import BadFideData


@pytest.fixture
def documented(data_dir: Path) -> tuple[dict[str, object], dict[str, object]]:
    lichess = data_dir / "lichess"
    player = json.loads((lichess / "fide-player-35009192.json").read_text())
    ratings = json.loads((lichess / "fide-player-ratings-example.json").read_text())
    return player, ratings


def test_runs_are_filled_between_first_and_last_month(
    documented: tuple[dict[str, object], dict[str, object]],
) -> None:
    _, ratings = documented
    rapid = decode_history(ratings["rapid"])  # type: ignore[arg-type]
    # 2015-08..2022-09 at 1568: Aug 2015 -> Sep 2022 is 85 months apart, 86 months in all;
    # 2022-10..2024-02 at 1620: 17 months; 2024-03..2025-12 at 1772: 22 months.
    assert len(rapid) == 86 + 17 + 22
    assert rapid[2015, 8] == rapid[2019, 6] == rapid[2022, 9] == 1568
    assert rapid[2022, 10] == rapid[2023, 1] == rapid[2024, 2] == 1620
    # March 2024: the one-time compression +0.4 x (2000 - R) [QC24]: 1620 + 152 = 1772
    assert rapid[2024, 3] == 1620 + round(0.4 * (2000 - 1620)) == 1772
    assert (2015, 7) not in rapid and (2026, 1) not in rapid


def test_player_and_history(documented: tuple[dict[str, object], dict[str, object]]) -> None:
    player_json, ratings = documented
    player = parse_player(player_json, ratings)
    assert (player.id, player.name, player.federation) == (35009192, "Erigaisi Arjun", "IND")
    assert (player.birth_year, player.title) == (2003, "GM")
    assert player.current == {"standard": 2769, "rapid": 2708, "blitz": 2749}
    # standard: 1720 from 2017-09 to 2024-02, then 1720 + 0.4 x 280 = 1832
    assert player.rating("standard", (2023, 1)) == 1720
    assert player.rating("standard", (2024, 3)) == 1832
    # one month between two different ratings: 2015-12 is 1616 (single point, then a run)
    assert player.rating("standard", (2015, 12)) == 1616
    # an empty list: no rating in it, at any month
    assert player.rating("blitz", (2023, 1)) is None
    # the peak takes the current rating too (the two examples are not the same player)
    assert player.peak("standard") == 2769
    assert player.peak("blitz") == 2749


def test_peak_without_current_and_empty() -> None:
    player = parse_player({"id": 1, "name": "A"}, {"blitz": [2020011500, 2020031600]})
    assert player.peak("blitz") == 1600
    assert player.peak("rapid") is None
    assert player.birth_year is None and player.title is None


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ([2020131500], "month 13"),
        (["2020011500"], "YYYYMMRRRR"),
        ([2020031500, 2020011500], "order"),
        ([True], "YYYYMMRRRR"),
    ],
)
def test_bad_history_is_refused(points: list[object], message: str) -> None:
    with pytest.raises(BadFideData, match=message):
        decode_history(points)


def test_bad_answers_are_refused() -> None:
    with pytest.raises(BadFideData, match="JSON object"):
        parse_player([], {})
    with pytest.raises(BadFideData, match="no id"):
        parse_player({"name": "x"}, {})
    with pytest.raises(BadFideData, match="not a list"):
        parse_player({"id": 1}, {"rapid": 5})
    with pytest.raises(BadFideData, match="whole number"):
        parse_player({"id": 1, "year": "2003"}, {})


@pytest.mark.parametrize(
    ("speed", "fide_list"),
    [("bullet", "blitz"), ("blitz", "blitz"), ("rapid", "rapid"), ("classical", "standard")],
)
def test_matching_list(speed: str, fide_list: str) -> None:
    assert list_for_speed(speed) == fide_list
