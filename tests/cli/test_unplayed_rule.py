"""Issue #39: one rule for games that were not played, in every command.

A game counts where its site rated it (``core.lichess_pgn.unplayed``): a rated game with
no rating diff and at most one ply was not rated by Lichess (``unplayed``); an
``Abandoned`` arena game with diffs was (``noStart``, counted). The samples:
``tests/data/lichess/unplayed/dump-2021-10-shape.pgn`` (hand-written in the dump's
shape: its README has the table of the six games) and the real export of thibault.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import pytest

from lichess_elo.core import lichess_pgn
from lichess_elo.sources.dump import parse as dump_parse
from lichess_elo.sources.population import ingest
from tests.helpers import REPO
from tests.runners import Cli

SHAPE = REPO / "tests" / "data" / "lichess" / "unplayed" / "dump-2021-10-shape.pgn"
THIBAULT = REPO / "tests" / "data" / "lichess" / "real" / "export-thibault-2025-05-07.pgn"

# Derived by hand from the sample's table (README.md beside it):
# KAISAH_SRAITK: Unplay01 (+6) and Unplay04 (+5, the rated Abandoned arena game) count;
#   Unplay02 (0 plies, no diff) is unplayed, Unplay05 (*) aborted.        2 games, +11
# north_bishop: Unplay01 (-6) and Unplay06 (-1) count; Unplay03 (1 ply, no diff)
#   unplayed, Unplay05 aborted.                                           2 games, -7
# south_rook: Unplay04 (-5) and Unplay06 (+1) count; Unplay02 and Unplay03
#   unplayed.                                                             2 games, -4
EXPECTED = {
    "KAISAH_SRAITK": (2, 11, {"aborted": 1, "unplayed": 1}),
    "north_bishop": (2, -7, {"aborted": 1, "unplayed": 1}),
    "south_rook": (2, -4, {"unplayed": 2}),
}


def test_the_rule() -> None:
    # no diff and 0 or 1 ply: unplayed; a diff, or 2 plies, or plies unknown: not
    assert lichess_pgn.unplayed(False, 0) and lichess_pgn.unplayed(False, 1)
    assert not lichess_pgn.unplayed(True, 0)
    assert not lichess_pgn.unplayed(False, 2)
    assert not lichess_pgn.unplayed(False, None)
    # rated by the site: the rated Abandoned arena game (noStart, diffs) is; an aborted one,
    # a casual one and an unplayed one are not
    assert lichess_pgn.rated_by_site(True, "noStart", True, 0)
    assert not lichess_pgn.rated_by_site(True, "aborted", False, 0)
    assert not lichess_pgn.rated_by_site(False, "resign", False, 40)
    assert not lichess_pgn.rated_by_site(True, "timeForfeit", False, 1)


@pytest.mark.parametrize("player", sorted(EXPECTED))
def test_report_counts_each_player_and_names_the_reason(cli: Cli, player: str) -> None:
    games, change, reasons = EXPECTED[player]
    result = cli(["report", player, "--pgn", str(SHAPE), "--format", "json"])
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.stdout)["reports"]
    assert len(report["games"]) == games
    assert report["summary"]["lichess_change"] == change
    excluded = {k: v for k, v in report["summary"]["excluded"].items() if v}
    assert excluded == reasons


def test_club_counts_the_same_games(cli: Cli) -> None:
    result = cli(["club", str(SHAPE), "--format", "json"])
    assert result.exit_code == 0, result.output
    counts = {p["name"]: p["games"] for p in json.loads(result.stdout)["players"]}
    assert counts == {name: games for name, (games, _, _) in EXPECTED.items()}
    # the two unplayed games (Unplay02, Unplay03) are named and counted; Unplay05 is * (unfinished)
    assert "skipped 2 unplayed Lichess games" in result.stderr
    assert "skipped 1 unfinished games" in result.stderr


def test_club_rates_the_rated_abandoned_game_of_a_real_export(cli: Cli) -> None:
    # thibault's export: 50 games, 1 against the AI (skipped). OGhtagqF, Abandoned 0-1 with
    # diffs -6/+5, was rated by Lichess: a played result now, not a forfeit. So thibault
    # has 49 games (report counts 47 of them: 2 are casual, which a club ladder rates).
    result = cli(["club", str(THIBAULT), "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    counts = {p["name"]: p["games"] for p in document["players"]}
    assert counts["thibault"] == 49
    assert counts["winnermusab2300"] == 1
    assert document["excluded"] == []
    report = cli(["report", "thibault", "--pgn", str(THIBAULT), "--format", "json"])
    (perf,) = json.loads(report.stdout)["reports"]
    assert len(perf["games"]) == 47
    assert perf["summary"]["excluded"]["casual"] == 2


def _db_player(cli: Cli, db: Path, name: str) -> tuple[int, int]:
    """The player's games and FIDE change, over the months ``db player`` shows."""
    result = cli(["db", "player", name, "--db", str(db), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    return sum(row["games"] for row in rows), sum(row["change"] for row in rows)


def _lichess_changes(db: Path) -> dict[str, int]:
    """Each player's sum of the Lichess rating diffs of the games ``db`` stores."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            """SELECT name, SUM(diff)::INTEGER FROM (
                   SELECT white AS name, white_diff AS diff FROM games
                   UNION ALL SELECT black, black_diff FROM games) GROUP BY name"""
        ).fetchall()
    finally:
        con.close()
    return {str(name): int(total) for name, total in rows}


# db rate (docs/population.md): each player enters at the Elo of their first game stored
# (KAISAH_SRAITK 1500 in Unplay01, north_bishop 1520 in Unplay01, south_rook 1480 in
# Unplay04), K 20, FIDE's table of expected scores (a difference of 18-25: 0.53/0.47, of
# 40-47: 0.56/0.44), the month's change rounded:
#   KAISAH_SRAITK: beats north (0.47) and south (0.53): 2 - 1.00 = +1.00, x20 = +20
#   north_bishop: loses to KAISAH (0.53), draws south (0.56): 0.5 - 1.09, x20 = -11.8 -> -12
#   south_rook: loses to KAISAH (0.47), draws north (0.44): 0.5 - 0.91, x20 = -8.2 -> -8
# (rated, the unplayed Unplay02 and Unplay03 would give south_rook 4 games).
DB_CHANGES = {"KAISAH_SRAITK": 20, "north_bishop": -12, "south_rook": -8}


def test_db_counts_the_same_games(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "x.duckdb"
    ingested = cli(["db", "ingest", str(SHAPE), "--db", str(db)])
    assert ingested.exit_code == 0, ingested.output
    # 6 games: Unplay02 and Unplay03 unplayed, Unplay05 aborted, 3 stored
    assert "2021-10      3  aborted 1, unplayed 2" in ingested.stdout
    assert cli(["db", "rate", "--db", str(db)]).exit_code == 0
    players = {name: _db_player(cli, db, name) for name in EXPECTED}
    assert players == {name: (games, DB_CHANGES[name]) for name, (games, _, _) in EXPECTED.items()}
    # the same games as report's, so the same Lichess changes (+11, -7, -4)
    assert _lichess_changes(db) == {name: change for name, (_, change, _) in EXPECTED.items()}


def test_a_database_ingested_before_the_rule(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A database ingested by a reader without plies (as before the rule, or from Parquet):
    # no game is unplayed, the 2 unplayed games are stored and rated, and every command works.
    sample = tmp_path / "sample.pgn"
    sample.write_bytes(SHAPE.read_bytes())
    db = tmp_path / "old.duckdb"
    with monkeypatch.context() as patch:
        read = ingest._batches
        patch.setattr(
            ingest,
            "_batches",
            lambda *a: (b.drop_columns([dump_parse.PLIES]) for b in read(*a)),
        )
        old = cli(["db", "ingest", str(sample), "--db", str(db)])
    assert "2021-10      5  aborted 1" in old.stdout  # 6 games, 1 aborted, 5 stored
    assert cli(["db", "rate", "--db", str(db)]).exit_code == 0
    assert _db_player(cli, db, "south_rook")[0] == 4  # with Unplay02 and Unplay03
    # The file again, unchanged: the ledger holds it in full, it is skipped.
    again = cli(["db", "ingest", str(sample), "--db", str(db)])
    assert again.exit_code == 0 and "skipped" in again.output
    # Changed (a new modification time): read again, its month replaced under the rule.
    os.utime(sample, ns=(sample.stat().st_atime_ns, sample.stat().st_mtime_ns + 10**9))
    replaced = cli(["db", "ingest", str(sample), "--db", str(db)])
    assert "2021-10      3  aborted 1, unplayed 2" in replaced.stdout
    assert cli(["db", "rate", "--db", str(db)]).exit_code == 0
    assert _db_player(cli, db, "south_rook") == (2, DB_CHANGES["south_rook"])
