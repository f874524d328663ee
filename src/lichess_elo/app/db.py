"""One plain function per ``db`` command: typed settings in, plain data out, no printing.

Each function checks its settings itself and raises ``lichess_elo.errors`` exceptions
(``BadInput`` for what the user gave, the others for run-time failures).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lichess_elo.app.db_rate import DEFAULT_DB as DEFAULT_DB
from lichess_elo.app.db_rate import RateSettings as RateSettings
from lichess_elo.app.db_rate import rate as rate
from lichess_elo.core.population import rulebook_sql
from lichess_elo.core.population.list_rules import ListRules
from lichess_elo.core.population.rows import CompareResult as CompareResult
from lichess_elo.core.population.rows import FileProgress
from lichess_elo.core.population.rows import Holdings as Holdings
from lichess_elo.core.population.rows import IngestResult as IngestResult
from lichess_elo.core.population.rows import PlayerRows as PlayerRows
from lichess_elo.core.population.rows import RateResult as RateResult
from lichess_elo.core.population.rows import RatingList as RatingList
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import (
    PERFS,
    check_perf,
    month_label,
    next_month,
    parse_month,
)
from lichess_elo.core.words import did_you_mean
from lichess_elo.errors import BadInput
from lichess_elo.sources.population import compare as population
from lichess_elo.sources.population import duck, info, list_rules_store, lists
from lichess_elo.sources.population.duck_faults import named_faults
from lichess_elo.sources.population.ingest import check_file, dump_kind, ingest_files

# --- ingest ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class IngestSettings:
    """``db ingest``: dump files (or directories of them) into the database ``db``."""

    paths: tuple[Path, ...]
    db: Path = DEFAULT_DB
    progress: FileProgress | None = None


def expand_dumps(paths: tuple[Path, ...]) -> tuple[Path, ...]:
    """The dump files named: files as given, directories searched for dumps (sorted).

    Raises:
        BadInput: no path, a path that does not exist, an unsupported file type or a
            directory without dumps.
    """
    if not paths:
        raise BadInput("no dump file given", field="files")
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and dump_kind(p))
            if not found:
                raise BadInput(
                    "holds no .pgn.zst, .pgn or .parquet file", field="files", value=path
                )
            files.extend(found)
        elif not path.exists():
            raise BadInput("no such file", field="files", value=path)
        elif not dump_kind(path):
            raise BadInput(
                "not a dump; expected a .pgn.zst, .pgn or .parquet file",
                field="files",
                value=path,
            )
        else:
            files.append(path)
    return tuple(files)


@named_faults
def ingest(settings: IngestSettings) -> IngestResult:
    """Read the dumps and replace, month by month, what the database holds for them.

    Each file is committed as it completes: an interrupted run keeps the files finished,
    and a file the database already holds in full (same path, size and time) is skipped.
    """
    files = expand_dumps(settings.paths)
    if settings.db.exists() and not settings.db.is_file():
        raise BadInput("is not a database file", field="db", value=settings.db)
    # A file that is not Lichess PGN is refused before anything is read; a pipe or device
    # cannot be read twice, so it is only read once, when its turn comes.
    for path in files:
        if path.is_file():
            check_file(path)
    start = time.perf_counter()
    con = duck.connect(settings.db, create=True)
    try:
        done = ingest_files(con, files, settings.progress)
    finally:
        con.close()
    seconds = time.perf_counter() - start
    return IngestResult(done.read, done.months, done.unplaced, seconds, done.skipped)


# --- rate: app/db_rate.py (re-exported here) -------------------------------------------


def _rules_of(con: Any, perf: str) -> ListRules:
    """The record of ``perf``'s lists (``list_rules_store.recorded``)."""
    return list_rules_store.recorded(con, perf)


def _month_of(rules: ListRules, month: int) -> MonthRules:
    """The rules of ``month`` for lists made under ``rules``."""
    return rulebook_sql.month_rules(month, as_of=rules.rules_as_of, adjustments=rules.adjustment)


# --- list -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListSettings:
    """``db list``: the list of ``perf`` published at the start of ``month`` (YYYY-MM)."""

    perf: str
    month: str
    db: Path = DEFAULT_DB


