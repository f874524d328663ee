"""One month of a player's games export, read through berserk's requestor.

The request is the one ``client.games.export_by_player`` sends (the same path, the query in
the same order, the session's headers and cache), with one difference: berserk's own
conversion of ``createdAt``/``lastMoveAt`` is made per game and cannot sink the month. A
value it cannot convert (10^30, a string) is left as Lichess wrote it, so that
``parse_games`` names it and skips that one game.

That conversion is not berserk's code but ``_dates``, which gives the same games: berserk
turns a number of milliseconds into ``datetime.fromtimestamp(ms / 1000, UTC)``, which is
what ``parse_game`` makes of the number itself, so only a JSON ``true``/``false`` (a number
to berserk, refused by ``parse_game``) is converted here. berserk's ``Game.convert``
rebuilds its table of conversions for every game: about 30 µs a game, as much as the
``json.loads`` of the line.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
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

    requestor = Requestor(conn.session, conn.source.api_url.rstrip("/"), default_fmt=NDJSON)
    path, params = _month_path(user_id), _month_query(month)
    stream = requestor.get(path, params=params, fmt=NDJSON, stream=True, converter=_dates)
    objects = list(stream)  # the month's response is let go after this
    return list(parse_games(objects, on_warning=warn))


def month_url(api_url: str, user_id: str, month: date) -> str:
    """The URL ``read_month`` asks for the month (its query in berserk's order)."""
    from urllib.parse import urljoin

    from requests import PreparedRequest  # with the session (``connect``)

    request = PreparedRequest()
    request.prepare_url(urljoin(api_url.rstrip("/"), _month_path(user_id)), _month_query(month))
    return str(request.url)


def _month_path(user_id: str) -> str:
    return f"/api/games/user/{user_id}"


def _month_query(month: date) -> dict[str, Any]:
    query = export_params(month)
    return {key: query[key] for key in _BERSERK_ORDER}


#: The fields berserk's ``models.Game`` converts from milliseconds.
_DATE_FIELDS = ("createdAt", "lastMoveAt")


def _dates(game: Any) -> Any:
    """One game as berserk's conversion of its dates leaves it for ``parse_game``.

    A number of milliseconds is left as it is (``parse_game`` makes the same ``datetime`` of
    it); a boolean, which berserk takes for 0 or 1 ms, is converted as berserk does.
    """
    if type(game) is dict:
        for field in _DATE_FIELDS:
            value = game.get(field)
            if value is True or value is False:
                game[field] = datetime.fromtimestamp(value / 1000, UTC)
    return game
