"""The monthly rating stages, as SQL run unchanged by DuckDB and Spark SQL (the plumbing;
the rules themselves are generated from the rulebook by ``rulebook_sql``).

Inputs (tables or views the engine provides):

* ``games`` (or the table named by ``source``): the ingested games (``schema.GAMES_DDL``)
  of the perfs being rated;
* ``names`` (``names_sql``, stored once per run): an integer id for each player name and
  their seed in each perf, so the monthly stages join the list on integers: a player of
  a perf is ``pid``, the name's id and the perf in one integer (``perf_key``);
* ``players`` (``players_sql``): one row per ``pid`` with the perf and the seed;
* ``cur``: the list at the start of month m of every player of the run (``INITIAL``
  before the first month: everyone at their seed; then ``ADVANCE``, and ``compress_sql``
  at the start of a month that carries a one-time compression);
* ``step`` (``step_sql``): one row per player with rated games in month m; ``listed_sql``
  turns them into the stored ``lists`` rows, from which ``list_at_sql`` rebuilds any
  month's list;
* ``pd_table``: table 8.1.2 expanded to one row per |D| from 0 to 735, in hundredths
  (``pd_rows``), plus a row 736 for "> 735 -> 1.00 / .00".

Semantics (the rules of each month from its ``MonthRules``):

* Seed: a player enters a perf's list in the month of their first game there, at the
  ``...Elo`` of that game (the earliest game by time, then by position in the file).
* Each side is computed separately: D = own R_m - the opponent's rating, which is the
  opponent's R_m (``opponents="list"``) or their Lichess rating in the game (``"lichess"``).
* ``peak`` is the highest list rating the player has had (seed included): K's 2400 rule.
* Change = K x sum(S - PD), rounded once, half away from zero (8.3.4). All arithmetic is in
  whole hundredths, so both engines give the same integers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from lichess_elo.core import fide
from lichess_elo.core.population import rulebook_sql
from lichess_elo.core.population.dialect import DUCKDB, Dialect
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import PERFS

#: Where an opponent's rating comes from: their own list rating in the run, or their
#: Lichess rating in the game (as ``report`` does).
Opponents = Literal["list", "lichess"]
OPPONENTS: tuple[Opponents, ...] = ("list", "lichess")
#: |D| rows of ``pd_table``; the last stands for every |D| > 735.
PD_BEYOND = fide.TABLE_LIMIT + 1


def pd_rows() -> Iterator[tuple[int, int, int]]:
    """(|D|, PD high, PD low) in hundredths for |D| = 0..736, from the packaged table 8.1.2."""
    for d in range(PD_BEYOND + 1):
        high = fide.expected_score(d, 0, cap=False)
        low = fide.expected_score(0, d, cap=False)
        yield d, int(high * 100), int(low * 100)


def pd_join(table: str, d: str) -> str:
    """The join condition picking the ``pd_table`` row of a (capped) D."""
    return f"{table}.d = LEAST(ABS({d}), {PD_BEYOND})"


def pd_value(table: str, d: str) -> str:
    """PD in hundredths from the joined ``pd_table`` row: H column for D >= 0, else L."""
    return f"CASE WHEN {d} >= 0 THEN {table}.pd_high ELSE {table}.pd_low END"


def perf_key(player_id: str, perf: str) -> str:
    """SQL for the key of a player in one perf: the name's id times the number of perfs plus
    the perf's place in ``PERFS``."""
    slots = " ".join(f"WHEN '{p}' THEN {i}" for i, p in enumerate(PERFS))
    return f"({player_id} * {len(PERFS)} + CASE {perf} {slots} END)"


def _perf_of(key: str) -> str:
    """SQL for the perf of a player key (the inverse of ``perf_key``)."""
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
    """One row per player of each perf (``pid``: see ``perf_key``) with their seed."""
    return "\n    UNION ALL".join(
        f"""
    SELECT {perf_key("id", f"'{p}'")} AS pid, '{p}' AS perf, seed_{i} AS seed
    FROM names WHERE seed_{i} IS NOT NULL"""
        for i, p in enumerate(PERFS)
    )


#: The list before the first month: every player at their seed (``players``). A player
#: without games in a month keeps their entry, so their first month starts from the seed.
INITIAL = """
    SELECT pid, perf, seed AS rating, CAST(0 AS BIGINT) AS games_before,
           seed AS peak, CAST(NULL AS INTEGER) AS lichess_rating
    FROM players"""


