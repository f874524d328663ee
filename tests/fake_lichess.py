"""The one fake Lichess server of the test suite: real HTTP on 127.0.0.1, threaded,
chunked NDJSON, serving ``/api/user/{u}`` and ``/api/games/user/{u}`` from in-memory game
dicts (the raw API form, ``createdAt`` in epoch ms), and the tournaments the club ladder
reads: ``/api/tournament/{id}`` and ``/api/swiss/{id}`` (the info objects) and their
``/games`` NDJSON exports (``add_tournament``), and the FIDE endpoints
``/api/fide/player/{id}`` and ``.../ratings`` (``fide_players``, ``fide_ratings``; see
``fake_fide.py``).

It behaves like lila where the tool depends on it (``docs/lichess.md``):
``since`` inclusive / ``until`` exclusive on ``createdAt``, ``max``, ``sort`` (default
``dateDesc``), 404 ``{"error": "Not found"}`` for an unknown user, ``{"id", "username",
"disabled": true}`` for a closed account, HTTP 429 ``{"error": "Please only run 1
request(s) at a time"}``, 401 ``{"error": "No such token"}`` for a token in ``bad_tokens``,
and an HTML 404 for a client without an identifying User-Agent.

Faults are switched on per test with ``server.faults.append(Fault(...))``. Besides the
HTTP faults (429, 500, a cut stream, a slow answer) it serves broken answers: a line that
is not JSON, a line that is not UTF-8, an HTML page with status 200, a huge line, a
redirect to another server, and another player's games.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal
from urllib.parse import parse_qsl, unquote, urlsplit

from tests.fake_fide import fide_answer
from tests.helpers import QuietHTTPServer

FaultKind = Literal[
    "429",
    "500",
    "drop",
    "slow",
    "broken",
    "latin1",
    "html",
    "huge",
    "redirect",
    "foreign",
    "fieldless",
]


@dataclass
class Fault:
    """A fault served to the next ``times`` matching games-export requests.

    ``month`` (``YYYY-MM`` of the ``since`` parameter) restricts it to one monthly window.
    ``drop`` sends ``after_lines`` games, then closes the connection without the final
    chunk; ``slow`` waits ``delay`` seconds before answering. After ``after_lines`` games,
    ``broken`` sends a line cut in the middle of its JSON and ``latin1`` a game line with
    a Latin-1 byte (not UTF-8); then the rest. ``html`` answers 200 with an HTML page;
    ``huge`` pads the first game of the window with ``size`` bytes (one long line);
    ``redirect`` answers 302 to the same path and query on ``target`` (another server);
    ``foreign`` adds the games of the account ``other`` to the window; ``fieldless`` sends
    the games from ``after_lines`` on without their ``players`` (what a transient server
    fault did).
    """

    kind: FaultKind
    times: int = 1
    month: str | None = None
    after_lines: int = 2
    delay: float = 1.0
    size: int = 0
    target: str = ""
    other: str = ""


@dataclass(frozen=True)
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass
class _Account:
    id: str
    username: str
    created_at: int
    disabled: bool = False


@dataclass
class FakeLichess:
    """The server state; ``start()`` binds a free port on 127.0.0.1."""

    games: list[dict[str, Any]] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    require_user_agent: bool = True
    bad_tokens: set[str] = field(default_factory=set)
    accounts: dict[str, _Account] = field(default_factory=dict)
    fide_players: dict[int, dict[str, Any]] = field(default_factory=dict)
    fide_ratings: dict[int, dict[str, list[int]]] = field(default_factory=dict)
    fide_faults: list[int] = field(default_factory=list)
    #: The next this many ``/api/user/{id}`` (and ``/api/fide/...``) requests are answered
    #: 200 with an HTML page.
    user_html: int = 0
    fide_html: int = 0
    #: Raw bodies (sent as JSON) for given FIDE paths, in place of the players' answers.
    fide_bodies: dict[str, bytes] = field(default_factory=dict)
    #: ``(kind, id)`` -> (info object, NDJSON export); kind is ``tournament`` or ``swiss``
    tournaments: dict[tuple[str, str], tuple[bytes, bytes]] = field(default_factory=dict)
    #: Tournament id -> seconds to wait before answering its games export.
    slow_tournaments: dict[str, float] = field(default_factory=dict)
    #: Games exports being answered now (until their last chunk is written), and the most
    #: ever answered at once.
    in_flight: int = 0
    most_in_flight: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: QuietHTTPServer | None = None

    @property
    def url(self) -> str:
        """The server root, e.g. ``http://127.0.0.1:54321``."""
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def add_user(
        self,
        username: str,
        created_at: datetime,
        games: Iterable[dict[str, Any]] = (),
        *,
        disabled: bool = False,
    ) -> None:
        """Register an account and add its games (JSON dicts, ``createdAt`` in ms)."""
        created = int(created_at.timestamp() * 1000)
        self.accounts[username.lower()] = _Account(username.lower(), username, created, disabled)
        self.games.extend(games)

    def add_tournament(
        self, kind: Literal["arena", "swiss"], tid: str, info: bytes, games: bytes
    ) -> None:
        """Serve an arena or swiss: its info object (JSON) and its games (NDJSON)."""
        self.tournaments[("tournament" if kind == "arena" else "swiss", tid)] = (info, games)

    def games_requests(self) -> list[Recorded]:
        """The recorded games-export requests, in order."""
        return [r for r in self.requests if r.path.startswith("/api/games/user/")]

    def start(self) -> FakeLichess:
        """Serve in a daemon thread."""
        self._server = QuietHTTPServer.serving(_handler(self))
        return self

    def stop(self) -> None:
        """Shut the server down."""
        if self._server is not None:
            self._server.stop()

    def take_fault(self, since: str | None) -> Fault | None:
        """The first fault matching this request's month, with one use consumed."""
        month = None
        if since and since.isdigit():
            month = datetime.fromtimestamp(int(since) / 1000, UTC).strftime("%Y-%m")
        with self._lock:
            for fault in self.faults:
                if fault.times > 0 and fault.month in (None, month):
                    fault.times -= 1
                    return fault
        return None

    def user_json(self, account: _Account) -> dict[str, Any]:
        """``/api/user`` built from the stored games (perfs count rated games only)."""
        if account.disabled:
            return {"id": account.id, "username": account.username, "disabled": True}
        perfs: dict[str, dict[str, Any]] = {}
        for game in sorted(self.user_games(account.id), key=lambda g: g["createdAt"]):
            color = _color(game, account.id)
            side = game["players"][color]
            if game.get("rated") and "rating" in side:
                perf = perfs.setdefault(game["perf"], {"games": 0, "rd": 60, "prog": 0})
                perf["games"] += 1
                perf["rating"] = side["rating"] + side.get("ratingDiff", 0)
        return {
            "id": account.id,
            "username": account.username,
            "perfs": perfs,
            "createdAt": account.created_at,
            "seenAt": account.created_at,
            "url": f"https://lichess.org/@/{account.username}",
        }

    def user_games(self, user_id: str) -> list[dict[str, Any]]:
        """The stored games in which ``user_id`` played."""
        return [g for g in self.games if _color(g, user_id) is not None]


