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
  month with games, and ``last`` (the month index of that month, -1 before any);
* ``rstep`` (``rivals_step_sql``): one row per player with games in the month: the rating
  and RD its games are predicted from (``<key>_rating``, ``<key>_rd``: after step 1) and
  after the month (``<key>_next_rating``, ``<key>_next_rd``); ``rivals_listed_sql`` turns
  them into the stored ``rivals`` rows (``rivals_columns``).

Arithmetic is in doubles; the engines may add a month's terms in another order than Python
does, so a stored number may differ from the reference in its last bits (the differential
test allows 1e-9).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lichess_elo.core import months
from lichess_elo.core.contenders import OPPONENT_RD_ESTABLISHED, contenders
from lichess_elo.core.expr.nodes import Expr, col
from lichess_elo.core.expr.sql import literal, render
from lichess_elo.core.population.dialect import DUCKDB, Dialect
from lichess_elo.core.population.schema import PERFS
from lichess_elo.core.population.stages import perf_key
from lichess_elo.core.report import rival_expressions as rx
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


def rivals_columns(rules: Sequence[RivalRules] | None = None) -> tuple[str, ...]:
    """The stored ``rivals`` table's columns: the player's month, then every track's
    (``rules``, default :func:`tracks`)."""
    cols = (c for r in rules or tracks() for c in rival_columns(r))
    return ("perf", "name", "month", "games", *cols)


def rivals_ddl() -> str:
    """``CREATE TABLE IF NOT EXISTS rivals`` with the columns of :func:`rivals_columns`."""
    cols = ", ".join(f"{c} DOUBLE" for r in tracks() for c in rival_columns(r))
    return (
        "CREATE TABLE IF NOT EXISTS rivals (perf VARCHAR, name VARCHAR, month INTEGER, "
        f"games BIGINT, {cols})"
    )


def number(x: float) -> str:
    """A double literal both engines read exactly (Spark reads ``0.5`` as a DECIMAL)."""
    return literal(float(x))


def month_index_sql(d: Dialect, month: str) -> str:
    """SQL for ``core.months.month_index`` of a YYYYMM integer."""
    return months.month_index_sql(d.idiv(month, "100"), f"{month} % 100")


def expected_sql(rating: str, rd: str, opponent: str, opponent_rd: str, advantage: str) -> str:
    """SQL for ``rivals.expected`` (``rival_expressions.expected``), of SQL for each value:
    1/(1 + 10^(-k(RD² + RD_j²)(r - r_j + advantage)/400))."""
    cols = (col(rating), col(rd), col(opponent), col(opponent_rd), col(advantage))
    return render(rx.expected(*cols), DUCKDB)


def advantage_sql(rules: RivalRules, colour: str) -> str:
    """The prediction's colour term γ x colour (every game of a dump is standard chess)."""
    return render(rx.advantage(rules, col(colour)), DUCKDB)


def rivals_initial_sql(rules: Sequence[RivalRules] | None = None) -> str:
    """``rcur`` before the first month: every player at their seed, the established RD, and
    ``last`` -1 (no month yet); ``rules`` the tracks (default :func:`tracks`)."""
    cols = ", ".join(
        f"CAST(seed AS DOUBLE) AS {r.key}_r, {number(LICHESS_RD)} AS {r.key}_rd"
        for r in rules or tracks()
    )
    return f"SELECT pid, perf, {cols}, CAST(-1 AS INTEGER) AS {rx.LAST} FROM players"


def _named(pairs: Iterable[tuple[str, Expr]], d: Dialect, wrap: str = "{}") -> str:
    """``expr AS name, ...``, each rendered expression put in ``wrap``."""
    return ", ".join(f"{wrap.format(render(e, d))} AS {name}" for name, e in pairs)


def rivals_step_sql(
    d: Dialect, month: int, source: str = "games", rules: Sequence[RivalRules] | None = None
) -> str:
    """One row per player with games in ``month`` (YYYYMM): each track's rating and RD
    its games are predicted from and the ones after the month (steps 1 to 4), rendered from
    ``rival_expressions``; ``rules`` the tracks (default :func:`tracks`)."""
    now = months.month_index(month // 100, month % 100)
    steps = [rx.rival_step(r, now, LICHESS_RD) for r in rules or tracks()]
    expected = _named(((s.column("e"), s.expected) for s in steps), d)
    sums = _named(
        [(rx.OPPONENTS_SUM, rx.OPPONENTS), *(p for s in steps for p in s.sums)], d, "SUM({})"
    )
    state = ", ".join(f"l.{s.column('r')}, {render(s.rd, d)} AS {s.column('rd1')}" for s in steps)
    after = _named(((s.column("v"), s.variance) for s in steps), d)
    out = ", ".join(
        f"{s.column('r')} AS {s.key}_rating, {s.column('rd1')} AS {s.key}_rd, "
        f"{render(s.next_rating, d)} AS {s.key}_next_rating, "
        f"{render(s.next_rd, d)} AS {s.key}_next_rd"
        for s in steps
    )
    return f"""
    WITH sides AS (
        SELECT {perf_key("wn.id", "mg.perf")} AS pid, mg.black_elo AS {rx.OPPONENT},
               CAST(mg.score AS DOUBLE) / 100 AS {rx.SCORE}
        FROM {source} mg JOIN names wn ON wn.name = mg.white WHERE mg.month = {month}
        UNION ALL
        SELECT {perf_key("bn.id", "mg.perf")} AS pid, mg.white_elo AS {rx.OPPONENT},
               CAST(100 - mg.score AS DOUBLE) / 100 AS {rx.SCORE}
        FROM {source} mg JOIN names bn ON bn.name = mg.black WHERE mg.month = {month}),
    s AS (
        SELECT sides.pid, sides.{rx.OPPONENT}, sides.{rx.SCORE}, {expected}
        FROM sides JOIN rcur l ON l.pid = sides.pid),
    g AS (
        SELECT pid, COUNT(*) AS {rx.GAMES}, {sums} FROM s GROUP BY pid),
    p AS (
        SELECT g.*, l.perf, {state} FROM g JOIN rcur l ON l.pid = g.pid),
    v AS (
        SELECT p.*, {after} FROM p)
    SELECT pid, perf, {month} AS month, {rx.GAMES} AS games, {out}, {now} AS {rx.LAST} FROM v"""


def rivals_listed_sql(d: Dialect, rules: Sequence[RivalRules] | None = None) -> str:
    """The stored ``rivals`` rows (``rivals_columns``) from the rows of ``rstep``."""
    cols = ", ".join(f"s.{c}" for c in rivals_columns(rules)[3:])
    return f"""
    SELECT s.perf, n.name, s.month, {cols}
    FROM rstep s JOIN names n ON n.id = {d.idiv("s.pid", str(len(PERFS)))}"""


def rivals_advance_sql(rules: Sequence[RivalRules] | None = None) -> str:
    """``rcur`` at the start of the next month: the players of ``rstep`` after their month,
    everyone else as they were; ``rules`` the tracks (default :func:`tracks`)."""
    keep = ", ".join(f"c.{r.key}_r, c.{r.key}_rd" for r in rules or tracks())
    moved = ", ".join(
        f"{r.key}_next_rating AS {r.key}_r, {r.key}_next_rd AS {r.key}_rd"
        for r in rules or tracks()
    )
    return f"""
    SELECT c.pid, c.perf, {keep}, c.last
    FROM rcur c LEFT JOIN rstep s ON s.pid = c.pid WHERE s.pid IS NULL
    UNION ALL
    SELECT pid, perf, {moved}, CAST(last AS INTEGER) AS last FROM rstep"""
