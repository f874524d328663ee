"""Integer player ids: one per (name, perf) pair, in ``player_ids`` (``schema.PLAYER_IDS_DDL``).

``db ingest`` gives every usable game the ids of its two players as it stores it
(``batch_ids``, then ``games_with_ids``, inside the file's transaction), so the rating
engines read integers, never names. The ids are dense from 0 in the order the pairs first
arrived (within a batch: by the game's ``ord``, White before Black) and are never reused
or renumbered. ``ensure_ids`` fills a database ingested before the ids were kept;
``names_by_id`` and ``id_count`` read them back.

Each batch finds its pairs' ids in a ``pair_index.PairIndex`` of ``player_ids`` loaded
once a run (by two hashes of each pair; a pair whose hash clashes is found by its name),
so a batch costs the same whatever the size of ``player_ids``; the games are then joined
to the batch's small map of pairs to ids, not to ``player_ids``.
"""

from __future__ import annotations

from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt
import pyarrow as pa

from lichess_elo.sources.dump.parse import int64_array
from lichess_elo.sources.population.pair_index import CHECK_SQL, KEY_SQL, PairIndex, numpy_of
from lichess_elo.sources.transactions import rollback_quietly

#: The (perf, name) pairs of a batch's usable games (``_checked``, ``reason`` NULL), each
#: with the first place it arrived (``ord * 2``, plus 1 for Black: ``ord`` is unique per
#: game and stays below 2**62 until the year 2116) and its two hashes (``pair_index``).
_BATCH_PAIRS = f"""
WITH u AS (
    SELECT perf, white AS name, ord * 2 AS o FROM _checked WHERE reason IS NULL
    UNION ALL SELECT perf, black, ord * 2 + 1 FROM _checked WHERE reason IS NULL),
pairs AS (SELECT perf, name, min(o) AS o FROM u GROUP BY perf, name)
SELECT perf, name, o, {KEY_SQL} AS key, {CHECK_SQL} AS check FROM pairs"""


def batch_ids(
    con: duckdb.DuckDBPyConnection,
    checked: duckdb.DuckDBPyRelation,
    next_id: int,
    index: PairIndex,
) -> tuple[duckdb.DuckDBPyRelation, int]:
    """The id of every (perf, name) pair of ``checked``'s usable games (a relation of
    ``perf``, ``name``, ``id``), the pairs not in ``player_ids`` added to it with ids from
    ``next_id`` on (``player_ids``' row count), in the order they arrived; and how many
    were added. ``index`` holds ``player_ids``' pairs and gains the new ones. Run inside
    the ingest's transaction.
    """
    pairs = _query(checked, "_checked", _BATCH_PAIRS).to_arrow_table()
    return pair_ids(con, pairs, next_id, index)


def pair_ids(
    con: duckdb.DuckDBPyConnection, pairs: pa.Table, next_id: int, index: PairIndex
) -> tuple[duckdb.DuckDBPyRelation, int]:
    """``batch_ids`` for ``pairs`` (distinct ``perf``, ``name``, with their first place ``o``
    and their ``key`` and ``check``): each pair's id from ``index``, or, for a pair whose key
    the index holds with another check, from ``player_ids`` by its name; the rest are new,
    numbered from ``next_id`` by ``o`` and added to ``player_ids`` and ``index``."""
    keys = _numpy(pairs, "key", np.uint64)
    checks = _numpy(pairs, "check", np.uint32)
    found, clash = index.find(keys, checks)
    if clash.any():
        found[clash] = _ids_by_name(con, pairs.take(int64_array(np.flatnonzero(clash))))
    new = np.flatnonzero(found < 0)
    first = _numpy(pairs, "o", np.int64)[new]
    new = new[np.argsort(first, kind="stable")]  # in order of arrival
    found[new] = np.arange(next_id, next_id + len(new), dtype=np.int64)
    index.add(keys[new], checks[new], found[new])
    ided = pa.table(
        {"perf": pairs.column("perf"), "name": pairs.column("name"), "id": int64_array(found)}
    )
    if len(new):
        added = con.from_arrow(ided.take(int64_array(new.astype(np.int64))))
        added.query("_new", "INSERT INTO player_ids SELECT id, perf, name FROM _new")
    return con.from_arrow(ided), len(new)


def _ids_by_name(con: duckdb.DuckDBPyConnection, pairs: pa.Table) -> npt.NDArray[np.int64]:
    """The id in ``player_ids`` of each of ``pairs`` (``perf``, ``name``), -1 when it has
    none: the exact way, one scan of ``player_ids`` (only for the pairs whose key clashed,
    about once in 2**64 / pairs held / pairs looked up batches)."""
    numbered = pairs.select(["perf", "name"]).append_column(
        "n", int64_array(np.arange(pairs.num_rows, dtype=np.int64))
    )
    rows = _query(
        con.from_arrow(numbered),
        "_clash",
        """SELECT c.n, p.id FROM _clash c JOIN player_ids p
           ON p.perf = c.perf AND p.name = c.name""",
    ).fetchall()
    ids = np.full(pairs.num_rows, -1, np.int64)
    for n, pair_id in rows:
        ids[n] = pair_id
    return ids


