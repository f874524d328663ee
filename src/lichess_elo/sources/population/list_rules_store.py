"""The ``list_rules`` table of the DuckDB file: each perf's ``ListRules`` record, written by
``db rate`` beside its lists and read by ``db list``, ``db player`` and ``db compare``."""

from __future__ import annotations

import json
from collections.abc import Sequence

import duckdb

from lichess_elo.core.population.list_rules import LIST_RULES_DDL, ListRules
from lichess_elo.errors import NotRated


def store(con: duckdb.DuckDBPyConnection, records: Sequence[ListRules]) -> None:
    """Replace the records of these perfs (inside the caller's transaction)."""
    con.execute(LIST_RULES_DDL)
    for rec in records:
        con.execute("DELETE FROM list_rules WHERE perf = ?", [rec.perf])
        con.execute("INSERT INTO list_rules VALUES (?, ?)", [rec.perf, json.dumps(rec.document())])


def read(con: duckdb.DuckDBPyConnection) -> dict[str, ListRules]:
    """Every perf's record (none in a database whose lists predate the records).

    Reads only: the database may be open read-only (``db list``, ``db player``)."""
    found = con.execute(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'list_rules'"
    ).fetchone()
    if not found or not found[0]:
        return {}
    return {
        perf: ListRules.from_document(json.loads(text))
        for perf, text in con.execute("SELECT perf, rules FROM list_rules").fetchall()
    }


def recorded(con: duckdb.DuckDBPyConnection, perf: str) -> ListRules:
    """The record of ``perf``'s lists.

    Raises:
        NotRated: the lists predate the records (rate again).
    """
    found = read(con).get(perf)
    if found is None:
        raise NotRated(
            f"the {perf} lists were made before lists recorded their rules: rate again (db rate)"
        )
    return found
