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

from lichess_elo.errors import BadInput
from lichess_elo.population import compare as population
from lichess_elo.population import duck, stages
from lichess_elo.population.compare import BandRow, Differ, MonthScore
from lichess_elo.population.dialect import Engine
from lichess_elo.population.ingest import (
    FileProgress,
    MonthIngested,
    check_file,
    commit_months,
    dump_kind,
    stage,
)
from lichess_elo.population.schema import (
    PERFS,
    check_perf,
    month_label,
    next_month,
    parse_month,
)

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


def ingest(settings: IngestSettings) -> IngestResult:
    """Read the dumps and replace, month by month, what the database holds for them."""
    files = expand_dumps(settings.paths)
    if settings.db.exists() and not settings.db.is_file():
        raise BadInput("is not a database file", field="db", value=settings.db)
    for path in files:  # a file that is not Lichess PGN is refused before anything is read
        check_file(path)
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
    """``db rate``: build the lists of ``perfs`` (all when empty) with ``engine``."""

    db: Path = DEFAULT_DB
    perfs: tuple[str, ...] = ()
    engine: Engine = "duckdb"
    master: str = "local[*]"
    warehouse: Path | None = None
    #: Called with each month (YYYYMM) once its lists are built.
    on_month: Callable[[int], None] | None = None
    #: Called with (months done, months in all): once before the first, then after each.
    progress: Callable[[int, int], None] | None = None
    #: Leave out the games the Rapid & Blitz chapter's 600/2600 rule does not rate (bullet,
    #: blitz and rapid, every month; ``stages.not_rated_sql``).
    rule_600: bool = False


@dataclass(frozen=True)
class RateResult:
    """What ``rate`` built."""

    engine: Engine
    perfs: tuple[str, ...]
    months: tuple[str, ...]
    games: int
    players: dict[str, int]
    seconds: float
    #: Games of the perfs not in the lists: those the 600/2600 rule left out
    #: (``RateSettings.rule_600``); 0 without it.
    left_out: int = 0
    #: Whether the rule was asked for (``RateSettings.rule_600``).
    rule_600: bool = False


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


def rate(settings: RateSettings) -> RateResult:
    """Rebuild the monthly lists of the chosen perfs."""
    perfs = tuple(check_perf(p) for p in settings.perfs) or PERFS
    if settings.engine not in ("duckdb", "spark"):
        raise BadInput("is not duckdb or spark", field="engine", value=settings.engine)
    con = duck.connect(settings.db)
    try:
        start = time.perf_counter()
        on_month = _month_counter(settings, len(duck.game_months(con, perfs)))
        if settings.engine == "spark":
            from lichess_elo.population import spark

            warehouse = settings.warehouse or settings.db.with_name(settings.db.name + ".spark")
            months = spark.rate(
                con,
                perfs,
                master=settings.master,
                warehouse=warehouse,
                on_month=on_month,
                rule_600=settings.rule_600,
            )
        else:
            months = duck.rate(con, perfs, on_month=on_month, rule_600=settings.rule_600)
        seconds = time.perf_counter() - start
        games = duck.rows(
            con, "SELECT COUNT(*) AS n FROM games WHERE perf IN (SELECT UNNEST(?))", [list(perfs)]
        )[0]["n"]
        # Each game rated is in the lists twice, once per side: without the 600/2600 rule
        # that is every game, which this count checks too.
        sides = duck.rows(
            con,
            "SELECT COALESCE(SUM(games), 0) AS n FROM lists WHERE perf IN (SELECT UNNEST(?))",
            [list(perfs)],
        )[0]["n"]
        left_out = int(games) - int(sides) // 2
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
        left_out,
        settings.rule_600,
    )


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

    def document(self) -> dict[str, Any]:
        """The JSON document of ``db list``."""
        return {"perf": self.perf, "month": self.month, "players": self.players}


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
        players = duck.rows(
            con,
            f"""SELECT name, rating, games_before, k, lichess_rating
                FROM ({stages.list_at_sql(month, "l.perf = ?")})
                ORDER BY rating DESC, name""",
            [perf],
        )
    finally:
        con.close()
    return RatingList(perf, month_label(month), players)


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
                      points, expected, k_used, change, next_rating
               FROM lists WHERE lower(name) = lower(?) AND (? IS NULL OR perf = ?)
               ORDER BY perf, month""",
            [settings.name, perf, perf],
        )
    finally:
        con.close()
    if not rows:
        where = f" in {perf}" if perf else ""
        raise BadInput(f"no player {settings.name!r}{where} in the lists")
    for row in rows:
        row["month"] = month_label(row["month"])
        for key in ("points", "expected"):
            row[key] = row[key] / 100
    return PlayerRows(rows[0]["name"], rows)


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
