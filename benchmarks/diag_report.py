"""Diagnosis: ``lichess-elo report``'s parts in this process against a bare python-chess loop.

Not the figures that count: bench_report.py times the whole command as a user types it.

Usage: ``python benchmarks/diag_report.py [--games 20000] [--repeat 2]``

The fake Lichess server (bench_common.serve) runs in a child process and holds
``BenchUser`` with ``--games`` generated games (gen_games.py, about 80 plies each, 48
months). In this process, over the same games:

- **bare loop**: ``chess.Board()`` then ``Board.push_san`` for every move, nothing else (the
  baseline the issue asks for);
- **cold report**: ``app.report.run_report`` with an empty cache folder: the month-by-month
  import over loopback HTTP (berserk, requests-cache, the parsed-games cache), the replay
  of every game (the machine's cores), the report of every perf (``--perf all``);
- **warm report**: the same with ``--offline`` and everything cached (HTTP, parsed games,
  replay facts), printing the default table (periods view); target at most 0.05x;
- **warm report, JSON**: the same, writing the whole JSON document (every game) to a file
  row by row, as ``--format json --output`` does;
- **model only**: ``build_report`` + the JSON document from games and facts in memory.

Each timing is the best of ``--repeat`` runs (a fresh cache folder for each cold run), the
bare loop and the warm runs alternating so they see the same load. The ratios are given
wall to wall and CPU to CPU (this process's CPU time; the steadier one on a shared machine,
but the cold report's pool workers are other processes, so only its wall ratio counts).
The cold report's CPU is also given over all its processes (this one, the pool's workers,
the fake server), spread over the cores: what its wall would be on otherwise idle cores.
Interpreter start, imports and exit are not in these figures: bench_memory.py runs the
real program.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "src"), str(REPO / "benchmarks")]

from bench_common import bare_loop, serve  # noqa: E402
from gen_games import generate_games  # noqa: E402

from lichess_elo.app.report import run_report  # noqa: E402
from lichess_elo.cli.report import paused_gc  # noqa: E402
from lichess_elo.core.report import ReportSettings, build_report  # noqa: E402
from lichess_elo.output.common import stream_output  # noqa: E402
from lichess_elo.output.report import json as render_report  # noqa: E402
from lichess_elo.output.report import text as report_text  # noqa: E402
from lichess_elo.sources.cache.replay import replay_all  # noqa: E402
from lichess_elo.sources.lichess import LichessSettings  # noqa: E402
from lichess_elo.sources.lichess.parse import parse_games  # noqa: E402

USER = "BenchUser"
START = datetime(2021, 1, 1, tzinfo=UTC)
UNTIL = date(2025, 1, 1)
SETTINGS = ReportSettings(perfs=("all",))


def timed(repeat: int, run: Callable[[int], object]) -> tuple[float, float]:
    """The best wall and CPU seconds of ``repeat`` calls of ``run(attempt)``."""
    wall = cpu = float("inf")
    for attempt in range(repeat):
        start, began = time.perf_counter(), time.process_time()
        run(attempt)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - began)
    return wall, cpu


def _server_cpu() -> float:
    """CPU seconds used so far by this process's live children (the fake server), from
    ``/proc`` (0 where there is none)."""
    total = 0.0
    for child in multiprocessing.active_children():
        try:
            fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _all_cpu() -> tuple[float, float, float]:
    """CPU seconds of this process, of its finished children (the pool's workers) and of
    the fake server: everything a cold report costs the machine."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), children.ru_utime + children.ru_stime, _server_cpu()


def _machine_busy() -> float:
    """CPU seconds the whole machine has been busy (``/proc/stat``; 0 where there is none):
    less the cold report's own, what other jobs took while it ran."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _report(url: str, cache: Path, offline: bool, fmt: str = "table") -> int:
    """One report run; the output made as the CLI makes it (table: the default periods view)."""
    source = LichessSettings(api_url=url, cache_dir=cache, offline=offline)
    with paused_gc():  # as the CLI does
        run = run_report(USER, source, replace(SETTINGS, until=UNTIL))
        if fmt == "json":
            doc = cache / "report.json"
            parts = run.user, run.reports, run.accuracy
            stream_output(doc, lambda out: render_report.write_report_json(out, *parts))
            size = doc.stat().st_size
        else:
            size = len(report_text.report_text(run.reports, "periods"))
    assert run.games_held > 0 and sum(len(r.games) for r in run.reports) > 0
    return size


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

    moves = [g.moves for g in games]
    rows: dict[str, tuple[float, float]] = {}
    with serve(args.games) as url, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        spent: list[tuple[float, float, float]] = []  # this process, workers, server
        others: list[float] = []

        def cold(attempt: int) -> None:
            began, busy = _all_cpu(), _machine_busy()
            _report(url, root / f"cold{attempt}", False)
            after = _all_cpu()
            spent.append((after[0] - began[0], after[1] - began[1], after[2] - began[2]))
            others.append(_machine_busy() - busy - sum(spent[-1]))

        rows["cold report (fetch+replay+report)"] = timed(args.repeat, cold)
        bare = warm = warm_json = (float("inf"), float("inf"))
        for _ in range(args.repeat):  # alternating: the same load for all three
            bare = min(bare, timed(1, lambda _: bare_loop(moves)))
            warm = min(warm, timed(1, lambda _: _report(url, root / "cold0", True)))
            warm_json = min(
                warm_json, timed(1, lambda _: _report(url, root / "cold0", True, "json"))
            )
        rows["warm report (all cached, offline)"] = warm
        rows["warm report, --format json"] = warm_json
        facts = replay_all(games, cache_dir=root / "cold0")

        def model(_: int) -> None:
            with paused_gc(), open(os.devnull, "w", encoding="utf-8") as out:
                reports = build_report(USER, games, facts, settings=SETTINGS)
                render_report.write_report_json(out, USER, reports)

        rows["report model + JSON only"] = timed(args.repeat, model)

    load = os.getloadavg()[0]
    print(f"load average {load:.2f} on {cores} cores")
    print(f"bare loop {bare[0]:.2f} s wall, {bare[1]:.2f} s CPU")
    print(f"{'run':<36}{'wall s':>8}{'x bare':>8}{'CPU s':>8}{'x CPU':>8}")
    for name, (wall, cpu) in rows.items():
        print(f"{name:<36}{wall:>8.2f}{wall / bare[0]:>8.3f}{cpu:>8.2f}{cpu / bare[1]:>8.3f}")
    cold_wall = rows["cold report (fetch+replay+report)"][0] / bare[0]
    # What the cold report would take on idle cores: the CPU of all its processes (this
    # one, the pool's workers, the fake server) spread over the cores, against the bare
    # loop's CPU. A lower bound of its wall (the parts before the pool starts and the
    # report after it run on one core), steady when other jobs share the cores.
    least = min(spent, key=sum)
    budget = sum(least) / cores / bare[1]
    print(
        f"cold report, CPU of all its processes {sum(least):.2f} s (this one {least[0]:.2f}, "
        f"pool workers {least[1]:.2f}, fake server {least[2]:.2f}): / {cores} cores = "
        f"{budget:.3f}x the bare loop's CPU (other jobs took "
        f"{', '.join(f'{o:.1f}' for o in others)} s of CPU during the cold runs)"
    )
    warm_ratio = min(warm[0] / bare[0], warm[1] / bare[1])
    print(
        f"target warm <= 0.05x bare: {'met' if warm_ratio <= 0.05 else 'MISSED'} ({warm_ratio:.3f})"
    )
    verdict = "met" if cold_wall <= 0.6 else "MISSED"
    print(f"target cold <= 0.6x bare (wall): {verdict} ({cold_wall:.3f})")


if __name__ == "__main__":
    main()
