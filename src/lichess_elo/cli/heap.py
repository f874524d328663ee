"""``return_freed_memory``: the process's heap given back to the system, at the command's
edge. The library never trims the heap of the process it runs in; ``report`` hands this to
``run_report`` as ``on_release``, called where the run has let go of much memory."""

from __future__ import annotations

import sys

__all__ = ["return_freed_memory"]


def return_freed_memory() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``), where
    there is one: memory freed in the middle of the heap (a report's moves, its games)
    otherwise stays in the process's resident size, and the next large arrays (the
    scorecard's) are mapped beside it. Nothing happens elsewhere."""
    if sys.platform != "linux":
        return
    import ctypes  # only where it is used

    try:
        libc = ctypes.CDLL(None)
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return
    trim(0)
