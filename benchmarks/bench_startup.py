"""Benchmark start-up: ``lichess-elo --version``, ``--help`` and ``calc`` as whole commands.

Usage: ``python benchmarks/bench_startup.py [--repeat 15]``

Each run is a fresh process (bench_common.run_whole), the baseline ``python -c "import
typer"`` among them, all interleaved. The targets are on CPU time, the steadier
figure on a shared machine: ``--version`` and ``--help`` at most 1.5x the baseline's,
``calc 1500 1400:1`` at most 2.5x.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent)]

from bench_common import interleaved, lichess_elo, machine, python_child, run_whole, table  # noqa: E402

BASELINE = 'python -c "import typer"'
COMMANDS = {
    "lichess-elo --version": (["--version"], 1.5),
    "lichess-elo --help": (["--help"], 1.5),
    "lichess-elo calc 1500 1400:1": (["calc", "1500", "1400:1"], 2.5),
}


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    cases = {BASELINE: lambda: run_whole(python_child("import typer"))}
    for name, (words, _) in COMMANDS.items():
        cases[name] = lambda words=words: run_whole(lichess_elo(*words))
    runs = interleaved(args.repeat, cases)
    print(f"start-up, {args.repeat} interleaved runs each; {machine()}")
    print(table(runs, BASELINE, {name: goal for name, (_, goal) in COMMANDS.items()}))


if __name__ == "__main__":
    main()
