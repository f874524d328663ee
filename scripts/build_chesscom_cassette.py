"""Build ``cassettes/chesscom-fabianocaruana-2020-05.yaml`` from the recorded Chess.com month.

Run from the repository root::

    python scripts/build_chesscom_cassette.py

Two requests, as the Chess.com source makes them (``sources/chesscom/archives.py``):

1. ``GET https://api.chess.com/pub/player/fabianocaruana/games/archives``: **built**, an
   archives list naming the one recorded month (the real list names many more months; it
   was not recorded). Marked by an ``X-Lichess-Elo-Built`` header; its ``Date`` is the
   recorded month's, so the recording time does not move.
2. ``GET https://api.chess.com/pub/player/fabianocaruana/games/2020/05``: the recorded
   interaction of ``tests/data/chesscom/cassette-games-fabianocaruana-2020-05.yaml``
   (request, status, headers and body), unchanged.

During ``--replay`` "now" is the latest ``Date`` (2024-10-18 01:24:13 UTC), so 2020-05 is a
finished month. The same inputs give the same file byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
RECORDED = REPO / "tests" / "data" / "chesscom" / "cassette-games-fabianocaruana-2020-05.yaml"
OUT = REPO / "cassettes" / "chesscom-fabianocaruana-2020-05.yaml"
API = "https://api.chess.com"
BUILT = (
    "built by scripts/build_chesscom_cassette.py: an archives list naming the one recorded "
    "month; not a recorded response"
)
COMMENT = """
FabianoCaruana on Chess.com, May 2020: 17 real games (9 unrated rapid 1500+10, 8 rated
blitz 180+2 and 180), the recorded answer of GET /pub/player/fabianocaruana/games/2020/05
(tests/data/chesscom, from sarartur/chess.com, MIT) with its recorded headers, unchanged.
The archives list is BUILT: it names only that month (X-Lichess-Elo-Built header).
Recording time (Date header, "now" for --replay): 2024-10-18 01:24:13 UTC.
Rebuild: python scripts/build_chesscom_cassette.py
"""


def _header(headers: dict[str, Any], name: str) -> str:
    for key, values in headers.items():
        if key.lower() == name.lower():
            return str(values[0] if isinstance(values, list) else values)
    raise KeyError(name)


def build() -> str:
    """The cassette's text."""
    recorded = yaml.safe_load(RECORDED.read_text(encoding="utf-8"))
    [month] = recorded["interactions"]
    date = _header(month["response"]["headers"], "Date")
    archives = {"archives": [f"{API}/pub/player/fabianocaruana/games/2020/05"]}
    built = {
        "request": {
            "body": None,
            "headers": {"Accept": ["application/json"]},
            "method": "GET",
            "uri": f"{API}/pub/player/fabianocaruana/games/archives",
        },
        "response": {
            "body": {"string": json.dumps(archives, separators=(",", ":"))},
            "headers": {
                "Content-Type": ["application/json; charset=utf-8"],
                "Date": [date],
                "X-Lichess-Elo-Built": [BUILT],
            },
            "status": {"code": 200, "message": "OK"},
        },
    }
    text = yaml.safe_dump(
        {"interactions": [built, month], "version": 1}, allow_unicode=True, width=1_000_000
    )
    return "".join(f"# {line}\n" for line in COMMENT.strip().splitlines()) + text


def main() -> None:
    """Write the cassette."""
    OUT.write_text(build(), encoding="utf-8")
    print(f"{OUT.relative_to(REPO)} written")


if __name__ == "__main__":
    main()
