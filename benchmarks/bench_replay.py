"""Benchmark the replay against a bare python-chess loop over the same moves.

Usage: ``python benchmarks/bench_replay.py [--games 20000] [--repeat 2]``

These are in-process figures, for diagnosis: the replay's figures that count are the
whole commands of ``bench_report.py`` (cold report) and ``bench_pgn.py`` (``games --pgn``).

In one process, over ``--games`` generated games (``gen_games.py``, about 80 plies each):

- **bare loop**: ``chess.Board()`` then ``Board.push_san`` for every move, nothing else;
- **cold, one core**: ``replay_all(workers=1)`` into an empty cache (replay, final facts,
  and writing the SQLite cache); target at most 1.2x the bare loop;
- **warm**: the same call again, everything cached; target at most 0.05x the bare loop;
- **cold, N cores**: ``replay_all`` with the machine's cores into another empty cache
  (the process pool); the speed-up is as measured.

Each timing is the best of ``--repeat`` runs (a fresh cache each cold run; bare and cold
runs interleaved). Wall time and this process's CPU time are both shown: on a shared
machine the CPU time is the steadier comparison for the one-core runs (the pool's
workers are other processes, so only its wall time means anything).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).parent))

from gen_games import generate_games

from lichess_elo.core.games import Game
from lichess_elo.sources.cache.replay import replay_all
from lichess_elo.sources.lichess.parse import parse_games


def bare_loop(games: Sequence[Game]) -> None:
    """The baseline: push every SAN move on a fresh board, nothing else."""
    for game in games:
        board = chess.Board()
        for san in game.moves:
            board.push_san(san)


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call of ``run``."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a small table."""
    parser = argparse.ArgumentParser(description="Replay benchmark")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    games = list(parse_games(generate_games(args.games, seed=0)))
    plies = sum(len(g.moves) for g in games)
    print(f"{len(games)} games, {plies} plies ({plies / len(games):.1f} a game), {cores} cores")

    bare: list[tuple[float, float]] = []
    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    par: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for attempt in range(args.repeat):  # interleaved, so a busy moment hits both
            bare.append(timed(lambda: bare_loop(games)))
            cache = root / f"cold{attempt}"
            cold.append(timed(lambda: replay_all(games, cache_dir=cache, workers=1)))  # noqa: B023
        facts = replay_all(games, cache_dir=root / "cold0", workers=1)
        assert len(facts) == len(games) and all(f.valid for f in facts.values())
        for _ in range(args.repeat):
            warm.append(timed(lambda: replay_all(games, cache_dir=root / "cold0", workers=1)))
        if cores > 1:
            for attempt in range(args.repeat):
                cache = root / f"par{attempt}"
                par.append(timed(lambda: replay_all(games, cache_dir=cache, workers=cores)))  # noqa: B023

    base_wall = min(w for w, _ in bare)
    base_cpu = min(c for _, c in bare)
    rows = [
        ("bare push_san loop", bare, "baseline"),
        ("cold replay, 1 core", cold, "<= 1.20x"),
        ("warm replay (cached)", warm, "<= 0.05x"),
    ]
    if par:
        rows.append((f"cold replay, {cores} cores", par, "as measured (wall)"))
    print(
        f"{'run (best of ' + str(args.repeat) + ')':<24} {'wall s':>7} {'x bare':>7} "
        f"{'CPU s':>7} {'x bare':>7}  target"
    )
    for name, runs, target in rows:
        wall = min(w for w, _ in runs)
        cpu = min(c for _, c in runs)
        cpu_text = (
            f"{cpu:7.2f} {cpu / base_cpu:7.3f}" if "cores" not in name else f"{'-':>7} {'-':>7}"
        )
        print(f"{name:<24} {wall:7.2f} {wall / base_wall:7.3f} {cpu_text}  {target}")
    if par:
        speed_up = min(w for w, _ in cold) / min(w for w, _ in par)
        print(f"parallel speed-up over 1 core (wall): {speed_up:.2f}x")


if __name__ == "__main__":
    main()
