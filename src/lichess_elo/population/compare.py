"""``db compare``: Elo - Lichess by rating band and month, both systems' predictive scores on
each month's games, and the players who differ most. Reads the lists ``db rate`` stored.

Predictions for a game (White's expected score, from what was known before the month):

* FIDE rules: PD from table 8.1.2 on White's and Black's list ratings of the month, with the
  chapter's 400-point rule: the same SQL expressions the stages use (``stages.capped_d``);
* Lichess Glicko-2: ``glicko.expected_score`` on the players' pre-game ratings from the
  headers, with the colour advantage where Lichess applied it; the dumps carry no RD, so the
  opponent's RD is the established one of the player report (``predictions``, 60).

Scores and the paired bootstrap come from ``core.accuracy`` (the player report's scorecard).
Each month is scored on a seeded sample of at most ``sample`` games per perf, so the time
and memory of ``compare`` do not grow with the size of the month.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import duckdb
import numpy as np

from lichess_elo.core import accuracy, glicko
from lichess_elo.core.accuracy import Comparison, Scores
from lichess_elo.core.report.predictions import OPPONENT_RD_ESTABLISHED
from lichess_elo.errors import NotRated
from lichess_elo.population import duck, list_rules, rulebook_sql, stages
from lichess_elo.population.rulebook_sql import MonthRules
from lichess_elo.population.schema import month_range, next_month

#: ``games.ord`` = epoch seconds x this + position in the file.
ORD_SCALE = 1_000_000_000


@dataclass(frozen=True)
class BandRow:
    """Players of one Lichess-rating band on one list, and their Elo - Lichess."""

    perf: str
    month: int
    band: int
    players: int
    mean: float
    median: float


@dataclass(frozen=True)
class MonthScore:
    """Both systems' scores on one month's games of one perf (FIDE first)."""

    perf: str
    month: int
    games: int
    sampled: int
    fide: Scores
    lichess: Scores
    comparison: Comparison


@dataclass(frozen=True)
class Differ:
    """A player on the last list whose FIDE-rules rating is far from the Lichess one."""

    perf: str
    name: str
    rating: int
    lichess_rating: int
    games_before: int

    @property
    def difference(self) -> int:
        """Elo - Lichess."""
        return self.rating - self.lichess_rating


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
    rules = list_rules.read(con).get(perf)
    if rules is None:
        raise NotRated(
            f"the {perf} lists were made before lists recorded their rules: rate again (db rate)"
        )
    return (
        rulebook_sql.month_rules(month, as_of=rules.rules_as_of, adjustments=rules.adjustment),
        rules.adjustment,
    )


def _list_at(con: duckdb.DuckDBPyConnection, perf: str, month: int) -> str:
    rules, adjustment = _month_rules(con, perf, month)
    return stages.list_at_sql(rules, "l.perf = ?", adjustments=adjustment)


def _sample_sql(
    con: duckdb.DuckDBPyConnection, perfs: Sequence[str], sample: int, seed: int
) -> str:
    recorded = list_rules.read(con)
    as_of = {p: recorded[p].rules_as_of for p in perfs if p in recorded}
    white_d = rulebook_sql.predicted_d_sql(
        as_of, "g.perf", "g.month", "a.rating", "a.rating - b.rating"
    )
    return f"""
    SELECT g.perf, g.month, g.score, g.white_elo, g.black_elo, g.ord, g.n,
           {stages.pd_value("t", "g.d")} AS e
    FROM (SELECT g.*, {white_d} AS d, COUNT(*) OVER (PARTITION BY g.perf, g.month) AS n
          FROM games g
          JOIN lists a ON a.perf = g.perf AND a.month = g.month AND a.name = g.white
          JOIN lists b ON b.perf = g.perf AND b.month = g.month AND b.name = g.black
          WHERE g.perf IN (SELECT UNNEST(?))
          QUALIFY row_number() OVER (PARTITION BY g.perf, g.month
                                     ORDER BY hash(g.ord + {seed})) <= {sample}) g
    JOIN pd_table t ON {stages.pd_join("t", "g.d")}
    ORDER BY g.perf, g.month, g.ord"""


def lichess_expected(white: np.ndarray, black: np.ndarray, ords: np.ndarray) -> np.ndarray:
    """White's Glicko-2 expected score for each game (``glicko.expected_score``)."""
    out = np.empty(len(white))
    for i, (w, b, o) in enumerate(zip(white.tolist(), black.tolist(), ords.tolist(), strict=True)):
        when = datetime.fromtimestamp(o // ORD_SCALE, UTC)
        out[i] = glicko.expected_score(
            w, b, OPPONENT_RD_ESTABLISHED, advantage=glicko.advantage_for("standard", when)
        )
    return out


def month_scores(
    con: duckdb.DuckDBPyConnection,
    perfs: Sequence[str],
    *,
    sample: int,
    resamples: int,
    seed: int,
) -> list[MonthScore]:
    """Both systems' scores on each month's games (a seeded sample of at most ``sample``)."""
    duck.load_pd_table(con)
    cols = con.execute(_sample_sql(con, perfs, sample, seed), [list(perfs)]).fetchnumpy()
    if len(cols["perf"]) == 0:
        return []
    perf_col = np.asarray(cols["perf"], dtype=object)
    month_col = np.asarray(cols["month"])
    keys = sorted(set(zip(perf_col.tolist(), month_col.tolist(), strict=True)))
    scores: list[MonthScore] = []
    for perf, month in keys:
        mask = (perf_col == perf) & (month_col == month)
        results = np.asarray(cols["score"])[mask] / 100
        fide_p = np.asarray(cols["e"])[mask] / 100
        lichess_p = lichess_expected(
            np.asarray(cols["white_elo"])[mask],
            np.asarray(cols["black_elo"])[mask],
            np.asarray(cols["ord"])[mask],
        )
        scores.append(
            MonthScore(
                perf,
                int(month),
                int(np.asarray(cols["n"])[mask][0]),
                int(mask.sum()),
                accuracy.score(fide_p, results),
                accuracy.score(lichess_p, results),
                accuracy.compare(
                    fide_p,
                    lichess_p,
                    results,
                    names=("FIDE rules", "Lichess Glicko-2"),
                    resamples=resamples,
                    seed=seed,
                ),
            )
        )
    return scores
