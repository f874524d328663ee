"""Benchmark ``lichess-elo games --pgn`` against a plain python-chess loop over the same file.

Usage: ``python benchmarks/bench_pgn.py [--games 5000] [--repeat 3] [--in-process]``

A PGN export of ``--games`` generated games (gen_games.py, written the way Lichess's export
writes them: tags, numbered moves, the result; every 100th game damaged with an illegal
move, which must be kept) is written to a temporary file. As whole commands, each a fresh
process (bench_common.run_whole), interleaved:

- **plain loop**: ``python -c`` calling ``chess.pgn.read_game`` until the end of the file,
  nothing else (the baseline the issue names);
- **games --pgn**: ``lichess-elo games BenchUser --pgn FILE > out.txt`` (read, replay,
  the table); target at most 1.1x the loop.

With ``--in-process`` (a diagnosis, not the figure that counts), the reading alone in this
process: the file's text, then ``pgn.read_pgn`` (tags, moves, the status from the final
position), against ``read_game`` in this process.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "src"), str(REPO / "benchmarks")]

import chess.pgn  # noqa: E402
from bench_common import interleaved, lichess_elo, machine, python_child, run_whole, table  # noqa: E402
from gen_games import generate_games, to_pgn  # noqa: E402

from lichess_elo.sources import pgn  # noqa: E402

DAMAGE_EVERY = 100


def export_text(n: int) -> str:
    """A Lichess-style PGN export of ``n`` generated games, every 100th one damaged."""
    parts = []
    for number, game in enumerate(generate_games(n, seed=2, user="BenchUser")):
        text = to_pgn(game)
        if number % DAMAGE_EVERY == 0:
            text = text.replace(" Nf3 ", " Nf6 ", 1).replace(" e4 ", " Ke5 ", 1)
        parts.append(text)
    return "".join(parts)


def plain_loop(path: Path) -> int:
    """The baseline: ``chess.pgn.read_game`` over the whole file."""
    count = 0
    with path.open(encoding="utf-8") as handle:
        while chess.pgn.read_game(handle) is not None:
            count += 1
    return count


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The fastest of ``repeat`` timed calls of ``run``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


PLAIN_LOOP = """
import sys, chess.pgn
with open(sys.argv[1], encoding="utf-8") as handle:
    while chess.pgn.read_game(handle) is not None:
        pass
"""


def whole(games: int, repeat: int) -> None:
    """The whole-command figures: ``games --pgn`` against the plain loop, fresh processes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.pgn"
        path.write_text(export_text(games), encoding="utf-8")
        out = Path(tmp) / "out.txt"
        command = lichess_elo("games", "BenchUser", "--pgn", str(path), "--cache-dir", tmp)
        runs = interleaved(
            repeat,
            {
                "plain read_game loop (python -c)": lambda: run_whole(
                    python_child(PLAIN_LOOP, str(path))
                ),
                "games BenchUser --pgn FILE": lambda: run_whole(command, out),
            },
        )
        rows = out.read_text(encoding="utf-8").count("\n")
        size = path.stat().st_size / 1e6
    print(f"games --pgn, {games:,} games ({size:.1f} MB, {rows:,} lines out), {repeat} rounds")
    print(machine())
    print(table(runs, "plain read_game loop (python -c)", {"games BenchUser --pgn FILE": 1.1}))


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the ratio."""
    parser = argparse.ArgumentParser(description="PGN reading benchmark")
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--in-process", action="store_true", help="the reading alone, here")
    args = parser.parse_args(argv)
    if not args.in_process:
        whole(args.games, args.repeat)
        return
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # the damaged games' noise
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.pgn"
        path.write_text(export_text(args.games), encoding="utf-8")
        games = pgn.read_pgn(path.read_text(encoding="utf-8"))
        assert len(games) == args.games == plain_loop(path), "every game must be kept"
        plies = sum(len(g.moves) for g in games)
        print(f"{len(games)} games, {plies} plies, {path.stat().st_size / 1e6:.1f} MB")
        # interleaved, so both see the same load on a shared machine
        plain = read = float("inf")
        for _ in range(args.repeat):
            plain = min(plain, best_of(1, lambda: plain_loop(path)))
            read = min(read, best_of(1, lambda: pgn.read_pgn(path.read_text(encoding="utf-8"))))
    print(f"{'run':<34}{'seconds':>9}{'x plain':>9}")
    print(f"{'plain chess.pgn.read_game loop':<34}{plain:>9.2f}{1:>9.3f}")
    print(f"{'--pgn reading (read_pgn)':<34}{read:>9.2f}{read / plain:>9.3f}")
    print(f"target --pgn reading <= 1.1x: {'met' if read <= 1.1 * plain else 'MISSED'}")


if __name__ == "__main__":
    main()
