"""``db`` rates every speed ``report`` rates: ultraBullet (the Rapid &
Blitz chapter) and correspondence (the standard chapter) included, the perf from the Event's
word or, for an event's name, from the TimeControl by ``core.games.speed_of``.

The dump, January 2024, under the fixture's rules (``db_fixture.RULES``: the editions of
1 October 2025, rapid-blitz-2024-12 and standard-2025-10; K 40 under 30 games, below 2400):

* G1 "Rated UltraBullet game" 15+0, Alice (1500) - Bob (1400) 1-0, diffs +5/-5;
* G2 "Hourly UltraBullet Arena" (an event's name: no perf word) 15+0, so by the clock
  15 + 40 x 0 = 15 s < 30 s: ultraBullet; Alice (1505) - Bob (1395) 0-1, diffs -5/+5;
* G3 "Rated Correspondence game", TimeControl "-", Carol (1800) - Dave (1700) 1/2-1/2.

ultraBullet seeds: Alice 1500, Bob 1400 (their first game, G1). Alice: D +100 -> PD .64
twice; 1 - .64 = +.36, 0 - .64 = -.64, sum -.28; K 40 (40 x 2 = 80 <= 700): 40 x -.28 =
-11.2 -> -11 -> 1489. Bob: D -100 -> .36 twice; -.36 and +.64, sum +.28 -> +11.2 -> +11 ->
1411. Lichess rating on the February list: Alice 1505 - 5 = 1500, Bob 1395 + 5 = 1400 (G2).
correspondence seeds: Carol 1800, Dave 1700. Carol: D +100 -> .64, .5 - .64 = -.14, 40 x
-.14 = -5.6 -> -6 -> 1794; Dave: D -100 -> .36, +.14 -> +5.6 -> +6 -> 1706; no diffs, so the
Lichess rating is the Elo.
"""

from __future__ import annotations

from pathlib import Path

from lichess_elo.app import db as app
from tests.integration.db_fixture import RULES
from tests.integration.db_helpers import game, write_dump


def _dump(tmp_path: Path) -> Path:
    games = [
        game(
            "2024.01.01 10:00:00", "Alice", "Bob", "1-0", ("1500", "1400"), ("+5", "-5"),
            event="Rated UltraBullet game", tc="15+0",
        ),
        game(
            "2024.01.02 10:00:00", "Alice", "Bob", "0-1", ("1505", "1395"), ("-5", "+5"),
            event="Hourly UltraBullet Arena", tc="15+0",
        ),
        game(
            "2024.01.03 10:00:00", "Carol", "Dave", "1/2-1/2", ("1800", "1700"),
            event="Rated Correspondence game", tc="-",
        ),
    ]  # fmt: skip
    return write_dump(tmp_path / "lichess_db_standard_rated_2024-01.pgn.zst", games)


def test_ultrabullet_and_correspondence_are_ingested_and_rated(tmp_path: Path) -> None:
    db = tmp_path / "speeds.duckdb"
    ingested = app.ingest(app.IngestSettings((_dump(tmp_path),), db))
    assert [(m.month, m.games) for m in ingested.months] == [(202401, 3)]
    assert ingested.rejected == {}  # no game is other_perf now
    rated = app.rate(app.RateSettings(db, **RULES))  # type: ignore[arg-type]
    assert rated.players == {
        "ultraBullet": 2, "bullet": 0, "blitz": 0, "rapid": 0, "classical": 0,
        "correspondence": 2,
    }  # fmt: skip
    # Each speed under report's chapter: ultraBullet Rapid & Blitz, correspondence standard.
    editions = {r.perf: r.editions for r in rated.rules}
    assert editions["ultraBullet"] == ("rapid-blitz-2024-12",)
    assert editions["correspondence"] == ("standard-2025-10",)
    ultra = app.rating_list(app.ListSettings("ultraBullet", "2024-02", db))
    assert ultra.players == [
        {"name": "Alice", "rating": 1489, "games_before": 2, "k": 40, "lichess_rating": 1500},
        {"name": "Bob", "rating": 1411, "games_before": 2, "k": 40, "lichess_rating": 1400},
    ]
    corr = app.rating_list(app.ListSettings("correspondence", "2024-02", db))
    assert corr.players == [  # by rating, highest first
        {"name": "Carol", "rating": 1794, "games_before": 1, "k": 40, "lichess_rating": 1800},
        {"name": "Dave", "rating": 1706, "games_before": 1, "k": 40, "lichess_rating": 1700},
    ]
    alice = app.player(app.PlayerSettings("alice", db, "ultraBullet")).rows
    # January: 2 games, 1 point against PD .64 + .64 = 1.28, K 40, change -11.
    assert [(r["month"], r["games"], r["points"], r["expected"], r["change"]) for r in alice] == [
        ("2024-01", 2, 1, 1.28, -11)
    ]
