"""The time-left estimate of the progress bars, on a fake clock.

Every profile is a list of step times; the clock is a number the test sets, never the
machine's. "Truth" is the time from a step to the last step of the same profile.
"""

from __future__ import annotations

import random

from lichess_elo.output.progress.eta import Eta, clock_text


class Clock:
    """A clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _run(times: list[float], total: int) -> list[tuple[int, float, float | None]]:
    """Step ``i`` (1-based) finishes at ``times[i-1]``: (done, truth, estimate) at each."""
    clock = Clock()
    eta = Eta(clock)
    eta.update(0)  # the bar appears at 0 s
    out = []
    for done, at in enumerate(times, start=1):
        clock.now = at
        out.append((done, times[-1] - at, eta.remaining(done, total)))
    return out


def _slow_start(total: int, first: float, step: float) -> list[float]:
    """The first step takes ``first`` seconds, every later one ``step``."""
    return [first + step * i for i in range(total)]


def test_slow_start_hidden_then_within_twice() -> None:
    # 100 steps: the first takes 8 s, then 0.5 s each (the issue's shape: a long start-up,
    # then steady work). The estimate is hidden below 10 steps (10 %).
    rows = _run(_slow_start(100, 8.0, 0.5), 100)
    for done, _, estimate in rows[:9]:
        assert estimate is None, done
    # At 10 steps (12.5 s) the window [2.5 s, 12.5 s] begins at step 1 (8 s): 9 steps in
    # 4.5 s, 2 steps/s, 90 steps left: 45 s, which is the truth (90 x 0.5 s).
    assert rows[9][0] == 10 and rows[9][2] == 45.0 and rows[9][1] == 45.0
    for done, truth, estimate in rows[9:-1]:
        assert estimate is not None, done
        assert truth / 2 <= estimate <= truth * 2, (done, truth, estimate)


def test_the_issue_profile_no_one_second_eta() -> None:
    # 17,500 games: nothing for 8 s, then the rest in 48 s, shown every 175 games (1 %).
    total, batch = 17_500, 175
    times = [8.0 + 48.0 * (i + 1) / (total // batch) for i in range(total // batch)]
    clock = Clock()
    eta = Eta(clock)
    eta.update(0)
    for t in (1.0, 4.0, 8.0):  # 0/17500 for 8 s: nothing to estimate from
        clock.now = t
        assert eta.remaining(0, total) is None
    for i, at in enumerate(times, start=1):
        clock.now = at
        estimate = eta.remaining(i * batch, total)
        truth = times[-1] - at
        if i < 10:
            assert estimate is None, i
        elif truth > 0:
            assert estimate is not None and truth / 2 <= estimate <= truth * 2, (i, estimate)


def test_steady_work_is_exact() -> None:
    # 50 steps of 1 s: at step 5 (10 %, 5 s) the window holds steps 0..5 at 1 step/s.
    rows = _run([float(i) for i in range(1, 51)], 50)
    assert rows[3][2] is None  # 4 steps: under 10 %
    assert rows[4][2] == 45.0
    assert rows[29][2] == 20.0  # step 30 at 30 s: window 20..30 s, 1 step/s, 20 left


def test_too_soon_stays_hidden() -> None:
    # 100 steps in 1.5 s: past 10 % almost at once, but under 2 s no estimate shows.
    rows = _run([0.015 * i for i in range(1, 101)], 100)
    assert all(estimate is None for _, _, estimate in rows[:-1])
    assert rows[-1][2] == 0.0  # done: nothing left


def test_unknown_total_is_hidden() -> None:
    clock = Clock()
    eta = Eta(clock)
    eta.update(0)
    clock.now = 5.0
    assert eta.remaining(3, None) is None


def test_a_stall_makes_the_estimate_grow() -> None:
    # 40 steps of 1 s, then nothing moves: at 40 s the window 30..40 s gives 1 step/s and
    # 60 left: 60 s. At 45 s, still 40 done: the window's first step is 35 s (done 35):
    # 5 steps in 10 s, 120 s. At 60 s, no step in the window: the last step (39 s -> 40 s)
    # over 21 s: 60 x 21 = 1260 s.
    clock = Clock()
    eta = Eta(clock)
    eta.update(0)
    for i in range(1, 41):
        clock.now = float(i)
        eta.update(i)
    assert eta.remaining(40, 100) == 60.0
    clock.now = 45.0
    assert eta.remaining(40, 100) == 120.0
    clock.now = 60.0
    assert eta.remaining(40, 100) == 1260.0


def test_slow_steps_longer_than_the_window() -> None:
    # 10 months of 12 s each (slower than the 10 s window): the rate spans the last step.
    # At month 1 (12 s, 10 %) only the step 0 s -> 12 s is known: 9 left, 108 s. At month
    # 2 (24 s): the window 14..24 s holds only the 24 s step, so 12 s -> 24 s: 8 x 12 = 96 s.
    # Both are the truth.
    rows = _run([12.0 * i for i in range(1, 11)], 10)
    assert rows[0][2] == rows[0][1] == 108.0
    assert rows[1][2] == rows[1][1] == 96.0


def test_seeded_profiles_within_twice_after_ten_percent() -> None:
    # 100 seeded profiles: a start-up of 0-20 s, then 50-800 steps, each its mean step
    # time +-30 %. After 10 % and 2 s the estimate is always within 2x of the truth.
    rng = random.Random(23)
    for case in range(100):
        total = rng.randint(50, 800)
        mean = rng.uniform(0.001, 2.0)
        times, now = [], rng.uniform(0.0, 20.0)
        for _ in range(total):
            now += mean * rng.uniform(0.7, 1.3)
            times.append(now)
        for done, truth, estimate in _run(times, total):
            if estimate is None or done == total:
                continue
            assert done >= total / 10 and times[done - 1] >= 2.0, case
            assert truth / 2 <= estimate <= truth * 2, (case, done, truth, estimate)


def test_clock_text() -> None:
    assert clock_text(0) == "0:00:00"
    assert clock_text(83.4) == "0:01:23"
    assert clock_text(3600 * 2 + 61) == "2:01:01"
