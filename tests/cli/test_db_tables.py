"""The default table output of every ``db`` command, at 80 columns, on
two tiny dumps whose numbers are derived by hand below. The elapsed times and speeds that
``ingest`` and ``rate`` print are the only parts masked.

Dump ``jan`` (January 2024, blitz, 180+0):
  G1 Ann (White) 1500 - Ben 1500, 1-0, Lichess diffs +6/-6;
  G2 Ben (White) 1494 - Ann 1506, 1/2, diffs +0/+0;
  G3 Ann - Ben 1-0, *casual*: unusable ("unrated"), so 2 games stored, 1 unusable.
FIDE rules (docs/rules.md; January 2024's Rapid & Blitz edition is rapid-blitz-2022-10, no
compression before 1 March 2024): seeds are the Elo of each player's first game, Ann 1500
and Ben 1500, so the January list is 1500/1500 with 0 games before, K 40 (under 30 games,
under 2400). Both games have D = 1500 - 1500 = 0, PD .50 (table 8.1.2): Ann scores 1.5
against PD 1.00, change 40 x (1.5 - 1.00) = +20 -> 1520 on the February list; Ben 0.5
against 1.00, 40 x -0.5 = -20 -> 1480. Lichess on the February list = Elo + RatingDiff of
the last game before it (G2): Ann 1506 + 0 = 1506, Ben 1494 + 0 = 1494; on January's, no
game before: "-".

Dump ``draw`` (for ``compare``): one game, Ann (White) 1500 - Ben 1500, 1/2, diffs +0/+0.
Every system's prediction is a number p for White; a draw's binomial deviance is
-(log10 p + log10 (1 - p)) / 2, its Brier term (p - .5)^2, and "right" counts a draw
predicted at exactly .5 as 1, otherwise 1/2 (core/accuracy.py).
  FIDE: D 0 -> p .5: deviance log10 2 = .30103 -> .301, Brier .000, right 100 %.
  Lichess: Glicko-2 expectation of equal ratings, no colour advantage before 17 November
    2025 (glicko_tables.ADVANTAGE_SINCE): p .5 -> .301, .000, 100 %; F - L = 0.
  Glicko-1: the track starts at the seed 1500 with RD 60 and predicts against the
    opponent's 1500, no colour term: p .5 -> .301; G - L = 0.
  Stephenson: RD after step 1 sqrt(60^2 + 10^2) = 60.83, opponent RD 60, so
    v = 3700 + 3600 = 7300 and k = 1 / sqrt(1 + 3 q^2 v / pi^2) (q = ln 10 / 400:
    3 q^2 / pi^2 = 1.00724e-5, x 7300 = .073529) = .965147; White's advantage 30:
    p = 1 / (1 + 10^(-.965147 x 30 / 400)) = 1 / (1 + 10^-.072386) = 1 / 1.846474 = .541573;
    deviance -(log10 .541573 + log10 .458427) / 2 = (.266346 + .338730) / 2 = .302538
    -> .303; S - L = .302538 - .301030 = +.0015 -> +.002.
  One game: each bootstrap interval is that game's own difference, shown as the value
  alone. Bands: on the February list both players have Elo 1500 and Lichess 1500, in the
  200-point band from 1400: mean Elo - Lichess +0 over 2 players. Both have 1 game, under
  the 30 of --min-games, so the players table leaves them out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.integration.db_helpers import game, write_dump
from tests.runners import Cli, invoke

COLUMNS = {"COLUMNS": "80"}
RULES = (
    "blitz rules: each month's edition (rapid-blitz-2022-10); opponents: list; "
    "compression: none; engine: duckdb"
)


def _jan(folder: Path) -> Path:
    return write_dump(
        folder / "jan.pgn.zst",
        [
            game("2024.01.10 10:00:00", "Ann", "Ben", "1-0", ("1500", "1500"), ("+6", "-6")),
            game("2024.01.11 10:00:00", "Ben", "Ann", "1/2-1/2", ("1494", "1506"), ("+0", "+0")),
            game("2024.01.12 10:00:00", "Ann", "Ben", "1-0", ("1500", "1500"), ("+6", "-6"),
                 event="Casual Blitz game"),
        ],
    )  # fmt: skip


def _rated(folder: Path, dump: Path) -> Path:
    db = folder / "t.duckdb"
    for args in (["ingest", str(dump)], ["rate"]):
        done = invoke(["db", *args, "--db", str(db), "-q"], env=COLUMNS)
        assert done.exit_code == 0, done.output
    return db


@pytest.fixture(scope="module")
def jan_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``jan`` dump ingested and rated."""
    folder = tmp_path_factory.mktemp("jan")
    return _rated(folder, _jan(folder))


def _table(cli: Cli, *args: str) -> str:
    done = cli(["db", *args], env=COLUMNS)
    assert done.exit_code == 0, done.output
    assert done.stderr == ""
    return str(done.stdout)


def test_ingest_table(cli: Cli, tmp_path: Path) -> None:
    dump = _jan(tmp_path)
    out = _table(cli, "ingest", str(dump), "--db", str(tmp_path / "i.duckdb"))
    out = re.sub(r"in \d+\.\d s", "in T s", out)
    assert out == (
        "Ingested 1 file(s) in T s\n"
        "month    games   unusable\n"
        "─────────────────────────\n"
        "2024-01      2  unrated 1\n"
        "2 games stored\n"  # no speed below 1,000 games: it would be the start-up's
    )


