"""Benchmark ``db ingest`` and ``db rate`` (issue #13 targets, figures for the README).

1. Ingest: a ``.pgn.zst`` dump of ``--games`` games in the open database's format (the
   games of ``gen_dump.py``, repeated to reach the size), read by ``db ingest`` in a child
   process; games/s and the child's peak RSS, against the bare ``zstd -dc FILE | wc -l``
   rate measured on the same file in the same run (the baseline). Run at two sizes to
   show that memory stays flat.
2. Rate: ``--rate-games`` synthetic games over 12 months (made in DuckDB: ``--players``
   players with true strengths, paired at random, results drawn from the strengths)
   rated by ``db rate`` on DuckDB in a child process; games/s, CPU and the child's peak
   RSS, at each player count given. How many players share the games decides how many
   list rows the run writes. The default runs two:

   - the open database's ratio of games to distinct players, about 196 games a player
     (450 M games of 2.3 M players over 2013-2018, as counted by
     github.com/jcw024/lichess_database_ETL), so 51,111 players for 10 M games;
   - 500,000 players, ten times sparser: 40 games a player a year, most player-months
     with one or two games, so the lists hold more rows than there are games.

Run ``python benchmarks/bench_db.py --games 1000000 --rate-games 10000000``.
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zstandard

HERE = Path(__file__).resolve().parent


def _gen_dump() -> object:
    spec = importlib.util.spec_from_file_location("gen_dump", HERE / "gen_dump.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_dump"] = module
    spec.loader.exec_module(module)
    return module


def make_dump(path: Path, games: int, unique: int = 40_000) -> int:
    """A dump of about ``games`` games: ``unique`` generated ones, repeated; returns the count."""
    gen = _gen_dump()
    src = path.parent / "src"
    (first,) = gen.write_dumps(src, players=4000, games=unique, months=1)  # type: ignore[attr-defined]
    text = zstandard.ZstdDecompressor().decompress(first.read_bytes(), max_output_size=1 << 31)
    shutil.rmtree(src)
    copies = max(1, round(games / unique))
    with (
        path.open("wb") as raw,
        zstandard.ZstdCompressor(level=3, threads=2).stream_writer(raw) as out,
    ):
        for _ in range(copies):
            out.write(text)
    return copies * unique


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bare_zstd(path: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``zstd -dc FILE | wc -l``."""
    cpu, start = _child_cpu(), time.perf_counter()
    subprocess.run(f"zstd -dc '{path}' | wc -l", shell=True, check=True, capture_output=True)
    return time.perf_counter() - start, _child_cpu() - cpu


def in_child(call: str) -> tuple[float, float, float]:
    """Run ``call`` (Python, with ``app`` and ``Path`` imported) in a child process:
    (wall s, CPU s, the child's peak RSS MB)."""
    code = (
        "import resource\n"
        "from pathlib import Path\n"
        "from lichess_elo.population import app\n"
        f"{call}\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    cpu, start = _child_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    return seconds, _child_cpu() - cpu, int(done.stdout.split()[-1]) / 1024


def ingest(path: Path, db: Path) -> tuple[float, float, float]:
    """``db ingest`` of ``path`` in a child process: (wall s, CPU s, the child's peak RSS MB)."""
    return in_child(f"app.ingest(app.IngestSettings((Path({str(path)!r}),), Path({str(db)!r})))")


SYNTHETIC = """
CREATE OR REPLACE TABLE games AS
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


def rate(db: Path, games: int, players: int) -> tuple[int, float, float, float]:
    """Rate ``games`` synthetic games over 12 months on DuckDB, ``db rate`` in a child
    process: (games, wall s, CPU s, the child's peak RSS MB)."""
    from lichess_elo.population import duck

    con = duck.connect(db, create=True)
    con.execute("RESET memory_limit")
    con.execute(SYNTHETIC.format(games=games, players=players))
    stored = con.execute("SELECT COUNT(*) FROM games").fetchone()
    con.close()
    assert stored is not None
    seconds, cpu, rss = in_child(f"app.rate(app.RateSettings(Path({str(db)!r})))")
    return int(stored[0]), seconds, cpu, rss


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--rate-games", type=int, default=10_000_000)
    parser.add_argument(
        "--players",
        default=None,
        help="comma-separated player counts, one rate run each (default: the open "
        "database's ratio of games to players, then 500000)",
    )
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--skip-rate", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if not args.skip_ingest:
            for n in (args.games // 4, args.games):
                dump = work / f"dump-{n}.pgn.zst"
                n = make_dump(dump, n)
                bare, bare_cpu = bare_zstd(dump)
                seconds, cpu, rss = ingest(dump, work / f"i{n}.duckdb")
                print(
                    f"ingest {n:,} games ({dump.stat().st_size / 1e6:.0f} MB zst): "
                    f"{n / seconds:,.0f} games/s wall, {n / cpu:,.0f} games per CPU-second, "
                    f"peak RSS {rss:,.0f} MB | bare zstd -dc | wc -l: {n / bare:,.0f} games/s "
                    f"wall, {n / bare_cpu:,.0f} per CPU-second | ingest/bare wall ratio "
                    f"{bare / seconds:.2f}"
                )
                dump.unlink()
        if args.skip_rate:
            return
        lichess_like = round(args.rate_games / LICHESS_GAMES_PER_PLAYER)
        counts = args.players or f"{lichess_like},500000"
        for players in (int(p) for p in counts.split(",")):
            db = work / f"rate-{players}.duckdb"
            n, seconds, cpu, rss = rate(db, args.rate_games, players)
            rows = _list_rows(db)
            db.unlink()
            rate_text = (
                f"{seconds:.1f} s, {n / seconds:,.0f} games/s wall, CPU {cpu:.1f} s "
                f"({n / cpu:,.0f} games per CPU-second), peak RSS {rss:,.0f} MB"
            )
            print(
                f"rate {n:,} games of {players:,} players over 12 months on DuckDB "
                f"({rows:,} list rows): {rate_text}"
            )


if __name__ == "__main__":
    main()
