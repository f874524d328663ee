"""Benchmark ``lichess-elo fetch`` against a bare ``requests`` download over loopback.

Usage: ``python benchmarks/bench_fetch.py [--games 20000] [--repeat 3] [--in-process]``

The figures that count are whole commands, each a fresh process (bench_common.run_whole),
interleaved: ``lichess-elo fetch Bench48 --api-url URL --until 2025-01-01 --quiet`` into an
empty cache folder (a new one each round), against ``python -c`` running a plain
``requests.Session`` over the same 48 monthly NDJSON windows with ``json.loads`` on every
line (the baseline); target at most 1.5x. ``--in-process`` adds the diagnosis below.

The fake server (tests/fake_lichess.py) runs in a child process, so the numbers
below are the client's. It holds two accounts with the same ``--games`` generated games
(gen_games.py): ``Bench48`` spread over 48 months (2021-01 .. 2024-12) and ``Bench6`` squeezed
into 6 months (2021-01 .. 2021-06).

In this process:

- **baseline**: a plain ``requests.Session`` downloads the same 48 monthly NDJSON windows
  and ``json.loads`` every line (no berserk, no cache, no ``Game``);
- **cold**: ``fetch_games`` into an empty SQLite cache (berserk, requests-cache, parsing,
  the parsed-games cache), counting the games as ``fetch`` does (``keep_games=False``);
  **cold, kept**: the same keeping every ``Game``, as a report's import does;
- **warm**: the same call again, every month served from the cache;
- **memory**: peak traced Python memory (tracemalloc) of a cold counting fetch of
  ``Bench48`` and of ``Bench6``: the same games in 8x fewer, 8x larger months. Nothing is
  kept, so the peak is one month's response and parsing: it follows the largest month, not
  the number of games.

Timings are the best of ``--repeat`` runs, without tracemalloc.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "src"), str(REPO / "benchmarks")]

import requests  # noqa: E402
from bench_common import interleaved, lichess_elo, machine, python_child, run_whole, table  # noqa: E402

from lichess_elo.sources.lichess import LichessSettings, export_params, fetch_games, month_windows  # noqa: E402

START = datetime(2021, 1, 1, tzinfo=UTC)
UNTIL = {"Bench48": date(2025, 1, 1), "Bench6": date(2021, 7, 1)}


def _serve(n: int, port_queue: Any) -> None:
    """Child process: build the accounts and serve until terminated."""
    from gen_games import generate_games
    from tests.fake_lichess import FakeLichess

    server = FakeLichess()
    start_ms = int(START.timestamp() * 1000)
    for user, factor in (("Bench48", 1.0), ("Bench6", 6 / 49)):
        games = generate_games(n, seed=1, user=user)
        for game in games:
            game["createdAt"] = start_ms + int((game["createdAt"] - start_ms) * factor)
            game["lastMoveAt"] = game["createdAt"] + 300_000
        server.add_user(user, START, games)
    server.start()
    port_queue.put(server.url)
    while True:
        time.sleep(3600)


def _best(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(repeat):
        began = time.perf_counter()
        value = run()
        best = min(best, time.perf_counter() - began)
    return best, value


def _baseline(url: str) -> int:
    count = 0
    with requests.Session() as session:
        session.headers["User-Agent"] = "lichess-elo/bench"
        for month in month_windows(START, datetime(2024, 12, 31, tzinfo=UTC)):
            response = session.get(
                f"{url}/api/games/user/bench48",
                params=export_params(month),
                headers={"Accept": "application/x-ndjson"},
                stream=True,
                timeout=60,
            )
            for line in response.iter_lines():
                if line:
                    json.loads(line)
                    count += 1
    return count


#: The baseline as a whole process: argv[1] the URL, argv[2] the months' query parameters.
BARE_DOWNLOAD = """
import json, sys, requests
count = 0
with requests.Session() as session:
    session.headers["User-Agent"] = "lichess-elo/bench"
    for params in json.loads(sys.argv[2]):
        response = session.get(
            sys.argv[1] + "/api/games/user/bench48", params=params, stream=True, timeout=60,
            headers={"Accept": "application/x-ndjson"},
        )
        for line in response.iter_lines():
            if line:
                json.loads(line)
                count += 1
