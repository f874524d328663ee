"""Ingest dumps into the DuckDB file: stage the headers, check them in SQL, commit by month.

1. Each batch of raw headers is parsed and checked by one SQL statement, which gives every
   unusable game its reason (``schema.REASONS``), and appended to the temporary table
   ``_stage`` (DuckDB spills it to ``<db>.tmp`` beyond its memory limit, so memory stays
   bounded whatever the size). Which games are rated, which are AI games and what the
   ``Termination`` means follow ``core/lichess_pgn.py`` (its SQL forms), so a monthly dump
   and a user's own export are read alike. The perf comes from the ``Event`` where it
   names one (``Rated Blitz game``, ``rated blitz game``, ``Rapid swiss https://...``) or,
   failing that (an event's name), from ``TimeControl`` through the project's ``speed_of``.
2. Each month is then replaced in one transaction: its games, its reject counts and its
   ``months`` row are deleted and inserted together, so a month is there whole or not at all,
   and ingesting it again replaces it. Lists built before are dropped in the same
   transaction (they no longer match the games).

An interrupted run leaves no staging behind (the tables are temporary) and no month half
written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow.compute as pc

from lichess_elo.core import lichess_pgn
from lichess_elo.core.games import parse_time_control, speed_of
from lichess_elo.population.headers import (
    check_lichess_pgn,
    read_parquet,
    read_pgn_plain,
    read_pgn_zst,
)
from lichess_elo.population.schema import PERFS, REASONS

#: Called with (index of the file, games read in it, bytes consumed, file size).
FileProgress = Callable[[int, int, int, int], None]


@dataclass(frozen=True)
class MonthIngested:
    """What one month holds after the ingest."""

    month: int
    games: int
    rejected: dict[str, int]


def dump_kind(path: Path) -> str:
    """``"pgn.zst"``, ``"pgn"`` or ``"parquet"`` from the file name, else ``""``."""
    name = path.name.lower()
    for kind in ("pgn.zst", "pgn", "parquet"):
        if name.endswith("." + kind):
            return kind
    return ""


def check_file(path: Path) -> None:
    """Refuse a PGN file Lichess did not write (``headers.check_lichess_pgn``), by name.

    Raises:
        NotLichessPgn: it holds no game, or no game with a Lichess ``Site``.
        DumpUnreadable: a ``.pgn.zst`` that is not zstd.
    """
    kind = dump_kind(path)
    if kind in ("pgn", "pgn.zst"):
        check_lichess_pgn(path, compressed=kind == "pgn.zst")


def _speed(tc: str | None) -> str | None:
    """The Lichess speed of a ``TimeControl`` tag (``300+3``, ``-``), ``None`` when it is not
    one; the tag is read by the one ``TimeControl`` reader, ``parse_time_control``."""
    if tc is None:
        return None
    try:
        return speed_of(parse_time_control(tc))
    except ValueError:
        return None


_STAGE_DDL = """
CREATE OR REPLACE TEMP TABLE _stage (file_no INTEGER, month INTEGER, perf VARCHAR,
    white VARCHAR, black VARCHAR, we INTEGER, be INTEGER, wd INTEGER, bd INTEGER,
    score INTEGER, ord BIGINT, reason VARCHAR)"""


def stage(
    con: duckdb.DuckDBPyConnection, paths: Sequence[Path], progress: FileProgress | None
) -> None:
    """Check the headers of every file as they arrive and append them to ``_stage``."""
    con.execute(_STAGE_DDL)
    con.execute("CREATE OR REPLACE TEMP TABLE _speeds (tc VARCHAR, speed VARCHAR)")
    known: set[str] = set()
    seq0 = 0
    for file_no, path in enumerate(paths):
        size = path.stat().st_size

        def on_progress(games: int, done: int, i: int = file_no, total: int = size) -> None:
            if progress:
                progress(i, games, done, total)

        kind = dump_kind(path)
        reader = {"pgn.zst": read_pgn_zst, "pgn": read_pgn_plain}.get(kind, read_parquet)
        on_progress(0, 0)  # the file starts: its games/s count from now
        count = 0
        for batch in reader(path, progress=on_progress):
            tcs = {tc for tc in pc.unique(batch.column("TimeControl")).to_pylist() if tc}
            if tcs - known:
                con.executemany(
                    "INSERT INTO _speeds VALUES (?, ?)", [(tc, _speed(tc)) for tc in tcs - known]
                )
                known |= tcs
            con.register("_batch", batch)
            con.execute(_classify_sql(file_no, seq0))
            con.unregister("_batch")
            count += batch.num_rows
        seq0 += count


def _classify_sql(file_no: int, seq0: int) -> str:
    """Parse and check a batch of raw headers (``_batch``) into ``_stage``."""
    rated = ", ".join(f"'{p}'" for p in PERFS)
    perf_word = lichess_pgn.event_perf_sql("r.Event")
    return f"""
    INSERT INTO _stage
    WITH p AS (
        SELECT r.*, try_strptime(r.UTCDate || ' ' || COALESCE(r.UTCTime, '00:00:00'),
                                 '%Y.%m.%d %H:%M:%S') AS ts,
               TRY_CAST(r.WhiteElo AS INTEGER) AS we, TRY_CAST(r.BlackElo AS INTEGER) AS be,
               TRY_CAST(r.WhiteRatingDiff AS INTEGER) AS wd,
               TRY_CAST(r.BlackRatingDiff AS INTEGER) AS bd,
               COALESCE(CASE WHEN {perf_word} IN ({rated}, 'ultrabullet', 'correspondence')
                    THEN {perf_word} END, t.speed) AS perf,
               {lichess_pgn.rated_sql("r.Event", "r.WhiteRatingDiff", "r.BlackRatingDiff")}
                   AS is_rated
        FROM _batch r LEFT JOIN _speeds t ON t.tc = r.TimeControl)
    SELECT {file_no}, year(ts) * 100 + month(ts), perf, White, Black, we, be, wd, bd,
        CASE Result WHEN '1-0' THEN 100 WHEN '0-1' THEN 0 ELSE 50 END,
        epoch(ts)::BIGINT * 1000000000 + seq + {seq0},
        CASE
            WHEN ts IS NULL OR COALESCE(trim(White), '') IN ('', '?')
                 OR COALESCE(trim(Black), '') IN ('', '?')
                 OR COALESCE(Result, '') NOT IN ('1-0', '0-1', '1/2-1/2', '*')
                 OR (we IS NULL AND COALESCE(WhiteElo, '?') NOT IN ('?', ''))
                 OR (be IS NULL AND COALESCE(BlackElo, '?') NOT IN ('?', ''))
                 OR (wd IS NULL AND COALESCE(WhiteRatingDiff, '') <> '')
                 OR (bd IS NULL AND COALESCE(BlackRatingDiff, '') <> '')
                 OR we NOT BETWEEN 0 AND 4000 OR be NOT BETWEEN 0 AND 4000
                 THEN 'malformed'
            WHEN {lichess_pgn.ai_sql("White")} OR {lichess_pgn.ai_sql("Black")}
                 THEN 'ai_opponent'
            WHEN Result = '*' AND lower(trim(Termination)) = 'abandoned' THEN 'aborted'
            WHEN Result = '*' THEN 'unfinished'
            WHEN NOT COALESCE(is_rated, FALSE) THEN 'unrated'
            WHEN COALESCE(Variant, 'Standard') <> 'Standard' THEN 'variant'
            WHEN we IS NULL OR be IS NULL THEN 'missing_rating'
            WHEN perf IS NULL OR perf NOT IN ({rated}) THEN 'other_perf'
        END
    FROM p"""


def commit_months(
    con: duckdb.DuckDBPyConnection, sources: Sequence[Path]
) -> tuple[list[MonthIngested], int]:
    """Replace each month the staged games cover, one transaction a month.

    Games without a readable date count in their file's most common month. Returns the
    months and the number of games that belong to no month (a file whose dates are all
    malformed); those are counted, not stored.
    """
    con.execute(
        """UPDATE _stage SET month = f.m FROM (
               SELECT file_no, mode(month) AS m FROM _stage WHERE month IS NOT NULL
               GROUP BY file_no) f
           WHERE _stage.month IS NULL AND _stage.file_no = f.file_no"""
    )
    months = [
        int(r[0])
        for r in con.execute(
            "SELECT DISTINCT month FROM _stage WHERE month IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
    names = ", ".join(p.name for p in sources)
    done: list[MonthIngested] = []
    for month in months:
        con.execute("BEGIN")
        try:
            con.execute("DROP TABLE IF EXISTS lists")
            for table in ("games", "rejects", "months"):
                con.execute(f"DELETE FROM {table} WHERE month = ?", [month])
            con.execute(
                """INSERT INTO games SELECT month, perf, white, black, we, be, wd, bd, score, ord
                   FROM _stage WHERE month = ? AND reason IS NULL""",
                [month],
            )
            con.execute(
                """INSERT INTO rejects SELECT month, reason, COUNT(*) FROM _stage
                   WHERE month = ? AND reason IS NOT NULL GROUP BY month, reason""",
                [month],
            )
            con.execute(
                """INSERT INTO months SELECT ?, COUNT(*) FILTER (WHERE reason IS NULL),
                       COUNT(*) FILTER (WHERE reason IS NOT NULL), ? FROM _stage WHERE month = ?""",
                [month, names, month],
            )
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        counts = dict(
            con.execute(
                "SELECT reason, games FROM rejects WHERE month = ? ORDER BY reason", [month]
            ).fetchall()
        )
        row = con.execute("SELECT games FROM months WHERE month = ?", [month]).fetchone()
        done.append(
            MonthIngested(
                month,
                int(row[0]) if row else 0,
                {r: int(counts[r]) for r in REASONS if r in counts},
            )
        )
    row = con.execute("SELECT COUNT(*) FROM _stage WHERE month IS NULL").fetchone()
    con.execute("DROP TABLE IF EXISTS _stage")
    return done, int(row[0]) if row else 0
