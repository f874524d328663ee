"""The monthly rating stages, as SQL run unchanged by DuckDB and Spark SQL.

Inputs (tables or views the engine provides):

* ``games`` (or the table named by ``source``): the ingested games (``schema.GAMES_DDL``)
  of the perfs being rated;
* ``cur``: the list at the start of month m for everyone who played before m
  (perf, name, rating, games_before, reached, lichess_rating);
* the stored ``lists`` hold one row per player and month with games (``step_sql``); the
  list of any month is rebuilt from them by ``list_at_sql``;
* ``pd_table``: table 8.1.2 expanded to one row per |D| from 0 to 735, in hundredths
  (``pd_rows``), plus a row 736 for "> 735 -> 1.00 / .00";
* ``seeds``: made by ``SEEDS`` for month m.

Rules (issue #13 "Default semantics"; FIDE rules from docs/rules.md):

* Seed: a player enters a perf's list in the month of their first game there, at the
  ``...Elo`` of that game (the earliest game by time, then by position in the file).
* D = own R_m - opponent's R_m, each side computed separately; |D| > 400 counts as 400
  (RB24 §7.3.1 for bullet/blitz/rapid; H24 §8.3.1 for classical, where a player rated 2650
  or more uses the real D). PD from table 8.1.2, H column for D >= 0, L for D < 0.
* K: 10 once R (seed included) has reached 2400; else 40 while fewer than 30 games before
  m; else 20; then the 700 rule: K x n > 700 -> the largest whole K with K x n <= 700.
* Change = K x sum(S - PD), rounded once, half away from zero (§8.3.4). All arithmetic is in
  whole hundredths, so both engines give the same integers.
"""

from __future__ import annotations

from collections.abc import Iterator

from lichess_elo.core import fide
from lichess_elo.population.dialect import Dialect
from lichess_elo.population.schema import STANDARD_CHAPTER_PERFS

#: |D| rows of ``pd_table``; the last stands for every |D| > 735.
PD_BEYOND = fide.TABLE_LIMIT + 1


def pd_rows() -> Iterator[tuple[int, int, int]]:
    """(|D|, PD high, PD low) in hundredths for |D| = 0..736, from the packaged table 8.1.2."""
    for d in range(PD_BEYOND + 1):
        high = fide.expected_score(d, 0, cap=False)
        low = fide.expected_score(0, d, cap=False)
        yield d, int(high * 100), int(low * 100)


def _sides(month: int, source: str) -> str:
    """Each game of the month twice, once from each player's side (score in hundredths)."""
    return f"""
        SELECT perf, white AS name, black AS opp, score AS s,
               white_elo AS elo, white_elo + COALESCE(white_diff, 0) AS lichess_after, ord
        FROM {source} WHERE month = {month}
        UNION ALL
        SELECT perf, black AS name, white AS opp, 100 - score AS s,
               black_elo AS elo, black_elo + COALESCE(black_diff, 0) AS lichess_after, ord
        FROM {source} WHERE month = {month}"""


def capped_d(own: str, diff: str, perf: str) -> str:
    """SQL for D after the 400-point rule of the perf's chapter (see the module docstring).

    Args:
        own: the rating of the player whose D it is; ``diff``: own - opponent;
        perf: the perf column.
    """
    classical = ", ".join(f"'{p}'" for p in sorted(STANDARD_CHAPTER_PERFS))
    cap, exempt = fide.CAP_DIFFERENCE, fide.CAP_EXEMPT_FROM
    return (
        f"CASE WHEN {perf} IN ({classical}) AND {own} >= {exempt} THEN {diff} "
        f"WHEN {diff} > {cap} THEN {cap} WHEN {diff} < -{cap} THEN -{cap} ELSE {diff} END"
    )


def pd_join(table: str, d: str) -> str:
    """The join condition picking the ``pd_table`` row of a (capped) D."""
    return f"{table}.d = LEAST(ABS({d}), {PD_BEYOND})"


def pd_value(table: str, d: str) -> str:
    """PD in hundredths from the joined ``pd_table`` row: H column for D >= 0, else L."""
    return f"CASE WHEN {d} >= 0 THEN {table}.pd_high ELSE {table}.pd_low END"


def seeds_sql(month: int, source: str = "games") -> str:
    """Players new in ``month`` (not in ``cur``), at the Elo of their first game."""
    return f"""
    SELECT f.perf, f.name, f.seed AS rating, 0 AS games_before, f.seed >= {fide.RATING_FOR_K10}
           AS reached, CAST(NULL AS INTEGER) AS lichess_rating
    FROM (SELECT perf, name, min_by(elo, ord) AS seed FROM ({_sides(month, source)}) x
          GROUP BY perf, name) f
    LEFT JOIN cur c ON c.perf = f.perf AND c.name = f.name
    WHERE c.name IS NULL"""


def k_sql(reached: str, games_before: str) -> str:
    """SQL for the list's K: 10 once 2400 was reached, 40 before 30 games, else 20."""
    return (
        f"CASE WHEN {reached} THEN {fide.K_2400} WHEN {games_before} < {fide.NEW_PLAYER_GAMES}"
        f" THEN {fide.K_NEW} ELSE {fide.K_STANDARD} END"
    )


