"""A player's real FIDE record from Lichess: ``GET /api/fide/player/{id}`` and ``.../ratings``.

Both requests go through the same session as every other Lichess call (``session.connect``):
User-Agent, token, the HTTP cache (refetched online, served from the cache offline), the
replayed cassette, and ``call_with_retries`` (HTTP 429 waits, backoff on 5xx and cut
connections). berserk 0.14 has ``fide.get_player`` but no history call, so both are made
with berserk's ``Requestor`` on the session. Decoding is ``core/fide_record.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from lichess_elo.core.fide_record import FIDE_ID_MAX, FidePlayer, parse_player
from lichess_elo.errors import BadFideData, FetchHint, FidePlayerNotFound, Malformed
from lichess_elo.sources.lichess.answers import read_whole
from lichess_elo.sources.lichess.retries import call_with_retries
from lichess_elo.sources.lichess.session import Conn, LichessSettings, connect


def check_fide_id(value: int | str) -> int:
    """A FIDE id as a whole number 1..999999999.

    Raises:
        Malformed: anything else (a malformed id is the user's input, exit code 2).
    """
    text = str(value).strip()
    if not text.isdigit() or not 1 <= int(text) <= FIDE_ID_MAX:
        raise Malformed("fide_id", value, f"a whole number from 1 to {FIDE_ID_MAX}", "a FIDE id")
    return int(text)


def _get(
    conn: Conn, path: str, what: str, fide_id: int, hint: FetchHint, warn: Callable[[str], None]
) -> Any:
    import berserk  # with the session (``connect``)
    from berserk.formats import JSON
    from berserk.session import Requestor

    requestor = Requestor(conn.session, conn.source.api_url.rstrip("/"), default_fmt=JSON)

    def action() -> Any:  # a damaged answer is not kept (``answers.read_whole``)
        return read_whole(conn, lambda: requestor.get(path), what, hint)

    try:
        return call_with_retries(
            action,
            what=what,
            source=conn.source,
            hint=hint,
            on_warning=warn,
            passthrough=frozenset({404}),
        )
    except berserk.exceptions.ResponseError:
        raise FidePlayerNotFound(fide_id) from None


def fetch_fide_player(
    fide_id: int | str,
    source: LichessSettings,
    *,
    hint: FetchHint,
    on_warning: Callable[[str], None] | None = None,
) -> FidePlayer:
    """The FIDE player ``fide_id`` with the monthly history of each list.

    Args:
        fide_id: The FIDE id (checked by ``check_fide_id``).
        source: Where requests go (cache, offline, cassette, token).
        hint: What fetches it online (the report's user); the id is added to it.
        on_warning: Told about each retry, in one line.

    Raises:
        Malformed: a malformed id. FidePlayerNotFound: no such player (HTTP 404).
        BadFideData: an answer not in the documented format. NotCached, CassetteMissing,
        RateLimited, FetchFailed: as for every other request.
    """
    player_id = check_fide_id(fide_id)
    warn = on_warning or (lambda _message: None)
    hint = replace(hint, fide_id=player_id)
    with connect(source) as conn:
        conn.session.settings.expire_after = datetime.now(UTC)  # refetched online
        base = f"/api/fide/player/{player_id}"
        player = _get(conn, base, f"the FIDE player {player_id}", player_id, hint, warn)
        ratings = _get(
            conn, f"{base}/ratings", f"the FIDE ratings of {player_id}", player_id, hint, warn
        )
    where = f"the FIDE answer for {player_id}"
    try:
        found = parse_player(player, ratings)
    except BadFideData as exc:  # said to come from the answer
        raise BadFideData(f"{where}: {exc}") from None
    if found.id != player_id:
        raise BadFideData(f"{where} is about another player (FIDE id {found.id})")
    return found
