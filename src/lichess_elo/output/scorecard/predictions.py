"""``report --view predictions``: one row per counted game with every contender's expected
score, for a researcher to recompute the scorecard (CSV or JSON).

An edge module: the predictions are the scorecard's own (``PerfAccuracy.expected``), the
same numbers every score was computed from, written at full float precision.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from lichess_elo.core.contenders import contenders
from lichess_elo.core.report.predictions import LEFT_OUT_REASONS, PerfAccuracy
from lichess_elo.output.common import stream_csv

if TYPE_CHECKING:
    from lichess_elo.core.report import PerfReport

__all__ = ["GAME_FIELDS", "prediction_fields", "predictions_document", "write_predictions_csv"]

GAME_FIELDS = ("perf", "id", "played_at", "color", "opponent_rating", "score")
"""The CSV's first columns: the game and the player's score (1, 0.5, 0)."""


def prediction_fields() -> tuple[str, ...]:
    """CSV columns: ``GAME_FIELDS``, then each registered contender's expected score of the
    player before the game, one column per contender key (``core.contenders``)."""
    return (*GAME_FIELDS, *(c.key for c in contenders()))


def _rows(
    reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy]
) -> Iterator[dict[str, Any]]:
    keys = [c.key for c in contenders()]
    for report in reports:
        card = cards.get(report.perf)
        if card is None:
            continue
        for i, row in enumerate(report.games):
            yield {
                "perf": report.perf,
                "id": row.id,
                "played_at": row.played_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "color": row.color,
                "opponent_rating": row.opponent_rating,
                "score": row.score,
                **{key: card.expected[key][i] for key in keys},
            }


def write_predictions_csv(
    out: TextIO, reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy]
) -> None:
    """The per-game predictions as CSV (columns ``prediction_fields()``), row by row."""
    stream_csv(out, _rows(reports, cards), prediction_fields())


def predictions_document(
    user: str, reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy]
) -> dict[str, Any]:
    """The per-game predictions as one JSON document: ``games`` holds the CSV's rows,
    ``left_out`` the games of each perf no contender could predict."""
    return {
        "user": user,
        "contenders": [{"key": c.key, "label": c.label} for c in contenders()],
        "left_out": {p: card.left_out for p, card in cards.items()},
        "left_out_reasons": list(LEFT_OUT_REASONS),
        "games": list(_rows(reports, cards)),
    }
