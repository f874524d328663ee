"""The checks of one streamed Lichess answer, below the HTTP session (an edge module).

- ``StreamCheck`` is attached to each streamed 200 answer (by the HTTP session): it checks
  the content type and hands berserk the body's lines through ``ndjson.LineReader``
  (linear time, a maximum line length);
- ``describe`` turns what berserk raised while reading those lines (``JSONDecodeError``,
  ``UnicodeDecodeError``, a converter's ``TypeError``) into an ``AnswerFault`` naming the
  line;
- ``foreign_redirect`` refuses a redirect to another server (the token must not follow).

Its own module so that the HTTP session (``http_cache``) and the retry policy use them
without importing ``answers``, which names the session's connection. Messages carry no
option names.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urljoin, urlsplit

from lichess_elo.errors import FetchFailed
from lichess_elo.sources.lichess import ndjson as ndjson_lines
from lichess_elo.sources.lichess.ndjson import (
    AnswerFault,
    LineReader,
    check_content_type,
    check_line_text,
)


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
