"""Benchmark ``lichess-elo report`` as a user runs it, against a bare python-chess loop.

Usage: ``python benchmarks/bench_report.py [--games 20000] [--repeat 3] [--fit-k]
[--baseline-src DIR]``

The fake Lichess server (bench_common.serve) runs in a child process and holds
``BenchUser`` with ``--games`` generated games (gen_games.py, about 80 plies each, 48
months). Every run below is a fresh process (bench_common.run_whole), interleaved round by
round so all see the same load:

- **bare loop**: ``python -c`` reading the same games' moves (one game a line) and calling
  ``chess.Board().push_san`` for every move, nothing else: the baseline;
- **cold**: ``lichess-elo report BenchUser --api-url URL --until 2025-01-01 --perf all
  --format json --quiet > out.json`` into an empty cache folder (a new one each round):
  the month-by-month import over loopback HTTP, the replay of every game on the
  machine's cores, the report of every perf; target at most 0.4x the bare loop;
- **warm**: the same with ``--offline``, everything cached; target at most 0.05x;
- **warm, --fit-k** (with ``--fit-k``): the same with the fitted K; target at most 5x warm;
- **cold, baseline** (with ``--baseline-src DIR``, another checkout's ``src``: ``git archive
  REV src | tar -x -C DIR``): the cold report of that checkout, in the same rounds.

The CPU of a run is its own and its descendants' (the replay pool's workers). Its peak RSS
is the largest of the process and its workers (wait4's ``ru_maxrss``); the issue's limits
for the warm report are 250 MB at 100,000 games and 450 MB at 300,000.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent)]

from bench_common import (  # noqa: E402
    BARE_LOOP,
    USER,
    interleaved,
    lichess_elo,
    machine,
    python_child,
    run_whole,
    serve,
    table,
    write_moves,
)
from gen_games import generate_games  # noqa: E402

BARE = "bare push_san loop (python -c)"
COLD = "report --perf all --format json, cold"
WARM = "report --perf all --format json, warm"
FIT_K = "report ... --format json --fit-k, warm"
COLD_BASE = "the same cold, --baseline-src"


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fit-k", action="store_true", help="also time --fit-k (warm)")
    parser.add_argument(
        "--baseline-src", type=Path, default=None, help="also time this src's cold report"
    )
    args = parser.parse_args(argv)
    # (bench_common lets the children write bytecode, as a user's install has it.)
    with serve(args.games) as url, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        games = generate_games(args.games, seed=0, user=USER)  # the served games (seed 0)
        moves = write_moves(games, root / "moves.txt")
        plies = sum(len(g["moves"].split()) for g in games)
        del games
        common = [USER, "--api-url", url, "--until", "2025-01-01", "--perf", "all"]
        common += ["--format", "json", "--quiet"]
        out = root / "out.json"
        rounds = iter(range(2 * args.repeat))

        def cold(src: Path | None = None) -> object:
            cache = root / f"cold{next(rounds)}"
            argv = lichess_elo("report", *common, "--cache-dir", str(cache))
            return run_whole(argv, out if src is None else root / "base.json", src)

        warm = lichess_elo("report", *common, "--cache-dir", str(root / "cold0"), "--offline")
        cases = {
            BARE: lambda: run_whole(python_child(BARE_LOOP, str(moves))),
            COLD: cold,
            WARM: lambda: run_whole(warm, out),
        }
        if args.fit_k:
            cases[FIT_K] = lambda: run_whole([*warm, "--fit-k"], root / "fit.json")
        if args.baseline_src:
            cases[COLD_BASE] = lambda: cold(args.baseline_src)
        runs = interleaved(args.repeat, cases)  # type: ignore[arg-type]
        assert out.stat().st_size > 100 * args.games, "the JSON holds every game"
        same = args.baseline_src and (root / "base.json").read_bytes() == out.read_bytes()
    print(f"report, {args.games:,} games ({plies:,} plies), {args.repeat} interleaved rounds")
    print(machine())
    print(table(runs, BARE, {COLD: 0.4, WARM: 0.05, COLD_BASE: 0.4}))
    if args.baseline_src:
        print(f"the baseline's cold report writes the same bytes: {'yes' if same else 'NO'}")
    if args.fit_k:
        ratio = min(r.cpu for r in runs[FIT_K]) / min(r.cpu for r in runs[WARM])
        wall = min(r.wall for r in runs[FIT_K]) / min(r.wall for r in runs[WARM])
        verdict = "met" if min(ratio, wall) <= 5 else "MISSED"
        print(
            f"--fit-k over the same warm report: {wall:.2f}x wall, {ratio:.2f}x CPU "
            f"(<= 5x: {verdict})"
        )


if __name__ == "__main__":
    main()
