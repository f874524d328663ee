"""``paused_gc``: the cyclic garbage collector paused for a block (the CLI's start-up
imports and a report's job). Its own module so that ``cli`` and ``cli.root`` both import it
without importing each other."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]


@contextmanager
def paused_gc(freeze: bool = False) -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block, then restore it; with
    ``freeze``, everything alive is first moved out of its sight (``gc.freeze``).

    A report builds hundreds of thousands of small acyclic objects (games, rows, JSON
    dicts); each automatic collection rescans everything alive, which cost about a quarter
    of a warm 20,000-game report (benchmarks/bench_report.py). Nothing there makes cycles,
    so reference counting frees it all the same. ``report`` pauses it around the whole
    job (``run_report`` and the output), and every command around its start-up imports,
    frozen after them (``main``, ``root.load_command``: about 70 collections, some 40 ms of
    a warm report's start, rescanning modules, classes and functions that live as long as
    the process; paused alone, the first collection after would scan them all at once);
    the library itself leaves the collector alone.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if enabled:
            gc.enable()