def step_sql(d: Dialect, month: int, source: str = "games") -> str:
    """One row for each player with games in ``month``: their list entry at the start of the
    month and what the month's games did to it."""
    k = k_sql("l.reached", "l.games_before")
    k_used = (
        f"CASE WHEN g.n IS NULL THEN {k} WHEN ({k}) * g.n > {fide.K_TIMES_GAMES_MAX} "
        f"THEN {d.idiv(str(fide.K_TIMES_GAMES_MAX), 'g.n')} ELSE {k} END"
    )
    x = f"(({k_used}) * COALESCE(g.h, 0))"
    change = (
        f"CASE WHEN {x} >= 0 THEN {d.idiv(f'{x} + 50', '100')} "
        f"ELSE -{d.idiv(f'-{x} + 50', '100')} END"
    )
    return f"""
    WITH mg AS (SELECT * FROM {source} WHERE month = {month}),
    act AS (SELECT perf, white AS name FROM mg UNION SELECT perf, black AS name FROM mg),
    lst AS (
        SELECT c.perf, c.name, c.rating, c.games_before, c.reached, c.lichess_rating
        FROM cur c JOIN act ON act.perf = c.perf AND act.name = c.name
        UNION ALL
        SELECT perf, name, rating, games_before, reached, lichess_rating FROM seeds),
    pair AS (
        SELECT mg.perf, mg.white, mg.black, mg.score, mg.ord, a.rating AS rw, b.rating AS rb,
               mg.white_elo + COALESCE(mg.white_diff, 0) AS white_after,
               mg.black_elo + COALESCE(mg.black_diff, 0) AS black_after
        FROM mg
        JOIN lst a ON a.perf = mg.perf AND a.name = mg.white
        JOIN lst b ON b.perf = mg.perf AND b.name = mg.black),
    rated AS (
        SELECT perf, white AS name, score AS s, white_after AS lichess_after, ord,
               rw AS own, rb AS opp_r FROM pair
        UNION ALL
        SELECT perf, black AS name, 100 - score AS s, black_after AS lichess_after, ord,
               rb AS own, rw AS opp_r FROM pair),
    capped AS (
        SELECT perf, name, s, lichess_after, ord, {capped_d("own", "own - opp_r", "perf")} AS d
        FROM rated),
    scored AS (
        SELECT c.perf, c.name, c.s, c.lichess_after, c.ord,
               {pd_value("t", "c.d")} AS e
        FROM capped c
        JOIN pd_table t ON {pd_join("t", "c.d")}),
    g AS (
        SELECT perf, name, COUNT(*) AS n, CAST(SUM(s) AS BIGINT) AS points,
               CAST(SUM(e) AS BIGINT) AS expected, CAST(SUM(s - e) AS BIGINT) AS h,
               max_by(lichess_after, ord) AS last_lichess
        FROM scored GROUP BY perf, name)
    SELECT l.perf, l.name, {month} AS month, l.rating, l.games_before, {k} AS k, l.reached,
           l.lichess_rating, COALESCE(g.n, 0) AS games, COALESCE(g.points, 0) AS points,
           COALESCE(g.expected, 0) AS expected, {k_used} AS k_used,
           CAST({change} AS INTEGER) AS change,
           CAST(l.rating + ({change}) AS INTEGER) AS next_rating,
           l.games_before + COALESCE(g.n, 0) AS next_games_before,
           l.reached OR l.rating + ({change}) >= {fide.RATING_FOR_K10} AS next_reached,
           COALESCE(g.last_lichess, l.lichess_rating) AS next_lichess
    FROM lst l JOIN g ON g.perf = l.perf AND g.name = l.name"""


#: The list of the next month: ``cur`` with the rows of the players in ``step`` replaced.
ADVANCE = """
    SELECT c.perf, c.name, c.rating, c.games_before, c.reached, c.lichess_rating
    FROM cur c LEFT JOIN step s ON s.perf = c.perf AND s.name = c.name
    WHERE s.name IS NULL
    UNION ALL
    SELECT perf, name, next_rating AS rating, next_games_before AS games_before,
           next_reached AS reached, next_lichess AS lichess_rating
    FROM step"""


def list_at_sql(month: int, perf_filter: str = "TRUE") -> str:
    """The lists at the start of ``month``, from the stored rows (``lists``).

    A player's entry is their row of ``month`` when they played then, else what their last
    row before it led to (a player with no games keeps R).
    """
    now = f"l.month = {month}"
    k_then = k_sql("l.next_reached", "l.next_games_before")
    return f"""
    SELECT l.perf, l.name,
           CASE WHEN {now} THEN l.rating ELSE l.next_rating END AS rating,
           CASE WHEN {now} THEN l.games_before ELSE l.next_games_before END AS games_before,
           CASE WHEN {now} THEN l.k ELSE {k_then} END AS k,
           CASE WHEN {now} THEN l.lichess_rating ELSE l.next_lichess END AS lichess_rating
    FROM lists l WHERE l.month <= {month} AND ({perf_filter})
    QUALIFY row_number() OVER (PARTITION BY l.perf, l.name ORDER BY l.month DESC) = 1"""
