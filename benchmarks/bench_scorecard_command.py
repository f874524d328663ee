"""Benchmark the scorecard as a whole command: ``report --view accuracy`` against the report
without it, each a fresh ``python -m lichess_elo`` process (at most 1.5x).

Usage: ``python benchmarks/bench_scorecard_command.py [--games 20000] [--repeat 3]``

``--games`` generated games (gen_games.py, seeded, every perf) are written as one PGN file.
One warm-up run fills the cache folder (the replay facts), then, alternating so that both
see the same load, ``--repeat`` runs of each:

- **report**: ``report BenchUser --pgn FILE --perf all`` (the periods table, no scorecard);
- **scorecard**: the same with ``--view accuracy``: every perf's scorecard with all six
  contenders (Glicko-1 and Stephenson included), calibration and 15 paired bootstraps of
  1,000 replicates a perf;
- **scorecard, JSON**: ``--format json --output FILE`` (every game and the scorecard).

Each figure is the best of the runs, in wall seconds and in the CPU seconds of the child
processes (``RUSAGE_CHILDREN``; the steadier one on a shared machine), each as a ratio to
the report. Interpreter start, imports and exit are inside every figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from gen_games import generate_games, to_pgn

USER = "BenchUser"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: list[str], cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``python -m lichess_elo`` run (its output discarded)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LICHESS")}
    env["LICHESS_ELO_CACHE_DIR"] = str(cache)
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "lichess_elo", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    wall, cpu = time.perf_counter() - wall, _children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr.decode()[-500:]}")
    return wall, cpu


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a small table with the ratio to the report."""
    parser = argparse.ArgumentParser(description="Scorecard as a whole command")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        pgn = tmp / "games.pgn"
        with pgn.open("w", encoding="utf-8") as out:
            for game in generate_games(args.games, seed=0, user=USER):
                out.write(to_pgn(game))
        cache = tmp / "cache"
        base = ["report", USER, "--pgn", str(pgn), "--perf", "all", "-q"]
        runs = {
            "report (no scorecard)": base,
            "scorecard (--view accuracy)": [*base, "--view", "accuracy"],
            "scorecard, JSON to a file": [
                *base,
                "--format",
                "json",
                "--output",
                str(tmp / "r.json"),
            ],
        }
        run(base, cache)  # warm-up: the replay facts go to the cache
        best: dict[str, tuple[float, float]] = {}
        for _ in range(args.repeat):
            for name, command in runs.items():
                wall, cpu = run(command, cache)
                old = best.get(name, (wall, cpu))
                best[name] = (min(old[0], wall), min(old[1], cpu))
    print(
        f"{args.games} generated games (--pgn, --perf all), best of {args.repeat}, fresh processes"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    base_wall, base_cpu = best["report (no scorecard)"]
    print(f"{'command':<30} {'wall s':>8} {'x report':>9} {'CPU s':>8} {'x report':>9}")
    for name, (wall, cpu) in best.items():
        print(
            f"{name:<30} {wall:>8.2f} {wall / base_wall:>9.2f} {cpu:>8.2f} {cpu / base_cpu:>9.2f}"
        )
    ratio = best["scorecard (--view accuracy)"][1] / base_cpu
    print(f"target scorecard <= 1.5x the report (CPU): {'met' if ratio <= 1.5 else 'MISSED'}")


if __name__ == "__main__":
    main()