def test_rate_table(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    assert invoke(["db", "ingest", str(_jan(tmp_path)), "--db", str(db), "-q"]).exit_code == 0
    out = re.sub(r"in \d+\.\d s", "in T s", _table(cli, "rate", "--db", str(db)))
    # The lists of January (the seeds) and February (after January's games); 2 blitz players.
    # Every speed report rates is listed (ultraBullet .. correspondence), names padded to
    # the longest ("correspondence", 14 characters) plus the column gap.
    assert out == (
        "Rated 2 games with duckdb: lists 2024-01 to 2024-02 in T s\n"
        "  ultraBullet            0 players\n"
        "  bullet                 0 players\n"
        "  blitz                  2 players\n"
        "  rapid                  0 players\n"
        "  classical              0 players\n"
        "  correspondence         0 players\n"
        f"  {RULES}\n"
    )


def test_list_tables(cli: Cli, jan_db: Path) -> None:
    base = ["list", "--db", str(jan_db), "--perf", "blitz"]
    assert _table(cli, *base, "--month", "2024-01") == (
        "FIDE-rules blitz list, 2024-01\n"
        "#  player  rating  games before   K  Lichess\n"
        "────────────────────────────────────────────\n"
        "1  Ann       1500             0  40        -\n"
        "2  Ben       1500             0  40        -\n"
        f"{RULES}\n"
    )
    assert _table(cli, *base, "--month", "2024-02") == (
        "FIDE-rules blitz list, 2024-02\n"
        "#  player  rating  games before   K  Lichess\n"
        "────────────────────────────────────────────\n"
        "1  Ann       1520             2  40     1506\n"
        "2  Ben       1480             2  40     1494\n"
        f"{RULES}\n"
    )


def test_player_table(cli: Cli, jan_db: Path) -> None:
    # January: Ann's list 1500, 0 games before, K 40, no Lichess rating before the month;
    # 2 games, 1.5 points, PD .50 + .50 = 1.00, K 40 used in full (40 x 2 <= 700), +20.
    rule = "─" * 98
    assert _table(cli, "player", "Ann", "--db", str(jan_db)) == (
        "Ann: FIDE-rules lists\n"
        "perf   month    list  before   K  Lichess  games  score    PD  K used  change  edition\n"
        f"{rule}\n"
        "blitz  2024-01  1500       0  40        -      2    1.5  1.00      40     +20  "
        "rapid-blitz-2022-10\n"
        f"{RULES}\n"
        "Legend:\n"
        "  perf, month: the list published at the start of that month, in that perf\n"
        "  list: the player's FIDE-rules rating on that list\n"
        "  before: rated games counted before the list (they set K, FIDE 8.3.3)\n"
        "  K: the list's development coefficient\n"
        "  Lichess: the last Lichess rating before the month (- for a newcomer)\n"
        "  games: rated games in the month; score: points scored (win 1, draw ½)\n"
        "  PD: the sum of the month's expected scores, in points (calc's PD is one game's "
        "probability, 0 to 1); score - PD is the month's result above expectation\n"
        "  K used: K after the 700 rule (K x games at most 700)\n"
        "  change: K used x (score - PD), rounded once: the next list is list + change\n"
        "  edition: the FIDE regulations that rated the month\n"
    )  # fmt: skip


def test_months_table(cli: Cli, jan_db: Path) -> None:
    assert _table(cli, "months", "--db", str(jan_db)) == (
        f"{jan_db}: 1 month(s), 2024-01 to 2024-01, 2 games stored\n"
        "month    games  unusable  blitz  players rated\n"
        "──────────────────────────────────────────────\n"
        "2024-01      2         1      2  blitz 2\n"
    )


def test_compare_tables(cli: Cli, tmp_path: Path) -> None:
    draw = [game("2024.01.10 10:00:00", "Ann", "Ben", "1/2-1/2", ("1500", "1500"), ("+0", "+0"))]
    db = _rated(tmp_path, write_dump(tmp_path / "draw.pgn.zst", draw))
    out = _table(cli, "compare", "--db", str(db))
    # G - L is 0 (both predict exactly .5) up to the last bits of two ways of computing it
    # (SQL and numpy): its sign is that residue's. F - L is an exact zero.
    out = out.replace("      -.000      +.002", "      ±.000      +.002")
    tables, legend = out.split("\nLegend:\n")
    assert tables == (
        "blitz, 1 month of games scored: too few games to tell whether FIDE's rules or "
        "Lichess's rating predicts them better.\n"
        "\n"
        "blitz, against Lichess's rating month by month: Glicko-1 better in 0, worse in 0, "
        "too few games to tell in 1; Stephenson better in 0, worse in 0, too few games to "
        "tell in 1.\n"
        "\n"
        "blitz: mean Elo - Lichess (players) by Lichess rating band\n"
        "band   2024-02\n"
        "──────────────\n"
        "1400+   +0 (2)\n"
        "\n"
        "blitz: which predicts the month's games better (F FIDE rules, L Lichess)\n"
        "month    games   dev. F/L  F-L [95%]  Brier F/L  right F/L\n"
        "──────────────────────────────────────────────────────────\n"
        "2024-01      1  .301/.301      +.000  .000/.000  100%/100%\n"
        "deviance and Brier: lower is better; right: share predicted\n"
        "\n"
        "blitz: Glicko-1 (G) and Stephenson (S) against Lichess (L)\n"
        "month    games      dev. G/S/L  G-L [95%]  S-L [95%]\n"
        "────────────────────────────────────────────────────\n"
        "2024-01      1  .301/.303/.301      ±.000      +.002\n"
        "each game seen from one side, picked by a seeded hash; lower deviance is better\n"
        "\n"
        "blitz: 2 players left out with fewer than 30 games; --min-games 0 shows them.\n"
    )
    # the legend names every column of the tables above
    for column in ("band:", "dev. F/L:", "F-L [95%]:", "Brier F/L:", "right F/L:",
                   "dev. G/S/L:", "G-L, S-L [95%]:"):  # fmt: skip
        assert f"\n  {column}" in f"\n{legend}", column
