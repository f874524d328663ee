"""The stored lists read back as typed rows: the span of a perf's lists, the list at the
start of a month (``db list``) and a player's monthly rows (``db player``)."""

from __future__ import annotations

import duckdb

from lichess_elo.core.population import stages
from lichess_elo.core.population.rows import ListRow, PlayerRow
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import month_label
from lichess_elo.core.words import fold


def list_span(con: duckdb.DuckDBPyConnection, perf: str) -> tuple[int, int] | None:
    """The first and last month (YYYYMM) with rows of ``perf``, ``None`` without any."""
    row = con.execute("SELECT MIN(month), MAX(month) FROM lists WHERE perf = ?", [perf]).fetchone()
    if row is None or row[0] is None:
        return None
    return int(row[0]), int(row[1])


def list_players(
    con: duckdb.DuckDBPyConnection, perf: str, rules: MonthRules, *, adjustments: bool
) -> list[ListRow]:
    """The list of ``perf`` at the start of the month of ``rules``, by rating (highest
    first), then name; ``adjustments``: the compressions in between are applied."""
    at = stages.list_at_sql(rules, "l.perf = ?", adjustments=adjustments)
    found = con.execute(
        f"""SELECT name, rating, games_before, k, lichess_rating
            FROM ({at})
            ORDER BY rating DESC, name""",
        [perf],
    ).fetchall()
    return [
        ListRow(name=name, rating=rating, games_before=before, k=k, lichess_rating=lichess)
        for name, rating, before, k, lichess in found
    ]


#: How many stored names ``names_near`` hands on, and how like the typed one they must be
#: (DuckDB's Jaro-Winkler similarity of the lower-case names, 0..1).
NEAR_NAMES = 10
NEAR_SIMILARITY = 0.75


def names_near(con: duckdb.DuckDBPyConnection, name: str, perf: str | None) -> list[str]:
    """Up to ``NEAR_NAMES`` names of the lists (in every perf or in ``perf``) most like
    ``name``, the most like first: the candidates of a "did you mean" (one scan of the
    names, made only when a name is not found)."""
    found = con.execute(
        """SELECT name, max(jaro_winkler_similarity(lower(name), ?)) AS near
           FROM lists WHERE (? IS NULL OR perf = ?)
           GROUP BY name HAVING near >= ?
           ORDER BY near DESC, name LIMIT ?""",
        [fold(name), perf, perf, NEAR_SIMILARITY, NEAR_NAMES],
    ).fetchall()
    return [str(row[0]) for row in found]


def perfs_of(con: duckdb.DuckDBPyConnection, name: str) -> list[str]:
    """The perfs whose lists hold the player ``name`` (case and accents folded)."""
    found = con.execute(
        "SELECT DISTINCT perf FROM lists WHERE lower(name) = ? ORDER BY perf", [fold(name)]
    ).fetchall()
    return [str(row[0]) for row in found]


def player_rows(con: duckdb.DuckDBPyConnection, name: str, perf: str | None) -> list[PlayerRow]:
    """Every row of the player ``name`` (case and accents folded: Lichess names are ASCII
    letters, digits, ``_`` and ``-``), in every perf or in ``perf``, by perf then month;
    ``points`` and ``expected`` in points (stored in hundredths)."""
    found = con.execute(
        """SELECT perf, name, month, rating, games_before, k, lichess_rating, games,
                  points, expected, k_used, change, next_rating, edition
           FROM lists WHERE lower(name) = ? AND (? IS NULL OR perf = ?)
           ORDER BY perf, month""",
        [fold(name), perf, perf],
    ).fetchall()
    return [
        PlayerRow(
            perf=r[0],
            name=r[1],
            month=month_label(r[2]),
            rating=r[3],
            games_before=r[4],
            k=r[5],
            lichess_rating=r[6],
            games=r[7],
            points=r[8] / 100,
            expected=r[9] / 100,
            k_used=r[10],
            change=r[11],
            next_rating=r[12],
            edition=r[13],
        )
        for r in found
    ]
