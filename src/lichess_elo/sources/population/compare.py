"""``db compare``: Elo - Lichess by rating band and month, both systems' predictive scores on
each month's games, and the players who differ most. Reads the lists ``db rate`` stored.

Predictions for a game (White's expected score, from what was known before the month):

* FIDE rules: PD from table 8.1.2 on White's and Black's list ratings of the month, with the
  chapter's 400-point rule: the same SQL expressions the stages use (``stages.capped_d``);
* Lichess Glicko-2: ``glicko.expected_score`` on the players' pre-game ratings from the
  headers, with the colour advantage where Lichess applied it; the dumps carry no RD, so the
  opponent's RD is the established one of the player report (``predictions``, 60);
* every contender with a track (``core/contenders.py``; Glicko-1 and Stephenson's rating):
  ``rivals.expected`` (as SQL, ``rivals_sql``) from the
  side's track in the stored ``rivals`` rows (``db rate``: the rating after the month
  before, the RD after step 1) against the opponent's pre-game Lichess rating and RD 60.
  A track predicts its own player's games, so each game is scored from one side, White or
  Black, picked by the seed (a hash of the game's ``ord``): about half of every player's
  games are seen from their side, and each game still counts once. Every prediction is
  turned into White's expected score (1 - the side's when Black), so all four systems
  are scored on the same numbers, White's results.

A game that some system cannot predict (a side with no list row that month, under the
600/2600 rule, or no track row) is left out of every system alike and counted
(``MonthScore.left_out``).

Scores and the paired bootstrap come from ``core.accuracy`` (the player report's scorecard):
one resampling of a month's games serves every pair of systems (``compare_all``).
Each month is scored on a seeded sample of at most ``sample`` games per perf, so the time
and memory of ``compare`` do not grow with the size of the month.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import numpy as np

from lichess_elo.core.population import rulebook_sql, stages
from lichess_elo.core.population.rivals_sql import (
    LICHESS_RD,
    advantage_sql,
    expected_sql,
)
from lichess_elo.core.population.rivals_sql import (
    tracks as tracked_rules,
)
from lichess_elo.core.population.rows import BandRow, Differ
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import month_range, next_month
from lichess_elo.core.population.scorecard import MonthScore, score_months, tracked
from lichess_elo.core.report.rivals import RivalRules
from lichess_elo.errors import NotRated
from lichess_elo.sources.population import duck, list_rules_store


def list_months(con: duckdb.DuckDBPyConnection, perf: str) -> list[int]:
    """The months with a list of ``perf``: the first with games to the one after the last."""
    row = con.execute("SELECT MIN(month), MAX(month) FROM lists WHERE perf = ?", [perf]).fetchone()
    if row is None or row[0] is None:
        return []
    return month_range(int(row[0]), next_month(int(row[1])))


def bands(con: duckdb.DuckDBPyConnection, perfs: Sequence[str], width: int) -> list[BandRow]:
    """Elo - Lichess by band of Lichess rating (``width`` points) for every list."""
    out: list[BandRow] = []
    for perf in perfs:
        for month in list_months(con, perf):
            rows = con.execute(
                f"""SELECT CAST(floor(lichess_rating / {width}) * {width} AS INTEGER) AS b,
                          COUNT(*), AVG(rating - lichess_rating), MEDIAN(rating - lichess_rating)
                   FROM ({_list_at(con, perf, month)})
                   WHERE lichess_rating IS NOT NULL GROUP BY b ORDER BY b""",
                [perf],
            ).fetchall()
            out.extend(
                BandRow(perf, month, int(b), int(n), float(a), float(md)) for b, n, a, md in rows
            )
    return out


def differs(
    con: duckdb.DuckDBPyConnection, perfs: Sequence[str], top: int, min_games: int
) -> list[Differ]:
    """The ``top`` players of each perf's last list with the largest |Elo - Lichess|."""
    out: list[Differ] = []
    for perf in perfs:
        months = list_months(con, perf)
        if not months:
            continue
        rows = con.execute(
            f"""SELECT name, rating, lichess_rating, games_before
                FROM ({_list_at(con, perf, months[-1])})
                WHERE lichess_rating IS NOT NULL AND games_before >= ?
                ORDER BY abs(rating - lichess_rating) DESC, name LIMIT ?""",
            [perf, min_games, top],
        ).fetchall()
        out.extend(Differ(perf, n, int(r), int(lr), int(g)) for n, r, lr, g in rows)
    return out


def few_games(
    con: duckdb.DuckDBPyConnection, perfs: Sequence[str], min_games: int
) -> dict[str, int]:
    """By perf, the players of the last list with a Lichess rating but fewer than
    ``min_games`` games before it: the ones :func:`differs` leaves out."""
    out: dict[str, int] = {}
    for perf in perfs:
        months = list_months(con, perf)
        if not months:
            continue
        row = con.execute(
            f"""SELECT COUNT(*) FROM ({_list_at(con, perf, months[-1])})
                WHERE lichess_rating IS NOT NULL AND games_before < ?""",
            [perf, min_games],
        ).fetchone()
        out[perf] = int(row[0]) if row else 0
    return out


