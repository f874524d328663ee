"""FIDE's chapter from the clock at the Laws' thresholds (issue #41), through ``report
--pgn``, ``games --pgn`` and ``db`` (ingest + rate), on one small PGN written here.

The Laws of Chess, Appendix A (docs/rules.md, "The chapter of a game"): count the time
allotted plus 60 x the increment; 60 minutes or more is standard, more than 10 and less than
60 is rapid, 10 or less is blitz; rapid and blitz share the Rapid & Blitz regulations.

Hero (White, 2450) beats Opp (2450) in every game, March 2021: D = 0, table 8.1.2: PD .50,
so each game is +0.50 x K. In March 2021 the standard rules (July 2014) give a player who
has reached 2400 K 10 (8.3.3); the Rapid & Blitz rules then give everyone K 20.

    TimeControl  Lichess speed (base + 40 x inc)   the Laws' count          chapter
    3540+1       3580 s: classical                 59 + 1 = 60 min          standard
    3600+0       3600 s: classical                 60 min                   standard
    2700+15      3300 s: classical                 45 + 15 = 60 min         standard
    1500+0       1500 s: classical                 25 min: rapid            Rapid & Blitz
    600+0        600 s: rapid                      10 min: blitz            Rapid & Blitz
    600+1        640 s: rapid                      10 + 1 = 11 min: rapid   Rapid & Blitz

Classical, March 2021, in two parts from 2450: standard 3 x .50 x 10 = +15; Rapid & Blitz
1 x .50 x 20 = +10; +25 -> 2475 (under the perf's old chapter, all standard: 4 x 5 = +20).
Rapid: 2 x .50 x 20 = +20 -> 2470.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb

from lichess_elo.app import db as app
from tests.integration.db_helpers import game, write_dump
from tests.runners import invoke

#: (TimeControl, Event word, FIDE speed, chapter)
GAMES = [
    ("3540+1", "Classical", "standard", "standard"),
    ("3600+0", "Classical", "standard", "standard"),
    ("2700+15", "Classical", "standard", "standard"),
    ("1500+0", "Classical", "rapid", "rapid-blitz"),
    ("600+0", "Rapid", "blitz", "rapid-blitz"),
    ("600+1", "Rapid", "rapid", "rapid-blitz"),
]


def _games() -> list[str]:
    return [
        game(
            f"2021.03.{day + 1:02d} 12:00:00",
            "Hero",
            "Opp",
            "1-0",
            ("2450", "2450"),
            ("+5", "-5"),
            event=f"Rated {word} game",
            tc=tc,
            site=f"thresh{day:02d}",
        )
        for day, (tc, word, _, _) in enumerate(GAMES)
    ]


def _pgn(tmp_path: Path) -> Path:
    path = tmp_path / "thresholds.pgn"
    path.write_text("".join(_games()), encoding="utf-8")
    return path


def test_games_shows_the_fide_speed_and_chapter(tmp_path: Path) -> None:
    pgn = _pgn(tmp_path)
    result = invoke(["games", "Hero", "--pgn", str(pgn), "--cache-dir", str(tmp_path / "c"),
                     "--format", "json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["games"]
    assert [(g["time_control"], g["fide_speed"], g["chapter"]) for g in rows] == [
        (tc, speed, chapter) for tc, _, speed, chapter in GAMES
    ]


def _report(tmp_path: Path, *extra: str) -> dict[str, Any]:
    pgn = _pgn(tmp_path)
    args = ["Hero", "--pgn", str(pgn), "--cache-dir", str(tmp_path / "c"), "--perf", "all"]
    result = invoke(["report", *args, "--games-before", "30", "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    return {r["perf"]: r for r in json.loads(result.stdout)["reports"]}


def test_report_rates_each_game_under_its_chapter(tmp_path: Path) -> None:
    reports = _report(tmp_path)
    classical, rapid = reports["classical"], reports["rapid"]
    assert [(g["chapter"], g["elo"]["k"]) for g in classical["games"]] == [
        ("standard", 10), ("standard", 10), ("standard", 10), ("rapid-blitz", 20),
    ]  # fmt: skip
    (march,) = classical["periods"]
    assert march["elo"]["start"] == 2450 and march["elo"]["change"] == 25
    assert march["chapter"] == "standard" and march["k"] == 10  # the main part: 3 games
    assert [(c["chapter"], c["games"], c["k"], c["change"]) for c in march["chapters"]] == [
        ("standard", 3, 10, 15), ("rapid-blitz", 1, 20, 10),
    ]  # fmt: skip
    assert [g["chapter"] for g in rapid["games"]] == ["rapid-blitz", "rapid-blitz"]
    assert rapid["periods"][0]["elo"]["change"] == 20


def test_rules_standard_still_forces_one_chapter(tmp_path: Path) -> None:
    # every game standard, K 10: classical 4 x 5 = +20, rapid 2 x 5 = +10
    reports = _report(tmp_path, "--rules", "standard")
    assert {g["chapter"] for r in reports.values() for g in r["games"]} == {"standard"}
    assert reports["classical"]["periods"][0]["elo"]["change"] == 20
    assert reports["rapid"]["periods"][0]["elo"]["change"] == 10


def test_db_stores_the_chapter_and_rates_by_it(tmp_path: Path) -> None:
    dump = write_dump(tmp_path / "thresholds.pgn.zst", _games())
    db = tmp_path / "t.duckdb"
    app.ingest(app.IngestSettings((dump,), db))
    con = duckdb.connect(str(db))
    stored = con.execute("SELECT perf, chapter FROM games ORDER BY ord").fetchall()
    assert stored == [(("rapid" if w == "Rapid" else "classical"), c) for _, w, _, c in GAMES]
    con.close()
    app.rate(app.RateSettings(db))
    con = duckdb.connect(str(db))
    rows = con.execute(
        "SELECT perf, name, k, games, change, next_rating, edition FROM lists "
        "WHERE month = 202103 ORDER BY perf, name"
    ).fetchall()
    con.close()
    # In db Opp is rated too (the mirror image: -15 and -10; -20 in rapid). Hero's K in
    # the row is the main part's (standard, 3 games): 10; its edition the standard one.
    assert rows == [
        ("classical", "Hero", 10, 4, 25, 2475, "standard-2014-07"),
        ("classical", "Opp", 10, 4, -25, 2425, "standard-2014-07"),
        ("rapid", "Hero", 20, 2, 20, 2470, rows[2][6]),
        ("rapid", "Opp", 20, 2, -20, 2430, rows[3][6]),
    ]
    assert str(rows[2][6]).startswith("rapid-blitz")
