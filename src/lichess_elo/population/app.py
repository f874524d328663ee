"""One plain function per ``db`` command: typed settings in, plain data out, no printing.

Each function checks its settings itself and raises ``lichess_elo.errors`` exceptions
(``BadInput`` for what the user gave, the others for run-time failures).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from lichess_elo.core import fide
from lichess_elo.errors import BadInput, NotRated
from lichess_elo.population import compare as population
from lichess_elo.population import duck, list_rules, rulebook_sql, stages
from lichess_elo.population.compare import BandRow, Differ, MonthScore
from lichess_elo.population.dialect import Engine
from lichess_elo.population.ingest import (
    FileProgress,
    MonthIngested,
    commit_months,
    dump_kind,
    stage,
)
from lichess_elo.population.list_rules import ListRules
from lichess_elo.population.rulebook_sql import MonthRules
from lichess_elo.population.schema import (
    PERFS,
    check_perf,
    month_label,
    next_month,
    parse_month,
)
from lichess_elo.population.stages import OPPONENTS, Opponents

DEFAULT_DB = Path("lichess.duckdb")


# --- ingest ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class IngestSettings:
    """``db ingest``: dump files (or directories of them) into the database ``db``."""

    paths: tuple[Path, ...]
    db: Path = DEFAULT_DB
    progress: FileProgress | None = None


@dataclass(frozen=True)
class IngestResult:
    """The files read and what each month they covered now holds."""

    files: tuple[Path, ...]
    months: tuple[MonthIngested, ...]
    unplaced: int
    seconds: float

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
                raise BadInput("holds no .pgn.zst or .parquet file", field="files", value=path)
            files.extend(found)
        elif not path.exists():
            raise BadInput("no such file", field="files", value=path)
        elif not dump_kind(path):
            raise BadInput(
                "not a dump; expected a .pgn.zst or .parquet file", field="files", value=path
            )
        else:
            files.append(path)
    return tuple(files)


def ingest(settings: IngestSettings) -> IngestResult:
    """Read the dumps and replace, month by month, what the database holds for them."""
    files = expand_dumps(settings.paths)
    if settings.db.exists() and not settings.db.is_file():
        raise BadInput("is not a database file", field="db", value=settings.db)
    start = time.perf_counter()
    con = duck.connect(settings.db, create=True)
    try:
        stage(con, files, settings.progress)
        months, unplaced = commit_months(con, files)
    finally:
        con.close()
    return IngestResult(files, tuple(months), unplaced, time.perf_counter() - start)


# --- rate -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RateSettings:
    """``db rate``: build the lists of ``perfs`` (all when empty) with ``engine``.

    The rules: each month's own editions (``rules_as_of`` ``None``) or the editions in force
    on ``rules_as_of`` for every month; opponents at their list rating in the run
    (``opponents="list"``) or at their Lichess rating in the game (``"lichess"``, as
    ``report`` does); the one-time compression of 1 March 2024 applied to every listed
    player when the run crosses it (``adjustments``; never with ``rules_as_of``, as in the
    report).
    """

    db: Path = DEFAULT_DB
    perfs: tuple[str, ...] = ()
    engine: Engine = "duckdb"
    master: str = "local[*]"
    warehouse: Path | None = None
    #: Called with each month (YYYYMM) once its lists are built.
    on_month: Callable[[int], None] | None = None
    #: Called with (months done, months in all): once before the first, then after each.
    progress: Callable[[int, int], None] | None = None
    rules_as_of: date | None = None
    opponents: Opponents = "list"
    adjustments: bool = True

    def checked(self) -> tuple[str, ...]:
        """The perfs to rate, after checking every setting.

        Raises:
            BadInput: an unknown perf or engine, opponents source, or a ``rules_as_of``
                before the first edition of a chapter of the perfs.
        """
        perfs = tuple(check_perf(p) for p in self.perfs) or PERFS
        if self.engine not in ("duckdb", "spark"):
            raise BadInput("is not duckdb or spark", field="engine", value=self.engine)
        if self.opponents not in OPPONENTS:
            raise BadInput("is not list or lichess", field="opponents", value=self.opponents)
        if self.rules_as_of is not None:
            for chapter in dict.fromkeys(rulebook_sql.chapter_of_perf(p) for p in perfs):
                fide.check_as_of(self.rules_as_of, chapter)
        return perfs


@dataclass(frozen=True)
class RateResult:
    """What ``rate`` built, and under which rules (one record per perf)."""

    engine: Engine
    perfs: tuple[str, ...]
    months: tuple[str, ...]
    games: int
    players: dict[str, int]
    seconds: float
    #: Sides of games of the perfs that no list rates (the 600/2600 rule of the editions
    #: that have it), counted once per side.
    left_out: int = 0
    rules: tuple[ListRules, ...] = ()


def _month_counter(settings: RateSettings, total: int) -> Callable[[int], None]:
    """The engines' ``on_month``: the settings' own, then ``progress`` with the count."""
    done = 0
    if settings.progress is not None:
        settings.progress(0, total)

    def each(month: int) -> None:
        nonlocal done
        done += 1
        if settings.on_month is not None:
            settings.on_month(month)
        if settings.progress is not None:
            settings.progress(done, total)

    return each


def _refuse_unrecorded(con: Any, perfs: tuple[str, ...]) -> None:
    """Refuse to keep another perf's lists made before lists recorded their rules."""
    recorded = list_rules.read(con)
    old = [p for p in duck.kept_perfs(con, perfs) if p not in recorded]
    if old:
        raise BadInput(
            f"the {', '.join(old)} lists were made before lists recorded their rules and "
            "would be mixed with new ones; rate every perf again (db rate without --perf)"
        )


