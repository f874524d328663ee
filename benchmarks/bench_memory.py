"""Benchmark the real ``lichess-elo`` program: wall time, CPU time and peak memory.

Usage: ``python benchmarks/bench_memory.py [--games 20000] [--repeat 2] [--no-bare]``

Each run is the real command line in a child process (``python -m lichess_elo``), so the
figures include everything a user waits for: the interpreter starting, the imports, the
output written to a file and the exit. The fake Lichess server (bench_common.serve) holds
``--games`` generated games in another child process. The peak memory is the child's peak
resident set size (``os.wait4``'s ``ru_maxrss``: the whole process, not only Python's
objects); its CPU time is the child's user plus system time.

Runs, for ``BenchUser`` over 48 months (``--until 2025-01-01``):

- **bare loop** (in a child process, first): ``Board.push_san`` over every move; the ratios
  are against it, wall to wall and CPU to CPU (the CPU ratio is the steadier one on a
  shared machine; the cold report's pool workers are grandchildren, counted in its CPU);
- **cold report**: ``report --perf all --format json`` into an empty cache folder;
- **warm report**: the same with ``--offline``, everything cached (table, JSON, CSV);
- **fetch**: ``fetch`` into an empty cache folder (it counts the games, keeps none).

Targets: warm report at most 0.05x, cold at most 0.6x; peak memory of the
JSON report at most 300 MB at 100,000 games and 600 MB at 300,000.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_common import REPO, USER, bare_loop, serve
from gen_games import generate_games

UNTIL = "2025-01-01"


def bare_timing(n: int) -> tuple[float, float]:
    """(wall s, CPU s) of the bare loop over ``n`` generated games (run in a child process)."""
    moves = [g["moves"].split() for g in generate_games(n, seed=0, user=USER)]
    start, cpu = time.perf_counter(), time.process_time()
    bare_loop(moves)
    return time.perf_counter() - start, time.process_time() - cpu


def run_cli(args: list[str]) -> tuple[float, float, float]:
    """Run ``python -m lichess_elo *args``: (wall s, CPU s, peak RSS MB) of the child."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LICHESS")}
    env["PYTHONPATH"] = str(REPO / "src")
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "lichess_elo", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"lichess-elo {' '.join(args)} failed: {errors.decode()[-500:]}")
    # ru_maxrss is in kilobytes on Linux; the children's CPU includes the pool's workers
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best(repeat: int, args: list[str]) -> tuple[float, float, float]:
    """The best wall and CPU time, and the highest peak memory, of ``repeat`` runs."""
    runs = [run_cli(args) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description="Whole-program benchmark")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-bare", action="store_true", help="skip the bare loop (no ratios)")
    args = parser.parse_args(argv)
    bare_wall = bare_cpu = float("nan")
    if not args.no_bare:
        # In a child: a process's peak memory counts what it had before its exec (the
        # fork of this process), so this one stays small and holds no games.
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            bare_wall, bare_cpu = pool.apply(bare_timing, (args.games,))
    load = os.getloadavg()
    with serve(args.games) as url, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        common = [USER, "--api-url", url, "--until", UNTIL, "--perf", "all", "--quiet"]
        out = ["--output", str(root / "out")]
        rows = {
            "cold report, --format json": run_cli(
                ["report", *common, "--cache-dir", str(root / "c"), "--format", "json", *out]
            )
        }
        warm = ["report", *common, "--cache-dir", str(root / "c"), "--offline"]
        rows["warm report, table"] = best(args.repeat, [*warm, *out])
        rows["warm report, --format json"] = best(args.repeat, [*warm, "--format", "json", *out])
        rows["warm report, --format csv games"] = best(
            args.repeat, [*warm, "--format", "csv", "--view", "games", *out]
        )
        fetch = ["fetch", USER, "--api-url", url, "--until", UNTIL, "--quiet"]
        rows["fetch into an empty cache"] = run_cli([*fetch, "--cache-dir", str(root / "f")])
    cores = os.cpu_count()
    print(f"{args.games} games; load average before the runs {load[0]:.2f} on {cores} cores")
    print(f"bare python-chess loop: {bare_wall:.2f} s wall, {bare_cpu:.2f} s CPU")
    print(f"{'run':<34}{'wall s':>8}{'CPU s':>8}{'x bare':>8}{'x CPU':>8}{'peak MB':>9}")
    for name, (wall, cpu, rss) in rows.items():
        print(
            f"{name:<34}{wall:>8.2f}{cpu:>8.2f}{wall / bare_wall:>8.3f}{cpu / bare_cpu:>8.3f}"
            f"{rss:>9.0f}"
        )


if __name__ == "__main__":
    main()
