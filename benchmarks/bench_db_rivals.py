"""Benchmark what Glicko-1 and Stephenson cost ``db rate`` and ``db compare``, as whole
commands, against the code before them.

The population is ``bench_db.py``'s synthetic one (``--games`` over 12 months, the open
database's ratio of games to players unless ``--players``). ``--before DIR`` is the
``src`` folder of a checkout without the contenders (e.g. ``git archive main | tar -x -C
DIR``); each command then runs in fresh processes of both, alternating so that both see
the same load, ``--repeat`` times:

- ``db rate --db FILE --quiet`` (after: the lists and the contenders' tracks);
- ``db compare --db FILE --format json`` (after: four systems, six paired comparisons),
  on the lists the newer ``db rate`` built (the older ``compare`` ignores the tracks).

Each figure is the best of the runs: wall and CPU seconds (the process and its children)
and peak RSS, with the load average at the start (``bench_common.run_whole``).

Usage: ``python benchmarks/bench_db_rivals.py --before /tmp/main-src [--games 2000000]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from bench_common import Run, lichess_elo, machine, run_whole  # noqa: E402
from bench_db import LICHESS_GAMES_PER_PLAYER, synthetic  # noqa: E402


def _with_src(src: Path | None, argv: list[str]) -> list[str]:
    """``argv`` run with ``src`` first on the module path (``env`` as a command)."""
    if src is None:
        return argv
    return ["env", f"PYTHONPATH={src}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", *argv]


def _best(runs: list[Run]) -> Run:
    return min(runs, key=lambda r: r.cpu)


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--before", type=Path, default=None, help="src folder of the old code")
    args = parser.parse_args()
    players = args.players or round(args.games / LICHESS_GAMES_PER_PLAYER)
    print(machine())
    versions: dict[str, Path | None] = {"after": None}
    if args.before is not None:
        versions = {"before": args.before, "after": None}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        db = work / "rate.duckdb"
        n = synthetic(db, args.games, players)
        print(f"{n:,} games, {players:,} players, 12 months; best of {args.repeat} (by CPU)")
        rate: dict[str, list[Run]] = {v: [] for v in versions}
        comp: dict[str, list[Run]] = {v: [] for v in versions}
        for _ in range(args.repeat):
            for version, src in versions.items():
                copy = work / f"{version}.duckdb"
                shutil.copy(db, copy)
                rate[version].append(
                    run_whole(_with_src(src, lichess_elo("db", "rate", "--db", str(copy), "-q")))
                )
        shutil.copy(work / "after.duckdb", db)  # lists and tracks, for both compares
        for _ in range(args.repeat):
            for version, src in versions.items():
                argv = lichess_elo("db", "compare", "--db", str(db), "--format", "json")
                comp[version].append(run_whole(_with_src(src, argv), work / "out.json"))
    print(f"{'command':<36}{'wall s':>9}{'CPU s':>9}{'RSS MB':>8}{'load':>7}{'CPU x':>8}")
    for name, runs in (("db rate", rate), ("db compare --format json", comp)):
        base = _best(runs["before"]) if "before" in runs else None
        for version in versions:
            r = _best(runs[version])
            ratio = f"{r.cpu / base.cpu:.2f}" if base else "-"
            print(
                f"{name + ' (' + version + ')':<36}{r.wall:>9.2f}{r.cpu:>9.2f}"
                f"{r.rss_mb:>8.0f}{r.load:>7.2f}{ratio:>8}"
            )


if __name__ == "__main__":
    main()
