"""Every fault of the ``--db`` file is one named line with the right exit code:
damaged, not a DuckDB database, in use by another process, read-only, missing folder,
full disk; and DuckDB never installs or loads an extension. Real files, real processes."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from lichess_elo.sources.population import duck_faults
from tests.integration.db_fixture import january
from tests.integration.db_helpers import game, write_dump
from tests.runners import run_cli

ROOT = os.geteuid() == 0
SETPRIV = shutil.which("setpriv")
NOT_A_DB = "is not a DuckDB database (or is damaged): move it aside, or name another file"


def _error(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "unexpected" not in lines[0], lines[0]
    return lines[0]


def _good_db(tmp_path: Path) -> tuple[Path, Path]:
    """A database holding January of the fixture, rated (and its dump)."""
    dump = write_dump(tmp_path / "jan.pgn.zst", january())
    db = tmp_path / "good.duckdb"
    assert run_cli("db", "ingest", str(dump), "--db", str(db), "-q").returncode == 0
    assert run_cli("db", "rate", "--db", str(db), "-q").returncode == 0
    return db, dump


def _games(db: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT month, COUNT(*) FROM games GROUP BY 1").fetchall()
    con.close()
    return rows


def _sqlite(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE games (month INTEGER)")
    con.commit()
    con.close()


@pytest.mark.parametrize(
    "make",
    [
        lambda p: p.write_bytes(os.urandom(64 * 1024)),
        lambda p: p.write_bytes(b""),
        _sqlite,
        lambda p: p.write_bytes(b"PAR1" + bytes(100)),
    ],
    ids=["random-bytes", "empty", "sqlite", "parquet"],
)
def test_a_file_that_is_not_a_duckdb_database_is_refused_untouched(
    tmp_path: Path, make: object
) -> None:
    # Before: "unexpected IOException", and for a SQLite file DuckDB tried to download
    # and load its sqlite extension over the network.
    db = tmp_path / "x.duckdb"
    make(db)  # type: ignore[operator]
    before = db.read_bytes()
    dump = write_dump(tmp_path / "jan.pgn.zst", january())
    env = {"HOME": str(tmp_path / "home")}  # where DuckDB would keep its extensions
    for args in (["ingest", str(dump)], ["list", "--perf", "blitz", "--month", "2024-01"]):
        result = run_cli("db", *args, "--db", str(db), env=env)
        assert result.returncode == 2
        assert _error(result) == f"lichess-elo: error: --db {db} {NOT_A_DB}"
    assert db.read_bytes() == before
    assert not (tmp_path / "home").exists()


@pytest.mark.parametrize(
    ("spoil", "reason"),
    [
        (lambda data: data[:16384], "the file is cut short"),  # into the first block
        (lambda data: data[:20000] + os.urandom(100) + data[20100:], "bad checksums"),
    ],
    ids=["truncated", "checksum"],
)
def test_a_damaged_database_is_named_and_kept(tmp_path: Path, spoil: object, reason: str) -> None:
    db, dump = _good_db(tmp_path)
    con = duckdb.connect(str(db))
    con.execute("CHECKPOINT")
    con.close()
    damaged = tmp_path / "damaged.duckdb"
    damaged.write_bytes(spoil(db.read_bytes()))  # type: ignore[operator]
    before = damaged.read_bytes()
    for args in (["ingest", str(dump)], ["list", "--perf", "blitz", "--month", "2024-02"]):
        result = run_cli("db", *args, "--db", str(damaged))
        assert result.returncode == 1
        assert _error(result) == (
            f"lichess-elo: error: the database {damaged} is damaged ({reason}): move it "
            "aside and ingest the dumps again"
        )
    assert damaged.read_bytes() == before


def test_a_database_cut_in_half_is_named_by_every_command_ingest_first(tmp_path: Path) -> None:
    # Before: DuckDB opened the file (what it reads first, the ledger among it, survived)
    # and ``db ingest`` said "1 file(s) skipped: the database already holds them in full",
    # exit 0. The tables are stored in 11 blocks of 262,144 bytes after three 4,096-byte
    # headers (``PRAGMA database_size``; the last block in ``pragma_storage_info`` is
    # number 10): 12,288 + 11 x 262,144 = 2,895,872 bytes, the whole file; half is gone.
    db, dump = _good_db(tmp_path)
    whole = db.read_bytes()
    con = duckdb.connect(str(db), read_only=True)
    _, _, block_size, blocks, *_ = con.execute("PRAGMA database_size").fetchone() or ()
    con.close()
    assert len(whole) == 3 * 4096 + block_size * blocks  # the whole file, as here
    cut = tmp_path / "cut.duckdb"
    cut.write_bytes(whole[: len(whole) // 2])
    before = cut.read_bytes()
    reason = f"the file is cut short: {len(before):,} bytes of the {len(whole):,} its tables take"
    for args in (
        ["ingest", str(dump)],
        ["rate"],
        ["months"],
        ["list", "--perf", "blitz", "--month", "2024-01"],
        ["player", "Alice"],
        ["compare"],
    ):
        result = run_cli("db", *args, "--db", str(cut))
        assert (result.returncode, _error(result)) == (
            1,
            f"lichess-elo: error: the database {cut} is damaged ({reason}): move it aside and "
            "ingest the dumps again",
        ), args
    assert cut.read_bytes() == before  # named, never written


def test_a_database_in_use_by_another_process_names_it_after_a_bounded_wait(
    tmp_path: Path,
) -> None:
    db, dump = _good_db(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import duckdb, sys; c = duckdb.connect({str(db)!r}); "
         "print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        env = {"LICHESS_ELO_LOCK_TIMEOUT": "1"}
        for args in (["ingest", str(dump)], ["list", "--perf", "blitz", "--month", "2024-02"]):
            result = run_cli("db", *args, "--db", str(db), env=env)
            assert result.returncode == 1
            assert _error(result) == (
                f"lichess-elo: error: the database {db} is in use by another run "
                f"(PID {holder.pid}) (waited 1 s; LICHESS_ELO_LOCK_TIMEOUT changes how "
                "long); let it finish and run again"
            )
    finally:
        holder.kill()
        holder.wait()
    assert _games(db) == [(202401, 5)]  # January's 5 usable games: once free, it is whole
    listed = run_cli("db", "list", "--perf", "blitz", "--month", "2024-02", "--db", str(db))
    assert listed.returncode == 0, listed.stderr


def test_a_missing_folder_is_the_users_input(tmp_path: Path) -> None:
    dump = write_dump(tmp_path / "jan.pgn.zst", january())
    db = tmp_path / "nowhere" / "x.duckdb"
    result = run_cli("db", "ingest", str(dump), "--db", str(db))
    assert result.returncode == 2
    assert _error(result) == (
        f"lichess-elo: error: --db {db}: cannot be made: the folder {db.parent} does not exist"
    )
    assert not db.parent.exists()


def test_a_read_only_database_is_named_for_writes_and_read_for_reads(tmp_path: Path) -> None:
    prefix: list[str] = []
    if ROOT:
        if SETPRIV is None:
            pytest.skip("running as root without setpriv: root writes read-only files")
        prefix = [SETPRIV, "--bounding-set", "-dac_override,-dac_read_search"]
    db, dump = _good_db(tmp_path)
    db.chmod(0o444)
    try:
        ingest = run_cli("db", "ingest", str(dump), "--db", str(db), prefix=prefix)
        listed = run_cli(
            "db", "list", "--perf", "blitz", "--month", "2024-02", "--db", str(db), prefix=prefix
        )
    finally:
        db.chmod(0o644)
    assert ingest.returncode == 1
    assert _error(ingest) == (
        f"lichess-elo: error: the database {db} cannot be written (permission denied): make "
        "it writable or copy it somewhere you can write"
    )
    assert listed.returncode == 0, listed.stderr  # reading needs no write access
    assert "Alice" in listed.stdout


def test_a_full_disk_is_named_and_the_games_stored_stay_whole(tmp_path: Path) -> None:
    # A real write failure: files over the size limit cannot grow (what a full disk does;
    # SIGXFSZ ignored so write() fails with EFBIG, "File too large").
    db, _ = _good_db(tmp_path)
    one = game("2024.05.01 10:00:00", "Ann", "Ben", "1-0", ("1500", "1500"), ("+5", "-5"))
    big = write_dump(tmp_path / "may.pgn.zst", [one] * 200_000)
    limit = db.stat().st_size + 4096
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        result = run_cli("db", "ingest", str(big), "--db", str(db), timeout=300)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old_handler)
    assert result.returncode == 1
    assert _error(result) == (
        f"lichess-elo: error: the database {db} cannot be written (file too large): free "
        "some space and run again; what it held before stays whole"
    )
    assert _games(db) == [(202401, 5)]  # January's 5 usable games, whole


def test_duckdb_never_installs_or_loads_an_extension(tmp_path: Path) -> None:
    con = duck_faults.open_waiting(tmp_path / "x.duckdb", read_only=False)
    settings = con.execute(
        "SELECT current_setting('autoinstall_known_extensions'), "
        "current_setting('autoload_known_extensions')"
    ).fetchone()
    con.close()
    assert settings == (False, False)


def test_a_write_ahead_log_of_another_file_is_named_and_both_kept(tmp_path: Path) -> None:
    # A copy of a database made without its log, beside a log left by another one (the
    # session that found it: a benchmark's copy over a file whose run had been killed).
    db, _ = _good_db(tmp_path)
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("PRAGMA disable_checkpoint_on_shutdown")
    con.execute("SET checkpoint_threshold = '1TB'")
    con.execute("CREATE TABLE t AS SELECT range AS x FROM range(1000)")
    con.close()
    log = other.with_name(other.name + ".wal")
    assert log.is_file()
    stray = db.with_name(db.name + ".wal")
    shutil.copy(log, stray)
    kept = (db.read_bytes(), stray.read_bytes())
    for command in (["rate"], ["months"], ["list", "--perf", "blitz", "--month", "2024-01"]):
        result = run_cli("db", *command, "--db", str(db))
        line = _error(result)
        assert result.returncode == 1, line
        assert line == (
            f"lichess-elo: error: the database {db} cannot be opened: its write-ahead log "
            f"{db}.wal was written for another file (a copy of the database without its log, "
            "or a log copied beside it); move that .wal file aside and run again"
        )
        assert (db.read_bytes(), stray.read_bytes()) == kept
    stray.unlink()
    assert run_cli("db", "months", "--db", str(db)).returncode == 0
