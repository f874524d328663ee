"""One month of a player's games export, read through berserk's requestor.

The request is the one ``client.games.export_by_player`` sends (the same path, the query in
the same order, the session's headers and cache), with one difference: berserk's own
conversion of ``createdAt``/``lastMoveAt`` is made per game and cannot sink the month. A
value it cannot convert (10^30, a string) is left as Lichess wrote it, so that
``parse_games`` names it and skips that one game (issue #22).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from lichess_elo.core.games import Game
from lichess_elo.sources.lichess.months import export_params
from lichess_elo.sources.lichess.parse import parse_games
from lichess_elo.sources.lichess.session import Conn

#: The order in which berserk's ``export_by_player`` writes the month's query.
_BERSERK_ORDER = ("since", "until", "moves", "clocks", "opening", "sort")


def read_month(conn: Conn, user_id: str, month: date, warn: Callable[[str], None]) -> list[Game]:
    """The games of one month's answer, read whole.

    What berserk raises on a damaged answer passes through (``answers.READ_ERRORS``).
    """
    from berserk.formats import NDJSON  # with the session (``connect``)
    from berserk.session import Requestor

    query = export_params(month)
    params = {key: query[key] for key in _BERSERK_ORDER}
    requestor = Requestor(conn.session, conn.source.api_url.rstrip("/"), default_fmt=NDJSON)
    path = f"/api/games/user/{user_id}"
    stream = requestor.get(path, params=params, fmt=NDJSON, stream=True, converter=_dates)
    objects = list(stream)  # the month's response is let go after this
    return list(parse_games(objects, on_warning=warn))


def _dates(game: Any) -> Any:
    """berserk's conversion of one game's dates, or the game as it came."""
    from berserk.models import Game as BerserkGame

    try:
        return BerserkGame.convert(game)
    except (OverflowError, OSError, ValueError, TypeError):
        return game