assert count == int(sys.argv[3]), count
"""


def whole(url: str, n: int, repeat: int) -> None:
    """The whole-command figures: ``fetch`` against the bare download, fresh processes."""
    months = month_windows(START, datetime(2024, 12, 31, tzinfo=UTC))
    params = json.dumps([export_params(month) for month in months])
    with tempfile.TemporaryDirectory() as tmp:
        rounds = iter(range(repeat))
        fetch = lichess_elo("fetch", "Bench48", "--api-url", url, "--until", "2025-01-01")
        cases = {
            "bare requests + json.loads (python -c)": lambda: run_whole(
                python_child(BARE_DOWNLOAD, url, params, str(n))
            ),
            "fetch Bench48 --quiet, empty cache": lambda: run_whole(
                [*fetch, "--quiet", "--cache-dir", str(Path(tmp) / f"c{next(rounds)}")]
            ),
        }
        runs = interleaved(repeat, cases)
    print(f"fetch, {n:,} games in {len(months)} months over loopback, {repeat} rounds")
    print(machine())
    print(
        table(
            runs,
            "bare requests + json.loads (python -c)",
            {"fetch Bench48 --quiet, empty cache": 1.5},
        )
    )


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the figures (and ``--json`` for the notes)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--in-process", action="store_true", help="also the diagnosis here")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args(argv)

    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_serve, args=(args.games, queue), daemon=True)
    child.start()
    try:
        url = queue.get(timeout=300)
        whole(url, args.games, args.repeat)
        if not args.in_process:
            return
        figures = _measure(url, args.games, args.repeat)
    finally:
        child.terminate()
        child.join()
    n = args.games
    print(f"fetch of {n} generated games over loopback (fake server in a child process)")
    for key in ("baseline", "cold", "cold_kept", "warm"):
        seconds = figures[f"{key}_s"]
        print(f"  {key:<10} {seconds:7.2f} s  {n / seconds:9.0f} games/s")
    ratio = figures["cold_s"] / figures["baseline_s"]
    speed = n / figures["cold_s"]
    kept = figures["cold_kept_s"] / figures["baseline_s"]
    print(f"  cold/baseline: {ratio:.2f}x (keeping the games: {kept:.2f}x)")
    met = "met" if ratio <= 2 and speed >= 2000 else "MISSED"
    print(f"  target cold (counting, as `fetch`) <= 2x baseline and >= 2,000 games/s: {met}")
    for user in ("Bench48", "Bench6"):
        peak = figures[f"peak_mib_{user}"]
        print(
            f"  peak traced memory of a counting fetch, {user} ({figures[f'months_{user}']}"
            f" months): {peak:.1f} MiB ({figures[f'result_mib_{user}']:.1f} MiB still held after)"
        )
    if args.json:
        print(json.dumps(figures, indent=2))


def _measure(url: str, n: int, repeat: int) -> dict[str, Any]:
    figures: dict[str, Any] = {}

    def cold(keep: bool) -> int:
        with tempfile.TemporaryDirectory() as folder:
            source = LichessSettings(api_url=url, cache_dir=Path(folder))
            result = fetch_games("Bench48", source, until=UNTIL["Bench48"], keep_games=keep)
            return result.count

    # `fetch` counts the games and keeps none; `report` keeps them. Baseline and cold runs
    # alternate, so both see the same load on a shared machine.
    figures["baseline_s"] = figures["cold_s"] = figures["cold_kept_s"] = float("inf")
    for _ in range(repeat):
        seconds, count = _best(1, lambda: _baseline(url))
        figures["baseline_s"] = min(figures["baseline_s"], seconds)
        seconds, count = _best(1, lambda: cold(False))
        assert count == n, count
        figures["cold_s"] = min(figures["cold_s"], seconds)
        seconds, count = _best(1, lambda: cold(True))
        figures["cold_kept_s"] = min(figures["cold_kept_s"], seconds)
    with tempfile.TemporaryDirectory() as folder:
        source = LichessSettings(api_url=url, cache_dir=Path(folder))
        fetch_games("Bench48", source, until=UNTIL["Bench48"])
        figures["warm_s"], result = _best(
            repeat, lambda: fetch_games("Bench48", source, until=UNTIL["Bench48"])
        )
        assert result.months_from_cache == result.months_total == 48
        figures["cache_mib"] = (Path(folder) / "http.sqlite").stat().st_size / 2**20
    for user in ("Bench48", "Bench6"):
        with tempfile.TemporaryDirectory() as folder:
            tracemalloc.start()
            result = fetch_games(
                user,
                LichessSettings(api_url=url, cache_dir=Path(folder)),
                until=UNTIL[user],
                keep_games=False,  # as `fetch` does
            )
            retained, peak = tracemalloc.get_traced_memory()  # result still alive
            tracemalloc.stop()
        assert result.count == n and result.games == ()
        figures[f"months_{user}"] = result.months_total
        figures[f"peak_mib_{user}"] = peak / 2**20
        figures[f"result_mib_{user}"] = retained / 2**20
        figures[f"transient_mib_{user}"] = (peak - retained) / 2**20
        del result
    for key in ("baseline", "cold", "cold_kept", "warm"):
        figures[f"{key}_games_per_s"] = round(n / figures[f"{key}_s"])
    return figures


if __name__ == "__main__":
    main()
