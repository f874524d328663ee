"""The differential check of ``db rate``: the stored lists against the Python reference
(``core/population_reference``, which calls the FIDE engine), row by row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from lichess_elo.app import db as app
from lichess_elo.core.population_reference import PopulationGame, rate_population
from tests.integration.db_helpers import write_dump
from tests.integration.population_gen import population

_COLUMNS = ("perf", "name", "month", "rating", "games_before", "k", "games", "k_used",
            "change", "next_rating", "edition")  # fmt: skip


def population_db(path: Path) -> Path:
    """The generated population (``population_gen``), ingested into ``path``."""
    dump = write_dump(path.with_suffix(".pgn.zst"), population())
    app.ingest(app.IngestSettings((dump,), path))
    return path


def stored_games(db: Path) -> list[PopulationGame]:
    """The ingested games, as the reference takes them."""
    con = duckdb.connect(str(db))
    rows = con.execute(
        "SELECT month, perf, white, black, white_elo, black_elo, score, ord, event, chapter "
        "FROM games"
    ).fetchall()
    con.close()
    return [PopulationGame(*row) for row in rows]


def stored_rows(db: Path) -> list[tuple[Any, ...]]:
    """The stored lists as the reference's rows (same fields, same order)."""
    con = duckdb.connect(str(db))
    rows = con.execute(
        f"SELECT {', '.join(_COLUMNS)} FROM lists ORDER BY perf, month, name"
    ).fetchall()
    con.close()
    return rows


def reference_rows(db: Path, settings: app.RateSettings) -> list[tuple[Any, ...]]:
    """The reference's rows for the stored games under ``settings``' rules."""
    rows = rate_population(
        stored_games(db),
        rules_as_of=settings.rules_as_of,
        opponents=settings.opponents,
        adjustments=settings.adjustments,
    )
    perfs = settings.perfs or {r.perf for r in rows}
    return [tuple(getattr(r, c) for c in _COLUMNS) for r in rows if r.perf in perfs]


def differences(ours: list[tuple[Any, ...]], theirs: list[tuple[Any, ...]]) -> list[str]:
    """Each (perf, player, month) whose row differs or is missing on one side."""
    a = {r[:3]: r for r in ours}
    b = {r[:3]: r for r in theirs}
    return [
        f"{k}: {a.get(k)} != {b.get(k)}"
        for k in sorted(a.keys() | b.keys())
        if a.get(k) != b.get(k)
    ]
