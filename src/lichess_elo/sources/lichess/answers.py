"""What makes an answer usable, for the Lichess source: the NDJSON stream of a month is
checked whole before the month counts as fetched.

- ``stream`` checks each streamed answer (``StreamCheck``), names what broke it
  (``describe``) and refuses a redirect to another server (``foreign_redirect``);
  they are re-exported here;
- ``read_whole`` reads an answer whole, a damaged one as ``DamagedAnswer``;
- ``own_games`` leaves out the games the player did not play.

Messages carry no option names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from lichess_elo.core.games import Game
from lichess_elo.errors import DamagedAnswer, FetchHint
from lichess_elo.sources.lichess.ndjson import AnswerFault
from lichess_elo.sources.lichess.stream import StreamCheck, describe, foreign_redirect

if TYPE_CHECKING:
    from lichess_elo.sources.lichess.session import Conn

T = TypeVar("T")

__all__ = [
    "READ_ERRORS",
    "StreamCheck",
    "ask_again",
    "damaged_answer",
    "describe",
    "foreign_redirect",
    "own_games",
    "read_whole",
]


#: What berserk raises while reading a broken body (besides ``AnswerFault``).
READ_ERRORS: tuple[type[BaseException], ...] = (
    AnswerFault,
    ValueError,  # JSONDecodeError, UnicodeDecodeError
    TypeError,
    AttributeError,
    KeyError,
    OverflowError,  # berserk's date conversion of a timestamp such as 10^30
    RecursionError,  # JSON nested 100,000 deep
)


def own_games(
    games: Iterable[Game], user: str, warn: Callable[[str], None], what: str
) -> tuple[list[Game], int]:
    """The games ``user`` played, and how many others were left out (with one warning)."""
    own: list[Game] = []
    others: list[str] = []
    for game in games:
        if game.color_of(user) is None:
            others.append(game.id)
        else:
            own.append(game)
    if others:
        shown = ", ".join(others[:3]) + (" ..." if len(others) > 3 else "")
        warn(f"{what}: left out {len(others)} games that are not {user}'s ({shown})")
    return own, len(others)


def ask_again(conn: Conn) -> bool:
    """Forget the last (damaged) answer; whether it is worth asking the server again:
    it came from the cache and the run is online."""
    session = conn.session
    session.forget_last()
    if not session.last_from_cache or conn.source.offline or conn.source.replay is not None:
        return False
    session.force_refresh = True
    return True


def damaged_answer(conn: Conn, what: str, fault: AnswerFault, hint: FetchHint) -> DamagedAnswer:
    """The one-line error for an answer that did not parse whole."""
    source = conn.source
    if source.replay is not None:
        text = f"the cassette {source.replay} answers {what} with a damaged body: {fault}"
        return DamagedAnswer(text, what=what, fault=str(fault))
    if conn.session.last_from_cache:  # offline: the CLI adds the command to run online
        text = f"{what}: the cached answer is damaged ({fault}) and was removed"
        return DamagedAnswer(text, what=what, fault=str(fault), hint=hint)
    text = f"{what}: {fault}; the answer was not kept, run again to ask for it again"
    return DamagedAnswer(text, what=what, fault=str(fault))


def read_whole(
    conn: Conn,
    read: Callable[[], T],
    what: str,
    hint: FetchHint,
    *,
    before_again: Callable[[], None] | None = None,
) -> T:
    """``read()`` one answer whole, or keep nothing of it.

    A damaged answer (not JSON, not UTF-8, a line too long, the wrong content type) is
    removed from the cache. When it came from the cache of an online run, the server is
    asked once more (``before_again`` runs first, e.g. to drop the first try's warnings).

    Raises:
        DamagedAnswer: the answer (asked again where that was possible) is damaged.
    """
    session = conn.session
    refresh = session.force_refresh
    try:
        return _read(conn, read)
    except AnswerFault as fault:
        if not ask_again(conn):
            raise damaged_answer(conn, what, fault, hint) from None
    try:
        if before_again is not None:
            before_again()
        return _read(conn, read)
    except AnswerFault as again:
        session.forget_last()
        raise damaged_answer(conn, what, again, hint) from None
    finally:
        session.force_refresh = refresh


def _read(conn: Conn, read: Callable[[], T]) -> T:
    try:
        return read()
    except READ_ERRORS as exc:
        raise describe(exc, conn.session.last_check) from None
