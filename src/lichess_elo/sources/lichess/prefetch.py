"""Asking Lichess for the next month while the last one is parsed and stored (an edge
module, below the HTTP session).

A cold import is a chain of monthly answers; the server's time on one (and the transfer)
and the client's time on the one before (requests-cache's write, the parse, the parsed
cache) add up when one waits for the other. ``PrefetchAdapter`` is the session's
transport: told the run's monthly URLs in order (``plan``), once a planned month's answer
came back whole (status 200, its body read), it sends the request of the next planned
month in a thread, a copy of the one just sent (the same headers) with the next URL.
When the session then asks for that month, the answer already received is handed over as
the network's: everything above the transport (the HTTP cache's key and write, the
checks, the parse, what is kept or forgotten, the retries) is unchanged.

Still one request at a time, as Lichess asks: the next month is sent only once the last
answer is read whole, and any other request waits for the one in flight. The thread only
receives; it touches no cache. A month the HTTP cache holds already is not asked ahead.
An answer asked ahead that is never asked for is dropped, never stored; a failure of it
(a timeout, a reset) is raised when, and only if, the session asks for that month.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from requests import PreparedRequest, Response
from requests.adapters import HTTPAdapter


class _Ahead:
    """One request sent ahead in a thread, and what came of it."""

    def __init__(self, adapter: HTTPAdapter, request: PreparedRequest, options: Any) -> None:
        self.request = request
        self._done = threading.Event()
        self._response: Response | None = None
        self._error: BaseException | None = None
        thread = threading.Thread(
            target=self._run, args=(adapter, options), name="lichess-elo-ahead", daemon=True
        )
        thread.start()

    def _run(self, adapter: HTTPAdapter, options: Any) -> None:
        try:
            response = HTTPAdapter.send(adapter, self.request, **options)
            if response.status_code == 200:
                _ = response.content  # read whole here: the connection is free after
            self._response = response
        except Exception as exc:  # handed to the session when it asks for this month
            self._error = exc
        finally:
            self._done.set()

    def wait(self) -> None:
        """Wait until the answer is in (or failed)."""
        self._done.wait()

    def matches(self, request: PreparedRequest) -> bool:
        """Whether ``request`` is the very request sent ahead (method, URL, headers)."""
        mine = self.request
        return (
            request.method == mine.method
            and request.url == mine.url
            and dict(request.headers) == dict(mine.headers)
            and request.body == mine.body
        )

    def result(self) -> Response:
        """The answer, or the failure raised as the network's."""
        self.wait()
        if self._error is not None:
            raise self._error
        assert self._response is not None
        return self._response

    def drop(self) -> None:
        """Let go of an answer that is not used."""
        if self._response is not None:
            self._response.close()


class PrefetchAdapter(HTTPAdapter):
    """``HTTPAdapter`` that asks for the next planned month ahead (see the module)."""

    def __init__(self) -> None:
        """No plan yet: every request is sent as it comes."""
        super().__init__()
        self._next: dict[str, str] = {}
        self._held: Callable[[PreparedRequest, dict[str, Any]], bool] = lambda _r, _o: True
        self._ahead: _Ahead | None = None

    def plan(
        self, urls: Sequence[str], held: Callable[[PreparedRequest, dict[str, Any]], bool]
    ) -> None:
        """Ask ahead along ``urls`` (in the order the run asks for them); ``held`` says
        whether the HTTP cache already holds the answer to a request sent with those
        options (then it is not asked ahead)."""
        self._next = dict(pairwise(urls))
        self._held = held

    def send(self, request: PreparedRequest, *args: Any, **kwargs: Any) -> Response:
        """The answer to ``request``: the one asked ahead if it is that request, else sent
        now (after any request in flight is in: one at a time)."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            ahead.wait()
            if ahead.matches(request):
                response = ahead.result()
                self._ask_next(request, response, args, kwargs)
                return response
            ahead.drop()
        response = super().send(request, *args, **kwargs)
        self._ask_next(request, response, args, kwargs)
        return response

    def _ask_next(
        self, request: PreparedRequest, response: Response, args: Any, kwargs: dict[str, Any]
    ) -> None:
        following = self._next.get(str(request.url))
        if following is None or response.status_code != 200 or args:
            return
        _ = response.content  # the last answer is read whole before the next is sent
        ahead = request.copy()
        ahead.url = following
        if self._held(ahead, kwargs):
            return
        self._ahead = _Ahead(self, ahead, kwargs)

    def close(self) -> None:
        """Drop an answer asked ahead and close the connections."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead._done.is_set():
            ahead.drop()
        super().close()
