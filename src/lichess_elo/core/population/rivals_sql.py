"""Glicko-1 and Stephenson's rating over a whole database, as SQL run unchanged by DuckDB and
Spark SQL: the monthly stages of ``core/report/rivals.py``, generated from the constants
of every contender with a ``track`` (``core/contenders.py``).

The rule is the report's (``rivals.track``): for every player of a perf, a calendar month
is one rating period; the month's games are predicted from the rating at the end of the
month before and the RD grown by step 1 for the months since the player last played (1
in the first month), then steps 2 to 4 update both from the month's games. Every
opponent is taken at their Lichess rating before the game (the dump's ``...Elo``). The
dumps carry no RD or provisional flag, so every Lichess rating here, opponents' and the
starting point's alike, has the established RD the scorecard gives one
(``contenders.OPPONENT_RD_ESTABLISHED``, 60). A player's track starts from their seed
(``stages.names_sql``: the ``...Elo`` of their first game of the perf).

Tables (the engine provides ``games`` or the view named by ``source``, ``names`` and
``players`` from ``stages``):

* ``rcur``: each player's state at the start of the month (``rivals_initial_sql``, then
  ``rivals_advance_sql``): per contender ``<key>_r`` and ``<key>_rd`` after their last
  month with games, and ``last`` (the month index of that month, NULL before any);
* ``rstep`` (``rivals_step_sql``): one row per player with games in the month: the rating
  and RD its games are predicted from (``<key>_rating``, ``<key>_rd``: after step 1) and
  after the month (``<key>_next_rating``, ``<key>_next_rd``); ``rivals_listed_sql`` turns
  them into the stored ``rivals`` rows (``rivals_columns``).

Arithmetic is in doubles; the engines may add a month's terms in another order than Python
does, so a stored number may differ from the reference in its last bits (the differential
test allows 1e-9).
"""

from __future__ import annotations

from lichess_elo.core import months
from lichess_elo.core.contenders import OPPONENT_RD_ESTABLISHED, contenders
from lichess_elo.core.population.dialect import Dialect
from lichess_elo.core.population.schema import PERFS
from lichess_elo.core.population.stages import perf_key
from lichess_elo.core.report import rivals
from lichess_elo.core.report.rivals import RivalRules

#: The RD of every Lichess rating of a dump (no provisional flag there).
LICHESS_RD = OPPONENT_RD_ESTABLISHED


def tracks() -> tuple[RivalRules, ...]:
    """The online tracks ``db rate`` keeps: every registered contender's ``track``
    (``core.contenders``), in the order of the report's scorecard."""
    return tuple(c.track for c in contenders() if c.track is not None)


def rival_columns(rules: RivalRules) -> tuple[str, ...]:
    """The stored columns of one contender."""
    k = rules.key
    return (f"{k}_rating", f"{k}_rd", f"{k}_next_rating", f"{k}_next_rd")


def rivals_columns() -> tuple[str, ...]:
    """The stored ``rivals`` table's columns: the player's month, then every track's."""
    return ("perf", "name", "month", "games", *(c for r in tracks() for c in rival_columns(r)))


def rivals_ddl() -> str:
    """``CREATE TABLE IF NOT EXISTS rivals`` with the columns of :func:`rivals_columns`."""
    cols = ", ".join(f"{c} DOUBLE" for r in tracks() for c in rival_columns(r))
    return (
        "CREATE TABLE IF NOT EXISTS rivals (perf VARCHAR, name VARCHAR, month INTEGER, "
        f"games BIGINT, {cols})"
    )


def number(x: float) -> str:
    """A double literal both engines read exactly (Spark reads ``0.5`` as a DECIMAL)."""
    return f"CAST('{x!r}' AS DOUBLE)"


def month_index_sql(d: Dialect, month: str) -> str:
    """SQL for ``core.months.month_index`` of a YYYYMM integer."""
    return months.month_index_sql(d.idiv(month, "100"), f"{month} % 100")


def k_sql(variance: str) -> str:
    """SQL for k(v) = 1 / sqrt(1 + 3 q² v / π²) (``rivals._k``)."""
    return f"(1 / SQRT(1 + {number(rivals.K3)} * ({variance})))"


def expected_sql(rating: str, rd: str, opponent: str, opponent_rd: str, advantage: str) -> str:
    """SQL for ``rivals.expected``: 1/(1 + 10^(-k(RD² + RD_j²)(r - r_j + advantage)/400))."""
    k = k_sql(f"({rd}) * ({rd}) + ({opponent_rd}) * ({opponent_rd})")
    exponent = f"-{k} * (({rating}) - ({opponent}) + ({advantage})) / 400"
    return f"(1 / (1 + POWER({number(10.0)}, {exponent})))"


def advantage_sql(rules: RivalRules, colour: str) -> str:
    """The prediction's colour term γ x colour (every game of a dump is standard chess)."""
    return f"({number(rules.white_advantage)} * {colour})"


