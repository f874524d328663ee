"""Benchmark ``lichess-elo report`` over 20,000 generated games against a bare python-chess loop.

Usage: ``python benchmarks/bench_report.py [--games 20000] [--repeat 2]``

The fake Lichess server (tests.fake_lichess.py) runs in a child process and holds
``BenchUser`` with ``--games`` generated games (gen_games.py, about 80 plies each, 48
months). In this process, over the same games:

- **bare loop**: ``chess.Board()`` then ``Board.push_san`` for every move, nothing else (the
  baseline the issue asks for);
- **cold report**: ``app.report.run_report`` with an empty cache folder: the month-by-month
  import over loopback HTTP (berserk, requests-cache), the replay of every game (the
  machine's cores), the report of every perf (``--perf all``) and its table;
- **warm report**: the same with ``--offline`` and everything cached (HTTP and replay
  caches), printing the default table (periods view); target under 0.1x the bare loop;
- **warm report, JSON**: the same, writing the whole JSON document (every game);
- **model only**: ``build_report`` + the JSON document from games and facts in memory.

Like the CLI, the report runs with Python's cyclic garbage collector paused
(``app.report.paused_gc``): with it running, the warm report took about a third longer.

Each timing is the best of ``--repeat`` runs (a fresh cache folder for each cold run).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "src"), str(REPO / "benchmarks")]

import chess  # noqa: E402
from gen_games import generate_games  # noqa: E402

from lichess_elo.app.report import paused_gc, run_report  # noqa: E402
from lichess_elo.core.games import Game  # noqa: E402
from lichess_elo.core.report import ReportSettings, build_report  # noqa: E402
from lichess_elo.output import report as render_report  # noqa: E402
from lichess_elo.output import report_text  # noqa: E402
from lichess_elo.sources.lichess import Source  # noqa: E402
from lichess_elo.sources.lichess.parse import parse_games  # noqa: E402
from lichess_elo.sources.replay_cache import replay_all  # noqa: E402

USER = "BenchUser"
START = datetime(2021, 1, 1, tzinfo=UTC)
UNTIL = date(2025, 1, 1)
SETTINGS = ReportSettings(perfs=("all",))


def _serve(n: int, port_queue: Any) -> None:
    """Child process: serve ``BenchUser``'s games until terminated."""
    from tests.fake_lichess import FakeLichess

    server = FakeLichess()
    server.add_user(USER, START, generate_games(n, seed=0, user=USER))
    server.start()
    port_queue.put(server.url)
    while True:
        time.sleep(3600)


def bare_loop(games: Sequence[Game]) -> None:
    """The baseline: push every SAN move on a fresh board, nothing else."""
    for game in games:
        board = chess.Board()
        for san in game.moves:
            board.push_san(san)


def best_of(repeat: int, run: Callable[[int], object]) -> float:
    """The fastest of ``repeat`` timed calls of ``run(attempt)``."""
    times = []
    for attempt in range(repeat):
        start = time.perf_counter()
        run(attempt)
        times.append(time.perf_counter() - start)
    return min(times)


def _report(url: str, cache: Path, offline: bool, fmt: str = "table") -> int:
    """One report run; the output made as the CLI makes it (table: the default periods view)."""
    source = Source(api_url=url, cache_dir=cache, offline=offline)
    with paused_gc():  # as the CLI does
        run = run_report(USER, source, replace(SETTINGS, until=UNTIL))
        if fmt == "json":
            text = render_report.report_json(run.user, run.reports)
        else:
            text = report_text.report_text(run.reports, "periods")
    assert run.games_held > 0 and sum(len(r.games) for r in run.reports) > 0
    return len(text)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a small table."""
    parser = argparse.ArgumentParser(description="Report benchmark")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    games = list(parse_games(generate_games(args.games, seed=0, user=USER)))
    plies = sum(len(g.moves) for g in games)
    cores = os.cpu_count() or 1
    print(f"{len(games)} games, {plies} plies ({plies / len(games):.1f} a game), {cores} cores")

    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    child = ctx.Process(target=_serve, args=(args.games, queue), daemon=True)
    child.start()
    try:
        url = queue.get(timeout=120)
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            bare = best_of(args.repeat, lambda _: bare_loop(games))
            cold = best_of(args.repeat, lambda a: _report(url, root / f"cold{a}", False))
            warm = best_of(args.repeat, lambda _: _report(url, root / "cold0", True))
            warm_json = best_of(args.repeat, lambda _: _report(url, root / "cold0", True, "json"))
            facts = replay_all(games, cache_dir=root / "cold0")

            def model(_: int) -> None:
                with paused_gc():
                    reports = build_report(USER, games, facts, settings=SETTINGS)
                    render_report.report_json(USER, reports)

            model_only = best_of(args.repeat, model)
    finally:
        child.terminate()
        child.join()

    print(f"{'run':<36}{'seconds':>9}{'x bare':>9}")
    for name, seconds in (
        ("bare python-chess loop", bare),
        ("cold report (fetch+replay+report)", cold),
        ("warm report (all cached, offline)", warm),
        ("warm report, --format json", warm_json),
        ("report model + JSON only", model_only),
    ):
        print(f"{name:<36}{seconds:>9.2f}{seconds / bare:>9.3f}")
    verdict = "met" if warm < 0.1 * bare else "MISSED"
    print(f"target warm < 0.1x bare: {verdict}")


if __name__ == "__main__":
    main()
