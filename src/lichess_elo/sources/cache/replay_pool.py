"""The replay's process pool (an edge module, ``replay_cache.ReplayRun``'s): started on
the first chunk sent, its workers ignoring Ctrl-C, stopped at once on the way out, and the
worker it lost named in ``WorkerLost``."""

from __future__ import annotations

import signal
import time
from typing import TYPE_CHECKING

from lichess_elo.errors import WorkerLost

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.process import BaseProcess
    from pathlib import Path

__all__ = ["ReplayPool"]


def _ignore_interrupts() -> None:
    """Pool initializer: a worker ignores SIGINT (Ctrl-C reaches the whole process group),
    so only the parent handles it: one message, no traceback per worker. The parent
    terminates the pool on its way out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ReplayPool:
    """A ``ProcessPoolExecutor`` of ``workers`` processes, started on demand."""

    def __init__(self, workers: int) -> None:
        """Nothing is started yet (``start``)."""
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._processes: dict[int, BaseProcess] = {}  # the pool's workers, by PID

    @property
    def started(self) -> bool:
        """Whether the pool runs."""
        return self._pool is not None

    def start(self) -> ProcessPoolExecutor:
        """The pool, started at the first call."""
        if self._pool is None:
            import multiprocessing  # the pool's modules: only when there is a pool
            from concurrent.futures import ProcessPoolExecutor

            # The platform's default start method: fork on Linux (the workers only replay,
            # so the parent's threads and open files are harmless), spawn elsewhere.
            context = multiprocessing.get_context()
            self._pool = ProcessPoolExecutor(
                self._workers, mp_context=context, initializer=_ignore_interrupts
            )
        return self._pool

    def note_workers(self) -> None:
        """Remember the pool's worker processes (they exist once a chunk is submitted)."""
        if self._pool is not None:
            self._processes.update(getattr(self._pool, "_processes", None) or {})

    def stop(self) -> None:
        """Stop the workers at once (a chunk still replaying is not waited for)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.shutdown(wait=False, cancel_futures=True)
        for process in self._processes.values():
            if process.exitcode is None:
                process.terminate()
        for process in self._processes.values():
            process.join(10)

    def lost(self, kept_in: Path | None) -> WorkerLost:
        """The error of a pool that lost a worker: which one and how, when known;
        ``kept_in`` is the cache folder that holds the replays finished before."""
        for process in self._processes.values():
            # the pool terminates the others once it has lost one; waiting here also lets
            # its own thread finish reaping the lost one, so its exit code can be read
            process.join(5)
        lost: list[BaseProcess] = []
        for _ in range(100):  # the pool's thread may be storing the exit code it reaped
            lost = [p for p in self._processes.values() if p.exitcode not in (None, 0)]
            if lost:
                break
            time.sleep(0.02)
        # the pool terminates (SIGTERM) the others once it has lost one
        lost.sort(key=lambda p: p.exitcode == -signal.SIGTERM)
        code = lost[0].exitcode if lost else None
        return WorkerLost(
            pid=lost[0].pid if lost else None,
            signal=-code if code is not None and code < 0 else None,
            exit_status=code if code is not None and code > 0 else None,
            kept_in=kept_in,
        )
