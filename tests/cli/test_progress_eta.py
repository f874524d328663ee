"""The bars' ETA column (issue #23 item 2) on a fake clock: hidden while no honest estimate
exists, then the estimate of ``output.eta`` in ``H:MM:SS``; the estimate itself is tested
in tests/unit/test_eta.py."""

from __future__ import annotations

from types import SimpleNamespace

from lichess_elo.output.progress import EtaColumn


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _task(completed: float, total: float | None, task_id: int = 1) -> SimpleNamespace:
    done = total is not None and completed >= total
    return SimpleNamespace(id=task_id, completed=completed, total=total, finished=done)


def test_the_issue_case_shows_no_eta_then_an_honest_one() -> None:
    # 0/17500 for 8 s (the issue showed "ETA 0:00:01" here, with 48 s left): nothing.
    clock = Clock()
    column = EtaColumn(clock)
    for t in (0.0, 4.0, 8.0):
        clock.now = t
        assert column.render(_task(0, 17_500)).plain == ""
    # Then 365 games/s: at 9.0 s 365 done (2 %, hidden); at 12.8 s 1,752 done (10 %).
    # The rate runs from the 9.0 s step: the first in the 10 s window (from 2.8 s; the 0 at
    # 0 s is older, and 4 s and 8 s added no step), and half the work (876) is reached
    # only by the last step, so the step before it. 1,387 in 3.8 s is 365/s; 15,748 left:
    # 43.1 s -> 0:00:43 (the truth: 15,748 / 365 = 43.1 s).
    clock.now = 9.0
    assert column.render(_task(365, 17_500)).plain == ""
    clock.now = 12.8
    assert column.render(_task(1_752, 17_500)).plain == "ETA 0:00:43"


def test_unknown_total_and_finished_show_nothing() -> None:
    clock = Clock()
    column = EtaColumn(clock)
    assert column.render(_task(0, None)).plain == ""
    clock.now = 30.0
    assert column.render(_task(5, None)).plain == ""
    assert column.render(_task(10, 10, task_id=2)).plain == ""
