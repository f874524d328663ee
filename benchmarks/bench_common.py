"""What the benchmarks share: the bare python-chess baseline and the fake server child.

Not a benchmark itself. ``bare_loop`` is the baseline every ratio is taken against: a
fresh ``chess.Board`` and ``Board.push_san`` for every move of every game, nothing else.
``serve`` runs the fake Lichess server (tests/fake_lichess.py) in a child
process holding ``BenchUser``'s generated games, so the client's figures are its own.
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "src"), str(REPO / "benchmarks")]

import chess  # noqa: E402

USER = "BenchUser"
START = datetime(2021, 1, 1, tzinfo=UTC)


def bare_loop(move_lists: Iterable[Iterable[str]]) -> None:
    """The baseline: push every SAN move on a fresh board, nothing else."""
    for moves in move_lists:
        board = chess.Board()
        push_san = board.push_san
        for san in moves:
            push_san(san)


def _serve(n: int, seed: int, port_queue: Any) -> None:
    """Child process: serve ``BenchUser``'s ``n`` generated games until terminated."""
    from gen_games import generate_games
    from tests.fake_lichess import FakeLichess

    server = FakeLichess()
    server.add_user(USER, START, generate_games(n, seed=seed, user=USER))
    server.start()
    port_queue.put(server.url)
    while True:
        time.sleep(3600)


@contextmanager
def serve(n: int, seed: int = 0) -> Iterator[str]:
    """The URL of a fake Lichess server (a child process) holding ``n`` games."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    child = ctx.Process(target=_serve, args=(n, seed, queue), daemon=True)
    child.start()
    try:
        yield str(queue.get(timeout=600))
    finally:
        child.terminate()
        child.join()
