"""Rebuild the vcrpy cassettes in ``cassettes/`` from the real data in ``tests/data/lichess``.

Run from the repository root::

    python scripts/build_cassettes.py

Each cassette holds exactly the requests ``lichess-elo fetch`` makes (``GET /api/user/{id}``,
then one ``GET /api/games/user/{id}`` per calendar month, written here from the Lichess API
notes and NOT taken from the package: the cassettes check the package's request builder, so
they must not be made by it; ``tests/integration/test_fetch.py`` pins the same query strings),
answered with the games of that month in ``dateAsc`` order. The game lines are the real
ones; the ``/api/user`` answers are built from the games (marked by an
``X-Lichess-Elo-Built`` header). A fixed ``Date`` header is the recording time, which
``--replay`` uses as "now", so the cassettes keep working as the calendar moves on.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import requests
import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from lichess_elo import __version__  # noqa: E402

DEFAULT_API_URL = "https://lichess.org"
USER_AGENT = f"lichess-elo/{__version__}"

DATA = REPO / "tests" / "data" / "lichess"
OUT = REPO / "cassettes"
BUILT = "built by scripts/build_cassettes.py from the games; not a recorded response"
SPLIT = "real game lines from tests/data/lichess, split by month by scripts/build_cassettes.py"
#: rd/prog of the built /api/user perfs cannot be derived from games: placeholders.
PLACEHOLDER_RD = 60


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _months(created: datetime, now: datetime) -> list[datetime]:
    """The first instants (UTC) of every calendar month from ``created``'s to ``now``'s."""
    month = datetime(created.year, created.month, 1, tzinfo=UTC)
    months = []
    while month <= now:
        months.append(month)
        month = datetime(month.year + month.month // 12, month.month % 12 + 1, 1, tzinfo=UTC)
    return months


def _query(month: datetime) -> dict[str, Any]:
    """One monthly export as the API notes give it: ``since`` inclusive and ``until``
    exclusive in epoch ms, booleans as the strings "true", oldest first."""
    following = datetime(month.year + month.month // 12, month.month % 12 + 1, 1, tzinfo=UTC)
    return {
        "since": _ms(month),
        "until": _ms(following),
        "moves": "true",
        "opening": "true",
        "clocks": "true",
        "sort": "dateAsc",
    }


def _user_doc(
    user_id: str,
    username: str,
    title: str | None,
    created: datetime,
    games: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """A ``/api/user`` body built from the games: rated games per perf, last rating."""
    perfs: dict[str, dict[str, Any]] = {}
    rated = 0
    for game in sorted(games, key=lambda g: g["createdAt"]):
        side = next(
            game["players"][c]
            for c in ("white", "black")
            if game["players"][c].get("user", {}).get("id") == user_id
        )
        if game.get("rated") and "ratingDiff" in side:
            rated += 1
            perf = perfs.setdefault(
                game["perf"], {"games": 0, "rating": 0, "rd": PLACEHOLDER_RD, "prog": 0}
            )
            perf["games"] += 1
            perf["rating"] = side["rating"] + side["ratingDiff"]  # post-game rating
    doc: dict[str, Any] = {"id": user_id, "username": username}
    if title:
        doc["title"] = title
    doc.update(
        {
            "perfs": perfs,
            "createdAt": _ms(created),
            "seenAt": max(g["lastMoveAt"] for g in games),
            "url": f"https://lichess.org/@/{username}",
            "count": {"all": len(games), "rated": rated},
        }
    )
    return doc


def _interaction(uri: str, accept: str, body: str, headers: dict[str, str]) -> dict[str, Any]:
    return {
        "request": {
            "body": None,
            "headers": {"Accept": [accept], "User-Agent": [USER_AGENT]},
            "method": "GET",
            "uri": uri,
        },
        "response": {
            "body": {"string": body},
            "headers": {key: [value] for key, value in headers.items()},
            "status": {"code": 200, "message": "OK"},
        },
    }


def build(
    path: Path,
    comment: str,
    *,
    user_id: str,
    username: str,
    title: str | None,
    created: datetime,
    recorded: datetime,
    lines: Sequence[str],
) -> None:
    """Write one cassette for ``user_id``'s ``lines`` (one JSON game per line)."""
    games = [json.loads(line) for line in lines]
    date_header = format_datetime(recorded, usegmt=True)
    user = _user_doc(user_id, username, title, created, games)
    interactions = [
        _interaction(
            f"{DEFAULT_API_URL}/api/user/{user_id}",
            "application/json",
            json.dumps(user, separators=(",", ":")),
            {
                "Content-Type": "application/json",
                "Date": date_header,
                "Vary": "Origin",
                "X-Lichess-Elo-Built": BUILT,
            },
        )
    ]
    for month in _months(created, recorded):
        query = _query(month)
        url = requests.Request(
            "GET", f"{DEFAULT_API_URL}/api/games/user/{user_id}", params=query
        ).prepare()
        chosen = sorted(
            (g["createdAt"], line)
            for g, line in zip(games, lines, strict=True)
            if query["since"] <= g["createdAt"] < query["until"]
        )
        body = "".join(line + "\n" for _, line in chosen)
        interactions.append(
            _interaction(
                str(url.url),
                "application/x-ndjson",
                body,
                {
                    "Content-Type": "application/x-ndjson",
                    "Date": date_header,
                    "Vary": "Origin",
                    "X-Lichess-Elo-Built": SPLIT,
                },
            )
        )
    text = yaml.safe_dump(
        {"interactions": interactions, "version": 1}, allow_unicode=True, width=1_000_000
    )
    header = "".join(f"# {line}\n" for line in comment.strip().splitlines())
    path.write_text(header + text, encoding="utf-8")
    print(f"{path.relative_to(REPO)}: {len(games)} games, {len(interactions) - 1} months")


