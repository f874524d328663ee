"""Benchmark the scorecard's metrics against one bare numpy pass over the same arrays.

Usage: ``python benchmarks/bench_accuracy.py [--games 1000000] [--resamples 200] [--repeat 3]``

In one process, over ``--games`` generated prediction/result pairs (seeded):

- **baseline**: one ``np.log10`` pass over the predictions, nothing else;
- **score**: ``accuracy.score`` (deviance, log-loss, Brier, share correct, means, input checks);
- **calibration**: ``accuracy.calibration`` with the default ten bands;
- **compare**: ``accuracy.compare`` of two contenders, the paired bootstrap with
  ``--resamples`` replicates; its cost grows with games x resamples, so the figure per
  replicate is shown too.

Each timing is the best of ``--repeat`` runs, shown as seconds and as a ratio to the
baseline. Peak RSS of the process is printed at the end.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable

import numpy as np

from lichess_elo.core import accuracy


def best(run: Callable[[], object], repeat: int) -> float:
    """Best wall time in seconds of ``repeat`` calls of ``run``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB (ru_maxrss is KB on Linux, B on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a small table."""
    parser = argparse.ArgumentParser(description="Accuracy metrics benchmark")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    first = rng.uniform(0.05, 0.95, args.games)
    second = np.clip(first + rng.normal(0.0, 0.05, args.games), 0.0, 1.0)
    results = (rng.uniform(size=args.games) < first).astype(np.float64)
    results[rng.uniform(size=args.games) < 0.08] = 0.5
    print(f"{args.games} predictions, {args.resamples} bootstrap replicates, best of {args.repeat}")

    base = best(lambda: np.log10(first), args.repeat)
    rows = [
        ("baseline: np.log10", base),
        ("score", best(lambda: accuracy.score(first, results), args.repeat)),
        ("calibration", best(lambda: accuracy.calibration(first, results), args.repeat)),
    ]
    cmp_time = best(lambda: accuracy.compare(first, second, results, resamples=args.resamples), 1)
    rows.append((f"compare ({args.resamples} replicates)", cmp_time))
    rows.append(("compare, per replicate", cmp_time / args.resamples))
    print(f"{'step':<30} {'seconds':>10} {'x baseline':>11}")
    for name, seconds in rows:
        print(f"{name:<30} {seconds:>10.4f} {seconds / base:>11.1f}")
    print(f"peak RSS: {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
