"""``db compare``: Elo - Lichess by rating band and month, both systems' predictive scores on
each month's games, and the players who differ most. Reads the lists ``db rate`` stored.

Predictions for a game (White's expected score, from what was known before the month):

* FIDE rules: PD from table 8.1.2 on White's and Black's list ratings of the month, with the
  chapter's 400-point rule: the same SQL expressions the stages use (``stages.capped_d``);
* Lichess Glicko-2: ``glicko.expected_score`` on the players' pre-game ratings from the
  headers, with the colour advantage where Lichess applied it; the dumps carry no RD, so the
  opponent's RD is the established one of the player report (``predictions``, 60);
* Glicko-1 and Stephenson's rating: ``rivals.expected`` (as SQL, ``rivals_sql``) from the
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
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import duckdb
import numpy as np

from lichess_elo.core import accuracy, glicko
from lichess_elo.core.accuracy import Comparison, Scores
from lichess_elo.core.population import list_rules, rulebook_sql, stages
from lichess_elo.core.population.rivals_sql import (
    CONTENDERS,
    LICHESS_RD,
    advantage_sql,
    expected_sql,
)
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import month_range, next_month
from lichess_elo.core.report.predictions import OPPONENT_RD_ESTABLISHED
from lichess_elo.errors import NotRated
from lichess_elo.sources.population import duck

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


#: The systems of the scorecard, by key and label, in table order (``compare_all`` pairs
#: them in this order, so the first pair is FIDE's rules against Lichess).
SYSTEMS: tuple[tuple[str, str], ...] = (
    ("fide", "FIDE rules"),
    ("lichess", "Lichess Glicko-2"),
    *((r.key, "Glicko-1" if r.key == "glicko1" else "Stephenson") for r in CONTENDERS),
)


@dataclass(frozen=True)
class MonthScore:
    """Every system's scores on one month's games of one perf (FIDE first)."""

    perf: str
    month: int
    games: int
    sampled: int
    fide: Scores
    lichess: Scores
    #: FIDE rules against Lichess Glicko-2.
    comparison: Comparison
    #: Glicko-1's and Stephenson's scores, by contender key.
    rivals: dict[str, Scores] = field(default_factory=dict)
    #: Every pair of ``SYSTEMS`` (by label), paired on the same games.
    comparisons: tuple[Comparison, ...] = ()
    #: The month's games that some system cannot predict, left out of all of them.
    left_out: int = 0

    def versus(self, first: str, second: str) -> Comparison | None:
        """The comparison of the systems labelled ``first`` and ``second``, oriented
        ``first - second``; ``None`` if not made."""
        for c in self.comparisons:
            if (c.first, c.second) == (first, second):
                return c
            if (c.second, c.first) == (first, second):
                flipped = c.interval and replace(
                    c.interval, low=-c.interval.high, high=-c.interval.low
                )
                return Comparison(
                    first,
                    second,
                    c.games,
                    c.second_deviance,
                    c.first_deviance,
                    None if c.difference is None else -c.difference,
                    flipped,
                )
        return None


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


def _rival_sql(rules_key: str, white_side: str) -> str:
    """White's expected score by one contender: the picked side's track against the
    opponent's Lichess rating, as White's score."""
    rules = next(r for r in CONTENDERS if r.key == rules_key)
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
    recorded = list_rules.read(con)
    as_of = {p: recorded[p].rules_as_of for p in perfs if p in recorded}
    white_d = rulebook_sql.predicted_d_sql(
        as_of, "g.perf", "g.month", "a.rating", "a.rating - b.rating"
    )
    white_side = f"(hash(g.ord + {seed + 1}) % 2 = 0)"
    rivals = ", ".join(f"{_rival_sql(r.key, white_side)} AS e_{r.key}" for r in CONTENDERS)
    tracks = ", ".join(
        f"{side}.{r.key}_{c} AS {side[1]}_{r.key}_{c}"
        for side in ("rw", "rb")
        for r in CONTENDERS
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


def lichess_expected(white: np.ndarray, black: np.ndarray, ords: np.ndarray) -> np.ndarray:
    """White's Glicko-2 expected score for each game (``glicko.expected_score``)."""
    out = np.empty(len(white))
    for i, (w, b, o) in enumerate(zip(white.tolist(), black.tolist(), ords.tolist(), strict=True)):
        when = datetime.fromtimestamp(o // ORD_SCALE, UTC)
        out[i] = glicko.expected_score(
            w, b, OPPONENT_RD_ESTABLISHED, advantage=glicko.advantage_for("standard", when)
        )
    return out


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
        raise NotRated(
            "the lists were made before db rate kept the Glicko-1 and Stephenson tracks: "
            "rate again (db rate)"
        )
    cols = scored_games(con, perfs, sample=sample, seed=seed)
    if len(cols["perf"]) == 0:
        return []
    totals = _month_games(con, perfs)
    perf_col = np.asarray(cols["perf"], dtype=object)
    month_col = np.asarray(cols["month"])
    keys = sorted(set(zip(perf_col.tolist(), month_col.tolist(), strict=True)))
    scores: list[MonthScore] = []
    for perf, month in keys:
        mask = (perf_col == perf) & (month_col == month)
        results = np.asarray(cols["score"])[mask] / 100
        predicted = {
            "fide": np.asarray(cols["e"])[mask] / 100,
            "lichess": lichess_expected(
                np.asarray(cols["white_elo"])[mask],
                np.asarray(cols["black_elo"])[mask],
                np.asarray(cols["ord"])[mask],
            ),
            **{r.key: np.asarray(cols[f"e_{r.key}"])[mask] for r in CONTENDERS},
        }
        pairs = accuracy.compare_all(
            [(label, predicted[key]) for key, label in SYSTEMS],
            results,
            resamples=resamples,
            seed=seed,
        )
        games = int(np.asarray(cols["n"])[mask][0])
        scores.append(
            MonthScore(
                perf,
                int(month),
                games,
                int(mask.sum()),
                accuracy.score(predicted["fide"], results),
                accuracy.score(predicted["lichess"], results),
                pairs[0],
                {r.key: accuracy.score(predicted[r.key], results) for r in CONTENDERS},
                pairs,
                totals.get((perf, int(month)), games) - games,
            )
        )
    return scores
