"""What makes an answer usable, for the Lichess source: the NDJSON stream of a month is
checked whole before the month counts as fetched.

- ``StreamCheck`` is attached to each streamed 200 answer (by the HTTP session): it checks
  the content type and hands berserk the body's lines through ``ndjson_lines.LineReader``
  (linear time, a maximum line length);
- ``describe`` turns what berserk raised while reading those lines (``JSONDecodeError``,
  ``UnicodeDecodeError``, a converter's ``TypeError``) into an ``AnswerFault`` naming the
  line;
- ``foreign_redirect`` refuses a redirect to another server (the token must not follow);
- ``own_games`` leaves out the games the player did not play.

Messages carry no option names.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urljoin, urlsplit

from lichess_elo.core.games import Game
from lichess_elo.errors import DamagedAnswer, FetchFailed, FetchHint
from lichess_elo.sources.lichess import ndjson as ndjson_lines
from lichess_elo.sources.lichess.ndjson import (
    AnswerFault,
    LineReader,
    check_content_type,
    check_line_text,
)

if TYPE_CHECKING:
    from lichess_elo.sources.lichess.session import Conn

T = TypeVar("T")


class StreamCheck:
    """The checks of one streamed answer; ``reader`` is set once the body is split."""

    def __init__(self, response: Any) -> None:
        """Check ``response`` (a 200 answer) and give it a linear ``iter_lines``.

        Raises:
            AnswerFault: the content type is not NDJSON.
        """
        check_content_type(response.headers.get("Content-Type"))
        self.reader = LineReader(response.content, ndjson_lines.MAX_LINE_BYTES)
        response.iter_lines = self.reader.iter_lines


def describe(exc: BaseException, check: StreamCheck | None) -> AnswerFault:
    """The fault behind ``exc``, raised while the lines of ``check`` were read."""
    if isinstance(exc, AnswerFault):
        return exc
    number = check.reader.number if check is not None else 0
    if isinstance(exc, UnicodeDecodeError):
        try:
            check_line_text(exc.object if isinstance(exc.object, bytes) else b"", number)
        except AnswerFault as fault:
            return fault
        return AnswerFault(number, "is not UTF-8")
    if isinstance(exc, json.JSONDecodeError):
        return AnswerFault(number, "is not valid JSON")
    if isinstance(exc, RecursionError):
        return AnswerFault(number, "is nested too deeply")
    return AnswerFault(number, f"is not a game ({type(exc).__name__})")


#: What berserk raises while reading a broken body (besides ``AnswerFault``).
READ_ERRORS: tuple[type[BaseException], ...] = (
    AnswerFault,
    ValueError,  # JSONDecodeError, UnicodeDecodeError
    TypeError,
    AttributeError,
    KeyError,
    OverflowError,  # berserk's date conversion of a timestamp such as 10^30 (issue 22)
    RecursionError,  # JSON nested 100,000 deep
)


def foreign_redirect(api_url: str, response: Any, target: str | None) -> None:
    """Refuse a redirect of ``response`` to ``target`` on another host or port.

    Raises:
        FetchFailed: ``target`` is on another server than ``api_url``.
    """
    if not target:
        return
    absolute = urljoin(response.url, target)
    here, there = urlsplit(api_url), urlsplit(absolute)
    if (here.hostname, here.port) != (there.hostname, there.port):
        server = f"{there.scheme}://{there.netloc}"
        raise FetchFailed(
            f"{api_url} redirected {urlsplit(response.url).path} to another server, "
            f"{server}; a redirect away from the server asked is not followed"
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
