"""The bars' ETA column on a fake clock: hidden while no honest estimate
exists, then the estimate of ``output.progress.eta`` in ``H:MM:SS``; the estimate itself is tested
in tests/unit/test_eta.py."""

from __future__ import annotations

from types import SimpleNamespace

from lichess_elo.output.progress.bars import EtaColumn


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


def test_file_names_keep_their_last_words() -> None:
    from lichess_elo.output.progress.db import short_name

    assert short_name("lichess_db_standard_rated_2024-05.pgn.zst") == "…2024-05.pgn.zst"
    assert short_name("may.pgn.zst") == "may.pgn.zst"
    assert short_name("my_rated_2024-05.pgn") == "…2024-05.pgn"  # 20 > 16: "rated_" too


def test_a_month_dump_bar_fits_80_columns_whole() -> None:
    # A month of the open database is about 90 million games: 99,999,999 games at 999,999
    # games/s with its ETA is the widest bar; it stays on one line of 80, every word whole.
    import io

    from rich.console import Console
    from rich.progress import Progress

    from lichess_elo.output.progress.db import ingest_columns, short_name

    clock = Clock()
    screen = io.StringIO()
    out = Console(file=screen, width=80, force_terminal=True, color_system=None)
    bar = Progress(*ingest_columns(clock), console=out, auto_refresh=False)
    name = short_name("lichess_db_standard_rated_2024-05.pgn.zst")
    task = bar.add_task(name, total=1000, games="0", rate="")
    bar.make_tasks_table(bar.tasks)  # drawn once: the ETA column sees 0 bytes at 0 s
    clock.now = 100.0
    bar.update(task, completed=500, games="99,999,999", rate="999,999 games/s")
    out.print(bar.make_tasks_table(bar.tasks))  # 500 of 1000 bytes in 100 s: 100 s left
    lines = screen.getvalue().splitlines()
    assert len(lines) == 1, lines
    last = lines[0]
    assert len(last.rstrip()) <= 80
    assert last.startswith("…2024-05.pgn.zst ") and " 50% " in last, last
    assert "99,999,999 games 999,999 games/s ETA 0:01:40" in last, last
