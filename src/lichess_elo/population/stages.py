"""The monthly rating stages, as SQL run unchanged by DuckDB and Spark SQL.

Inputs (tables or views the engine provides):

* ``games`` (or the table named by ``source``): the ingested games (``schema.GAMES_DDL``)
  of the perfs being rated;
* ``names`` (``names_sql``, stored once per run): an integer id for each player name and
  their seed in each perf, so the monthly stages join the list on integers: a player of
  a perf is ``pid``, the name's id and the perf in one integer (``_perf_key``);
* ``players`` (``players_sql``): one row per ``pid`` with the perf and the seed;
* ``cur``: the list at the start of month m of every player of the run (``INITIAL``
  before the first month: everyone at their seed; then ``ADVANCE``);
* ``step`` (``step_sql``): one row per player with games in month m; ``listed_sql``
  turns them into the stored ``lists`` rows, from which ``list_at_sql`` rebuilds any
  month's list;
* ``pd_table``: table 8.1.2 expanded to one row per |D| from 0 to 735, in hundredths
  (``pd_rows``), plus a row 736 for "> 735 -> 1.00 / .00".

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
from lichess_elo.core.fide.editions import EDITIONS, Edition
from lichess_elo.population.dialect import Dialect
from lichess_elo.population.schema import PERFS, STANDARD_CHAPTER_PERFS

#: |D| rows of ``pd_table``; the last stands for every |D| > 735.
PD_BEYOND = fide.TABLE_LIMIT + 1
#: The perfs of the Rapid & Blitz chapter.
RAPID_BLITZ_PERFS = tuple(p for p in PERFS if p not in STANDARD_CHAPTER_PERFS)


def pd_rows() -> Iterator[tuple[int, int, int]]:
    """(|D|, PD high, PD low) in hundredths for |D| = 0..736, from the packaged table 8.1.2."""
    for d in range(PD_BEYOND + 1):
        high = fide.expected_score(d, 0, cap=False)
        low = fide.expected_score(0, d, cap=False)
        yield d, int(high * 100), int(low * 100)


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


def k_sql(reached: str, games_before: str) -> str:
    """SQL for the list's K: 10 once 2400 was reached, 40 before 30 games, else 20."""
    return (
        f"CASE WHEN {reached} THEN {fide.K_2400} WHEN {games_before} < {fide.NEW_PLAYER_GAMES}"
        f" THEN {fide.K_NEW} ELSE {fide.K_STANDARD} END"
    )


def _perf_key(player_id: str, perf: str) -> str:
    """SQL for the key of a player in one perf: the name's id times the number of perfs plus
    the perf's place in ``PERFS``."""
    slots = " ".join(f"WHEN '{p}' THEN {i}" for i, p in enumerate(PERFS))
    return f"({player_id} * {len(PERFS)} + CASE {perf} {slots} END)"


def _perf_of(key: str) -> str:
    """SQL for the perf of a player key (the inverse of ``_perf_key``)."""
    slots = " ".join(f"WHEN {i} THEN '{p}'" for i, p in enumerate(PERFS))
    return f"CASE {key} % {len(PERFS)} {slots} END"


def names_sql(d: Dialect, source: str = "games") -> str:
    """One row per player name of ``source``: an integer id and, for each perf of
    ``PERFS`` (``seed_0``, ``seed_1``, ...), the seed: the ``...Elo`` of their first game
    there (earliest month, then earliest ``ord``), NULL without games there."""
    first = d.pair("month", "ord")
    seeds = ", ".join(
        f"min_by(elo, {first}) FILTER (WHERE perf = '{p}') AS seed_{i}" for i, p in enumerate(PERFS)
    )
    return f"""
    SELECT *, {d.row_id()} AS id FROM (
        SELECT name, {seeds} FROM (
            SELECT perf, white AS name, white_elo AS elo, month, ord FROM {source}
            UNION ALL
            SELECT perf, black AS name, black_elo AS elo, month, ord FROM {source}) x
        GROUP BY name) n"""


def players_sql() -> str:
    """One row per player of each perf (``pid``: see ``_perf_key``) with their seed."""
    return "\n    UNION ALL".join(
        f"""
    SELECT {_perf_key("id", f"'{p}'")} AS pid, '{p}' AS perf, seed_{i} AS seed
    FROM names WHERE seed_{i} IS NOT NULL"""
        for i, p in enumerate(PERFS)
    )


#: The list before the first month: every player at their seed (``players``). A player
#: without games in a month keeps their entry, so their first month starts from the seed.
INITIAL = f"""
    SELECT pid, perf, seed AS rating, CAST(0 AS BIGINT) AS games_before,
           seed >= {fide.RATING_FOR_K10} AS reached, CAST(NULL AS INTEGER) AS lichess_rating
    FROM players"""


#: The Rapid & Blitz chapter as it stands: its last edition, whose 600/2600 rule
#: (``fide_rules.not_rated``, in force from 1 December 2024) ``not_rated_sql`` applies.
RAPID_BLITZ_NOW: Edition = [e for e in EDITIONS if e.chapter == "rapid-blitz"][-1]


