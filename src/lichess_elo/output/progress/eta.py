"""An honest estimate of the time left (no I/O; the clock is given).

Rich's own estimate counts the work from the moment a bar appears, start-up included: a
first step that takes 8 s (opening a file, a first request, a worker pool starting) and
then quick steady steps gave ``ETA 0:00:01`` with 48 s left. ``Eta`` instead:

- stays hidden until both ``min_fraction`` of the work is done and ``min_seconds`` have
  passed since the first step was seen (before that no estimate is meaningful);
- measures the rate over recent work only: from the first step seen in the last
  ``window`` seconds or the first past half the work done, whichever is later (with steps
  slower than the window, over the last step), so the start-up falls out of it;
- counts the time since the last step as time spent: a stall lowers the rate, so the
  estimate grows rather than counting down to zero while nothing moves.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

#: Work done (at least) before an estimate is shown.
MIN_FRACTION = 0.10
#: Seconds since the first step seen (at least) before an estimate is shown.
MIN_SECONDS = 2.0
#: The rate is measured over this many recent seconds.
WINDOW = 10.0


class Eta:
    """Seconds left of a piece of work, from ``(time, done)`` samples of ``clock``."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        min_fraction: float = MIN_FRACTION,
        min_seconds: float = MIN_SECONDS,
        window: float = WINDOW,
    ) -> None:
        self._clock = clock
        self._min_fraction = min_fraction
        self._min_seconds = min_seconds
        self._window = window
        self._samples: deque[tuple[float, float]] = deque()
        self._first: float | None = None

    def update(self, done: float) -> None:
        """Note that ``done`` units of work are finished now."""
        self._note(done, self._clock())

    def _note(self, done: float, now: float) -> None:
        if self._first is None:
            self._first = now
        if self._samples and done < self._samples[-1][1]:
            self._samples.clear()  # the work went back (a restart): measure afresh
        if not self._samples or done != self._samples[-1][1]:
            self._samples.append((now, done))
        # Keep the window, and the sample just before it (the window's first step is the
        # first sample inside it; older ones only go once a newer one is inside too).
        while len(self._samples) > 2 and self._samples[1][0] < now - self._window:
            self._samples.popleft()

    def remaining(self, done: float, total: float | None) -> float | None:
        """Seconds left to ``total`` (after noting ``done``), or ``None`` while no honest
        estimate can be made: total unknown, too little done, too soon, no recent step."""
        now = self._clock()
        self._note(done, now)
        if total is None or total <= 0 or self._first is None:
            return None
        if done >= total:
            return 0.0
        if done < self._min_fraction * total or now - self._first < self._min_seconds:
            return None
        # The rate runs from the more recent of two steps: the first inside the window and
        # the first past half the work done (so a start-up under ``window`` seconds ago is
        # still left out); with no later step (steps slower than the window), the step
        # before, so the rate always spans at least one step.
        cut = now - self._window
        count = len(self._samples)
        in_window = next((i for i, s in enumerate(self._samples) if s[0] >= cut), count)
        in_half = next((i for i, s in enumerate(self._samples) if s[1] >= done / 2), count)
        at = min(max(in_window, in_half), count - 2)
        if at < 0:
            return None
        start_time, start_done = self._samples[at]
        elapsed = now - start_time
        work = done - start_done
        if work <= 0 or elapsed <= 0:
            return None
        return (total - done) * elapsed / work


def clock_text(seconds: float) -> str:
    """``0:01:23``: whole seconds as hours, minutes and seconds."""
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
