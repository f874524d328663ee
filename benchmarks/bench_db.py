"""Benchmark ``db ingest``, ``db rate`` and ``db compare`` as whole commands.

Every run is the command as a user types it, in a fresh process (bench_common.run_whole:
wall, CPU of it and its descendants, peak RSS, the load average at its start).

1. Ingest: a ``.pgn.zst`` dump in the open database's format (the games of
   ``gen_dump.py``, about 2 KB and 80 plies with ``[%clk]`` comments each, repeated to
   reach the size), read by ``lichess-elo db ingest FILE --db NEW --quiet``, interleaved
   with the baseline ``zstd -dc FILE | wc -l`` (``sh -c``) on the same file; games/s and
   the ratio of the two speeds (target at least 0.5), at each size of ``--ingest-sizes``
   (memory must stay flat).
2. Rate: synthetic games over 12 months (made in DuckDB: ``--players`` players with true
   strengths, paired at random, results drawn from the strengths) rated by ``lichess-elo
   db rate --db FILE --quiet``, then compared by ``lichess-elo db compare --db FILE
   --format json``; games/s, CPU and peak RSS, at each size of ``--rate-sizes`` and each
   player count (target for rate at least 1 M games/s at 10 M games). How many players
   share the games decides how many list rows the run writes. The default runs three:

   - the open database's ratio of games to distinct players, about 196 games a player
     (450 M games of 2.3 M players over 2013-2018, as counted by
     github.com/jcw024/lichess_database_ETL), so 51,111 players for 10 M games;
   - 150,000 players; and 500,000, ten times sparser: 40 games a player a year, most player-months
     with one or two games, so the lists hold more rows than there are games.

Run ``python benchmarks/bench_db.py`` (ingest 250k, 500k, 1 M games; rate and compare 10 M
games at three player counts); ``--rate-sizes 2500000,5000000,10000000 --players auto``
gives the growth with the size at the open database's games per player. ``--data DIR``
keeps the generated files there and reuses them; ``--baseline-src DIR`` (another
checkout's ``src``) runs its ``db ingest`` and ``db rate`` beside this one's, on the same
files, for before-and-after figures.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path

import zstandard

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from bench_common import Run, interleaved, lichess_elo, machine, run_whole  # noqa: E402


def _gen_dump() -> object:
    spec = importlib.util.spec_from_file_location("gen_dump", HERE / "gen_dump.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_dump"] = module
    spec.loader.exec_module(module)
    return module


def make_dump(path: Path, games: int, unique: int = 40_000) -> int:
    """A dump of about ``games`` games: ``unique`` generated ones, repeated; returns the count
    (a file already at ``path`` is kept: the generation is seeded, so it is the same)."""
    copies = max(1, round(games / unique))
    if path.exists():
        return copies * unique
    gen = _gen_dump()
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


def bare_zstd(path: Path) -> Run:
    """The baseline, ``zstd -dc FILE | wc -l``, as a shell runs it."""
    return run_whole(f"zstd -dc '{path}' | wc -l")


def ingest(path: Path, db: Path, src: Path | None = None) -> Run:
    """``lichess-elo db ingest FILE --db DB --quiet`` (a new database), with the package of
    ``src`` (this checkout's by default)."""
    for old in db.parent.glob(db.name + "*"):
        old.unlink()
    argv = lichess_elo("db", "ingest", str(path), "--db", str(db), "--quiet")
    return run_whole(argv, src=src)


SYNTHETIC = """
INSERT INTO games (month, perf, white, black, white_elo, black_elo, white_diff, black_diff,
                   score, ord)
WITH p AS (SELECT range AS i, 1500 + 350 * sqrt(-2 * ln(random())) * cos(2 * pi() * random())
           AS strength FROM range({players})),
g AS (SELECT range AS n, (range * 12) // {games} AS m,
             CAST(floor(random() * {players}) AS BIGINT) AS w,
             CAST(floor(random() * {players}) AS BIGINT) AS b, random() AS r,
             ['bullet', 'blitz', 'rapid', 'classical'][1 + CAST(floor(random() * 4) AS INT)]
             AS perf
      FROM range({games}))
SELECT 202400 + m + 1 AS month, perf, 'p' || g.w AS white, 'p' || g.b AS black,
       CAST(pw.strength + 50 * random() AS INT) AS white_elo,
       CAST(pb.strength + 50 * random() AS INT) AS black_elo, 0 AS white_diff, 0 AS black_diff,
       CASE WHEN r < 0.08 THEN 50
            WHEN r < 0.08 + 0.92 / (1 + pow(10, -(pw.strength - pb.strength) / 400)) THEN 100
            ELSE 0 END AS score,
       n AS ord
FROM g JOIN p pw ON pw.i = g.w JOIN p pb ON pb.i = g.b WHERE g.w <> g.b
"""


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

    from lichess_elo.sources.population import ids

    con = duck.connect(db, create=True)
    con.execute("RESET memory_limit")
    con.execute(SYNTHETIC.format(games=games, players=players))
    # The player ids ``db ingest`` writes with each game (not timed: ingest's work).
    ids.ensure_ids(con)
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


def _rate_runs(work: Path, args: argparse.Namespace, base: Path | None) -> None:
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
                run = run_whole(rate, src=src)
                rows = _list_rows(db)
                verdict = "met" if n / run.wall >= 1e6 else "MISSED"
                what = f"db rate{label} ({n:,} games, {players:,} players)"
                print(_row(what, n, run, f"{rows:,} list rows (>= 1 M games/s: {verdict})"))
            if not args.skip_compare:
                compare = lichess_elo("db", "compare", "--db", str(db), "--format", "json")
                print(_row("db compare --format json", n, run_whole(compare)))
            if not args.data:
                db.unlink()


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ingest-sizes", default="250000,500000,1000000")
    parser.add_argument("--rate-sizes", default="10000000")
    parser.add_argument(
        "--players",
        default=None,
        help="comma-separated player counts, one rate run each; auto: the open "
        "database's ratio of games to players (default: auto,150000,500000)",
    )
    parser.add_argument("--repeat", type=int, default=2, help="ingest rounds")
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--skip-rate", action="store_true")
    parser.add_argument("--skip-compare", action="store_true")
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
    with tempfile.TemporaryDirectory() as tmp:
        work = args.data or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        if not args.skip_ingest:
            _ingest_runs(work, args, args.baseline_src)
        if not args.skip_rate:
            _rate_runs(work, args, args.baseline_src)


if __name__ == "__main__":
    main()
