"""The one parser of each spelling: scores and results, dates, OPP:SCORE, RATING/RD[/VOL].

Every command reads scores and dates through ``core.games``; ``app.calc`` and ``app.glicko``
add only their argument shapes on top.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest

from lichess_elo.app.calc import parse_game
from lichess_elo.app.glicko import parse_player, parse_white_score
from lichess_elo.core.fide import GameResult
from lichess_elo.core.games import parse_day, parse_month_or_day, parse_score
from lichess_elo.core.glicko import Rating
from lichess_elo.errors import BadInput, Malformed


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("1", "1"), ("1.0", "1"), ("0.5", "0.5"), (".5", "0.5"), ("½", "0.5"), ("1/2", "0.5"),
        ("0", "0"), ("0.0", "0"), ("w", "1"), ("D", "0.5"), ("l", "0"), (" 1 ", "1"),
        ("1-0", "1"), ("1:0", "1"), ("0-1", "0"), ("0:1", "0"), ("½-½", "0.5"),
        ("1/2-1/2", "0.5"), ("draw", "0.5"), ("=", "0.5"), ("win", "1"), ("loss", "0"),
    ],
)  # fmt: skip
def test_every_score_spelling(text: str, score: str) -> None:
    assert parse_score(text) == D(score)


@pytest.mark.parametrize("text", ["0.7", "2", "-1", "x", "", "nan", "inf", "1/3", "sNaN", "2-0"])
def test_other_scores_are_refused_naming_the_field(text: str) -> None:
    with pytest.raises(Malformed) as info:
        parse_score(text, "result")
    assert info.value.field == "result" and info.value.value == text.strip()
    assert "1-0" in str(info.value)  # the message lists the accepted spellings


def test_days_and_months() -> None:
    assert parse_day("2026-03-07") == date(2026, 3, 7)
    assert parse_day("2026.03.07") == parse_day("07.03.2026") == date(2026, 3, 7)
    assert parse_month_or_day("2023-01", "since") == date(2023, 1, 1)
    assert parse_month_or_day(" 2023-01-25 ", "until") == date(2023, 1, 25)
    for bad in ("2023-13", "2023-02-30", "23-01", "yesterday"):
        with pytest.raises(Malformed) as info:
            parse_month_or_day(bad, "since")
        assert info.value.field == "since" and "YYYY-MM" in str(info.value)
    with pytest.raises(Malformed, match=r"DD\.MM\.YYYY"):
        parse_day("2026-02-30")


def test_opp_score() -> None:
    assert parse_game("1400:1") == GameResult(1400, D(1))
    assert parse_game("1600:½") == GameResult(1600, D("0.5"))
    for bad, why in [
        ("1400", "OPP:SCORE"),
        (":1", "OPP:SCORE"),
        ("1400:", "OPP:SCORE"),
        ("abc:1", "whole number"),
        ("4001:1", "outside 0..4000"),
        ("-1:1", "outside 0..4000"),
        ("1400:0.7", "score"),
    ]:
        with pytest.raises(BadInput, match=why) as info:
            parse_game(bad)
        assert bad in str(info.value)  # the message names the bad argument


def test_rating_rd_volatility() -> None:
    assert parse_player("1500/60", "white") == Rating(1500, 60, 0.09)
    assert parse_player("1812.5/45/0.06", "white") == Rating(1812.5, 45, 0.06)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1500", "RATING/RD"),
        ("1500/60/0.06/1", "RATING/RD"),
        ("abc/60", "RATING/RD"),
        ("4001/60", "0..4000"),
        ("-1/60", "0..4000"),
        ("1500/0", "RD must be above 0"),
        ("1500/-5", "RD must be above 0"),
        ("1500/60/0", "volatility"),
        ("nan/60", "finite"),
    ],
)
def test_rating_rd_volatility_rejects(text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message) as info:
        parse_player(text, "black")
    assert info.value.field in ("black", "black_rating")


@pytest.mark.parametrize(
    ("text", "score"), [("1-0", 1.0), ("0-1", 0.0), ("1/2-1/2", 0.5), ("½-½", 0.5), ("1:0", 1.0)]
)
def test_glicko_result(text: str, score: float) -> None:
    assert parse_white_score(text) == score


@pytest.mark.parametrize("text", ["2-0", "", "white"])
def test_glicko_result_rejects(text: str) -> None:
    with pytest.raises(Malformed) as info:
        parse_white_score(text)
    assert info.value.field == "result"
