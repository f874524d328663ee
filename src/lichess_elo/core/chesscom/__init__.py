"""Chess.com's games as records of their own (pure): the archive's games
(``records``), Chess.com's pools and the tool's perfs (``pools``) and the observed change
of each rated game (``changes``). See ``docs/chesscom.md``."""

from __future__ import annotations

from lichess_elo.core.chesscom.changes import ObservedChange, observed_changes
from lichess_elo.core.chesscom.pools import VARIANT_PERFS, is_daily, perf_of, pool_key
from lichess_elo.core.chesscom.records import (
    DRAW_CODES,
    LOSS_CODES,
    RULES,
    TIME_CLASSES,
    WIN_CODE,
    ChessComGame,
    ChessComSide,
    GameFault,
    MonthFault,
    MonthRead,
    outcome_of,
    parse_game,
    parse_month,
)

__all__ = [
    "DRAW_CODES",
    "LOSS_CODES",
    "RULES",
    "TIME_CLASSES",
    "VARIANT_PERFS",
    "WIN_CODE",
    "ChessComGame",
    "ChessComSide",
    "GameFault",
    "MonthFault",
    "MonthRead",
    "ObservedChange",
    "is_daily",
    "observed_changes",
    "outcome_of",
    "parse_game",
    "parse_month",
    "perf_of",
    "pool_key",
]
