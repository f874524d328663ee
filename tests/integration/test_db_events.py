"""Each game's event (its Lichess arena or swiss) is ingested, and the once-per-event
400-point rule of 2022-2024 reads it (hand-computed from H22 8.3.1 and table 8.1.2)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb

from lichess_elo.app import db as app
from tests.integration.db_helpers import game, write_dump

ARENA = "Rated Blitz tournament https://lichess.org/tournament/abc123"
SWISS = "Rated Blitz swiss https://lichess.org/swiss/xyz789"


def _games() -> list[str]:
    """January 2023: A (2000) beats B (1500) and C (1550) in arena abc123, and D (1540) in
    an ordinary game; E and F draw in swiss xyz789."""
    return [
        game("2023.01.02 10:00:00", "A", "B", "1-0", ("2000", "1500"), ("+2", "-2"), event=ARENA),
        game("2023.01.03 10:00:00", "A", "C", "1-0", ("2002", "1550"), ("+2", "-2"), event=ARENA),
        game("2023.01.04 10:00:00", "A", "D", "1-0", ("2004", "1540"), ("+2", "-2")),
        game("2023.01.05 10:00:00", "E", "F", "1/2-1/2", ("1500", "1500"), ("+0", "+0"),
             event=SWISS),
    ]  # fmt: skip


def _db(tmp_path: Path) -> Path:
    db = tmp_path / "events.duckdb"
    app.ingest(app.IngestSettings((write_dump(tmp_path / "e.pgn.zst", _games()),), db))
    return db


def _a(db: Path) -> tuple[int, int]:
    (row,) = app.player(app.PlayerSettings("A", db)).rows
    return row["change"], row["next_rating"]


def test_ingest_keeps_the_arena_or_swiss_of_each_game(tmp_path: Path) -> None:
    con = duckdb.connect(str(_db(tmp_path)))
    events = [r[0] for r in con.execute("SELECT event FROM games ORDER BY ord").fetchall()]
    con.close()
    assert events == ["arena:abc123", "arena:abc123", None, "swiss:xyz789"]


def test_one_upgrade_per_event(tmp_path: Path) -> None:
    db = _db(tmp_path)
    # January 2023: rapid-blitz-2022-10, the 400-point rule once per event (H22 8.3.1).
    # A is new: K 40 (40 x 3 = 120, no 700 rule). In arena abc123 A's upgrades are B (D 500)
    # and C (D 450): only the greatest, B, is capped: 400 -> .92; C keeps D 450 -> row
    # 433-456: .94. D (D 460) is the only upgrade of the other event, the period's
    # ordinary games: capped, .92. Points 3 - (.92 + .94 + .92 = 2.78) = .22; 40 x .22 =
    # 8.8 -> +9 -> 2009.
    app.rate(app.RateSettings(db))
    assert _a(db) == (9, 2009)
    # Under the 2024 rule (every game capped): 3 - 3 x .92 = .24; 40 x .24 = 9.6 -> +10.
    app.rate(app.RateSettings(db, rules_as_of=date(2024, 3, 1)))
    assert _a(db) == (10, 2010)


def test_a_database_without_events_takes_the_period_as_the_event(tmp_path: Path) -> None:
    db = _db(tmp_path)
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE games DROP COLUMN event")  # as made before games kept it
    con.close()
    # connect() adds the column back, NULL: every game of the period is one event. A's
    # upgrades B (500), D (460), C (450): only B capped (.92); D 460 -> row 457-484: .95;
    # C .94. 3 - 2.81 = .19; 40 x .19 = 7.6 -> +8 -> 2008.
    app.rate(app.RateSettings(db))
    assert _a(db) == (8, 2008)
