"""Benchmark the scorecard's metrics against one bare numpy pass over the same arrays.

Usage: ``python benchmarks/bench_accuracy.py [--games 1000000] [--resamples 200] [--repeat 3]``

These are in-process figures of the library, for diagnosis: the scorecard's figure that
counts is the whole command of ``bench_scorecard_command.py``.

In one process, over ``--games`` generated prediction/result pairs (seeded):

- **baseline**: one ``np.log10`` pass over the predictions, nothing else;
- **score**: ``accuracy.score`` (deviance, log-loss, Brier, share correct, means, input checks);
- **calibration**: ``accuracy.calibration`` with the default ten bands;
- **compare**: ``accuracy.compare`` of two contenders, the paired bootstrap with
  ``--resamples`` replicates; its cost grows with games x resamples, so the figure per
  replicate is shown too;
- **compare_all**: four contenders, all six pairs judged on one resampling.

Then, at report scale, over ``--report-games`` generated Lichess games (``gen_games.py``,
every perf): the report model alone (``build_report``, no replay facts) is the baseline, and
against it the scorecard of every perf (``score_reports``: the four contenders, calibration
and six paired bootstraps of 1,000 replicates a perf) and the scorecard with the K scan
(``fit=True``: 57 more report builds).

Each timing is the best of ``--repeat`` runs (the bootstrap and the K scan: one run), in wall
and in CPU seconds of this process, each as a ratio to its baseline: on a shared machine
the CPU time is the steadier comparison. Peak RSS of the process is printed at the end.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from gen_games import generate_games

from lichess_elo.app.accuracy import score_reports
from lichess_elo.core import accuracy
from lichess_elo.core.report import ReportSettings, build_report
from lichess_elo.sources.lichess.parse import parse_games


def best(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time of this process, in seconds, of ``repeat`` calls."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def table(rows: list[tuple[str, tuple[float, float]]]) -> None:
    """Print wall and CPU seconds, each as a ratio to the first row (the baseline)."""
    base_wall, base_cpu = rows[0][1]
    print(f"{'step':<38} {'wall s':>9} {'x base':>9} {'CPU s':>9} {'x base':>9}")
    for name, (wall, cpu) in rows:
        print(
            f"{name:<38} {wall:>9.4f} {wall / base_wall:>9.1f} {cpu:>9.4f} "
            f"{cpu / max(base_cpu, 1e-9):>9.1f}"
        )


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
    parser.add_argument("--report-games", type=int, default=20_000)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    first = rng.uniform(0.05, 0.95, args.games)
    second = np.clip(first + rng.normal(0.0, 0.05, args.games), 0.0, 1.0)
    results = (rng.uniform(size=args.games) < first).astype(np.float64)
    results[rng.uniform(size=args.games) < 0.08] = 0.5
    print(f"{args.games} predictions, {args.resamples} bootstrap replicates, best of {args.repeat}")

    r = args.resamples
    rows = [
        ("baseline: np.log10", best(lambda: np.log10(first), args.repeat)),
        ("score", best(lambda: accuracy.score(first, results), args.repeat)),
        ("calibration", best(lambda: accuracy.calibration(first, results), args.repeat)),
        (
            f"compare ({r} replicates)",
            best(lambda: accuracy.compare(first, second, results, resamples=r), 1),
        ),
    ]
    four = [("a", first), ("b", second), ("c", 1.0 - second), ("d", np.full_like(first, 0.5))]
    rows.append(
        (
            f"compare_all, 6 pairs ({r} replicates)",
            best(lambda: accuracy.compare_all(four, results, resamples=r), 1),
        )
    )
    table(rows)
    report_scale(args.report_games, args.repeat)
    print(f"peak RSS: {peak_rss_mb():.0f} MB")


def report_scale(n: int, repeat: int) -> None:
    """The scorecard of a generated player's report against building the report itself."""
    user = "BenchUser"
    games = list(parse_games(generate_games(n, seed=0, user=user)))
    settings = ReportSettings(perfs=("all",))
    reports = build_report(user, games, {}, settings=settings)
    counted = sum(len(r.games) for r in reports)
    print(f"\n{n} generated games, {counted} counted in {len(reports)} perfs")
    table(
        [
            (
                "baseline: build_report",
                best(lambda: build_report(user, games, {}, settings=settings), repeat),
            ),
            (
                "scorecard",
                best(lambda: score_reports(user, games, settings, None, reports), repeat),
            ),
            (
                "scorecard + K scan",
                best(lambda: score_reports(user, games, settings, None, reports, fit=True), 1),
            ),
        ]
    )


if __name__ == "__main__":
    main()