def _month_rules(con: duckdb.DuckDBPyConnection, perf: str, month: int) -> tuple[MonthRules, bool]:
    """The rules of ``perf``'s list of ``month`` and whether compressions were applied."""
    rules = list_rules_store.recorded(con, perf)
    return (
        rulebook_sql.month_rules(month, as_of=rules.rules_as_of, adjustments=rules.adjustment),
        rules.adjustment,
    )


def _list_at(con: duckdb.DuckDBPyConnection, perf: str, month: int) -> str:
    rules, adjustment = _month_rules(con, perf, month)
    return stages.list_at_sql(rules, "l.perf = ?", adjustments=adjustment)


def _rival_sql(rules: RivalRules, white_side: str) -> str:
    """White's expected score by one contender: the picked side's track against the
    opponent's Lichess rating, as White's score."""
    rd = repr(LICHESS_RD)
    k = rules.key
    as_white = expected_sql(
        f"g.w_{k}_rating", f"g.w_{k}_rd", "g.black_elo", rd, advantage_sql(rules, "1")
    )
    as_black = expected_sql(
        f"g.b_{k}_rating", f"g.b_{k}_rd", "g.white_elo", rd, advantage_sql(rules, "-1")
    )
    return f"CASE WHEN {white_side} THEN {as_white} ELSE 1 - {as_black} END"


def _sample_sql(
    con: duckdb.DuckDBPyConnection, perfs: Sequence[str], sample: int, seed: int
) -> str:
    recorded = list_rules_store.read(con)
    as_of = {p: recorded[p].rules_as_of for p in perfs if p in recorded}
    white_d = rulebook_sql.predicted_d_sql(
        as_of, "g.perf", "g.month", "a.rating", "a.rating - b.rating"
    )
    white_side = f"(hash(g.ord + {seed + 1}) % 2 = 0)"
    listed = tracked_rules()
    rivals = ", ".join(f"{_rival_sql(r, white_side)} AS e_{r.key}" for r in listed)
    tracks = ", ".join(
        f"{side}.{r.key}_{c} AS {side[1]}_{r.key}_{c}"
        for side in ("rw", "rb")
        for r in listed
        for c in ("rating", "rd")
    )
    return f"""
    SELECT g.perf, g.month, g.score, g.white_elo, g.black_elo, g.ord, g.n,
           {white_side} AS white_side, {stages.pd_value("t", "g.d")} AS e, {rivals}
    FROM (SELECT g.*, {white_d} AS d, {tracks},
                 COUNT(*) OVER (PARTITION BY g.perf, g.month) AS n
          FROM games g
          JOIN lists a ON a.perf = g.perf AND a.month = g.month AND a.name = g.white
          JOIN lists b ON b.perf = g.perf AND b.month = g.month AND b.name = g.black
          JOIN rivals rw ON rw.perf = g.perf AND rw.month = g.month AND rw.name = g.white
          JOIN rivals rb ON rb.perf = g.perf AND rb.month = g.month AND rb.name = g.black
          WHERE g.perf IN (SELECT UNNEST(?))
          QUALIFY row_number() OVER (PARTITION BY g.perf, g.month
                                     ORDER BY hash(g.ord + {seed})) <= {sample}) g
    JOIN pd_table t ON {stages.pd_join("t", "g.d")}
    ORDER BY g.perf, g.month, g.ord"""


def _month_games(
    con: duckdb.DuckDBPyConnection, perfs: Sequence[str]
) -> dict[tuple[str, int], int]:
    """The games of each perf and month in the database."""
    rows = con.execute(
        "SELECT perf, month, COUNT(*) FROM games WHERE perf IN (SELECT UNNEST(?)) "
        "GROUP BY perf, month",
        [list(perfs)],
    ).fetchall()
    return {(str(p), int(m)): int(n) for p, m, n in rows}


def has_rivals(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``db rate`` has stored the contenders' tracks (``rivals``)."""
    row = con.execute(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'rivals'"
    ).fetchone()
    return row is not None and row[0] > 0


def scored_games(
    con: duckdb.DuckDBPyConnection, perfs: Sequence[str], *, sample: int, seed: int
) -> dict[str, np.ndarray]:
    """The games each month scores (a seeded sample of at most ``sample`` a perf and month)
    by column: ``perf``, ``month``, ``score``, ``white_elo``, ``black_elo``, ``ord``, ``n``
    (the month's games every system predicts), ``white_side`` (the side the contenders
    see it from), ``e`` (FIDE's PD in hundredths) and ``e_<key>`` (each contender's
    expected score for White)."""
    duck.load_pd_table(con)
    cols: dict[str, np.ndarray] = con.execute(
        _sample_sql(con, perfs, sample, seed), [list(perfs)]
    ).fetchnumpy()
    return cols


def month_scores(
    con: duckdb.DuckDBPyConnection,
    perfs: Sequence[str],
    *,
    sample: int,
    resamples: int,
    seed: int,
) -> list[MonthScore]:
    """Every system's scores on each month's games (a seeded sample of at most ``sample``).

    Raises:
        NotRated: the lists were rated before ``db rate`` kept the contenders' tracks.
    """
    if not has_rivals(con):
        names = " and ".join(c.label for c in tracked())
        raise NotRated(
            f"the lists were made before db rate kept the {names} tracks: rate again (db rate)"
        )
    cols = scored_games(con, perfs, sample=sample, seed=seed)
    if len(cols["perf"]) == 0:
        return []
    return score_months(cols, _month_games(con, perfs), resamples=resamples, seed=seed)
