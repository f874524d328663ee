"""The ``lichess-elo`` command line (typer): options, one ``app/`` call per command, messages.

This package's ``__init__`` imports nothing heavy: ``main`` catches Ctrl-C from its first
moment, while typer, rich and the commands are still being imported, and only
then hands over to ``cli.root``. ``app`` (the typer app) is imported on first use.
"""

from __future__ import annotations

import os
import sys

# Nothing more is imported before ``main`` runs (``os`` and ``sys`` come with the
# interpreter): a Ctrl-C while the command line starts lands in ``main``'s handler.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from lichess_elo.cli.gc_pause import paused_gc as paused_gc

__all__ = ["app", "main", "paused_gc"]


def main() -> None:
    """Entry point: ``cli.root.main``, with Ctrl-C during the start-up imports (before
    ``root`` has its own handling) giving ``lichess-elo: interrupted`` and exit 130."""
    # One OpenBLAS thread unless the user says otherwise, set before numpy loads it: the
    # one matrix product of the tool (the scorecard's bootstrap, a block of replicates'
    # counts times the per-game deviances) is too small to share, and a second thread only
    # spins: about 0.25 CPU-s of a warm 20,000-game report, wall time no better. A product
    # on two threads can differ from this one in the last bits (about 1e-14, measured), far
    # below the 6 decimals the report writes; a library caller keeps its own BLAS threads.
    try:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        from lichess_elo.cli.gc_pause import paused_gc

        with paused_gc(freeze=True):  # the start-up imports
            from lichess_elo.cli.root import main as run

        run()
    except KeyboardInterrupt:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot cut the line
        sys.stderr.write("lichess-elo: interrupted\n")
        sys.stderr.flush()
        sys.exit(130)


def __getattr__(name: str) -> Any:
    """``app`` and ``paused_gc`` (and the submodules) on first use."""
    if name == "app":
        from lichess_elo.cli.root import app

        return app
    if name == "paused_gc":
        from lichess_elo.cli.gc_pause import paused_gc

        return paused_gc
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