def compress_sql(d: Dialect, rules: MonthRules) -> str:
    """``cur`` after the month's compressions (``rules.compressions``): every listed player
    (one with rated games before the month) at ``editions.adjusted`` of their rating."""
    rating = rulebook_sql.adjusted_sql(d, rules.compressions, "perf", "rating")
    return f"""
    SELECT pid, perf, CASE WHEN games_before > 0 THEN {rating} ELSE rating END AS rating,
           games_before,
           GREATEST(peak, CASE WHEN games_before > 0 THEN {rating} ELSE rating END) AS peak,
           lichess_rating
    FROM cur"""


def step_sql(
    d: Dialect, rules: MonthRules, source: str = "games", *, opponents: Opponents = "list"
) -> str:
    """One row for each player with rated games in the month of ``rules`` (by key,
    ``pid``): their entry in ``cur`` at the start of the month, what the month's rated
    games did to it and the entry it leads to, under the month's editions.

    Each game is rated under its own chapter (``rulebook_sql.game_chapter_sql``): a
    player's month is rated in parts, one a chapter, each with its K, 700 rule and rounding
    (as ``report`` rates a period; docs/rules.md); the change is the parts' sum, and K and
    the edition shown are the main part's (most games, then the earliest game)."""
    month = rules.month
    opp_w, opp_b = ("rb", "rw") if opponents == "list" else ("be", "we")
    left_out = (
        f" WHERE NOT {rulebook_sql.not_rated_sql(rules, 'perf', 'own', 'opp_r', 'chapter')}"
        if rulebook_sql.has_rule_600(rules)
        else ""
    )
    diff = "own - opp_r"
    rank = "1"
    if rulebook_sql.per_event(rules):
        upgrade = rulebook_sql.upgrade_sql(rules, "perf", diff, "chapter")
        rank = (
            f"row_number() OVER (PARTITION BY pid, chapter, COALESCE(event, ''), {upgrade} "
            f"ORDER BY {diff} DESC, ord)"
        )
    capped = rulebook_sql.capped_d_sql(rules, "perf", "own", diff, "ev_rank", "chapter")
    k = rulebook_sql.k_sql(rules, "l.perf", "l.peak", "l.games_before", "gc.chapter")
    k_used = rulebook_sql.k_used_sql(d, rules, "l.perf", k, "gc.n", "gc.chapter")
    x = f"(({k_used}) * (gc.points - gc.expected))"
    change = rulebook_sql.rounded_change_sql(d, x)
    chapter = rulebook_sql.game_chapter_sql("mg.chapter", "mg.perf")
    main = d.pair("n", "-first_ord")
    return f"""
    WITH pair AS (
        SELECT a.perf, a.pid AS w, b.pid AS b, mg.score, mg.ord, mg.event,
               mg.white_elo AS we, mg.black_elo AS be,
               mg.white_elo + COALESCE(mg.white_diff, 0) AS white_after,
               mg.black_elo + COALESCE(mg.black_diff, 0) AS black_after,
               a.rating AS rw, b.rating AS rb, {chapter} AS chapter
        FROM {source} mg
        JOIN names wn ON wn.name = mg.white
        JOIN names bn ON bn.name = mg.black
        JOIN cur a ON a.pid = {perf_key("wn.id", "mg.perf")}
        JOIN cur b ON b.pid = {perf_key("bn.id", "mg.perf")}
        WHERE mg.month = {month}),
    sides AS (
        SELECT perf, w AS pid, score AS s, white_after AS lichess_after, ord, event,
               rw AS own, {opp_w} AS opp_r, chapter FROM pair
        UNION ALL
        SELECT perf, b AS pid, 100 - score AS s, black_after AS lichess_after, ord, event,
               rb AS own, {opp_b} AS opp_r, chapter FROM pair),
    rated AS (
        SELECT perf, pid, chapter, s, lichess_after, ord, own, opp_r, {rank} AS ev_rank
        FROM sides{left_out}),
    capped AS (
        SELECT pid, chapter, s, lichess_after, ord, {capped} AS d FROM rated),
    scored AS (
        SELECT c.pid, c.chapter, c.s, c.lichess_after, c.ord, {pd_value("t", "c.d")} AS e
        FROM capped c
        JOIN pd_table t ON {pd_join("t", "c.d")}),
    gc AS (
        SELECT pid, chapter, COUNT(*) AS n, CAST(SUM(s) AS BIGINT) AS points,
               CAST(SUM(e) AS BIGINT) AS expected, max_by(lichess_after, ord) AS last_lichess,
               MIN(ord) AS first_ord, MAX(ord) AS last_ord
        FROM scored GROUP BY pid, chapter),
    parts AS (
        SELECT gc.pid, gc.n, gc.points, gc.expected, gc.last_lichess, gc.first_ord,
               gc.last_ord, {k} AS k, {k_used} AS k_used, CAST({change} AS INTEGER) AS change,
               {rulebook_sql.edition_key_sql(rules, "l.perf", "gc.chapter")} AS edition
        FROM cur l JOIN gc ON gc.pid = l.pid),
    g AS (
        SELECT pid, CAST(SUM(n) AS BIGINT) AS n, CAST(SUM(points) AS BIGINT) AS points,
               CAST(SUM(expected) AS BIGINT) AS expected,
               CAST(SUM(change) AS INTEGER) AS change,
               max_by(last_lichess, last_ord) AS last_lichess, max_by(k, {main}) AS k,
               max_by(k_used, {main}) AS k_used, max_by(edition, {main}) AS edition
        FROM parts GROUP BY pid)
    SELECT l.pid, l.perf, {month} AS month, l.rating, l.games_before, g.k, l.peak,
           l.lichess_rating, g.n AS games, g.points, g.expected, g.k_used,
           g.change,
           CAST(l.rating + g.change AS INTEGER) AS next_rating,
           l.games_before + g.n AS next_games_before,
           GREATEST(l.peak, l.rating + g.change) AS next_peak,
           COALESCE(g.last_lichess, l.lichess_rating) AS next_lichess,
           g.edition
    FROM cur l JOIN g ON g.pid = l.pid"""