def not_rated_sql(white: str, black: str, perf: str) -> str:
    """SQL true for a game that the Rapid & Blitz chapter as it stands leaves unrated
    (RB24 as amended 1 December 2024: 600 or more apart on the list, one player above 2600),
    from the two list ratings. Like the rest of the stages, it applies to every month.

    Raises:
        ValueError: the chapter's last edition has no such rule (the packaged editions do).
    """
    gap, above = RAPID_BLITZ_NOW.non_rating_gap, RAPID_BLITZ_NOW.non_rating_above
    if gap is None or above is None:
        raise ValueError(f"{RAPID_BLITZ_NOW.key} has no 600/2600 rule")
    perfs = ", ".join(f"'{p}'" for p in RAPID_BLITZ_PERFS)
    return (
        f"({perf} IN ({perfs}) AND ABS({white} - {black}) >= {gap} "
        f"AND GREATEST({white}, {black}) > {above})"
    )


def step_sql(d: Dialect, month: int, source: str = "games", *, rule_600: bool = False) -> str:
    """One row for each player with games in ``month`` (by key, ``pid``): their entry in
    ``cur`` at the start of the month, what the month's games did to it and the entry it
    leads to.

    With ``rule_600``, the games ``not_rated_sql`` names are left out, as if not played.
    """
    unrated = f" AND NOT {not_rated_sql('a.rating', 'b.rating', 'mg.perf')}" if rule_600 else ""
    k = k_sql("l.reached", "l.games_before")
    k_used = (
        f"CASE WHEN ({k}) * g.n > {fide.K_TIMES_GAMES_MAX} "
        f"THEN {d.idiv(str(fide.K_TIMES_GAMES_MAX), 'g.n')} ELSE {k} END"
    )
    x = f"(({k_used}) * (g.points - g.expected))"
    change = (
        f"CASE WHEN {x} >= 0 THEN {d.idiv(f'{x} + 50', '100')} "
        f"ELSE -{d.idiv(f'-{x} + 50', '100')} END"
    )
    return f"""
    WITH pair AS (
        SELECT a.perf, a.pid AS w, b.pid AS b, mg.score, mg.ord,
               mg.white_elo + COALESCE(mg.white_diff, 0) AS white_after,
               mg.black_elo + COALESCE(mg.black_diff, 0) AS black_after,
               a.rating AS rw, b.rating AS rb
        FROM {source} mg
        JOIN names wn ON wn.name = mg.white
        JOIN names bn ON bn.name = mg.black
        JOIN cur a ON a.pid = {_perf_key("wn.id", "mg.perf")}
        JOIN cur b ON b.pid = {_perf_key("bn.id", "mg.perf")}
        WHERE mg.month = {month}{unrated}),
    rated AS (
        SELECT perf, w AS pid, score AS s, white_after AS lichess_after, ord,
               rw AS own, rb AS opp_r FROM pair
        UNION ALL
        SELECT perf, b AS pid, 100 - score AS s, black_after AS lichess_after, ord,
               rb AS own, rw AS opp_r FROM pair),
    capped AS (
        SELECT pid, s, lichess_after, ord, {capped_d("own", "own - opp_r", "perf")} AS d
        FROM rated),
    scored AS (
        SELECT c.pid, c.s, c.lichess_after, c.ord, {pd_value("t", "c.d")} AS e
        FROM capped c
        JOIN pd_table t ON {pd_join("t", "c.d")}),
    g AS (
        SELECT pid, COUNT(*) AS n, CAST(SUM(s) AS BIGINT) AS points,
               CAST(SUM(e) AS BIGINT) AS expected, max_by(lichess_after, ord) AS last_lichess
        FROM scored GROUP BY pid)
    SELECT l.pid, l.perf, {month} AS month, l.rating, l.games_before, {k} AS k, l.reached,
           l.lichess_rating, g.n AS games, g.points, g.expected, {k_used} AS k_used,
           CAST({change} AS INTEGER) AS change,
           CAST(l.rating + ({change}) AS INTEGER) AS next_rating,
           l.games_before + g.n AS next_games_before,
           l.reached OR l.rating + ({change}) >= {fide.RATING_FOR_K10} AS next_reached,
           COALESCE(g.last_lichess, l.lichess_rating) AS next_lichess
    FROM cur l JOIN g ON g.pid = l.pid"""


def listed_sql(d: Dialect) -> str:
    """The rows of ``lists`` (``schema.LISTS_COLUMNS``) from the rows of ``step``."""
    return f"""
    SELECT s.perf, n.name, s.month, s.rating, s.games_before, s.k, s.reached,
           s.lichess_rating, s.games, s.points, s.expected, s.k_used, s.change,
           s.next_rating, s.next_games_before, s.next_reached, s.next_lichess
    FROM step s JOIN names n ON n.id = {d.idiv("s.pid", str(len(PERFS)))}"""


#: The list at the start of the next month: ``cur`` with the entries in ``step`` replaced
#: (a player with no games keeps R).
ADVANCE = """
    SELECT c.pid, c.perf, c.rating, c.games_before, c.reached, c.lichess_rating
    FROM cur c LEFT JOIN step s ON s.pid = c.pid
    WHERE s.pid IS NULL
    UNION ALL
    SELECT pid, perf, next_rating AS rating, next_games_before AS games_before,
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
