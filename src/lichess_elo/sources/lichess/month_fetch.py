"""One month of a player's games, asked of the session and kept only when whole (an edge
module; ``api`` walks the months).

- ``MonthWindow`` names one monthly window: whose, which, and its entry in the
  parsed-games cache;
- ``fetch_month`` reads the month's answer whole (``answers.read_whole``), asks again for
  an answer kept by an older version with games skipped, and then decides what the caches
  keep: another player's games are forgotten, an answer with skipped games is kept
  expired (offline: named as incomplete), a whole, valid one is kept parsed too;
- ``first_of`` folds the months whose answers were damaged into one error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from lichess_elo.core.games import Game
from lichess_elo.errors import DamagedAnswer
from lichess_elo.sources.cache.lichess_parsed import keep_month
from lichess_elo.sources.lichess.answers import own_games, read_whole
from lichess_elo.sources.lichess.export import read_month
from lichess_elo.sources.lichess.months import next_month
from lichess_elo.sources.lichess.session import Conn
from lichess_elo.sources.lichess.users import fetch_hint

if TYPE_CHECKING:
    from lichess_elo.sources.cache.games import ParsedCache


@dataclass(frozen=True)
class MonthWindow:
    """One monthly window: whose, which, and how to name it."""

    user_id: str
    name: str
    month: date
    what: str
    #: The parsed-games cache (none for a cassette) and the month's request in it.
    parsed: ParsedCache | None = None
    request: str = ""


def first_of(damaged: list[DamagedAnswer]) -> DamagedAnswer:
    """The first damaged month's error, naming the others too."""
    first = damaged[0]
    if len(damaged) == 1:
        return first
    more = ", ".join(d.what for d in damaged[1:])
    return DamagedAnswer(
        f"{first} (also damaged: {more})", what=first.what, fault=first.fault, hint=first.hint
    )


def fetch_month(
    conn: Conn, window: MonthWindow, warn: Callable[[str], None]
) -> tuple[list[Game], bool]:
    """The player's games of ``window`` and whether they came from the HTTP cache.

    Raises:
        DamagedAnswer: the answer (asked again where that was possible) is damaged.
    """
    notes: list[str] = []  # the last attempt's parse warnings, said once it is read
    from requests_cache import NEVER_EXPIRE  # with the session (``connect``)

    ended = next_month(window.month) <= conn.now.date()
    # A month that had ended never changes again; a running one is stored already expired.
    conn.session.settings.expire_after = NEVER_EXPIRE if ended else datetime.now(UTC)
    hint = fetch_hint(window.name, conn.source, window.month)

    def read() -> list[Game]:
        return read_whole(
            conn,
            lambda: read_month(conn, window.user_id, window.month, notes.append),
            window.what,
            hint,
            before_again=notes.clear,
        )

    games = read()
    from_cache = conn.session.last_from_cache
    if notes and from_cache and not conn.source.offline and conn.source.replay is None:
        # Games skipped in an answer kept as final (an older version kept such
        # months expired): online, it is asked for again now, not served once more.
        notes.clear()
        refresh, conn.session.force_refresh = conn.session.force_refresh, True
        try:
            games = read()
        finally:
            conn.session.force_refresh = refresh
        from_cache = conn.session.last_from_cache
    for message in notes:
        warn(message)
    own = _keep_or_forget(conn, window, games, notes, warn)
    return own, from_cache


def _keep_or_forget(
    conn: Conn,
    window: MonthWindow,
    games: list[Game],
    notes: list[str],
    warn: Callable[[str], None],
) -> list[Game]:
    """The player's own games of the answer just read, and what the caches keep of it."""
    own, others = own_games(games, window.name, warn, window.what)
    if others:  # not the answer asked for: not kept, so the next run asks again
        conn.session.forget_last()
    elif notes:  # games skipped: not kept as final, so the next online run asks again
        if conn.source.offline:
            warn(incomplete(window.what, len(notes)))
        else:
            conn.session.expire_last()
    elif window.parsed is not None:  # a whole, valid answer: its games are kept parsed
        keep_month(window.parsed, window.request, conn.session, own, notes)
    return own


def incomplete(what: str, skipped: int) -> str:
    """The offline warning for a month kept with ``skipped`` games left out."""
    return (
        f"{what} is incomplete in the cache ({skipped} game(s) skipped); run online "
        "to ask Lichess for it again"
    )


def month_action(
    conn: Conn, window: MonthWindow, warn: Callable[[str], None]
) -> Callable[[], tuple[list[Game], bool]]:
    """``fetch_month`` of ``window`` as the action ``call_with_retries`` repeats."""
    return lambda: fetch_month(conn, window, warn)