def listed_sql(d: Dialect) -> str:
    """The rows of ``lists`` (``schema.LISTS_COLUMNS``) from the rows of ``step``."""
    return f"""
    SELECT s.perf, n.name, s.month, s.rating, s.games_before, s.k, s.peak,
           s.lichess_rating, s.games, s.points, s.expected, s.k_used, s.change,
           s.next_rating, s.next_games_before, s.next_peak, s.next_lichess, s.edition
    FROM step s JOIN names n ON n.id = {d.idiv("s.pid", str(len(PERFS)))}"""


#: The list at the start of the next month: ``cur`` with the entries in ``step`` replaced
#: (a player with no games keeps R).
ADVANCE = """
    SELECT c.pid, c.perf, c.rating, c.games_before, c.peak, c.lichess_rating
    FROM cur c LEFT JOIN step s ON s.pid = c.pid
    WHERE s.pid IS NULL
    UNION ALL
    SELECT pid, perf, next_rating AS rating, next_games_before AS games_before,
           next_peak AS peak, next_lichess AS lichess_rating
    FROM step"""


def list_at_sql(rules: MonthRules, perf_filter: str = "TRUE", *, adjustments: bool = True) -> str:
    """The lists at the start of the month of ``rules``, from the stored rows (``lists``).

    A player's entry is their row of the month when they played then, else what their last
    row before it led to (a player with no games keeps R), after the compressions of the
    months in between (with ``adjustments``), with the month's K.
    """
    month = rules.month
    now = f"l.month = {month}"
    rating = "l.next_rating"
    if adjustments:
        for adj in rulebook_sql.compressions_by(month):
            done = rulebook_sql.adjusted_sql(DUCKDB, (adj,), "l.perf", rating)
            since = rulebook_sql.adjustment_month(adj)
            rating = f"(CASE WHEN l.month < {since} THEN {done} ELSE {rating} END)"
    k_then = rulebook_sql.k_sql(
        rules, "l.perf", f"GREATEST(l.next_peak, {rating})", "l.next_games_before"
    )
    return f"""
    SELECT l.perf, l.name,
           CASE WHEN {now} THEN l.rating ELSE {rating} END AS rating,
           CASE WHEN {now} THEN l.games_before ELSE l.next_games_before END AS games_before,
           CASE WHEN {now} THEN l.k ELSE {k_then} END AS k,
           CASE WHEN {now} THEN l.lichess_rating ELSE l.next_lichess END AS lichess_rating
    FROM lists l WHERE l.month <= {month} AND ({perf_filter})
    QUALIFY row_number() OVER (PARTITION BY l.perf, l.name ORDER BY l.month DESC) = 1"""
