"""The JSON report's game lines (output/report/json_rows.py): the encoder's text of each row's dict.

``game_lines`` fills a format string instead of encoding ``output.report.json._game_json``'s
dict; these tests pin one line written out by hand and check rows with every kind of value
(escaped and non-ASCII text, None, gaps, endings, non-UTC timestamps) against the encoder.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

from lichess_elo.core.report.model import GameRow
from lichess_elo.output.common import json_default
from lichess_elo.output.report.json import _game_json
from lichess_elo.output.report.json_rows import game_lines

ROW = GameRow(
    id="abcd1234",
    variant="standard",
    played_at=datetime(2023, 1, 26, 21, 33, 3, tzinfo=UTC),
    period="2023-01",
    color="white",
    opponent="rival",
    opponent_title=None,
    opponent_rating=1350,
    opponent_provisional=False,
    opponent_bot=False,
    score=Decimal("0.5"),
    status="draw",
    endings=(),
    lichess_rating=1500,
    lichess_diff=-2,
    lichess_after=1498,  # 1500 - 2
    provisional=False,
    gap_before=None,
    gap_cause=None,
    days_since_previous=None,
    elo_rating=1500,
    expected=Decimal("0.64"),
    k=20,
    elo_change=Decimal("-2.80"),
    capped=False,
    replay_valid=True,
    plies=61,
    floor=1400,
)

ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), default=json_default)


def test_a_line_written_out_by_hand() -> None:
    # 0.5 is not whole: round(0.5, 2) = 0.5; 0.64 stays 0.64; -2.80 -> -2.8; the opponent
    # rated 1350 < the row's floor 1400 gives the one flag "opp_below_floor";
    # 21:33:03 UTC -> "...T21:33:03Z"
    expected = (
        '{"id": "abcd1234", "url": "https://lichess.org/abcd1234", '
        '"played_at": "2023-01-26T21:33:03Z", "period": "2023-01", "color": "white", '
        '"opponent": "rival", "opponent_title": null, "opponent_rating": 1350, '
        '"opponent_provisional": false, "score": 0.5, "status": "draw", "endings": [], '
        '"lichess": {"rating": 1500, "diff": -2, "provisional": false}, '
        '"elo": {"rating": 1500, "expected": 0.64, "k": 20, "change": -2.8}, '
        '"replay": {"valid": true, "plies": 61}, "gap_before": null, "gap_cause": null, '
        '"flags": ["opp_below_floor"], "chapter": "standard", "not_rated": null}'
    )
    assert list(game_lines([ROW])) == [expected]


def test_every_kind_of_value_is_written_as_the_encoder_writes_it() -> None:
    plus_two = timezone(timedelta(hours=2))
    rows = [
        ROW,
        replace(ROW, score=Decimal("1"), expected=Decimal("0.5"), elo_change=Decimal("10.0")),
        replace(ROW, score=Decimal("0"), elo_change=Decimal("-12.8000"), k=40),
        replace(ROW, expected=Decimal("0.123456"), elo_change=Decimal("3.33335")),
        replace(
            ROW,
            opponent='Zoë "the \\ quote"\t\n',
            opponent_title="GM",
            opponent_provisional=True,
            opponent_bot=True,
            provisional=True,
            capped=True,
        ),
        replace(ROW, gap_before=-7, gap_cause="overlap", endings=("flag", "time-scramble")),
        replace(ROW, replay_valid=None, plies=None, not_rated="2600 rule", chapter="rapid-blitz"),
        replace(ROW, replay_valid=False, plies=0),
        replace(ROW, played_at=datetime(2023, 1, 1, 1, 2, 3, tzinfo=plus_two)),
        replace(ROW, played_at=datetime(999, 12, 31, 23, 59, 59, 999, tzinfo=UTC)),
        replace(ROW, id="x\u2028y"),
    ]
    assert list(game_lines(rows)) == [ENCODER.encode(_game_json(r)) for r in rows]
