"""``db rate`` on DuckDB: the seed order across months, a rerun of one perf, an interrupted
run, and the players it reports (the hand-checked fixture of ``db_fixture.py`` and a small
hand-checked set of games written straight into the database)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from lichess_elo.population import app, duck
from tests.integration.db_fixture import EXPECTED, february, january, march
from tests.integration.db_helpers import write_dump

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
    con.executemany("INSERT INTO games VALUES (?, 'blitz', ?, ?, ?, ?, NULL, NULL, ?, ?)", games)
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


def test_seed_is_the_first_game_by_month_then_by_order(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "seed.duckdb")
    app.rate(app.RateSettings(db))
    assert seed_lists(db) == SEED_LISTS


def test_rate_reports_its_progress_month_by_month(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "seed.duckdb")
    calls: list[tuple[int, int]] = []
    app.rate(app.RateSettings(db, progress=lambda done, total: calls.append((done, total))))
    # Games in January and February: the lists of January, February and March are built.
    assert calls == [(0, 3), (1, 3), (2, 3), (3, 3)]


@pytest.fixture()
def fixture_db(tmp_path: Path) -> Path:
    """The hand-checked fixture, ingested."""
    dumps = [
        write_dump(tmp_path / f"lichess_db_standard_rated_2024-0{i}.pgn.zst", games)
        for i, games in ((1, january()), (2, february()), (3, march()))
    ]
    db = tmp_path / "fixture.duckdb"
    app.ingest(app.IngestSettings(tuple(dumps), db))
    return db


def _all_lists_match(db: Path) -> None:
    for key, expected in EXPECTED.items():
        assert app.rating_list(app.ListSettings(*key, db)).players == expected


def test_rate_reports_the_players_of_each_perf(fixture_db: Path) -> None:
    result = app.rate(app.RateSettings(fixture_db))
    # Blitz: Alice, Bob, Carol, Dave, SomeBot (January), Erin, Frank (February), Gina
    # (March); classical: Gina, Hank, Ivan (March); no bullet or rapid game.
    assert result.players == {"bullet": 0, "blitz": 8, "rapid": 0, "classical": 3}
    assert result.games == 40  # 5 + 20 + 15 usable games
    assert result.left_out == 0  # without the 600/2600 rule, all 40 are in the lists, twice


def test_rating_one_perf_keeps_the_others(fixture_db: Path) -> None:
    app.rate(app.RateSettings(fixture_db))
    result = app.rate(app.RateSettings(fixture_db, perfs=("classical",)))
    assert result.players == {"classical": 3}
    _all_lists_match(fixture_db)  # the blitz lists of the first run are still there


def test_interrupted_rate_leaves_the_previous_lists_whole(fixture_db: Path) -> None:
    app.rate(app.RateSettings(fixture_db))

    def interrupt(month: int) -> None:
        if month == 202402:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        app.rate(app.RateSettings(fixture_db, on_month=interrupt))
    _all_lists_match(fixture_db)
    con = duckdb.connect(str(fixture_db))
    tables = {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    con.close()
    assert "lists_build" not in tables


#: Blitz games for the 600/2600 rule (Rapid & Blitz chapter as amended 1 December 2024,
#: which ``--rule-600`` applies to every month, like the rest of the chapter):
#: (month, white, black, white_elo, black_elo, White's score, ord).
RULE_600_GAMES = [
    (202411, "A", "B", 2700, 2050, 100, 1),
    (202412, "A", "B", 2700, 2050, 100, 1),
    (202412, "A", "C", 2700, 2650, 50, 2),
]
#: Worked by hand. Seeds: A 2700, B 2050 (November), C 2650 (December).
#: Every game rated. November: A vs B, D = 650 -> 400 (the chapter's plain cap) -> table
#: 8.1.2 row 392-411: .92 / .08. A (K 10, >= 2400): 1 - .92 = .08 x 10 = 0.8 -> +1 -> 2701.
#: B (K 40, 0 games before): 0 - .08 = -.08 x 40 = -3.2 -> -3 -> 2047. December list: A 2701
#: (1 game before), C 2650 (0), B 2047 (1). December: A vs B D = 654 -> 400 -> +.08; A vs
#: C D = 51 -> row 47-53: .57, .5 - .57 = -.07; A: .01 x 10 = 0.1 -> 0 -> 2701. B: -.08 x
#: 40 = -3.2 -> -3 -> 2044. C: D = -51 -> .43, +.07, K 10 (seed 2650 >= 2400) -> 0.7 -> +1
#: -> 2651.
#: Under the rule: both A-B games are 600 or more apart (650, then 650 again since neither
#: moved) with A above 2600, so not rated. December list: A 2700 (0 games before), C 2650
#: (0). December: only A vs C, D = 50 -> row 47-53: A .5 - .57 = -.07 x 10 = -0.7 -> -1 ->
#: 2699 (1 game); C +.07 x 10 = +0.7 -> +1 -> 2651 (1). B has no rated game, so no list
#: shows B (a list holds the players with a rated game in or before its month).
RULE_600_LISTS = {
    False: {
        "2024-12": [("A", 2701, 1), ("C", 2650, 0), ("B", 2047, 1)],
        "2025-01": [("A", 2701, 3), ("C", 2651, 1), ("B", 2044, 2)],
    },
    True: {
        "2024-12": [("A", 2700, 0), ("C", 2650, 0)],
        "2025-01": [("A", 2699, 1), ("C", 2651, 1)],
    },
}


def rule_600_db(path: Path) -> Path:
    """A database holding ``RULE_600_GAMES``."""
    return blitz_db(path, RULE_600_GAMES)


def blitz_list(db: Path, month: str) -> list[tuple[str, int, int]]:
    """The blitz list of ``month`` as (name, rating, games before)."""
    players = app.rating_list(app.ListSettings("blitz", month, db)).players
    return [(p["name"], p["rating"], p["games_before"]) for p in players]


@pytest.mark.parametrize("rule_600", [False, True])
def test_the_600_2600_rule_leaves_out_the_games_it_does_not_rate(
    tmp_path: Path, rule_600: bool
) -> None:
    db = rule_600_db(tmp_path / "rule600.duckdb")
    result = app.rate(app.RateSettings(db, rule_600=rule_600))
    assert result.left_out == (2 if rule_600 else 0)
    for month, expected in RULE_600_LISTS[rule_600].items():
        assert blitz_list(db, month) == expected