def _damage(lines: list[bytes], games: list[dict[str, Any]], fault: Fault) -> list[bytes]:
    """The NDJSON lines of one answer with ``fault``'s damage (see ``Fault``)."""
    at = min(fault.after_lines, len(lines))
    if fault.kind == "broken":
        return [*lines[:at], b'{"id":"brokenLn","rated":tru\n', *lines[at:]]
    if fault.kind == "latin1":
        game = dict(games[at] if at < len(games) else {"id": "latin1Ln"})
        game["id"] = "latin1Ln"
        game["note"] = "M\u00fcller"
        bad = json.dumps(game, ensure_ascii=False, separators=(",", ":")).encode("latin-1")
        return [*lines[:at], bad + b"\n", *lines[at:]]
    if fault.kind == "fieldless":
        cut = [{k: v for k, v in g.items() if k != "players"} for g in games[at:]]
        return [*lines[:at], *(json.dumps(g).encode() + b"\n" for g in cut)]
    if fault.kind == "huge" and games:
        padded = {**games[0], "pad": "x" * fault.size}
        return [json.dumps(padded, separators=(",", ":")).encode() + b"\n", *lines[1:]]
    return lines


def _color(game: dict[str, Any], user_id: str) -> str | None:
    for color in ("white", "black"):
        if game["players"].get(color, {}).get("user", {}).get("id") == user_id:
            return color
    return None