def rate(settings: RateSettings) -> RateResult:
    """Rebuild the monthly lists of the chosen perfs (every month, again)."""
    perfs = settings.checked()
    con = duck.connect(settings.db)
    try:
        _refuse_unrecorded(con, perfs)
        start = time.perf_counter()
        plan = list_rules.plan(
            duck.game_months(con, perfs),
            rules_as_of=settings.rules_as_of,
            adjustment=settings.adjustments,
        )
        records = [
            list_rules.record(
                p,
                plan,
                rules_as_of=settings.rules_as_of,
                opponents=settings.opponents,
                adjustment=settings.adjustments,
                engine=settings.engine,
            )
            for p in perfs
        ]
        on_month = _month_counter(settings, len(plan))
        if settings.engine == "spark":
            from lichess_elo.population import spark

            warehouse = settings.warehouse or settings.db.with_name(settings.db.name + ".spark")
            months = spark.rate(
                con,
                perfs,
                plan,
                records,
                master=settings.master,
                warehouse=warehouse,
                opponents=settings.opponents,
                on_month=on_month,
            )
        else:
            months = duck.rate(
                con, perfs, plan, records, opponents=settings.opponents, on_month=on_month
            )
        seconds = time.perf_counter() - start
        games = duck.rows(
            con, "SELECT COUNT(*) AS n FROM games WHERE perf IN (SELECT UNNEST(?))", [list(perfs)]
        )[0]["n"]
        # Each game is in the lists once per side it rates: without the 600/2600 rule
        # that is every game twice, which this count checks too.
        sides = duck.rows(
            con,
            "SELECT COALESCE(SUM(games), 0) AS n FROM lists WHERE perf IN (SELECT UNNEST(?))",
            [list(perfs)],
        )[0]["n"]
        players = {
            r["perf"]: int(r["n"])
            for r in duck.rows(
                con,
                # A player's first row is the only one with no games before it (every
                # row has games), so counting those counts the players without a DISTINCT.
                "SELECT perf, COUNT(*) AS n FROM lists "
                "WHERE perf IN (SELECT UNNEST(?)) AND games_before = 0 GROUP BY perf",
                [list(perfs)],
            )
        }
    finally:
        con.close()
    return RateResult(
        settings.engine,
        perfs,
        tuple(month_label(m) for m in months),
        int(games),
        {p: players.get(p, 0) for p in perfs},
        seconds,
        2 * int(games) - int(sides),
        tuple(records),
    )


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


def rating_list(settings: ListSettings) -> RatingList:
    """The list at the start of the month.

    Raises:
        BadInput: an unknown perf, a malformed month, or a month with no list.
        NotRated: the database has no lists yet.
    """
    perf = check_perf(settings.perf)
    month = parse_month(settings.month)
    con = duck.connect(settings.db)
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


def player(settings: PlayerSettings) -> PlayerRows:
    """Every month of the player's lists (names match without regard to case).

    Raises:
        BadInput: an unknown perf, or a name with no rows.
    """
    perf = check_perf(settings.perf) if settings.perf else None
    con = duck.connect(settings.db)
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


@dataclass(frozen=True)
class CompareResult:
    """Everything ``db compare`` shows."""

    perfs: tuple[str, ...]
    bands: list[BandRow]
    scores: list[MonthScore]
    differs: list[Differ]


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
    con = duck.connect(settings.db)
    try:
        duck.require_lists(con)
        return CompareResult(
            perfs,
            population.bands(con, perfs, settings.band_width),
            population.month_scores(
                con,
                perfs,
                sample=settings.sample,
                resamples=settings.resamples,
                seed=settings.seed,
            ),
            population.differs(con, perfs, settings.top, settings.min_games),
        )
    finally:
        con.close()
