"""Ctrl-C at each step of a cache write is never lost: exit 130 and one line, every time.

A SIGINT that landed just after the parsed-games cache's ``COMMIT`` made the ``ROLLBACK``
of its ``except BaseException`` fail ("no transaction is active"); that ``sqlite3.Error``
replaced the interrupt, became a warning, and the run went on to exit 0. Here a real
``report`` process sends itself a real SIGINT right after the Nth statement it runs on the
cache file (a ``sqlite3.Connection`` subclass given to the real ``connect`` counts them and
signals once the statement has returned), for every N from the first statement to the
last, with no sleep anywhere: the
moment is fixed by the count, not by the machine's speed. Each run must end with
``lichess-elo: interrupted`` and exit code 130, and leave a cache the next run reads.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.fake_lichess import FakeLichess

#: Loaded by the child interpreter at start-up (``sitecustomize``): every connection to the
#: named cache file counts its statements and the process signals itself after the Nth.
#: (SQLite's trace callback would not do: an exception raised inside a callback is
#: swallowed by sqlite3, so the interrupt would be lost to the test, not to the tool.)
SITE = """
import os, signal, sqlite3

_STEP = int(os.environ["SIGINT_AT_STEP"])
_FILE = os.environ["SIGINT_FILE"]
_LOG = os.environ["SIGINT_LOG"]
_real = sqlite3.connect
_count = [0]


class Counting(sqlite3.Connection):
    def _step(self, what):
        _count[0] += 1
        with open(_LOG, "a", encoding="utf-8") as log:
            log.write(f"{_count[0]}\\t{' '.join(what.split())[:60]}\\n")
        if _count[0] == _STEP:
            os.kill(os.getpid(), signal.SIGINT)  # handled as this returns: after the step

    def execute(self, sql, *args):
        cursor = super().execute(sql, *args)
        self._step(sql)
        return cursor

    def commit(self):
        super().commit()
        self._step("commit()")

    def rollback(self):
        super().rollback()
        self._step("rollback()")


def connect(database, *args, **kwargs):
    if str(database).endswith(_FILE) and "factory" not in kwargs:
        kwargs["factory"] = Counting
    return _real(database, *args, **kwargs)


sqlite3.connect = connect
"""

Run = Callable[..., subprocess.CompletedProcess[Any]]


def _run(
    subprocess_cli: Run, server: FakeLichess, tmp_path: Path, cache: Path, step: int, log: Path
) -> subprocess.CompletedProcess[Any]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITE, encoding="utf-8")
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)
    env = {
        "PYTHONPATH": path,
        "SIGINT_AT_STEP": str(step),
        "SIGINT_FILE": "games.sqlite",
        "SIGINT_LOG": str(log),
        "LICHESS_ELO_CACHE_DIR": str(cache),
        "LICHESS_ELO_RETRY_WAIT": "0.01",
    }
    args = ("report", "OnBoard247", "--api-url", server.url, "--format", "json", "-q")
    return subprocess_cli(*args, env=env, timeout=120)


def test_sigint_after_each_statement_of_the_games_cache_ends_in_130(
    subprocess_cli: Run, onboard_server: FakeLichess, tmp_path: Path
) -> None:
    # A whole cold run, never interrupted, counts the statements run on games.sqlite.
    log = tmp_path / "count.log"
    whole = _run(subprocess_cli, onboard_server, tmp_path, tmp_path / "c0", 0, log)
    assert whole.returncode == 0, whole.stderr
    statements = log.read_text(encoding="utf-8").splitlines()
    # The scan sees the writes it is about: each month's parse is stored in a transaction.
    assert any(line.split("\t")[1].startswith("COMMIT") for line in statements), statements
    assert any("INSERT OR REPLACE INTO parsed" in line for line in statements), statements

    # Every step of opening the file and of the first month's write, and the read after it:
    # PRAGMA x2, CREATE, BEGIN IMMEDIATE, INSERT, COMMIT, SELECT (the later months repeat the
    # same BEGIN/INSERT/COMMIT/SELECT, each a whole report process: the first one stands
    # for them, so the test stays a few seconds a step).
    first_select = next(i for i, line in enumerate(statements) if "\tSELECT" in line)
    for step in range(1, first_select + 2):
        cache = tmp_path / f"c{step}"
        done = _run(subprocess_cli, onboard_server, tmp_path, cache, step, tmp_path / "x.log")
        where = statements[step - 1]
        assert done.returncode == 130, (where, done.returncode, done.stderr)
        assert done.stderr.strip().splitlines()[-1] == "lichess-elo: interrupted", where
        assert "Traceback" not in done.stderr and "warning" not in done.stderr, where
        if (cache / "games.sqlite").exists():
            with sqlite3.connect(cache / "games.sqlite") as conn:
                assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",), where
        if "COMMIT" in where:
            # Interrupted just after the commit (the case that was swallowed): the next
            # run, not interrupted, finishes and gives the whole report.
            again = _run(subprocess_cli, onboard_server, tmp_path, cache, 0, tmp_path / "y.log")
            assert again.returncode == 0, (where, again.stderr)
            assert again.stdout == whole.stdout, where
