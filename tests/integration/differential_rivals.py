"""The differential check of the Glicko-1 and Stephenson tracks of ``db rate``: a Python
reference built on ``core/report/rivals.py`` alone (its ``inflate``, ``period_update`` and
``track``), run on the ingested games player by player, against the stored ``rivals`` rows
and ``db compare``'s expected scores.

Tolerance: both engines compute in IEEE doubles with the same operations, but add a month's
terms (the sums of steps 2 and 4, the opponents' mean) in whatever order their plan gives,
and a rounding in the last bit of a sum carries through the months. Ratings are near 10^3,
so 1e-9 is about 10^4 times the rounding of one double there and a million times below
any change the rules make; a wrong constant or term moves them by far more (see the test).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import duckdb

from lichess_elo.core.population.rivals_sql import rivals_columns
from lichess_elo.core.report import rivals
from lichess_elo.core.report.predictions import OPPONENT_RD_ESTABLISHED as LICHESS_RD

#: The contenders straight from the core (not from the SQL generator's tuple).
CONTENDERS = (rivals.GLICKO1, rivals.STEPHENSON)

TOLERANCE = 1e-9


@dataclass(frozen=True)
class Side:
    """One side of a stored game, as the player's track sees it."""

    month: int
    ord: int
    opponent: float
    score: float
    colour: int


def sides_by_player(db: Path) -> dict[tuple[str, str], list[Side]]:
    """Every (perf, player)'s sides, oldest first (month, then position in the dumps)."""
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT perf, white, black, white_elo, black_elo, score, month, ord FROM games"
    ).fetchall()
    con.close()
    out: dict[tuple[str, str], list[Side]] = defaultdict(list)
    for perf, white, black, we, be, score, month, ord_ in rows:
        out[(perf, white)].append(Side(month, ord_, float(be), score / 100, 1))
        out[(perf, black)].append(Side(month, ord_, float(we), (100 - score) / 100, -1))
    for sides in out.values():
        sides.sort(key=lambda s: (s.month, s.ord))
    return out


def _seed(db: Path) -> dict[tuple[str, str], float]:
    """Each player's ``...Elo`` in their first game of the perf (``stages.names_sql``)."""
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        """SELECT perf, name, arg_min(elo, (month, ord)) FROM (
               SELECT perf, white AS name, white_elo AS elo, month, ord FROM games
               UNION ALL SELECT perf, black, black_elo, month, ord FROM games) GROUP BY 1, 2"""
    ).fetchall()
    con.close()
    return {(p, n): float(e) for p, n, e in rows}


def reference_rows(db: Path) -> list[tuple[object, ...]]:
    """The ``rivals`` rows (``rivals_columns()``) by the reference, sorted by perf, name, month."""
    seeds = _seed(db)
    out = []
    for (perf, name), sides in sorted(sides_by_player(db).items()):
        months = sorted({s.month for s in sides})
        state = {r.key: (seeds[(perf, name)], LICHESS_RD) for r in CONTENDERS}
        last: int | None = None
        per_month: dict[int, list[object]] = {m: [perf, name, m] for m in months}
        for month in months:
            batch = [s for s in sides if s.month == month]
            now = rivals.month_index(month // 100, month % 100)
            per_month[month].append(len(batch))
            for r in CONTENDERS:
                rating, rd = state[r.key]
                rd = rivals.inflate(rd, 1 if last is None else now - last, r)
                games = [rivals.Opponent(s.opponent, LICHESS_RD, s.score, s.colour) for s in batch]
                new, new_rd = rivals.period_update(rating, rd, games, r)
                per_month[month] += [rating, rd, new, new_rd]
                state[r.key] = (new, new_rd)
            last = now
        out += [tuple(per_month[m]) for m in months]
    return out


def reference_expected(db: Path) -> dict[tuple[str, int, str], float]:
    """Each side's predicted score by ``rivals.track`` itself: (contender, game ord, colour
    word) -> expected score of that side."""
    seeds = _seed(db)
    out: dict[tuple[str, int, str], float] = {}
    for (perf, name), sides in sides_by_player(db).items():
        track_games = [
            rivals.TrackGame(
                rivals.month_index(s.month // 100, s.month % 100),
                rivals.Opponent(s.opponent, LICHESS_RD, s.score, s.colour),
                True,
            )
            for s in sides
        ]
        for r in CONTENDERS:
            predicted = rivals.track(track_games, seeds[(perf, name)], LICHESS_RD, r)
            for s, p in zip(sides, predicted, strict=True):
                out[(r.key, s.ord, "white" if s.colour == 1 else "black")] = p
    return out


def stored_rows(db: Path) -> list[tuple[object, ...]]:
    """The stored ``rivals`` rows, sorted as the reference's."""
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        f"SELECT {', '.join(rivals_columns())} FROM rivals ORDER BY perf, name, month"
    ).fetchall()
    con.close()
    return rows


def row_differences(ours: list[tuple[object, ...]], theirs: list[tuple[object, ...]]) -> list[str]:
    """Each (perf, player, month) missing on one side, or with a count that differs or a
    number more than ``TOLERANCE`` apart."""
    a = {r[:3]: r for r in ours}
    b = {r[:3]: r for r in theirs}
    out = []
    for key in sorted(a.keys() | b.keys()):
        x, y = a.get(key), b.get(key)
        if x is None or y is None or x[3] != y[3]:
            out.append(f"{key}: {x} != {y}")
            continue
        if any(abs(float(u) - float(v)) > TOLERANCE for u, v in zip(x[4:], y[4:], strict=True)):  # type: ignore[arg-type]
            out.append(f"{key}: {x} != {y}")
    return out