def _handler(state: FakeLichess) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # no 40 ms delayed-ACK stalls on loopback
        wbufsize = 1 << 16  # chunks are flushed in 64 KiB writes (and at the end)

        def log_message(self, format: str, *args: Any) -> None:  # silence the test output
            pass

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = dict(parse_qsl(parts.query))
            with state._lock:
                state.requests.append(
                    Recorded("GET", unquote(parts.path), query, dict(self.headers.items()))
                )
            agent = self.headers.get("User-Agent", "")
            if state.require_user_agent and not agent.startswith("lichess-elo/"):
                self._send(404, "text/html; charset=utf-8", b"<!DOCTYPE html><html>404</html>")
                return
            path = unquote(parts.path)
            token = self.headers.get("Authorization", "").removeprefix("Bearer ")
            if token in state.bad_tokens:
                self._json(401, {"error": "No such token"})
                return
            if path.startswith("/api/user/") and path.endswith("/rating-history"):
                # since 2026-08 an anonymous request may get [] (notes §2.6)
                authorised = self.headers.get("Authorization", "").startswith("Bearer ")
                self._json(
                    200, [{"name": "Blitz", "points": [[2023, 0, 25, 2400]]}] if authorised else []
                )
            elif path.startswith(("/api/tournament/", "/api/swiss/")):
                self._tournament(path.strip("/").split("/"))
            elif path.startswith("/api/user/"):
                self._user(path.removeprefix("/api/user/"))
            elif path.startswith("/api/games/user/"):
                self._games(path.removeprefix("/api/games/user/"), query)
            elif path in state.fide_bodies:
                self._send(200, "application/json", state.fide_bodies[path])
            elif path.startswith("/api/fide/") and state.fide_html > 0:
                with state._lock:
                    state.fide_html -= 1
                self._send(200, "text/html", b"<html><body>Lichess is down</body></html>")
            elif (
                fide := fide_answer(state.fide_players, state.fide_ratings, path, state.fide_faults)
            ) is not None:
                self._json(*fide)
            else:
                self._json(404, {"error": "Not found"})

        def _tournament(self, parts: list[str]) -> None:
            """``api/{tournament|swiss}/{id}[/games]``: the info, or the games as NDJSON."""
            found = state.tournaments.get((parts[1], parts[2])) if len(parts) > 2 else None
            if found is None or len(parts) > 4 or (len(parts) == 4 and parts[3] != "games"):
                self._json(404, {"error": "Not found"})
            elif len(parts) == 3:
                self._send(200, "application/json", found[0])
            else:
                time.sleep(state.slow_tournaments.get(parts[2], 0.0))
                self._send(200, "application/x-ndjson", found[1])

        def _user(self, name: str) -> None:
            account = state.accounts.get(name.lower())
            with state._lock:
                html, state.user_html = state.user_html > 0, max(0, state.user_html - 1)
            if html:
                self._send(200, "text/html", b"<html><body>Lichess is down</body></html>")
            elif account is None:
                self._json(404, {"error": "Not found"})
            else:
                self._json(200, state.user_json(account))

        def _games(self, name: str, query: dict[str, str]) -> None:
            self._flying(1)
            try:
                self._games_answer(name, query)
            finally:
                self._flying(-1)

        def _games_answer(self, name: str, query: dict[str, str]) -> None:
            account = state.accounts.get(name.lower())
            if account is None or account.disabled:
                self._json(404, {"error": "Not found"})
                return
            fault = state.take_fault(query.get("since"))
            if fault is not None and fault.kind == "429":
                self._json(429, {"error": "Please only run 1 request(s) at a time"})
                return
            if fault is not None and fault.kind == "500":
                self._json(500, {"error": "Internal server error"})
                return
            if fault is not None and fault.kind == "slow":
                time.sleep(fault.delay)
            if fault is not None and fault.kind == "html":
                page = b"<!DOCTYPE html><html><body>Lichess is down for maintenance</body></html>"
                self._send(200, "text/html; charset=utf-8", page)
                return
            if fault is not None and fault.kind == "redirect":
                self.send_response(302)
                self.send_header("Location", fault.target.rstrip("/") + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            since = int(query.get("since", "0"))
            until = int(query.get("until", str(2**62)))
            owners = [account.id]
            if fault is not None and fault.kind == "foreign":
                owners.append(fault.other.lower())
            games = [
                g
                for owner in owners
                for g in state.user_games(owner)
                if since <= g["createdAt"] < until
            ]
            games.sort(key=lambda g: g["createdAt"], reverse=query.get("sort") != "dateAsc")
            if "max" in query:
                games = games[: max(1, int(query["max"]))]
            lines = [json.dumps(g, separators=(",", ":")).encode() + b"\n" for g in games]
            if fault is not None:
                lines = _damage(lines, games, fault)
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Vary", "Origin")
                self.end_headers()
                if fault is not None and fault.kind == "drop":
                    for line in lines[: fault.after_lines]:
                        self._chunk(line)
                    self.wfile.flush()
                    self.close_connection = True  # cut without the final 0-length chunk
                    return
                for line in lines:
                    self._chunk(line)
                self._flying(-1)  # the client cannot have the answer before this
                self.wfile.write(b"0\r\n\r\n")
            except OSError:  # the client gave up (e.g. its read timeout)
                self.close_connection = True

        def _flying(self, step: int) -> None:
            """Count this games export in (``step`` 1) or out (-1, once) of flight."""
            with state._lock:
                if step > 0:
                    self._in = True
                elif not getattr(self, "_in", False):
                    return
                else:
                    self._in = False
                state.in_flight += step
                state.most_in_flight = max(state.most_in_flight, state.in_flight)

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

        def _json(self, status: int, body: Any) -> None:
            self._send(status, "application/json", json.dumps(body).encode())

        def _send(self, status: int, content_type: str, body: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                self.close_connection = True

    return Handler