def _numpy(table: pa.Table, column: str, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """``table``'s ``column`` (no NULL) as a numpy array of ``dtype`` (``numpy_of``)."""
    return numpy_of(table.column(column), dtype)


def games_with_ids(
    con: duckdb.DuckDBPyConnection,
    checked: duckdb.DuckDBPyRelation,
    ids: duckdb.DuckDBPyRelation,
) -> duckdb.DuckDBPyRelation:
    """``checked``'s usable games, each with ``white_id`` and ``black_id`` from ``ids``
    (``batch_ids``: the batch's pairs only, so the join does not grow with ``player_ids``).

    The White join is done first, on its own: in one statement DuckDB's join order
    optimizer, seeing ``perf = w_perf`` and ``perf = b_perf``, joined the two maps to each
    other on the perf first (a batch's pairs squared) and ran out of memory.
    """
    usable = checked.filter("reason IS NULL")
    white = ids.project("perf AS w_perf, name AS w_name, id AS white_id")
    black = ids.project("perf AS b_perf, name AS b_name, id AS black_id")
    with_white = usable.join(white, "perf = w_perf AND white = w_name").to_arrow_table()
    return con.from_arrow(with_white).join(black, "perf = b_perf AND black = b_name")


#: The pairs of the games with a NULL id that ``player_ids`` lacks, with ids from the
#: table's row count on, in the order they first arrived (``ord``, White before Black;
#: then name, should two games share an ``ord``).
_MISSING_PAIRS = """
INSERT INTO player_ids
WITH u AS (
    SELECT perf, white AS name, ord * 2 AS o FROM games
    WHERE white_id IS NULL OR black_id IS NULL
    UNION ALL SELECT perf, black, ord * 2 + 1 FROM games
    WHERE white_id IS NULL OR black_id IS NULL),
pairs AS (SELECT perf, name, min(o) AS o FROM u GROUP BY perf, name)
SELECT (SELECT COUNT(*) FROM player_ids) - 1 + row_number() OVER (ORDER BY o, name, perf),
    perf, name
FROM pairs
WHERE NOT EXISTS (SELECT 1 FROM player_ids p WHERE p.perf = pairs.perf AND p.name = pairs.name)
"""
_FILL = """
UPDATE games SET white_id = w.id, black_id = b.id
FROM player_ids w, player_ids b
WHERE (games.white_id IS NULL OR games.black_id IS NULL)
    AND w.perf = games.perf AND w.name = games.white
    AND b.perf = games.perf AND b.name = games.black"""


def ensure_ids(con: duckdb.DuckDBPyConnection) -> int:
    """Give every game with a NULL ``white_id`` or ``black_id`` (a database ingested before
    the ids were kept) the ids of its players, adding the pairs ``player_ids`` lacks, in
    one transaction; return how many games were filled (0, after one COUNT, when none
    lacks them). ``con`` is writable and opened by ``duck.connect`` (which adds the
    columns to an old ``games``).
    """
    ((missing,),) = con.execute(
        "SELECT COUNT(*) FROM games WHERE white_id IS NULL OR black_id IS NULL"
    ).fetchall()  # read to the end: a relation (``con.sql``) refuses an unfinished result
    if not missing:
        return 0
    con.execute("BEGIN")
    try:
        con.execute(_MISSING_PAIRS)
        con.execute(_FILL)
        con.execute("COMMIT")
    except BaseException:
        rollback_quietly(lambda: con.execute("ROLLBACK"))
        raise
    return int(missing)


def id_count(con: duckdb.DuckDBPyConnection) -> int:
    """How many ids there are (the ids are 0 .. this - 1)."""
    ((count,),) = con.execute("SELECT COUNT(*) FROM player_ids").fetchall()
    return int(count)


def names_by_id(con: duckdb.DuckDBPyConnection) -> tuple[pa.Array, pa.Array]:
    """The perf and the name of every id, as two arrays indexed by id (``take`` them with
    an array of ids to write a list's rows)."""
    table = con.sql("SELECT perf, name FROM player_ids ORDER BY id").to_arrow_table()
    return table.column("perf").combine_chunks(), table.column("name").combine_chunks()


def _query(rel: duckdb.DuckDBPyRelation, name: str, sql: str) -> duckdb.DuckDBPyRelation:
    """The result of the SELECT ``sql``, with ``rel`` as the table ``name``."""
    out = rel.query(name, sql)
    if out is None:  # only a statement that is not a query gives none
        raise ValueError(f"not a query: {sql[:40]}")
    return out
