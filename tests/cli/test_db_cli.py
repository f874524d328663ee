"""``lichess-elo db`` from the shell: bad input in one line, Ctrl-C, a real terminal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import pytest

from tests.integration.db_fixture import january
from tests.integration.db_helpers import game, write_dump
from tests.integration.db_rated import rule_600_db
from tests.runners import Cli, PtyCli, invoke, pty_run, run_cli, spawn


def _run(*args: str) -> tuple[int, str]:
    out = invoke(["db", *args])
    return out.exit_code, out.output


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    """A database with January of the fixture, rated."""
    path = tmp_path / "j.duckdb"
    dump = write_dump(tmp_path / "jan.pgn.zst", january())
    assert _run("ingest", str(dump), "--db", str(path), "-q")[0] == 0
    assert _run("rate", "--db", str(path))[0] == 0
    return path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ingest", "nope.pgn.zst"], "nope.pgn.zst: no such file"),
        (["ingest", "pyproject.toml"], "not a dump; expected a .pgn.zst, .pgn or .parquet file"),
        # a club's PGN: Site "Club room", no lichess.org game in it
        (["ingest", "tests/data/club/seed-event.pgn"], "seed-event.pgn: not a Lichess PGN"),
        (["list", "--perf", "blitz", "--month", "2024-13"], "--month 2024-13 is not YYYY-MM"),
        (["list", "--perf", "hyper", "--month", "2024-01"], "--perf hyper is not rated here"),
        (["rate", "--perf", "atomic"], "--perf atomic is not rated here"),
        (
            ["rate", "--rules-as-of", "2008-01-01"],
            "--rules-as-of 2008-01-01 is before the first FIDE edition this tool has "
            "(standard from 2009-07-01, rapid-blitz from 2012-01-01, to today)",
        ),
        (["rate", "--rules-as-of", "2011-01-01", "--perf", "blitz"], "rapid-blitz from 2012-01-01"),
        (["rate", "--rules-as-of", "soon"], "expected month, today or a day such as 2025-10-01"),
        (
            ["rate", "--rule-600"],
            "--rule-600 is gone: the 600/2600 rule now follows each month's edition",
        ),
        (["player", "Zed"], "no player 'Zed' in the lists"),
        # a typo gets the folded did-you-mean of club --player (the fixture's players:
        # Alice, Bob, Carol, Dave); a perf without the player names the ones with them
        (["player", "Alyce"], "no player 'Alyce' in the lists; did you mean 'Alice'?"),
        (["player", "Carl"], "did you mean 'Carol'?"),
        (
            ["player", "alice", "--perf", "rapid"],
            "no player 'alice' in rapid in the lists (only in blitz)",
        ),
        (["compare", "--chart", "x.gif"], "must end in .png or .svg"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    db: Path, args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    code, output = _run(*args, "--db", str(db))
    assert code == 2
    assert output.count("\n") == 1 and message in output, output


def test_an_unknown_opponents_source_is_one_line_exit_2() -> None:
    proc = run_cli("db", "rate", "--opponents", "fide")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "'fide' is not one of 'list', 'lichess'" in proc.stderr


def test_missing_database_exit_2(tmp_path: Path) -> None:
    code, output = _run("list", "--db", str(tmp_path / "none.duckdb"), "--perf", "blitz",
                        "--month", "2024-01")  # fmt: skip
    assert code == 2
    assert "no database at" in output and "ingest dumps into it first" in output


def test_corrupt_dump_is_a_runtime_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn.zst"
    bad.write_bytes(b"this is not zstd at all" * 100)
    code, output = _run("ingest", str(bad), "--db", str(tmp_path / "b.duckdb"), "-q")
    assert code == 1
    assert "bad.pgn.zst: not a valid zstd stream" in output and output.count("\n") == 1


def test_list_before_rate_says_to_rate(tmp_path: Path) -> None:
    path = tmp_path / "u.duckdb"
    _run("ingest", str(write_dump(tmp_path / "j.pgn.zst", january())), "--db", str(path), "-q")
    code, output = _run("list", "--db", str(path), "--perf", "blitz", "--month", "2024-01")
    assert code == 1 and "rate it first" in output


def test_rate_says_how_many_sides_the_600_rule_left_out_and_the_rules(tmp_path: Path) -> None:
    db = rule_600_db(tmp_path / "r.duckdb")
    code, output = _run("rate", "--db", str(db))
    # December 2024's A-B game is 654 points apart with A above 2600
    # (test_db_rate.RULE_600_LISTS["month"] has the hand computation): two sides.
    assert code == 0, output
    assert "2 game sides not rated under the 600/2600 rule" in output
    assert (
        "blitz rules: each month's edition (rapid-blitz-2024-03, rapid-blitz-2024-12); "
        "opponents: list; compression: none; engine: duckdb"
    ) in output
    code, output = _run("rate", "--db", str(db), "--rules-as-of", "2024-11-30")
    assert code == 0 and "600/2600" not in output, output
    code, output = _run("list", "--db", str(db), "--perf", "blitz", "--month", "2025-01")
    assert "blitz rules: as of 2024-11-30 (rapid-blitz-2024-03)" in output, output
    code, output = _run("player", "A", "--db", str(db), "--format", "json")
    assert json.loads(output)["rules"][0]["rules_as_of"] == "2024-11-30"


def test_lists_made_before_rules_were_recorded_are_not_mixed(tmp_path: Path) -> None:
    db = rule_600_db(tmp_path / "r.duckdb")
    assert _run("rate", "--db", str(db))[0] == 0
    con = duckdb.connect(str(db))
    con.execute("DROP TABLE list_rules")  # as an older version left it
    con.close()
    code, output = _run("list", "--db", str(db), "--perf", "blitz", "--month", "2025-01")
    assert code == 1 and "made before lists recorded their rules: rate again" in output
    code, output = _run("rate", "--db", str(db), "--perf", "rapid")
    assert code == 2 and output.count("\n") == 1, output
    assert "the blitz lists were made before lists recorded their rules" in output
    # the library names no option; the command line names --perf
    assert output.rstrip().endswith("; rate every perf again (without --perf)"), output
    assert _run("rate", "--db", str(db))[0] == 0  # every perf again: replaced whole


def _big_dump(path: Path, games: int) -> Path:
    one = game("2024.05.01 10:00:00", "Ann", "Ben", "1-0", ("1500", "1500"), ("+5", "-5"))
    return write_dump(path, [one] * games)


def _holds_open(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has ``path`` open (Linux: its ``/proc/PID/fd`` links)."""
    try:
        links = [os.readlink(f) for f in Path(f"/proc/{pid}/fd").iterdir()]
    except OSError:  # the process is gone, or a descriptor closed while read
        return False
    return str(path) in links


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/PID/fd (Linux)")
def test_ctrl_c_exits_130_and_leaves_the_database_consistent(tmp_path: Path) -> None:
    path = tmp_path / "c.duckdb"
    jan = write_dump(tmp_path / "jan.pgn.zst", january())
    big = _big_dump(tmp_path / "may.pgn.zst", 400_000)
    command = ["db", "ingest", str(jan), str(big), "--db", str(path), "-q"]
    proc = spawn(*command, text=True)
    # Ctrl-C while the big file is being read, whatever the machine's speed: once the
    # database has its tables (its write-ahead log is there) and the process holds the big
    # file open, it is stopped (SIGSTOP), given SIGINT and let go (SIGCONT), so the
    # interrupt lands before that file's games can be committed.
    wal = path.with_name(path.name + ".wal")

    def reading_big() -> bool:
        return wal.exists() and _holds_open(proc.pid, big)

    deadline = time.monotonic() + 60
    while not reading_big() and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGSTOP)
    assert reading_big(), "the ingest never read the big file"
    proc.send_signal(signal.SIGINT)
    os.kill(proc.pid, signal.SIGCONT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err == "lichess-elo: interrupted\n"
    con = duckdb.connect(str(path))
    months = con.execute("SELECT month, games FROM months ORDER BY 1").fetchall()
    counts = con.execute("SELECT month, COUNT(*) FROM games GROUP BY 1 ORDER BY 1").fetchall()
    con.close()
    # Whatever was committed is whole: every month's games match its row.
    assert counts == months
    # Run again: everything, once.
    again = run_cli(*command, timeout=300)
    assert again.returncode == 0, again.stderr
    con = duckdb.connect(str(path))
    counts = con.execute("SELECT month, COUNT(*) FROM games GROUP BY 1 ORDER BY 1").fetchall()
    con.close()
    assert counts == [(202401, 5), (202405, 400_000)]


def _on_a_terminal(*args: str) -> tuple[subprocess.CompletedProcess[bytes], bytes]:
    """``lichess-elo db ARGS`` with stdin and stderr on a pseudo-terminal of 80 columns:
    (the run, with stdout captured; everything shown on the terminal)."""
    run = pty_run.start(["db", *args], width=80, on_pty="stdin+stderr")
    code = run.finish(timeout=120)
    assert run.process.stdout is not None
    out = run.process.stdout.read()
    run.process.stdout.close()
    return subprocess.CompletedProcess(run.process.args, code, out, None), bytes(run.raw)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    big = _big_dump(tmp_path / "may.pgn.zst", 200_000)
    proc, seen = _on_a_terminal("ingest", str(big), "--db", str(tmp_path / "p.duckdb"))
    assert proc.returncode == 0
    assert b"games/s" in seen
    assert b"200,000 games stored" in proc.stdout


@pytest.mark.parametrize("command", ["ingest", "rate", "list", "player", "compare"])
def test_every_db_option_has_an_example(cli: Cli, command: str) -> None:
    shown = cli(["db", command, "--help"], env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    options = [
        line for line in shown.stdout.splitlines()
        if line.strip("│ ").startswith("--") and not line.strip("│ ").startswith("--help")
    ]  # fmt: skip
    assert options
    for line in options:
        assert "e.g." in line, line.strip()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_rate_shows_the_months_on_a_terminal(db: Path) -> None:
    proc, seen = _on_a_terminal("rate", "--db", str(db))
    assert proc.returncode == 0
    # January's games: the lists of January and February.
    assert b"rating" in seen and b"/2 months" in seen, seen
    assert b"Rated" in proc.stdout


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_compare_shows_its_steps_on_a_terminal_and_nothing_in_a_pipe(db: Path) -> None:
    # db compare showed no progress at all. Each step is drawn as it starts.
    proc, seen = _on_a_terminal("compare", "--db", str(db))
    assert proc.returncode == 0, seen
    for step in (b"rating bands (1/3)", b"scorecard (2/3)", b"players who differ (3/3)"):
        assert b"comparing: " + step in seen, seen
    assert b"comparing" not in proc.stdout
    # stderr in a pipe: no progress at all, and --quiet on a terminal: none either.
    piped = run_cli("db", "compare", "--db", str(db))
    assert piped.returncode == 0 and piped.stderr == "", piped.stderr
    proc, seen = _on_a_terminal("compare", "--db", str(db), "-q")
    assert proc.returncode == 0 and b"comparing" not in seen, seen


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_ctrl_c_while_the_ingest_bar_shows(pty_cli: PtyCli, tmp_path: Path) -> None:
    # with the bar on screen, Ctrl-C still ends in one line and exit code 130.

    big = _big_dump(tmp_path / "may.pgn.zst", 400_000)
    args = ["db", "ingest", str(big), "--db", str(tmp_path / "i.duckdb")]
    run = pty_cli.start(args, width=80, env={})
    assert run.wait_for(lambda t: "may.pgn.zst" in t and "games" in t, timeout=120), run.text
    run.interrupt()
    code = run.finish(timeout=120)
    text = run.text
    assert code == 130, text
    assert text.count("lichess-elo: interrupted") == 1 and "Traceback" not in text, text
    assert text.split("lichess-elo: interrupted")[1].strip() == ""


def test_ctrl_c_keeps_the_files_read_in_full_and_the_rerun_skips_them(tmp_path: Path) -> None:
    # Ctrl-C in a multi-file ingest kept nothing, not even the files read in full.
    # The second file is a named pipe: the ingest blocks on it, so the first is certainly
    # finished (the pipe opens only once the run reaches it) when Ctrl-C arrives.
    path = tmp_path / "c.duckdb"
    jan = write_dump(tmp_path / "jan.pgn.zst", january())
    may = tmp_path / "may.pgn.zst"
    os.mkfifo(may)
    command = ["db", "ingest", str(jan), str(may), "--db", str(path), "-q"]
    proc = spawn(*command, text=True)
    try:
        with may.open("wb") as pipe:  # returns once the ingest opens the second file
            pipe.write(_big_dump(tmp_path / "part.pgn.zst", 1000).read_bytes()[:100])
            pipe.flush()
            proc.send_signal(signal.SIGINT)
        # The pipe is closed after the signal: a read blocked in the decompressor's C code
        # returns, and the signal, already pending, is handled before anything else.
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert (proc.returncode, err) == (130, "lichess-elo: interrupted\n")
    con = duckdb.connect(str(path))
    counts = con.execute("SELECT month, COUNT(*) FROM games GROUP BY 1 ORDER BY 1").fetchall()
    con.close()
    assert counts == [(202401, 5)]  # January (5 usable games), read in full, is kept

    # The rerun skips January and reads May (now a plain file).
    may.unlink()
    _big_dump(may, 1000)
    again = run_cli(*command[:-1], timeout=300)
    assert again.returncode == 0, again.stderr
    assert "1 file(s) skipped: the database already holds them in full" in again.stdout
    con = duckdb.connect(str(path))
    counts = con.execute("SELECT month, COUNT(*) FROM games GROUP BY 1 ORDER BY 1").fetchall()
    con.close()
    assert counts == [(202401, 5), (202405, 1000)]


def test_db_player_as_csv_has_one_column_per_field(db: Path) -> None:
    # the rows carry the list's spelling of the name, which the CSV header
    # lacked: "unexpected ValueError: dict contains fields not in fieldnames: 'name'".
    code, output = _run("player", "alice", "--db", str(db), "--format", "csv")
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0] == (
        "perf,name,month,rating,games_before,k,lichess_rating,games,points,expected,k_used,"
        "change,next_rating,edition"
    )
    # January only (the fixture): Alice's one month, 1500 -> 1545 (db_fixture's hand count).
    # Rated by January 2024's own edition, rapid-blitz-2022-10, whose 400-point rule is once
    # per event: Alice is the lower-rated player in all three capped games, where the rule
    # still caps every game (docs/rules.md), so the count is the fixture's.
    first = lines[1].split(",")
    assert len(lines) == 2
    assert (first[:4], first[-3:]) == (
        ["blitz", "Alice", "2024-01", "1500"],
        ["45", "1545", "rapid-blitz-2022-10"],
    )


def test_rate_fits_its_rules_lines_to_an_80_column_terminal(pty_cli: PtyCli, db: Path) -> None:

    code, text = pty_cli(["db", "rate", "--db", str(db), "-q"], width=80, env={}, timeout=120)
    assert code == 0, text
    lines = [line.rstrip() for line in text.splitlines()]
    assert all(len(line) <= 80 for line in lines), text
    # the rules line, split between words with a hanging indent
    start = next(i for i, line in enumerate(lines) if line.startswith("  blitz rules: "))
    assert lines[start + 1].startswith("      ") and "engine: duckdb" in " ".join(lines), text


def test_db_player_folds_accents_and_has_a_legend_at_80_columns(pty_cli: PtyCli, db: Path) -> None:
    # a name typed with an accent and in capitals is Alice (Lichess names are ASCII)
    code, output = _run("player", "ÁLICE", "--db", str(db), "--format", "csv")
    assert code == 0 and output.splitlines()[1].startswith("blitz,Alice,2024-01,1500"), output
    code, text = pty_cli(["db", "player", "alice", "--db", str(db)], width=80, env={})
    assert code == 0, text
    lines = [line.rstrip() for line in text.splitlines()]
    assert all(len(line) <= 80 for line in lines), text
    said = " ".join(" ".join(lines).split())
    # the legend says PD is the month's sum of expected scores, not one game's probability
    assert "Legend:" in said
    assert (
        "PD: the sum of the month's expected scores, in points (calc's PD is one game's "
        "probability, 0 to 1)" in said
    )
    for column in ("perf, month:", "list:", "before:", "K:", "Lichess:", "games:", "K used:",
                   "change:", "edition:"):  # fmt: skip
        assert f" {column} " in f" {said} ", column