def inflate_sql(rules: RivalRules, rd: str, periods: str) -> str:
    """SQL for ``rivals.inflate``: sqrt(RD² + c² t), at most ``rd_max``."""
    c2 = number(rules.c * rules.c)
    return f"LEAST(SQRT(({rd}) * ({rd}) + {c2} * ({periods})), {number(rules.rd_max)})"


def rivals_initial_sql() -> str:
    """``rcur`` before the first month: every player at their seed, the established RD."""
    cols = ", ".join(
        f"CAST(seed AS DOUBLE) AS {r.key}_r, {number(LICHESS_RD)} AS {r.key}_rd" for r in tracks()
    )
    return f"SELECT pid, perf, {cols}, CAST(NULL AS INTEGER) AS last FROM players"


def rivals_step_sql(d: Dialect, month: int, source: str = "games") -> str:
    """One row per player with games in ``month`` (YYYYMM): each contender's rating and RD
    its games are predicted from and the ones after the month (steps 1 to 4)."""
    now = month_index_sql(d, str(month))
    k_opp = number(rivals.k_factor(LICHESS_RD * LICHESS_RD))  # every opponent's RD is one
    q = number(rivals.Q)
    periods = f"CASE WHEN l.last IS NULL THEN 1 ELSE {now} - l.last END"
    expected, sums, state, after, out = [], [], [], [], []
    for r in tracks():
        key = r.key
        expected.append(
            f"(1 / (1 + POWER({number(10.0)}, -{k_opp} * (l.{key}_r - sides.opp) / 400)))"
            f" AS {key}_e"
        )
        sums.append(
            f"{q} * {q} * SUM({k_opp} * {k_opp} * {key}_e * (1 - {key}_e)) AS {key}_d, "
            f"SUM({k_opp} * (score - {key}_e + {number(r.bonus)})) AS {key}_gain"
        )
        state.append(f"l.{key}_r, {inflate_sql(r, f'l.{key}_rd', periods)} AS {key}_rd1")
        after.append(
            f"1 / (1 / ({key}_rd1 * {key}_rd1 + {number(r.h * r.h)} * n) + {key}_d) AS {key}_v"
        )
        out.append(
            f"{key}_r AS {key}_rating, {key}_rd1 AS {key}_rd, "
            f"{key}_r + {q} * {key}_v * {key}_gain "
            f"+ {number(r.neighbourhood)} * (mean_opp - {key}_r) AS {key}_next_rating, "
            f"SQRT({key}_v) AS {key}_next_rd"
        )
    return f"""
    WITH sides AS (
        SELECT {perf_key("wn.id", "mg.perf")} AS pid, mg.black_elo AS opp,
               CAST(mg.score AS DOUBLE) / 100 AS score
        FROM {source} mg JOIN names wn ON wn.name = mg.white WHERE mg.month = {month}
        UNION ALL
        SELECT {perf_key("bn.id", "mg.perf")} AS pid, mg.white_elo AS opp,
               CAST(100 - mg.score AS DOUBLE) / 100 AS score
        FROM {source} mg JOIN names bn ON bn.name = mg.black WHERE mg.month = {month}),
    s AS (
        SELECT sides.pid, sides.opp, sides.score, {", ".join(expected)}
        FROM sides JOIN rcur l ON l.pid = sides.pid),
    g AS (
        SELECT pid, COUNT(*) AS n, {", ".join(sums)}, AVG(CAST(opp AS DOUBLE)) AS mean_opp
        FROM s GROUP BY pid),
    p AS (
        SELECT g.*, l.perf, {", ".join(state)} FROM g JOIN rcur l ON l.pid = g.pid),
    v AS (
        SELECT p.*, {", ".join(after)} FROM p)
    SELECT pid, perf, {month} AS month, n AS games, {", ".join(out)}, {now} AS last FROM v"""


def rivals_listed_sql(d: Dialect) -> str:
    """The stored ``rivals`` rows (``rivals_columns``) from the rows of ``rstep``."""
    cols = ", ".join(f"s.{c}" for c in rivals_columns()[3:])
    return f"""
    SELECT s.perf, n.name, s.month, {cols}
    FROM rstep s JOIN names n ON n.id = {d.idiv("s.pid", str(len(PERFS)))}"""


def rivals_advance_sql() -> str:
    """``rcur`` at the start of the next month: the players of ``rstep`` after their month,
    everyone else as they were."""
    keep = ", ".join(f"c.{r.key}_r, c.{r.key}_rd" for r in tracks())
    moved = ", ".join(
        f"{r.key}_next_rating AS {r.key}_r, {r.key}_next_rd AS {r.key}_rd" for r in tracks()
    )
    return f"""
    SELECT c.pid, c.perf, {keep}, c.last
    FROM rcur c LEFT JOIN rstep s ON s.pid = c.pid WHERE s.pid IS NULL
    UNION ALL
    SELECT pid, perf, {moved}, CAST(last AS INTEGER) AS last FROM rstep"""
