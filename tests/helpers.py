"""Shared test helpers (not fixtures): paths of the bundled data and small game builders.

Test modules import from here, never from one another.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import threading
import unicodedata
from datetime import UTC, datetime
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from lichess_elo.core.games import Game, Side

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent
#: The OnBoard247 export (221 real games, 2023-01-25 .. 2023-02-19, see tests/data/lichess).
ONBOARD_FILE = "games-user-export-onboard247-2023-01-02.ndjson"
#: Creation time given to OnBoard247 on the fake server (the real one is not in the data).
ONBOARD_CREATED = datetime(2023, 1, 24, tzinfo=UTC)
#: The report tests' player.
ME = "Hero"
#: Account creation of the generated user (games start 2021-01-01, gen_games.START).
BENCH_CREATED = datetime(2020, 12, 1, tzinfo=UTC)


@functools.cache
def _generated(n: int, seed: int, user: str) -> str:
    from benchmarks import gen_games

    return json.dumps(gen_games.generate_games(n, seed=seed, user=user))


def generated_games(n: int, seed: int = 7, user: str = "BenchUser") -> list[dict[str, Any]]:
    """``n`` realistic games from benchmarks/gen_games.py (spread over 2021-2024), fresh
    copies of one generation per (n, seed, user)."""
    games: list[dict[str, Any]] = json.loads(_generated(n, seed, user))
    return games


def game(
    gid: str,
    when: datetime,
    rating: int,
    diff: int | None,
    opponent: int | None,
    score: float,
    *,
    perf: str = "blitz",
    rated: bool = True,
    status: str | None = None,
    color: str = "white",
    title: str | None = None,
    ai: int | None = None,
    provisional: bool = False,
) -> Game:
    """A game of Hero; ``score`` is Hero's (1, 0.5, 0)."""
    me = Side(user_id="hero", name=ME, rating=rating, rating_diff=diff, provisional=provisional)
    opp = Side(
        user_id=None if ai else "opp",
        name=None if ai else "Opp",
        title=title,
        rating=opponent,
        rating_diff=None if diff is None else -diff,
        ai_level=ai,
    )
    other = "black" if color == "white" else "white"
    winner = None if score == 0.5 else (color if score == 1 else other)
    white, black = (me, opp) if color == "white" else (opp, me)
    return Game(
        id=gid,
        rated=rated,
        variant="standard",
        speed=perf,
        perf=perf,
        created_at=when,
        status=status or ("draw" if score == 0.5 else "resign"),
        white=white,
        black=black,
        winner=winner,  # type: ignore[arg-type]
    )


def day(month: int, d: int, hour: int = 12) -> datetime:
    """Noon (or ``hour``) UTC on ``d`` ``month`` 2023."""
    return datetime(2023, month, d, hour, tzinfo=UTC)


def lichess_pgn(game: dict[str, Any]) -> str:
    """One Lichess API game (JSON) written as lichess.org exports it in PGN.

    Written from the export format (tests/data/lichess/game-export-q7ZvsdUF.pgn and the
    Lichess database documentation), not from the package's reader: the tags Event, Site,
    Date, White, Black, Result, GameId, UTCDate, UTCTime, WhiteElo, BlackElo, the rating
    diffs, Variant, TimeControl, FEN/SetUp for chess960, Termination; then the moves.
    """
    when = datetime.fromtimestamp(game["createdAt"] / 1000, UTC)
    white, black = game["players"]["white"], game["players"]["black"]
    result = {"white": "1-0", "black": "0-1"}.get(game.get("winner", ""), "1/2-1/2")
    clock = game.get("clock")
    variant = {"standard": "Standard", "chess960": "Chess960"}[game["variant"]]
    # lila modules/game/src/main/PgnDump.scala: outoftime and timeout alike are "Time
    # forfeit"; aborted and noStart "Abandoned".
    termination = {
        "outoftime": "Time forfeit", "timeout": "Time forfeit", "aborted": "Abandoned",
        "noStart": "Abandoned", "cheat": "Rules infraction",
        "insufficientMaterialClaim": "Insufficient material", "unknownFinish": "Unknown",
    }.get(game["status"], "Normal")  # fmt: skip
    tags = [
        ("Event", f"Rated {game['speed'].capitalize()} game"),
        ("Site", f"https://lichess.org/{game['id']}"),
        ("Date", f"{when:%Y.%m.%d}"),
        ("White", white["user"]["name"]),
        ("Black", black["user"]["name"]),
        ("Result", result),
        ("GameId", game["id"]),
        ("UTCDate", f"{when:%Y.%m.%d}"),
        ("UTCTime", f"{when:%H:%M:%S}"),
        ("WhiteElo", str(white["rating"])),
        ("BlackElo", str(black["rating"])),
        ("WhiteRatingDiff", f"{white['ratingDiff']:+d}"),
        ("BlackRatingDiff", f"{black['ratingDiff']:+d}"),
        ("Variant", variant),
        ("TimeControl", f"{clock['initial']}+{clock['increment']}" if clock else "-"),
    ]
    if game.get("initialFen"):
        tags += [("FEN", game["initialFen"]), ("SetUp", "1")]
    tags.append(("Termination", termination))
    moves = game["moves"].split()
    numbered = " ".join(
        f"{i // 2 + 1}. {move}" if i % 2 == 0 else move for i, move in enumerate(moves)
    )
    head = "\n".join(f'[{name} "{value}"]' for name, value in tags)
    return f"{head}\n\n{numbered} {result}\n\n\n"


def heading_slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def markdown_anchors(page: Path) -> set[str]:
    """Every heading anchor of a Markdown page, as GitHub numbers repeated ones (``-1``...),
    fenced code skipped."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE):
        slug = heading_slug(heading)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


class QuietHTTPServer(ThreadingHTTPServer):
    """The fake servers' HTTP server: a client that hangs up mid-answer (a run interrupted
    or killed, a reader gone) is the client's business, not an error to print. The standard
    server prints it on stderr from its own thread, where a later test's captured stderr
    could read it as the program's output; any other error is printed as before."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Print the error, unless it is the client going away."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    @classmethod
    def serving(cls, handler: Any) -> QuietHTTPServer:
        """A server on a free port of 127.0.0.1, serving in a daemon thread."""
        server = cls(("127.0.0.1", 0), handler)
        threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()
        return server

    def stop(self) -> None:
        """Shut the server down and close its socket."""
        self.shutdown()
        self.server_close()
