"""The hand-checked fixture of the ``db`` tests: 9 players, 3 months, every list by hand.

The fixture is rated with the rules as they stand forced on every month
(``RULES = {"rules_as_of": AS_OF}``, 1 October 2025: standard-2025-10 and
rapid-blitz-2024-12; docs/rules.md): so no compression (it is never applied under a forced
date) and one 400-point rule for every game.

Rules (notes/fide-rules.md): seed = the Elo of a player's
first game; D = own R_m - opponent R_m; |D| > 400 counts as 400 (bullet/blitz/rapid: the
Rapid & Blitz chapter, no exemption; classical: 90+30 games, the standard chapter, none from
2650);
PD from table 8.1.2; K 10 once R >= 2400 (seed included), else 40 before 30 games, else 20,
then K x n <= 700; change = K x sum(S - PD) rounded once, half away from zero; a rapid or
blitz game 600 or more apart with a player above 2600 is not rated (RB24 as amended
1 December 2024).

Table 8.1.2 rows used (|D| -> PD high / low): 33-39 .55/.45; 69-76 .60/.40; 99-106 .64/.36;
198-206 .76/.24; 392-411 .92/.08; 620-735 .99/.01; > 735 1.00/.00.

January 2024 (blitz). Seeds: Alice 1500 (G1), Bob 1400 (G1), Carol 2000 (G2), Dave 2450 (G4),
SomeBot 2000 (G5; a BOT account: Lichess rated the game, so it counts).
  G1 Alice-Bob 1-0, G2 Alice-Carol 0-1, G3 Bob-Carol 1/2, G4 Dave-Alice 1-0,
  G5 Alice-SomeBot 1-0.
  Alice (K 40): Bob D +100 -> .64, 1 - .64 = +.36; Carol D -500 -> -400 -> .08, 0 - .08 =
    -.08; Dave D -950 -> -400 -> .08, -.08; SomeBot D -500 -> -400 -> .08, 1 - .08 = +.92.
    Sum +1.12; 40 x 1.12 = 44.8 -> +45 -> 1545.
  SomeBot (K 40): Alice D +500 -> 400 -> .92, 0 - .92 = -.92; 40 x -.92 = -36.8 -> -37 ->
    1963.
  Bob (K 40): Alice D -100 -> .36, -.36; Carol D -600 -> -400 -> .08, .5 - .08 = +.42.
    Sum +.06; 40 x .06 = 2.4 -> +2 -> 1402.
  Carol (K 40): Alice D +500 -> 400 -> .92, 1 - .92 = +.08; Bob D +600 -> 400 -> .92,
    .5 - .92 = -.42. Sum -.34; 40 x -.34 = -13.6 -> -14 -> 1986.
  Dave (seed 2450 >= 2400: K 10): Alice D +950 -> 400 -> .92, +.08; 10 x .08 = .8 -> 2451.
  Seven unusable games, one per reason: casual, WhiteElo "?", BlackElo "abc", "*"
  (Unterminated), "*" (Abandoned: aborted), an AI opponent, and a game whose Event
  ("Rated Bughouse game") and TimeControl ("1/4+0", no clock) name no speed (other_perf;
  ultraBullet, once the example here, is rated now: test_db_speeds.py).
February. New: Erin 1600 (first game), Frank 2416 (K 10: seed >= 2400).
  Erin-Bob 18 games: Erin 10 wins, 4 draws, 4 losses. Erin D = 1600 - 1402 = 198 -> .76;
    points 12, PD 18 x .76 = 13.68, sum -1.68. K 40 x 18 = 720 > 700 -> K = 700 // 18 = 38;
    38 x -1.68 = -63.84 -> -64 -> 1536.
  Bob: D -198 -> .24; points 6, PD 4.32, sum +1.68; K 38 -> +63.84 -> +64 -> 1466.
  Frank-Dave 1/2: Frank D = 2416 - 2451 = -35 -> .45, +.05, 10 x .05 = +0.5 -> +1 (half away
    from zero; Python's round would give 0) -> 2417. Dave D +35 -> .55, -.05 -> -0.5 -> -1
    -> 2450.
  Alice-Carol 1-0: Alice D = 1545 - 1986 = -441 -> -400 -> .08, +.92 -> 40 x .92 = 36.8 ->
    +37 -> 1582. Carol D +441 -> 400 -> .92, -.92 -> -36.8 -> -37 -> 1949.
March. New: Gina (blitz seed 2700; classical seed 2700), Hank (classical 2000), Ivan
  (classical 1900).
  Erin-Bob 12 games, 6 wins each. Erin D = 1536 - 1466 = 70 -> .60; points 6, PD 7.20,
    sum -1.20; 18 games before -> K 40 (40 x 12 = 480) -> -48 -> 1488. Bob D -70 -> .40,
    points 6 - 4.80 = +1.20; 20 games before -> K 40 -> +48 -> 1514.
  Blitz Gina-Alice 1-0: 2700 and 1582 are 1118 >= 600 apart and Gina is above 2600: the
    600/2600 rule leaves the game unrated for both. Gina has no rated blitz game, so no
    blitz list shows her; Alice keeps 1582 with 5 games before.
  Classical Gina-Hank 1-0 and Gina-Ivan 1/2: Gina (2700 >= 2650, standard chapter: real
    D) vs Hank D +700 -> .99, +.01; vs Ivan D +800 > 735 -> 1.00, -.50; sum -.49, K 10 ->
    -4.9 -> -5 -> 2695. Hank D -700 -> -400 -> .08, -.08, K 40 -> -3.2 -> -3 -> 1997. Ivan
    D -800 -> -400 -> .08, +.42, K 40 -> 16.8 -> +17 -> 1917.
Lichess rating on a list = Elo + RatingDiff of the player's last game before the month.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from lichess_elo.app import db as app
from tests.integration.db_helpers import game, write_dump

#: The one day whose editions rate every month of the fixture (see the module docstring).
AS_OF = date(2025, 10, 1)
#: The ``RateSettings`` keywords of the fixture's rules.
RULES: dict[str, Any] = {"rules_as_of": AS_OF}

#: 90+30: 90 + 60 x 30 s = 120 minutes, standard by the Laws of Chess, Appendix A (a
#: Lichess 30+0 classical game would be FIDE rapid: the Rapid & Blitz chapter).
CLASSICAL = {"event": "Rated Classical game", "tc": "5400+30"}


def january() -> list[str]:
    """January: five games (one against a BOT) and seven unusable ones."""
    return [
        game("2024.01.01 10:00:00", "Alice", "Bob", "1-0", ("1500", "1400"), ("+5", "-5")),
        game("2024.01.02 10:00:00", "Alice", "Carol", "0-1", ("1505", "2000"), ("-3", "+3")),
        game("2024.01.03 10:00:00", "Bob", "Carol", "1/2-1/2", ("1395", "2003"), ("+4", "-4")),
        game("2024.01.05 10:00:00", "Dave", "Alice", "1-0", ("2450", "1502"), ("+1", "-1")),
        game(
            "2024.01.06 10:00:00",
            "Alice",
            "SomeBot",
            "1-0",
            ("1501", "2000"),
            ("+1", "-1"),
            titles=(None, "BOT"),
        ),
        game(
            "2024.01.07 10:00:00",
            "Alice",
            "Bob",
            "1-0",
            ("1501", "1399"),
            event="Casual Blitz game",
        ),
        game("2024.01.08 10:00:00", "Alice", "Bob", "1-0", ("?", "1399"), ("+5", "-5")),
        game("2024.01.09 10:00:00", "Alice", "Bob", "1-0", ("1501", "abc"), ("+5", "-5")),
        game("2024.01.10 10:00:00", "Alice", "Bob", "*", ("1501", "1399")),
        game(
            "2024.01.11 10:00:00",
            "Alice",
            "Bob",
            "1-0",
            ("1501", "1399"),
            ("+5", "-5"),
            event="Rated Bughouse game",
            tc="1/4+0",
        ),
        game("2024.01.12 10:00:00", "Alice", "Bob", "*", ("1501", "1399"), termination="Abandoned"),
        game(
            "2024.01.13 10:00:00",
            "Alice",
            "lichess AI level 3",
            "1-0",
            ("1502", "?"),
            event="Casual Blitz game",
        ),
    ]


def february() -> list[str]:
    """February: Erin-Bob x18 (10 wins, 4 draws, 4 losses), Frank-Dave, Alice-Carol."""
    results = ["1-0"] * 10 + ["1/2-1/2"] * 4 + ["0-1"] * 4
    games = [
        game(f"2024.02.{i + 1:02d} 12:00:00", "Erin", "Bob", r, ("1600", "1400"), ("+1", "-1"))
        for i, r in enumerate(results[:-1])
    ]
    games.append(
        game("2024.02.18 12:00:00", "Erin", "Bob", results[-1], ("1610", "1390"), ("+6", "-6"))
    )
    games.append(
        game("2024.02.20 12:00:00", "Frank", "Dave", "1/2-1/2", ("2416", "2455"), ("+0", "+0"))
    )
    games.append(
        game("2024.02.21 12:00:00", "Alice", "Carol", "1-0", ("1510", "1990"), ("+10", "-10"))
    )
    return games


def march() -> list[str]:
    """March: Erin-Bob x12 (6 each), Gina-Alice (blitz), Gina-Hank and Gina-Ivan (classical)."""
    games = [
        game(f"2024.03.{i + 1:02d} 12:00:00", "Erin", "Bob", r, ("1620", "1380"), ("+1", "-1"))
        for i, r in enumerate(["1-0"] * 6 + ["0-1"] * 5)
    ]
    games.append(game("2024.03.12 12:00:00", "Erin", "Bob", "0-1", ("1630", "1380"), ("-7", "+7")))
    games.append(
        game("2024.03.13 12:00:00", "Gina", "Alice", "1-0", ("2700", "1525"), ("+1", "-1"))
    )
    games.append(
        game("2024.03.14 12:00:00", "Gina", "Hank", "1-0", ("2700", "2000"), ("+1", "-1"),
             **CLASSICAL)
    )  # fmt: skip
    games.append(
        game("2024.03.15 12:00:00", "Gina", "Ivan", "1/2-1/2", ("2701", "1900"), ("-2", "+2"),
             **CLASSICAL)
    )  # fmt: skip
    return games


def _p(name: str, rating: int, before: int, k: int, lichess: int | None) -> dict[str, object]:
    return {"name": name, "rating": rating, "games_before": before, "k": k,
            "lichess_rating": lichess}  # fmt: skip


#: Every list, from the derivations in the module docstring.
EXPECTED = {
    ("blitz", "2024-01"): [
        # Carol and SomeBot tie at 2000: by name.
        _p("Dave", 2450, 0, 10, None), _p("Carol", 2000, 0, 40, None),
        _p("SomeBot", 2000, 0, 40, None), _p("Alice", 1500, 0, 40, None),
        _p("Bob", 1400, 0, 40, None),
    ],
    ("blitz", "2024-02"): [
        # Lichess: Dave 2450+1, Carol 2003-4 (G3), SomeBot 2000-1 (G5), Alice 1501+1 (G5),
        # Bob 1395+4 (G3).
        _p("Dave", 2451, 1, 10, 2451), _p("Frank", 2416, 0, 10, None),
        _p("Carol", 1986, 2, 40, 1999), _p("SomeBot", 1963, 1, 40, 1999),
        _p("Erin", 1600, 0, 40, None), _p("Alice", 1545, 4, 40, 1502),
        _p("Bob", 1402, 2, 40, 1399),
    ],
    ("blitz", "2024-03"): [
        # Lichess: Erin 1610+6, Bob 1390-6, Frank 2416+0, Dave 2455+0, Alice 1510+10,
        # Carol 1990-10. Gina's one blitz game is not rated (600/2600): she is not listed.
        _p("Dave", 2450, 2, 10, 2455),
        _p("Frank", 2417, 1, 10, 2416), _p("SomeBot", 1963, 1, 40, 1999),
        _p("Carol", 1949, 3, 40, 1980), _p("Alice", 1582, 5, 40, 1520),
        _p("Erin", 1536, 18, 40, 1616), _p("Bob", 1466, 20, 40, 1384),
    ],
    ("blitz", "2024-04"): [
        # Bob 32 and Erin 30 games before: K 20. Lichess: Erin 1630-7, Bob 1380+7; Alice's
        # last rated game is still February's (1510+10).
        _p("Dave", 2450, 2, 10, 2455),
        _p("Frank", 2417, 1, 10, 2416), _p("SomeBot", 1963, 1, 40, 1999),
        _p("Carol", 1949, 3, 40, 1980), _p("Alice", 1582, 5, 40, 1520),
        _p("Bob", 1514, 32, 20, 1387), _p("Erin", 1488, 30, 20, 1623),
    ],
    ("classical", "2024-03"): [
        _p("Gina", 2700, 0, 10, None), _p("Hank", 2000, 0, 40, None),
        _p("Ivan", 1900, 0, 40, None),
    ],
    ("classical", "2024-04"): [
        # Lichess: Gina 2701-2, Hank 2000-1, Ivan 1900+2.
        _p("Gina", 2695, 2, 10, 2699), _p("Hank", 1997, 1, 40, 1999),
        _p("Ivan", 1917, 1, 40, 1902),
    ],
}  # fmt: skip


def rated_fixture(folder: Path) -> Path:
    """The three months written as dumps in ``folder``, ingested and rated on DuckDB
    (``folder/f.duckdb``)."""
    dumps = [
        write_dump(folder / f"m{i}.pgn.zst", games)
        for i, games in enumerate((january(), february(), march()))
    ]
    db = folder / "f.duckdb"
    app.ingest(app.IngestSettings(tuple(dumps), db))
    app.rate(app.RateSettings(db, **RULES))
    return db
