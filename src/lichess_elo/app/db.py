"""One plain function per ``db`` command: typed settings in, plain data out, no printing.

Each function checks its settings itself and raises ``lichess_elo.errors`` exceptions
(``BadInput`` for what the user gave, the others for run-time failures).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lichess_elo.app.db_rate import DEFAULT_DB as DEFAULT_DB
from lichess_elo.app.db_rate import RateResult as RateResult
from lichess_elo.app.db_rate import RateSettings as RateSettings
from lichess_elo.app.db_rate import rate as rate
from lichess_elo.core.population import list_rules, rulebook_sql, stages
from lichess_elo.core.population.list_rules import ListRules
from lichess_elo.core.population.rulebook_sql import MonthRules
from lichess_elo.core.population.schema import (
    PERFS,
    check_perf,
    month_label,
    next_month,
    parse_month,
)
from lichess_elo.errors import BadInput, NotRated
from lichess_elo.sources.population import compare as population
from lichess_elo.sources.population import duck
from lichess_elo.sources.population.compare import BandRow, Differ, MonthScore
from lichess_elo.sources.population.duck_faults import named_faults
from lichess_elo.sources.population.ingest import (
    FileProgress,
    MonthIngested,
    check_file,
    dump_kind,
    ingest_files,
)

# --- ingest ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class IngestSettings:
    """``db ingest``: dump files (or directories of them) into the database ``db``."""

    paths: tuple[Path, ...]
    db: Path = DEFAULT_DB
    progress: FileProgress | None = None


@dataclass(frozen=True)
class IngestResult:
    """The files read, what each month they covered now holds, and the files skipped
    because the database already held them in full (an earlier run read them)."""

    files: tuple[Path, ...]
    months: tuple[MonthIngested, ...]
    unplaced: int
    seconds: float
    skipped: tuple[Path, ...] = ()

    @property
    def games(self) -> int:
        """Games stored."""
        return sum(m.games for m in self.months)

    @property
    def rejected(self) -> dict[str, int]:
        """Unusable games by reason, over all months (plus those with no month)."""
        out: dict[str, int] = {}
        for m in self.months:
            for reason, n in m.rejected.items():
                out[reason] = out.get(reason, 0) + n
        if self.unplaced:
            out["malformed"] = out.get("malformed", 0) + self.unplaced
        return out


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


# --- rate: population/rating.py (re-exported here) -------------------------------------------


def _rules_of(con: Any, perf: str) -> ListRules:
    """The record of ``perf``'s lists.

    Raises:
        NotRated: the lists predate the records (rate again).
    """
    found = list_rules.read(con).get(perf)
    if found is None:
        raise NotRated(
            f"the {perf} lists were made before lists recorded their rules: rate again (db rate)"
        )
    return found


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


@dataclass(frozen=True)
class RatingList:
    """One published list: players sorted by rating (highest first), then name."""

    perf: str
    month: str
    players: list[dict[str, Any]] = field(default_factory=list)
    rules: ListRules | None = None

    def document(self) -> dict[str, Any]:
        """The JSON document of ``db list``."""
        return {
            "perf": self.perf,
            "month": self.month,
            "rules": self.rules.document() if self.rules else None,
            "players": self.players,
        }


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
        span = duck.rows(
            con, "SELECT MIN(month) AS a, MAX(month) AS b FROM lists WHERE perf = ?", [perf]
        )[0]
        if span["a"] is None:
            raise BadInput(f"no {perf} games in the database")
        first, last = int(span["a"]), next_month(int(span["b"]))
        if not first <= month <= last:
            raise BadInput(
                f"no {perf} list for {month_label(month)}; lists run from "
                f"{month_label(first)} to {month_label(last)}"
            )
        rules = _rules_of(con, perf)
        at = stages.list_at_sql(_month_of(rules, month), "l.perf = ?", adjustments=rules.adjustment)
        players = duck.rows(
            con,
            f"""SELECT name, rating, games_before, k, lichess_rating
                FROM ({at})
                ORDER BY rating DESC, name""",
            [perf],
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


@dataclass(frozen=True)
class PlayerRows:
    """A player's monthly rows (list rating, games, score, expected, K used, change)."""

    name: str
    rows: list[dict[str, Any]]
    rules: tuple[ListRules, ...] = ()

    def document(self) -> dict[str, Any]:
        """The JSON document of ``db player``."""
        return {
            "name": self.name,
            "rules": [r.document() for r in self.rules],
            "rows": self.rows,
        }


@named_faults
def player(settings: PlayerSettings) -> PlayerRows:
    """Every month of the player's lists (names match without regard to case).

    Raises:
        BadInput: an unknown perf, or a name with no rows.
    """
    perf = check_perf(settings.perf) if settings.perf else None
    con = duck.connect(settings.db, read_only=True)
    try:
        duck.require_lists(con)
        rows = duck.rows(
            con,
            """SELECT perf, name, month, rating, games_before, k, lichess_rating, games,
                      points, expected, k_used, change, next_rating, edition
               FROM lists WHERE lower(name) = lower(?) AND (? IS NULL OR perf = ?)
               ORDER BY perf, month""",
            [settings.name, perf, perf],
        )
        rules = tuple(_rules_of(con, p) for p in dict.fromkeys(r["perf"] for r in rows))
    finally:
        con.close()
    if not rows:
        where = f" in {perf}" if perf else ""
        raise BadInput(f"no player {settings.name!r}{where} in the lists")
    for row in rows:
        row["month"] = month_label(row["month"])
        for key in ("points", "expected"):
            row[key] = row[key] / 100
    return PlayerRows(rows[0]["name"], rows, rules)


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


@dataclass(frozen=True)
class CompareResult:
    """Everything ``db compare`` shows."""

    perfs: tuple[str, ...]
    bands: list[BandRow]
    scores: list[MonthScore]
    differs: list[Differ]
    min_games: int = 0
    #: By perf: players of the last list with a Lichess rating but under ``min_games``.
    few_games: dict[str, int] = field(default_factory=dict)


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
