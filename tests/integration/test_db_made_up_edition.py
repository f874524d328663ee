"""A made-up edition reaches every executor of ``db rate``: the rules are expressions over
the edition's numbers, so an edition the rulebook never had (K 17 for everyone, a
350-point cap, at most 500 for K x games, games 450 apart with one player above 1900 not
rated) rates the same games to the same numbers in the array step and in the SQL, and to
the numbers worked out by hand below."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from lichess_elo.app import db as app
from lichess_elo.core.fide import EDITIONS_BY_KEY
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.sources.population import arrays_run, duck
from tests.integration.db_helpers import game, write_dump

MADE_UP = replace(
    EDITIONS_BY_KEY["rapid-blitz-2024-12"],
    key="rapid-blitz-made-up",
    k_new=17, k_standard=17, k_top=17, k_junior=None, junior_until=None,
    cap_difference=350, cap_scope="game", cap_exempt_from=None,
    k_times_games_max=500, non_rating_gap=450, non_rating_above=1900,
)  # fmt: skip
PLAN = [MonthRules(202406, replace(MADE_UP, chapter="standard"), MADE_UP),
        MonthRules(202407, replace(MADE_UP, chapter="standard"), MADE_UP)]  # fmt: skip


def _games() -> list[str]:
    out = [
        game("2024.06.01 10:00:00", "A", "B", "1-0", ("2000", "1600"), ("+5", "-5")),
        game("2024.06.01 11:00:00", "A", "C", "1-0", ("2000", "1500"), ("+5", "-5")),
    ]
    for i in range(30):
        when = f"2024.06.{2 + i // 10:02d} {10 + i % 10:02d}:00:00"
        out.append(game(when, "C", "B", "1/2-1/2", ("1500", "1600"), ("+0", "+0")))
    return out


#: (name, rating, games, K used, change, next rating), by hand from table 8.1.2
#: (../shared/reference/fide/expected_score_table.csv) and the made-up numbers:
#: A: beats B, D = 2000 - 1600 = 400, capped to 350: PD .89 (345-357); 1 - .89 = .11;
#:    K 17 x 1 game = 17 <= 500: 17 x .11 = 1.87 -> +2. A vs C (500 apart, A above 1900)
#:    is not rated.
#: B: loses to A, D = -400 capped to -350: PD .11, 0 - .11 = -.11; 30 draws with C,
#:    D = +100: PD .64 (99-106), .5 - .64 = -.14 each, -4.20; sum -4.31 over 31 games;
#:    17 x 31 = 527 > 500, so K = 500 // 31 = 16: 16 x -4.31 = -68.96 -> -69.
#: C: 30 draws with B (the game with A not rated), D = -100: PD .36, +.14 each, +4.20;
#:    17 x 30 = 510 > 500, K = 500 // 30 = 16: 16 x 4.20 = 67.2 -> +67.
BY_HAND = [
    ("A", 2000, 1, 17, 2, 2002),
    ("B", 1600, 31, 16, -69, 1531),
    ("C", 1500, 30, 16, 67, 1567),
]


@pytest.mark.parametrize("engine", ["arrays", "sql"])
def test_a_made_up_edition_rates_alike_everywhere(tmp_path: Path, engine: str) -> None:
    dump = write_dump(tmp_path / "made-up.pgn.zst", _games())
    db = tmp_path / "made-up.duckdb"
    app.ingest(app.IngestSettings((dump,), db))
    con = duck.connect(db)
    run = arrays_run.rate if engine == "arrays" else duck.rate
    months = run(con, ("blitz",), PLAN, [])
    con.close()
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT name, rating, games, k_used, change, next_rating, edition FROM lists "
        "WHERE perf = 'blitz' ORDER BY name"
    ).fetchall()
    con.close()
    assert months == [202406, 202407]
    assert rows == [(*r, "rapid-blitz-made-up") for r in BY_HAND]
