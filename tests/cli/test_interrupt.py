"""Ctrl-C (SIGINT to the whole process group) in a real pseudo-terminal.

One line, exit code 130, no worker traceback; every finished replay batch and every fetched
month stays in the caches, so the next run needs no network.
"""

from __future__ import annotations

import re
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from tests import terminal
from tests.fake_lichess import FakeLichess, Fault
from tests.runners import PtyCli


def _replayed(text: str) -> int:
    """The highest "done/total" the replay bar has shown (0 before it moved)."""
    counts = [int(done) for done in re.findall(r"replaying[━╺╸ ]*(\d+)/\d+ games", text)]
    return max(counts, default=0)


def _interrupt(run: terminal.PtyRun) -> None:
    """Press Ctrl-C: the run ends with exit code 130 and one line, nothing after it."""
    run.interrupt()
    code = run.finish(timeout=60)
    text = run.text
    assert code == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert text.count("lichess-elo: interrupted") == 1, text
    after = text.split("lichess-elo: interrupted")[1]
    assert after.strip() == "", f"something printed after the interrupt line: {after!r}"


def test_ctrl_c_during_pooled_replay(
    pty_cli: PtyCli, bench_server: FakeLichess, tmp_path: Path
) -> None:
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path), "LICHESS_ELO_RETRY_WAIT": "0.01"}
    args = ["report", "BenchUser", "--api-url", bench_server.url, "--perf", "all"]
    run = pty_cli.start(args, width=100, env=env)
    # Wait until the pool has handed back at least one chunk, then press Ctrl-C.
    assert run.wait_for(lambda t: "replaying" in t and _replayed(t) > 0, timeout=120), run.text
    shown = _replayed(run.text)
    _interrupt(run)

    # The replay cache opens, is intact and holds every game the bar had counted (the one
    # handed back as the bar moved may still have been on its way: shown - 1).
    with sqlite3.connect(tmp_path / "replay.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        (rows,) = conn.execute("SELECT COUNT(*) FROM replay_facts").fetchone()
    assert rows >= shown - 1 > 0

    # The replay bar only shows once every month is fetched (the pool may start earlier):
    # the next run works offline.
    code, text = pty_cli([*args, "--offline", "-q"], width=100, env=env, timeout=180)
    assert code == 0, text
    assert "Traceback" not in text


def test_ctrl_c_during_fetch_keeps_every_finished_month(
    pty_cli: PtyCli, bench_server: FakeLichess, tmp_path: Path
) -> None:
    # The request for 2022-06 hangs for 30 s: Ctrl-C arrives while it waits.
    bench_server.faults.append(Fault("slow", month="2022-06", delay=30))
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path), "LICHESS_ELO_RETRY_WAIT": "0.01"}
    args = ["fetch", "BenchUser", "--api-url", bench_server.url]
    run = pty_cli.start(args, width=80, env=env)
    assert run.wait_for(lambda t: "2022-05" in t, timeout=60), run.text
    run.interrupt()
    code = run.finish(timeout=30)
    assert code == 130, run.text
    assert run.text.count("lichess-elo: interrupted") == 1 and "Traceback" not in run.text
    asked_before = len(bench_server.games_requests())

    # The rerun asks only for 2022-06 onwards: 2020-12 .. 2022-05 (18 months) were kept.
    code, text = pty_cli([*args, "-q"], width=80, env=env)
    assert code == 0, text
    months = {
        datetime.fromtimestamp(int(r.query["since"]) / 1000, UTC).strftime("%Y-%m")
        for r in bench_server.games_requests()[asked_before:]
    }
    assert min(months) == "2022-06", sorted(months)


def test_ctrl_c_while_the_pool_replays_during_the_fetch(
    pty_cli: PtyCli, bench_server: FakeLichess, tmp_path: Path
) -> None:
    # 3,000 games over the 48 months from 2021-01 (about 62 a month): the pool starts once
    # more than 2,000 games are read (about 2023-09) and replays them while the fetch goes
    # on. The request for 2024-06 hangs for 600 s, longer than the test can take, so
    # Ctrl-C always arrives while it waits; how many replays are back by then depends on
    # the machine's speed, so the test asserts none of that count (it did: it slept 10 s
    # and asserted 2,000), only that what was written is whole and the rerun completes.
    bench_server.faults.append(Fault("slow", month="2024-06", delay=600))
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path), "LICHESS_ELO_RETRY_WAIT": "0.01"}
    args = ["report", "BenchUser", "--api-url", bench_server.url, "--perf", "all"]
    run = pty_cli.start(args, width=100, env=env)
    assert run.wait_for(lambda t: "2024-05" in t, timeout=120), run.text
    _interrupt(run)
    # The replays back before Ctrl-C were written on the way out: at most the games of the
    # months read (2021-01 .. 2024-05), never the 3,000.
    with sqlite3.connect(tmp_path / "replay.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        (rows,) = conn.execute("SELECT COUNT(*) FROM replay_facts").fetchone()
    assert rows < 3000
    asked_before = len(bench_server.games_requests())

    # The rerun asks only for 2024-06 onwards (every month read was kept) and replays only
    # the games not yet replayed: afterwards the cache holds each of the 3,000 once.
    code, text = pty_cli([*args, "-q"], width=100, env=env, timeout=180)
    assert code == 0, text
    months = {
        datetime.fromtimestamp(int(r.query["since"]) / 1000, UTC).strftime("%Y-%m")
        for r in bench_server.games_requests()[asked_before:]
    }
    assert min(months) == "2024-06", sorted(months)
    with sqlite3.connect(tmp_path / "replay.sqlite") as conn:
        (rows,) = conn.execute("SELECT COUNT(*) FROM replay_facts").fetchone()
    assert rows == 3000


def test_ctrl_c_during_club_keeps_the_tournaments_already_read(
    pty_cli: PtyCli, club_server: FakeLichess, tmp_path: Path
) -> None:
    # The arena answers at once; the swiss's games export hangs for 30 s, and Ctrl-C
    # arrives while ``club`` waits for it.
    arena, swiss = "clubAr26", "Zr5kTq1B"
    club_server.slow_tournaments[swiss] = 30.0
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path), "LICHESS_ELO_RETRY_WAIT": "0.01"}
    urls = [f"https://lichess.org/tournament/{arena}", f"https://lichess.org/swiss/{swiss}"]
    run = pty_cli.start(["club", *urls, "--api-url", club_server.url], width=80, env=env)
    asked = f"/api/swiss/{swiss}/games"
    deadline = time.monotonic() + 60  # a bound on the wait, not on the speed
    while not any(r.path == asked for r in club_server.requests):
        if time.monotonic() > deadline or run.process.poll() is not None:
            break
        run.wait_for(lambda _: False, timeout=0.1)
    assert any(r.path == asked for r in club_server.requests), run.text
    assert run.process.poll() is None, run.text
    _interrupt(run)

    # The arena was read whole before the interrupt: offline, it is served from the cache
    # (4 finished games, hand-checked in test_club_lichess: Bartek_L 1010 first).
    code, text = pty_cli(
        ["club", urls[0], "--offline", "--api-url", club_server.url], width=80, env=env
    )
    assert code == 0, text
    assert "Bartek_L" in text and "1010" in text, text
    # The swiss never arrived, so nothing of it was kept: offline it is not cached.
    code, text = pty_cli(
        ["club", urls[1], "--offline", "--api-url", club_server.url], width=80, env=env
    )
    assert code == 1 and "Traceback" not in text, text
    assert f"the games export of the swiss {swiss} is not in the cache" in text, text
