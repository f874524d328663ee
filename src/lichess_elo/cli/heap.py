"""``return_freed_memory``: the process's heap given back to the system, at the command's
edge. The library never trims the heap of the process it runs in; ``report`` hands this to
``run_report`` as ``on_release``, called where the run has let go of much memory."""

from __future__ import annotations

import sys

__all__ = ["keep_freed_memory", "return_freed_memory"]


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


#: glibc's ``mallopt`` parameters (malloc.h) and the values ``keep_freed_memory`` sets.
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
_KEEP = ((_M_MMAP_THRESHOLD, 32 << 20), (_M_TRIM_THRESHOLD, 1 << 30), (_M_TOP_PAD, 128 << 20))


def keep_freed_memory() -> None:
    """Let the C heap keep what it frees, for a command that allocates and frees large
    arrays month after month (``db rate``): arrays up to 32 MiB come from the heap, not
    from fresh mappings, and up to 1 GiB freed at its top stays mapped, so the next month
    reuses the pages instead of faulting in new zeroed ones (on 10 M games this halves the
    system time: 3.3 to 1.4 s). Linux with glibc only; nothing happens elsewhere."""
    if sys.platform != "linux":
        return
    import ctypes  # only where it is used

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return
    for param, value in _KEEP:
        mallopt(param, value)