@named_faults
def rating_list(settings: ListSettings) -> RatingList:
    """The list at the start of the month.

    Raises:
        BadInput: an unknown perf, a malformed month, or a month with no list.
        NotRated: the database has no lists yet.
    """
    perf = check_perf(settings.perf)
    month = parse_month(settings.month)
    con = duck.connect(settings.db, read_only=True)
    try:
        duck.require_lists(con)
        span = lists.list_span(con, perf)
        if span is None:
            raise BadInput(f"no {perf} games in the database")
        first, last = span[0], next_month(span[1])
        if not first <= month <= last:
            raise BadInput(
                f"no {perf} list for {month_label(month)}; lists run from "
                f"{month_label(first)} to {month_label(last)}"
            )
        rules = _rules_of(con, perf)
        players = lists.list_players(
            con, perf, _month_of(rules, month), adjustments=rules.adjustment
        )
    finally:
        con.close()
    return RatingList(perf, month_label(month), players, rules)


# --- player ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerSettings:
    """``db player``: one player's rows, in every perf or in ``perf``."""

    name: str
    db: Path = DEFAULT_DB
    perf: str | None = None


@named_faults
def player(settings: PlayerSettings) -> PlayerRows:
    """Every month of the player's lists (names match with case and accents folded).

    Raises:
        BadInput: an unknown perf, or a name with no rows; the message names the perfs
            that hold the player when ``perf`` does not, else the closest names (the
            accent- and case-folded "did you mean" of ``club --player``).
    """
    perf = check_perf(settings.perf) if settings.perf else None
    con = duck.connect(settings.db, read_only=True)
    try:
        duck.require_lists(con)
        rows = lists.player_rows(con, settings.name, perf)
        rules = tuple(_rules_of(con, p) for p in dict.fromkeys(r["perf"] for r in rows))
        if not rows:
            raise BadInput(_not_found(con, settings.name, perf))
    finally:
        con.close()
    return PlayerRows(rows[0]["name"], rows, rules)


def _not_found(con: Any, name: str, perf: str | None) -> str:
    """Why ``name`` has no rows: in other perfs only, or not in the lists (with the
    closest names)."""
    where = f" in {perf}" if perf else ""
    others = lists.perfs_of(con, name) if perf else []
    if others:
        return f"no player {name!r}{where} in the lists (only in {', '.join(others)})"
    near = did_you_mean(name, lists.names_near(con, name, perf))
    return f"no player {name!r}{where} in the lists" + (f"; {near}" if near else "")


# --- compare --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompareSettings:
    """``db compare``: bands of ``band_width`` Lichess points, the ``top`` players who differ
    most (with at least ``min_games`` games), the scorecard on at most ``sample`` games a
    month and perf with a ``resamples``-fold paired bootstrap (``seed``)."""

    db: Path = DEFAULT_DB
    perfs: tuple[str, ...] = ()
    band_width: int = 200
    top: int = 10
    min_games: int = 30
    sample: int = 50_000
    resamples: int = 200
    seed: int = 12
    #: Called with (step, steps done, steps in all) as each step starts.
    progress: Callable[[str, int, int], None] | None = None


@named_faults
def compare(settings: CompareSettings) -> CompareResult:
    """Population tables of the stored lists against Lichess.

    Raises:
        BadInput: an unknown perf or a setting out of range.
        NotRated: the database has no lists yet.
    """
    perfs = tuple(check_perf(p) for p in settings.perfs) or PERFS
    for name, value, low in (
        ("band", settings.band_width, 1),
        ("top", settings.top, 0),
        ("min_games", settings.min_games, 0),
        ("sample", settings.sample, 1),
        ("resamples", settings.resamples, 0),
    ):
        if value < low:
            raise BadInput(f"is below {low}", field=name, value=value)
    step = settings.progress or (lambda name, done, total: None)
    con = duck.connect(settings.db, read_only=True)
    try:
        duck.require_lists(con)
        step("rating bands", 0, 3)
        bands = population.bands(con, perfs, settings.band_width)
        step("scorecard", 1, 3)
        scores = population.month_scores(
            con, perfs, sample=settings.sample, resamples=settings.resamples, seed=settings.seed
        )
        step("players who differ", 2, 3)
        return CompareResult(
            perfs,
            bands,
            scores,
            population.differs(con, perfs, settings.top, settings.min_games),
            settings.min_games,
            population.few_games(con, perfs, settings.min_games),
        )
    finally:
        con.close()


# --- months ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MonthsSettings:
    """``db months``: the database to describe."""

    db: Path


@named_faults
def holdings(settings: MonthsSettings) -> Holdings:
    """The months of ``settings.db`` with their games by perf and players rated.

    Raises:
        DatabaseMissing: no such database (or no games table in it).
    """
    return info.holdings(settings.db)