def _repoint(game: dict[str, Any], old_id: str) -> dict[str, Any]:
    """Put Lance5500 in place of ``old_id`` (the game's human player) in a single-game export."""
    for color in ("white", "black"):
        user = game["players"][color].get("user")
        if user and user.get("id") == old_id:
            game["players"][color]["user"] = {"name": "Lance5500", "title": "LM", "id": "lance5500"}
    return game


def main() -> None:
    """Write cassettes/onboard247.yaml and cassettes/edgecases.yaml."""
    OUT.mkdir(exist_ok=True)
    onboard = (DATA / "games-user-export-onboard247-2023-01-02.ndjson").read_text("utf-8")
    build(
        OUT / "onboard247.yaml",
        """
OnBoard247: 221 real games (tests/data/lichess/games-user-export-onboard247-2023-01-02.ndjson)
split into the two monthly exports lichess-elo fetch requests (2023-01, 2023-02).
The /api/user answer is BUILT from the games (createdAt 2023-01-24 chosen, perfs.*.games =
rated games, perfs.*.rating = last post-game rating, rd/prog placeholders).
Recording time (Date header, "now" for --replay): 2023-02-20 12:00 UTC.
Rebuild: python scripts/build_cassettes.py
""",
        user_id="onboard247",
        username="OnBoard247",
        title=None,
        created=datetime(2023, 1, 24, tzinfo=UTC),
        recorded=datetime(2023, 2, 20, 12, 0, tzinfo=UTC),
        lines=[line for line in onboard.splitlines() if line.strip()],
    )

    production = [
        line
        for line in (DATA / "games-api-examples-production.ndjson").read_text("utf-8").splitlines()
        if '"id":"lance5500"' in line
    ]
    extra = [
        _repoint(json.loads((DATA / name).read_text("utf-8")), old)
        for name, old in (
            ("game-export-ai-opponent-qVChCOTc.json", "veloce"),
            ("game-export-threecheck-1vdsvmxp.json", "catask"),
        )
    ]
    build(
        OUT / "edgecases.yaml",
        """
Edge cases of one account, Lance5500 (LM): the 13 real production games of lance5500 in
tests/data/lichess/games-api-examples-production.ndjson (unrated simul/friend games,
aborted, draw, provisional +34, rated threeCheck, zero-move outoftime games, old
`tournament` and new `arenaTour` keys), plus two real single-game exports RE-POINTED at
Lance5500: qVChCOTc (AI opponent, aiLevel 1; the human was veloce) and 1vdsvmxp
(threeCheck, variantEnd; the human was catask). Nothing else in the game lines changed.
The /api/user answer is BUILT (createdAt 2017-12-28 chosen, perfs from the games).
Recording time (Date header, "now" for --replay): 2026-07-07 09:00 UTC.
Rebuild: python scripts/build_cassettes.py
""",
        user_id="lance5500",
        username="Lance5500",
        title="LM",
        created=datetime(2017, 12, 28, tzinfo=UTC),
        recorded=datetime(2026, 7, 7, 9, 0, tzinfo=UTC),
        lines=production + [json.dumps(g, separators=(",", ":")) for g in extra],
    )


if __name__ == "__main__":
    main()
