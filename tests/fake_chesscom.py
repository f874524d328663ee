"""The fake Chess.com server of the test suite: real HTTP on 127.0.0.1, threaded.

It serves answers by path: the recorded ones loaded from the vcrpy cassettes in
``tests/data/chesscom`` (``recorded``: the recorded status, headers and body; only
``Content-Length`` is worked out again and ``Connection`` left to the server), and answers
the tests write in the same shape (``json_answer``). Like the PubAPI it answers:

- a conditional request whose ``If-None-Match`` equals the answer's ``ETag``, or whose
  ``If-Modified-Since`` equals its ``Last-Modified`` (compared as text, as a server
  echoing its own validators does), with ``304 Not Modified`` and the validators;
- a path it does not hold with ``404`` and Chess.com's body (``{"code": 0, "message":
  ...}``); a closed account (``closed``) with ``410 Gone``, the status the PubAPI
  documentation gives for data that will never be available;
- a request without a User-Agent naming a program with ``403`` (Chess.com's rule since
  June 2023).

``queued`` answers are served first, once each, for their path (a 429, a broken body);
``slow`` paths are answered after that many seconds (an import to interrupt).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from tests.helpers import QuietHTTPServer

#: Headers of a recorded answer not sent again as they were.
_DROPPED = {"content-length", "connection", "transfer-encoding"}


@dataclass
class Answer:
    """One answer: status, headers (in order) and body."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        """The first header ``name`` (case-insensitive), or ``None``."""
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


def recorded(path: Path) -> tuple[str, Answer]:
    """The request path and the answer of a cassette's single interaction, as recorded."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    [item] = data["interactions"]
    response = item["response"]
    headers = [
        (str(key), str(value))
        for key, values in response["headers"].items()
        for value in (values if isinstance(values, list) else [values])
    ]
    body = response["body"]["string"]
    raw = body.encode("utf-8") if isinstance(body, str) else body
    return urlsplit(item["request"]["uri"]).path, Answer(response["status"]["code"], headers, raw)


def json_answer(
    body: Any, *, status: int = 200, etag: str | None = None, last_modified: str | None = None
) -> Answer:
    """An answer written by a test, with the PubAPI's content type and optional validators."""
    headers = [("Content-Type", "application/json; charset=utf-8")]
    if etag is not None:
        headers.append(("etag", etag))
    if last_modified is not None:
        headers.append(("last-modified", last_modified))
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return Answer(status, headers, raw)


@dataclass(frozen=True)
class Seen:
    """One request as the server saw it: the path and the headers."""

    path: str
    headers: dict[str, str]


@dataclass
class FakeChessCom:
    """The server state; ``start()`` binds a free port on 127.0.0.1."""

    answers: dict[str, Answer] = field(default_factory=dict)
    queued: dict[str, list[Answer]] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)
    slow: dict[str, float] = field(default_factory=dict)
    requests: list[Seen] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: QuietHTTPServer | None = None

    @property
    def url(self) -> str:
        """The server root, e.g. ``http://127.0.0.1:54321``."""
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def archives(self, name: str, months: list[tuple[int, int]]) -> None:
        """Serve ``name``'s archives list naming ``months`` on api.chess.com (the client
        must follow them relative to its own server)."""
        urls = [f"https://api.chess.com/pub/player/{name}/games/{y:04d}/{m:02d}" for y, m in months]
        self.answers[f"/pub/player/{name}/games/archives"] = json_answer({"archives": urls})

    def month(self, name: str, year: int, month: int, answer: Answer) -> None:
        """Serve ``answer`` as ``name``'s archive of ``year``-``month``."""
        self.answers[f"/pub/player/{name}/games/{year:04d}/{month:02d}"] = answer

    def queue(self, path: str, *answers: Answer) -> None:
        """Serve ``answers`` first, once each, for ``path``."""
        self.queued.setdefault(path, []).extend(answers)

    def asked(self, path: str) -> list[Seen]:
        """The requests of ``path``, in order."""
        return [r for r in self.requests if r.path == path]

    def start(self) -> FakeChessCom:
        """Serve in a daemon thread."""
        self._server = QuietHTTPServer.serving(_handler(self))
        return self

    def stop(self) -> None:
        """Shut the server down."""
        if self._server is not None:
            self._server.stop()

    def answer_for(self, path: str, headers: dict[str, str]) -> Answer:
        """What the server answers ``path`` with ``headers``."""
        agent = headers.get("user-agent", "")
        if "lichess-elo/" not in agent:
            return json_answer({"code": 0, "message": "Forbidden"}, status=403)
        with self._lock:
            waiting = self.queued.get(path)
            if waiting:
                return waiting.pop(0)
        parts = path.strip("/").split("/")
        if len(parts) >= 3 and parts[:2] == ["pub", "player"] and parts[2] in self.closed:
            return json_answer({"code": 0, "message": "Gone"}, status=410)
        answer = self.answers.get(path)
        if answer is None:
            message = f'User "{parts[2] if len(parts) > 2 else ""}" not found.'
            return json_answer({"code": 0, "message": message}, status=404)
        etag, modified = answer.header("etag"), answer.header("last-modified")
        if (etag and headers.get("if-none-match") == etag) or (
            modified and headers.get("if-modified-since") == modified
        ):
            kept = [(k, v) for k, v in answer.headers if k.lower() in {"etag", "last-modified"}]
            return Answer(304, kept, b"")
        return answer


def _handler(state: FakeChessCom) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # silence the test output
            pass

        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            headers = {k.lower(): v for k, v in self.headers.items()}
            with state._lock:
                state.requests.append(Seen(path, headers))
            answer = state.answer_for(path, headers)
            if path in state.slow:
                time.sleep(state.slow[path])
            self.send_response_only(answer.status)  # the answer's own Date and Server
            if answer.header("date") is None:
                self.send_header("Date", self.date_time_string())
            for key, value in answer.headers:
                if key.lower() not in _DROPPED:
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            if answer.status != 304:
                self.wfile.write(answer.body)

    return Handler


#: The recorded month: 17 games of FabianoCaruana, 2020-05 (tests/data/chesscom/README.md).
RECORDED_MONTH = (
    Path(__file__).parent / "data" / "chesscom" / ("cassette-games-fabianocaruana-2020-05.yaml")
)


def recorded_games() -> list[dict[str, Any]]:
    """The recorded month's games as the archive's JSON objects (fresh copies)."""
    _, answer = recorded(RECORDED_MONTH)
    games: list[dict[str, Any]] = json.loads(answer.body)["games"]
    return games


def written_game(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A game written by a test in the archive's shape: a copy of the recorded ``base``
    with ``changes`` (``white``/``black`` given as dicts are merged into the side)."""
    game = json.loads(json.dumps(base))
    for key, value in changes.items():
        if key in ("white", "black") and isinstance(value, dict):
            game[key].update(value)
        else:
            game[key] = value
    return game
