"""Benchmark: reading one very long NDJSON line ("quadratic time in the line
length").

Usage: ``python benchmarks/bench_long_line.py [--sizes 1,2,4,8] [--repeat 2]``

These are in-process figures, for diagnosis (a reader's growth with the line's length);
``bench_fetch.py`` times ``fetch`` as a whole command.

Two parts, each a ratio against a baseline measured in this process:

- **cause**: ``requests.Response.iter_lines()`` (what berserk 0.14 reads a stream with)
  against ``ndjson_lines.LineReader`` over the same body, a single line of N MB. The
  baseline is ``bytes.split`` of the body. ``iter_lines`` glues each 512-byte chunk to the
  unfinished line before it, so its time per MB grows with N; the reader's stays flat.
- **end to end**: ``fetch_games`` against the fake server (in a child process) for a month
  whose first game line is padded to N MB, against a plain ``requests`` download of the
  same answer (the baseline). Linear reading keeps the ratio flat as N doubles.

Reading the output: the column ``per MB`` should stay about constant down a column when
the reading is linear; a quadratic reader doubles it with each doubling of N.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "src"), str(REPO / "benchmarks")]

import requests  # noqa: E402

from lichess_elo.sources.lichess.ndjson import LineReader  # noqa: E402

MB = 1024 * 1024


def _best(action: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def _iter_lines(body: bytes) -> int:
    response = requests.Response()
    response.raw = io.BytesIO(body)
    response.status_code = 200
    return sum(1 for _ in response.iter_lines())


def cause(sizes: list[int], repeat: int) -> None:
    """Time the two line splitters on one line of each size."""
    print("cause: one line of N MB, seconds (per MB), ratio to bytes.split")
    print(
        f"{'N MB':>5} {'split':>8} {'iter_lines':>16} {'ratio':>7} {'LineReader':>16} {'ratio':>6}"
    )
    for size in sizes:
        body = b'{"pad":"' + b"x" * (size * MB) + b'"}\n'
        base = _best(lambda body=body: body.split(b"\n"), repeat)
        slow = _best(lambda body=body: _iter_lines(body), repeat)
        fast = _best(lambda body=body: sum(1 for _ in LineReader(body)), repeat)
        print(
            f"{size:>5} {base:>8.4f} {slow:>8.3f} ({slow / size:.3f}) {slow / base:>7.0f}"
            f" {fast:>8.4f} ({fast / size:.4f}) {fast / base:>6.1f}"
        )


START = datetime(2023, 1, 1, tzinfo=UTC)


def _serve(size_mb: int, port_queue: Any) -> None:
    from datetime import timedelta

    from tests.fake_lichess import FakeLichess, Fault

    server = FakeLichess()
    game = {
        "id": "longline",
        "rated": True,
        "variant": "standard",
        "speed": "blitz",
        "perf": "blitz",
        "createdAt": int((START + timedelta(days=3)).timestamp() * 1000),
        "lastMoveAt": int((START + timedelta(days=3)).timestamp() * 1000) + 300_000,
        "status": "resign",
        "winner": "white",
        "players": {
            "white": {"user": {"name": "Long", "id": "long"}, "rating": 1500, "ratingDiff": 5},
            "black": {"user": {"name": "Other", "id": "other"}, "rating": 1500, "ratingDiff": -5},
        },
        "moves": "e4 e5",
        "clock": {"initial": 180, "increment": 0, "totalTime": 180},
    }
    server.add_user("Long", START, [game])
    server.faults.append(Fault("huge", times=10**6, size=size_mb * MB))
    server.start()
    port_queue.put(server.url)
    while True:
        time.sleep(3600)


def end_to_end(sizes: list[int], repeat: int) -> None:
    """Time ``fetch_games`` of one month with one long line, against a plain download."""
    from lichess_elo.sources.lichess import LichessSettings, export_params, fetch_games

    print("end to end: one month, first line padded to N MB; seconds (per MB)")
    print(f"{'N MB':>5} {'download':>16} {'fetch_games':>16} {'ratio':>6}")
    for size in sizes:
        queue: Any = multiprocessing.Queue()
        child = multiprocessing.Process(target=_serve, args=(size, queue), daemon=True)
        child.start()
        try:
            url = queue.get(timeout=60)
            params = export_params(date(2023, 1, 1))
            headers = {"Accept": "application/x-ndjson", "User-Agent": "lichess-elo/bench"}

            def download(
                url: str = url, params: dict[str, Any] = params, headers: dict[str, str] = headers
            ) -> int:
                answer = requests.get(f"{url}/api/games/user/long", params=params, headers=headers)
                return len(answer.content)

            base = _best(download, repeat)

            def fetch(url: str = url) -> int:
                with tempfile.TemporaryDirectory() as folder:
                    source = LichessSettings(api_url=url, cache_dir=Path(folder))
                    result = fetch_games("Long", source, until=date(2023, 2, 1))
                    return len(result.games)

            took = _best(fetch, repeat)
            print(
                f"{size:>5} {base:>8.3f} ({base / size:.3f}) {took:>8.3f} ({took / size:.3f})"
                f" {took / base:>6.1f}"
            )
        finally:
            child.terminate()
            child.join()


def main() -> None:
    """Parse the arguments and run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,2,4,8", help="line sizes in MB, comma-separated")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--skip-cause", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if not args.skip_cause:
        cause(sizes, args.repeat)
    end_to_end(sizes, args.repeat)


if __name__ == "__main__":
    main()
