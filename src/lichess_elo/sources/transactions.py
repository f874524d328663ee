"""Ending a transaction while an exception is on its way out (an edge; SQLite and DuckDB).

A rollback in ``except BaseException`` runs I/O, and its own error would replace the
exception that is leaving: a Ctrl-C that lands just after ``COMMIT`` made the rollback fail
with "no transaction is active", and that error, not the interrupt, went up (and became a
warning). ``rollback_quietly`` runs the rollback so that nothing it raises replaces the
exception on its way out: a rollback that finds no transaction is not an error, and one
that fails leaves the database to its own recovery (SQLite's journal, DuckDB's WAL), which
undoes an uncommitted transaction when the connection closes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable


def rollback_quietly(rollback: Callable[[], object]) -> None:
    """Call ``rollback`` (e.g. ``connection.rollback`` or ``lambda: con.execute("ROLLBACK")``)
    and swallow any ``Exception`` it raises, so that the exception being handled is the one
    that leaves. A ``KeyboardInterrupt`` during the rollback itself still goes up."""
    with contextlib.suppress(Exception):
        rollback()
