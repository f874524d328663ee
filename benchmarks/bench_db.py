"""Benchmark ``db ingest``, ``db rate`` and ``db compare`` as whole commands.

Every run is the command as a user types it, in a fresh process (bench_common.run_whole:
wall, CPU of it and its descendants, peak RSS, the load average at its start).

1. Ingest: a ``.pgn.zst`` dump in the open database's format (the games of
   ``gen_dump.py``, about 2 KB and 80 plies with ``[%clk]`` comments each, repeated to
   reach the size), read by ``lichess-elo db ingest FILE --db NEW --quiet``, interleaved
   with the baseline ``zstd -dc FILE | wc -l`` (``sh -c``) on the same file; games/s and
   the ratio of the two speeds (target at least 0.5), at each size of ``--ingest-sizes``
   (memory must stay flat).
2. Rate (the default, ``--dumps``): for each player count of ``--players`` (default
   51,111, 150,000, 500,000 and 2,000,000) and each size of ``--rate-sizes`` (default
   10 M games), a YEAR in the dump layout made by ``gen_month.py`` (12 monthly
   ``lichess_db_standard_rated_YYYY-MM.pgn.zst`` files from ``--first``, the same players
   every month, a real month's shape of perfs, clocks, events and games per player; made
   once under ``--data``). Then, in the same run, each as a whole command:

   - ``zstd -dc FILE... | wc -l`` over the year's files, the baseline;
   - ``lichess-elo db ingest FILE... --db NEW --quiet`` (the player ids are written here),
     its speed as a ratio to the baseline's (target at least 0.5, set at 1 M and 5 M games);
   - ``lichess-elo db rate --db DB --quiet``, the default engine (arrays): games/s (target
     at least 1 M games/s below 2 M players, 0.7 M at 2 M players and more) and peak RSS
     (target at most 2 GB at 2 M players);
   - ``lichess-elo db rate --db DB --quiet --engine duckdb-sql``, the SQL engine of the
     last release (``--skip-sql``, or ``--sql-max-players N`` to skip it above N players:
     it is slow at 2 M);
   - the SQL floor (``bench_rate_floor.py --db DB``: the least any month-by-month rating in
     DuckDB SQL does, from the names; and ``--stored-ids``, from the ids ingest stored) as
     a whole process.

   These are issue 38's checks: "generated populations at four densities, each against
   today's db rate, the SQL floor and zstd -dc | wc -l in the same run", and "a year of
   10 M games at 51k, 500k and 2 M players in the dump layout", ``db ingest`` and
   ``db rate`` timed as whole commands. 51,111 players is the open database's ratio of
   games to distinct players for 10 M games, about 196 games a player (450 M games of
   2.3 M players over 2013-2018, as counted by github.com/jcw024/lichess_database_ETL);
   2 M players is 10 games a player in the year, most player-months with one or two games.
   ``--players auto`` stands for that ratio at each size.

   ``--synthetic``: the earlier rate benchmark, synthetic games over 12 months made inside
   DuckDB (``--players`` players with true strengths, paired at random, results drawn from
   the strengths, default auto, 150,000 and 500,000; ids filled as ``db ingest`` would,
   not timed), rated by ``db rate`` and compared by ``db compare --format json``.

Run ``python benchmarks/bench_db.py --data DIR`` (DIR outside the repository: a 10 M-game
year is about 1.7 GB of dumps and its database about as much; the years are reused, the
databases made again). A smoke run: ``--skip-ingest --rate-sizes 1000000 --players
20000,200000``. ``--skip-ingest`` leaves out the repeated-dump ingest runs (part 1) only.
The commands run this checkout's package (``PYTHONPATH`` set to its ``src``; ``--src DIR``
another checkout's, ``--installed`` the installed one). ``--baseline-src DIR`` (another
checkout's ``src``) runs its ``db ingest`` (part 1) and ``db rate`` beside this one's, on
the same files, for before-and-after figures.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import zstandard

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from bench_common import (  # noqa: E402
    Run,
    add_package_options,
    interleaved,
    lichess_elo,
    load_script,
    machine,
    package_of,
    run_whole,
)


def make_dump(path: Path, games: int, unique: int = 40_000) -> int:
    """A dump of about ``games`` games: ``unique`` generated ones, repeated; returns the count
    (a file already at ``path`` is kept: the generation is seeded, so it is the same)."""
    copies = max(1, round(games / unique))
    if path.exists():
        return copies * unique
    gen = load_script("gen_dump")
    src = path.parent / "src"
    (first,) = gen.write_dumps(src, players=4000, games=unique, months=1)  # type: ignore[attr-defined]
    text = zstandard.ZstdDecompressor().decompress(first.read_bytes(), max_output_size=1 << 31)
    shutil.rmtree(src)
    with (
        path.open("wb") as raw,
        zstandard.ZstdCompressor(level=3, threads=2).stream_writer(raw) as out,
    ):
        for _ in range(copies):
            out.write(text)
    return copies * unique


#: The package source the commands run (``--src``; None: the installed package).
SRC: list[Path | None] = [HERE.parent / "src"]


def bare_zstd(*paths: Path) -> Run:
    """The baseline, ``zstd -dc FILE... | wc -l``, as a shell runs it."""
    return run_whole(f"zstd -dc {' '.join(shlex.quote(str(p)) for p in paths)} | wc -l")


def ingest(path: Path | list[Path], db: Path, src: Path | None = None) -> Run:
    """``lichess-elo db ingest FILE... --db DB --quiet`` (a new database), with the package
    of ``src`` (``SRC``'s by default)."""
    for old in db.parent.glob(db.name + "*"):
        old.unlink()
    files = [str(p) for p in (path if isinstance(path, list) else [path])]
    argv = lichess_elo("db", "ingest", *files, "--db", str(db), "--quiet")
    return run_whole(argv, src=src or SRC[0])


SYNTHETIC = """
INSERT INTO games (month, perf, white, black, white_elo, black_elo, white_diff, black_diff,
                   score, ord, white_id, black_id)
WITH p AS (SELECT range AS i, 1500 + 350 * sqrt(-2 * ln(random())) * cos(2 * pi() * random())
           AS strength FROM range({players})),
g AS (SELECT range AS n, (range * 12) // {games} AS m,
             CAST(floor(random() * {players}) AS BIGINT) AS w,
             CAST(floor(random() * {players}) AS BIGINT) AS b, random() AS r,
             CAST(floor(random() * 4) AS INT) AS k
      FROM range({games}))
SELECT 202400 + m + 1 AS month, {perfs}[1 + k] AS perf, 'p' || g.w AS white, 'p' || g.b AS black,
       CAST(pw.strength + 50 * random() AS INT) AS white_elo,
       CAST(pb.strength + 50 * random() AS INT) AS black_elo, 0 AS white_diff, 0 AS black_diff,
       CASE WHEN r < 0.08 THEN 50
            WHEN r < 0.08 + 0.92 / (1 + pow(10, -(pw.strength - pb.strength) / 400)) THEN 100
            ELSE 0 END AS score,
       n AS ord, g.w * 4 + k AS white_id, g.b * 4 + k AS black_id
FROM g JOIN p pw ON pw.i = g.w JOIN p pb ON pb.i = g.b WHERE g.w <> g.b
"""
#: The player ids ``db ingest`` would have written for the synthetic games: one per player
#: and perf, player i's perf k being id 4 i + k (a pair with no games keeps its id unused,
#: as a player whose month was ingested again does).
SYNTHETIC_IDS = """
INSERT INTO player_ids (id, perf, name)
SELECT i * 4 + k, {perfs}[1 + k], 'p' || i FROM range({players}) a(i), range(4) b(k)
"""
SYNTHETIC_PERFS = "['bullet', 'blitz', 'rapid', 'classical']"


#: Games per distinct player in the open database (see the top): 450 M / 2.3 M.
LICHESS_GAMES_PER_PLAYER = 450e6 / 2.3e6


def _list_rows(db: Path) -> int:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    row = con.execute("SELECT COUNT(*) FROM lists").fetchone()
    con.close()
    return int(row[0]) if row else 0


def synthetic(db: Path, games: int, players: int) -> int:
    """Make ``games`` synthetic games of ``players`` players in a new database ``db`` (one
    already there is kept)."""
    from lichess_elo.sources.population import duck

    if db.exists():
        import duckdb

        con = duckdb.connect(str(db), read_only=True)
        row = con.execute("SELECT COUNT(*) FROM games").fetchone()
        con.close()
        return int(row[0]) if row else 0

    con = duck.connect(db, create=True)
    con.execute("RESET memory_limit")
    con.execute(SYNTHETIC.format(games=games, players=players, perfs=SYNTHETIC_PERFS))
    con.execute(SYNTHETIC_IDS.format(players=players, perfs=SYNTHETIC_PERFS))
    stored = con.execute("SELECT COUNT(*) FROM games").fetchone()
    con.close()
    assert stored is not None
    return int(stored[0])


def _row(what: str, n: int, run: Run, extra: str = "") -> str:
    return (
        f"{what:<46}{run.wall:>7.2f}{run.cpu:>7.2f}{n / run.wall:>12,.0f}"
        f"{run.rss_mb:>8.0f}{run.load:>6.2f}  {extra}"
    )


HEAD = f"{'command':<46}{'wall':>7}{'CPU':>7}{'games/s':>12}{'RSS MB':>8}{'load':>6}"


def _ingest_runs(work: Path, args: argparse.Namespace, base: Path | None) -> None:
    print(HEAD)
    for wanted in (int(v) for v in args.ingest_sizes.split(",")):
        dump = work / f"dump-{wanted}.pgn.zst"
        n = make_dump(dump, wanted)
        db = work / f"ingest-{wanted}.duckdb"
        cases = {
            "zstd -dc FILE | wc -l": lambda dump=dump: bare_zstd(dump),
            "db ingest FILE": lambda dump=dump, db=db: ingest(dump, db),
        }
        if base is not None:
            cases["db ingest FILE (baseline)"] = lambda dump=dump, db=db: ingest(dump, db, base)
        runs = interleaved(args.repeat, cases)
        bare = min(runs["zstd -dc FILE | wc -l"], key=lambda r: r.wall)
        size = f"{n:,} games, {dump.stat().st_size / 1e6:.0f} MB"
        print(_row(f"zstd -dc FILE | wc -l ({size})", n, bare))
        for name in cases:
            if name.startswith("db "):
                done = min(runs[name], key=lambda r: r.wall)
                ratio = bare.wall / done.wall
                verdict = "met" if ratio >= 0.5 else "MISSED"
                print(_row(name, n, done, f"{ratio:.3f}x zstd (>= 0.5x: {verdict})"))
        for old in work.glob("ingest-*.duckdb*"):
            old.unlink()
        if not args.data:
            dump.unlink()


def _synthetic_runs(work: Path, args: argparse.Namespace, base: Path | None) -> None:
    print(HEAD)
    for games in (int(v) for v in args.rate_sizes.split(",")):
        lichess_like = round(games / LICHESS_GAMES_PER_PLAYER)
        counts = (args.players or f"{lichess_like},150000,500000").replace(
            "auto", str(lichess_like)
        )
        for players in (int(p) for p in counts.split(",")):
            db = work / f"rate-{games}-{players}.duckdb"
            n = synthetic(db, games, players)
            sources = {"": None} if base is None else {"": None, " (baseline)": base}
            for label, src in sources.items():
                rate = lichess_elo("db", "rate", "--db", str(db), "--quiet")
                run = run_whole(rate, src=src or SRC[0])
                rows = _list_rows(db)
                verdict = "met" if n / run.wall >= 1e6 else "MISSED"
                what = f"db rate{label} ({n:,} games, {players:,} players)"
                print(_row(what, n, run, f"{rows:,} list rows (>= 1 M games/s: {verdict})"))
            if not args.skip_compare:
                compare = lichess_elo("db", "compare", "--db", str(db), "--format", "json")
                print(_row("db compare --format json", n, run_whole(compare, src=SRC[0])))
            if not args.data:
                db.unlink()


def make_year(where: Path, games: int, players: int, first: str, seed: int) -> dict:
    """The year of ``games`` games of ``players`` players under ``where`` (``gen_month``'s
    ``write_year``, 12 months from ``first``), made once and reused; its figures."""
    gen = load_script("gen_month")
    stamp = where / gen.YEAR_FILE
    want = {"first": first, "months": 12, "games": games, "players_asked": players, "seed": seed}
    if stamp.exists():
        run = json.loads(stamp.read_text())
        if {k: run.get(k) for k in want} == want and all(Path(f).exists() for f in run["files"]):
            return dict(run)
        shutil.rmtree(where)
    print(f"generating {games:,} games of {players:,} players over 12 months ...", flush=True)
    gen.write_year(where, games, months=12, first=first, players=players, seed=seed)
    run = json.loads(stamp.read_text())
    print(
        f"  {run['bytes'] / 1e6:,.0f} MB in {run['seconds']:.0f} s "
        f"({games / run['seconds'] / 1e6:.2f} M games/s)",
        flush=True,
    )
    return dict(run)


def _counts(db: Path) -> tuple[int, int, int]:
    """(games stored, distinct player names, list rows) of ``db``."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        games = con.execute("SELECT COUNT(*) FROM games").fetchone()
        names = con.execute("SELECT COUNT(DISTINCT name) FROM player_ids").fetchone()
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        rows = con.execute("SELECT COUNT(*) FROM lists").fetchone() if "lists" in tables else None
    finally:
        con.close()
    return tuple(int(r[0]) if r else 0 for r in (games, names, rows))  # type: ignore[return-value]


def _floor_run(db: Path, stored_ids: bool, out: Path) -> tuple[Run, str]:
    """``bench_rate_floor.py --db DB`` as a whole process, and its steps' wall times."""
    argv = [sys.executable, str(HERE / "bench_rate_floor.py"), "--db", str(db)]
    run = run_whole(argv + (["--stored-ids"] if stored_ids else []), stdout=out, src=SRC[0])
    steps = [line.strip() for line in out.read_text().splitlines()[1:-2]]
    return run, "; ".join(" ".join(step.split()[:-2]) + f" {step.split()[-2]} s" for step in steps)


#: The targets of issue 38 for ``db rate`` (games/s) below and from ``MANY`` players, and
#: its peak RSS from ``MANY`` players.
RATE_TARGET, RATE_TARGET_MANY, MANY, RSS_TARGET_MB = 1e6, 0.7e6, 2_000_000, 2048


def _dumps_runs(work: Path, args: argparse.Namespace, base: Path | None) -> None:
    results: list[str] = []
    print(HEAD, flush=True)
    for games in (int(v) for v in args.rate_sizes.split(",")):
        lichess_like = round(games / LICHESS_GAMES_PER_PLAYER)
        counts = (args.players or f"{lichess_like},150000,500000,2000000").replace(
            "auto", str(lichess_like)
        )
        for players in (int(p) for p in counts.split(",")):
            year = make_year(work / f"year-{games}-{players}", games, players, args.first, 1)
            files = [Path(f) for f in year["files"]]
            db = work / f"year-{games}-{players}.duckdb"
            size = f"{games / 1e6:g} M games, {players:,} players"
            lines = [f"-- {size}, 12 files, {year['bytes'] / 1e6:,.0f} MB --"]
            bare = bare_zstd(*files)
            lines.append(_row("zstd -dc FILE... | wc -l", games, bare))
            done = ingest(files, db)
            n, names, _ = _counts(db)
            ratio = bare.wall / done.wall
            lines.append(
                _row(
                    "db ingest FILE... --quiet",
                    n,
                    done,
                    f"{ratio:.3f}x zstd (>= 0.5x: {'met' if ratio >= 0.5 else 'MISSED'}); "
                    f"{names:,} players",
                )
            )
            goal = RATE_TARGET_MANY if players >= MANY else RATE_TARGET
            engines = {"db rate --quiet": (["db", "rate"], None)}
            if base is not None:
                engines["db rate --quiet (baseline)"] = (["db", "rate"], base)
            sql_skipped = args.skip_sql or (
                args.sql_max_players is not None and players > args.sql_max_players
            )
            if not sql_skipped:
                engines["db rate --engine duckdb-sql"] = (
                    ["db", "rate", "--engine", "duckdb-sql"],
                    None,
                )
            fast: Run | None = None
            for label, (cmd, src) in engines.items():
                argv = lichess_elo(*cmd, "--db", str(db), "--quiet")
                try:
                    run = run_whole(argv, src=src or SRC[0])
                except SystemExit as failed:  # a refusal or a crash is a figure too
                    lines.append(f"{label:<46}FAILED: {' '.join(str(failed).split())[-300:]}")
                    continue
                rows = _counts(db)[2]
                note = f"{rows:,} list rows"
                if label == "db rate --quiet":
                    fast = run
                    note += f" (>= {goal / 1e6:g} M games/s: "
                    note += "met)" if n / run.wall >= goal else "MISSED)"
                    if players >= MANY:
                        met = run.rss_mb <= RSS_TARGET_MB
                        note += f" (RSS <= 2 GB: {'met' if met else 'MISSED'})"
                elif fast is not None:
                    note += f"; default engine {run.wall / fast.wall:.1f}x faster"
                lines.append(_row(label, n, run, note))
            if sql_skipped:
                why = "--skip-sql" if args.skip_sql else f"--sql-max-players {args.sql_max_players}"
                lines.append(f"{'db rate --engine duckdb-sql':<46}skipped ({why})")
            for stored in (False, True):
                label = "SQL floor, " + ("stored ids" if stored else "from names")
                run, steps = _floor_run(db, stored, work / "floor.txt")
                lines.append(_row(label, n, run, steps))
            text = "\n".join(lines)
            print(text, flush=True)
            results.append(text)
            if not args.keep_db:
                for old in db.parent.glob(db.name + "*"):
                    old.unlink()
    print("\nAll of them (the load: the 1-minute average at each command's start)")
    print(machine())
    print(HEAD)
    print("\n".join(results))


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ingest-sizes", default="250000,500000,1000000")
    parser.add_argument("--rate-sizes", default="10000000", help="games (a year each)")
    parser.add_argument(
        "--players",
        default=None,
        help="comma-separated player counts, one year each; auto: the open database's "
        "ratio of games to players (default: auto,150000,500000,2000000; with --synthetic "
        "auto,150000,500000)",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--dumps",
        action="store_true",
        help="rate a generated year of dumps after db ingest (the default)",
    )
    mode.add_argument(
        "--synthetic",
        action="store_true",
        help="rate synthetic games made inside DuckDB (the earlier benchmark), not dumps",
    )
    parser.add_argument("--first", default="2024-01", help="the year's first month")
    parser.add_argument("--skip-sql", action="store_true", help="no --engine duckdb-sql run")
    parser.add_argument(
        "--sql-max-players",
        type=int,
        default=None,
        help="no --engine duckdb-sql run above this many players (slow at 2 M)",
    )
    parser.add_argument(
        "--keep-db", action="store_true", help="keep the years' databases under --data"
    )
    add_package_options(parser)
    parser.add_argument("--repeat", type=int, default=2, help="ingest rounds")
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--skip-rate", action="store_true")
    parser.add_argument("--skip-compare", action="store_true", help="--synthetic only")
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="keep the generated dumps and databases here and reuse them (outside the "
        "repository; default: a temporary directory, removed)",
    )
    parser.add_argument(
        "--baseline-src",
        type=Path,
        default=None,
        help="another checkout's src directory (git archive REV src | tar -x -C DIR): its "
        "db ingest and db rate run beside this one's, on the same files",
    )
    args = parser.parse_args()
    print(machine())
    SRC[0] = package_of(args)
    with tempfile.TemporaryDirectory() as tmp:
        work = args.data or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        if not args.skip_ingest:
            _ingest_runs(work, args, args.baseline_src)
        if not args.skip_rate:
            if args.synthetic:
                _synthetic_runs(work, args, args.baseline_src)
            else:
                _dumps_runs(work, args, args.baseline_src)


if __name__ == "__main__":
    main()
