"""Small blitz databases written straight into DuckDB, with their lists worked out by hand:
the seed order across months, and the 600/2600 rule by edition. Shared by the ``db rate``
tests on DuckDB and Spark and by the CLI tests (no test module imports another)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from lichess_elo.app import db as app
from lichess_elo.sources.population import duck

#: (month, white, black, white_elo, black_elo, White's score in hundredths, ord). The order
#: in the file (``ord``) restarts with each ingest run, so it does not order two months:
#: X's January game has a larger ``ord`` than X's February game, and Y's first January
#: game (ord 10) is stored after Y's second one (ord 50).
SEED_GAMES = [
    (202401, "X", "Y", 1500, 1480, 50, 50),
    (202401, "Y", "W", 1450, 1450, 50, 10),
    (202402, "X", "Z", 1700, 1700, 100, 1),
]
#: The lists worked out by hand (table 8.1.2: |D| 47-53 -> .57/.43, 198-206 -> .76/.24).
#: Seeds: X 1500 (January, not the 1700 of the February game with the smaller ord),
#: Y 1450 (ord 10, not the 1480 of ord 50), W 1450; Z 1700 (February).
#: January, K 40 for all: W vs Y D 0 -> .50, draw, 0 -> 1450. Y vs W 0; vs X D -50 -> .43,
#: .5 - .43 = +.07; 40 x .07 = 2.8 -> +3 -> 1453. X vs Y D +50 -> .57, -.07 -> -3 -> 1497.
#: February: X vs Z D 1497 - 1700 = -203 -> .24, 1 - .24 = .76, 40 x .76 = 30.4 -> +30 ->
#: 1527; Z D +203 -> .76, -.76 -> -30 -> 1670.
#: A list shows the players of its month at their seed (Z in February).
SEED_LISTS = {
    "2024-02": [("Z", 1700, 0), ("X", 1497, 1), ("Y", 1453, 2), ("W", 1450, 1)],
    "2024-03": [("Z", 1670, 1), ("X", 1527, 2), ("Y", 1453, 2), ("W", 1450, 1)],
}


def blitz_db(path: Path, games: list[tuple[int, str, str, int, int, int, int]]) -> Path:
    """A database holding ``games`` (blitz, no rating diffs), written straight into it:
    (month, white, black, white_elo, black_elo, White's score in hundredths, ord)."""
    con = duck.connect(path, create=True)
    con.executemany(
        "INSERT INTO games (month, perf, white, black, white_elo, black_elo, score, ord) "
        "VALUES (?, 'blitz', ?, ?, ?, ?, ?, ?)",
        games,
    )
    con.close()
    return path


def seed_db(path: Path) -> Path:
    """A database holding ``SEED_GAMES``."""
    return blitz_db(path, SEED_GAMES)


def seed_lists(db: Path) -> dict[str, list[tuple[str, int, int]]]:
    """The blitz lists of February and March as (name, rating, games before)."""
    return {
        month: [
            (p["name"], p["rating"], p["games_before"])
            for p in app.rating_list(app.ListSettings("blitz", month, db)).players
        ]
        for month in SEED_LISTS
    }


#: Blitz games for the 600/2600 rule (Rapid & Blitz chapter as amended 1 December 2024):
#: (month, white, black, white_elo, black_elo, White's score, ord).
RULE_600_GAMES = [
    (202411, "A", "B", 2700, 2050, 100, 1),
    (202412, "A", "B", 2700, 2050, 100, 1),
    (202412, "A", "C", 2700, 2650, 50, 2),
]
#: Worked by hand. Seeds: A 2700, B 2050 (November), C 2650 (December). K: A and C 10
#: (>= 2400), B 40 (under 30 games).
#: "2024-11-30" (rapid-blitz-2024-03 every month: no 600/2600 rule). November: A vs B,
#: D = 650 -> 400 (the chapter's plain cap) -> table 8.1.2 row 392-411: .92 / .08. A: 1 -
#: .92 = .08 x 10 = 0.8 -> +1 -> 2701. B: 0 - .08 = -.08 x 40 = -3.2 -> -3 -> 2047.
#: December list: A 2701 (1 game before), C 2650 (0), B 2047 (1). December: A vs B D = 654
#: -> 400 -> +.08; A vs C D = 51 -> row 47-53: .57, .5 - .57 = -.07; A: .01 x 10 = 0.1 ->
#: 0 -> 2701. B: -.08 x 40 = -3.2 -> -3 -> 2044. C: D = -51 -> .43, +.07 x 10 -> +1 -> 2651.
#: "2024-12-01" (rapid-blitz-2024-12 every month): both A-B games are 600 or more apart
#: (650) with A above 2600, so not rated. December list: A 2700 (0), C 2650 (0). December:
#: A vs C, D = 50: A -.07 x 10 = -0.7 -> -1 -> 2699; C +0.7 -> +1 -> 2651. B has no rated
#: game, so no list shows B.
#: "month" (the default): November as "2024-11-30" (A 2701, B 2047); December under
#: rapid-blitz-2024-12: A (2701) vs B (2047) are 654 apart, A above 2600: not rated; A vs
#: C D = 51 -> -.07 x 10 = -0.7 -> -1 -> 2700; C +1 -> 2651; B keeps 2047 (1 game).
RULE_600_LISTS = {
    "2024-11-30": {
        "2024-12": [("A", 2701, 1), ("C", 2650, 0), ("B", 2047, 1)],
        "2025-01": [("A", 2701, 3), ("C", 2651, 1), ("B", 2044, 2)],
    },
    "2024-12-01": {
        "2024-12": [("A", 2700, 0), ("C", 2650, 0)],
        "2025-01": [("A", 2699, 1), ("C", 2651, 1)],
    },
    "month": {
        "2024-12": [("A", 2701, 1), ("C", 2650, 0), ("B", 2047, 1)],
        "2025-01": [("A", 2700, 2), ("C", 2651, 1), ("B", 2047, 1)],
    },
}
#: Game sides left unrated: none; two games x two sides; the December A-B game's two sides.
RULE_600_LEFT_OUT = {"2024-11-30": 0, "2024-12-01": 4, "month": 2}


def as_of(key: str) -> date | None:
    """A key of ``RULE_600_LISTS`` as ``RateSettings.rules_as_of``."""
    return None if key == "month" else date.fromisoformat(key)


def rule_600_db(path: Path) -> Path:
    """A database holding ``RULE_600_GAMES``."""
    return blitz_db(path, RULE_600_GAMES)


def blitz_list(db: Path, month: str) -> list[tuple[str, int, int]]:
    """The blitz list of ``month`` as (name, rating, games before)."""
    players = app.rating_list(app.ListSettings("blitz", month, db)).players
    return [(p["name"], p["rating"], p["games_before"]) for p in players]
