"""A real month end to end: ``db ingest`` -> ``db rate`` -> ``db compare`` at three sizes, fitted.

Every stage is the command as a user types it, in a fresh process (bench_common.run_whole:
wall, CPU of it and its descendants, peak RSS, the load average at its start), on a month
made by ``gen_month.py`` (a real month's shape: players and games per player, perfs, clocks,
events), at each size of ``--sizes`` (default 5 M, 10 M, 20 M games; a real month is about
92 M):

1. ``zstd -dc FILE | wc -l``, the baseline, on the same file in the same run;
2. ``lichess-elo db ingest FILE --db DB --quiet`` (a new database);
3. ``lichess-elo db rate --db DB --quiet``;
4. ``lichess-elo db compare --db DB --format json``.

Then each stage's wall time is fitted as ``t = a * n ** b`` (least squares on the
logarithms, ``month_estimate.fit_power``) and projected:

(a) one real month, ``MONTH_GAMES`` games, on this machine;
(b) the whole history, every month of ``MONTHLY_GAMES`` (the open database's own counts,
    2013-01 on), on this machine: ``db ingest`` month by month (its fit at each month's
    games); ``db rate`` rates every month again at each run, and its monthly step covers the
    month's games and every list entry carried so far (docs/population.md: "each month's
    step covers every entry"), so a month costs ``u * (games + entries)``, ``u`` the
    measured cost per game-or-list-row of the largest size (an entry assumed to cost what a
    game does), entries the players seen so far times the perfs a player has (measured:
    list rows per player of the month), players seen so far growing as 2,296,327 per
    452,630,700 games (the open database 2013-01 to 2018-09, github.com/jcw024/
    lichess_database_ETL, ``analytics/data_analysis/basic_data_facts.txt``), carried on
    after 2018 (an assumption: no later count was found); ``db compare`` at its fit per
    month (it samples ``--sample`` games a month and perf, so this is an upper bound);
(c) on a Spark cluster: ``db rate --engine spark --master spark://HOST:7077 --warehouse
    DIR``. With ``--spark-size N`` or ``N1,N2`` (at most 1 M: Spark in local mode is slow)
    the month's ``db rate --engine spark --master local[2]`` is measured here (two sizes
    split the fixed start-up from the cost per game-or-entry, a straight line), and the
    cluster time is estimated by scaling that cost to the history and dividing it by
    ``--executor-cores`` / 2 (linear scaling in cores: optimistic, shuffles and the
    per-month write-back do not scale; a floor, not a promise).

``--progress`` runs one ``db ingest`` and one ``db rate`` of the smallest size WITHOUT
``--quiet`` in a pseudo-terminal, reads the bars' ETAs at 25, 50 and 75 % and prints them
beside the time that was actually left (to the command's end: time after the bar ends
counts, as the user waits for it). The rate bar counts the games (its percentage) with
the months beside it, so one month shows an ETA too; ``--progress-months K`` rates the
smallest size's games as K consecutive months instead. The bars show an ETA only after
10 % of the work and 2 s (``output.progress.eta``): give a size of a million games or more.

Run ``python benchmarks/bench_month.py --data /work/monthdata`` (keeps and reuses the
generated months there; never inside the repository). Smoke run: ``--sizes
200000,400000,800000``. The commands run this checkout's package (``PYTHONPATH`` set to its
``src``; ``--src DIR`` another checkout's, ``--installed`` the installed one).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from bench_common import (  # noqa: E402
    Run,
    add_package_options,
    lichess_elo,
    load_script,
    machine,
    package_of,
    run_whole,
)
from month_estimate import fit_line, fit_power  # noqa: E402

#: Games of every month of the open database's standard rated dump. Source: the month list
#: of https://database.lichess.org (section "Standard Chess": month, size, games), as copied
#: whole into a public repository's page (a Flask app offering each month for download, its
#: list from 2013-01 to 2026-02); cross-checked against the counts quoted elsewhere from
#: https://database.lichess.org/standard/counts.txt (2013-01 121,332; 2013-12 578,262;
#: 2014-01 697,600; 2014-06 961,868; 2019-06 33,935,786: all equal). 2026-05, 2026-06 and
#: 2026-07 (90,887,615, 86,483,328, 89,288,421) are from a public data-check page that
#: compares them with counts.txt; 2026-04 is "89.9M" as quoted in another page (rounded).
#: Not found, so interpolated (``_interpolated``): 2026-03 and 2026-08 to 2026-11, each the
#: median of the twelve months before it. Sum through 2026-06: 7.95 billion, as a third
#: source says ("162 months, ~7.95 billion games total as of 2026-06").
_COUNTS = """
2013 121332 123961 158635 157871 179550 224679 293459 325525 325098 411039 487012 578262
2014 697600 692394 795173 810463 905374 961868 1048440 1013294 1000056 1111302 1209291 1350176
2015 1497237 1495553 1742733 1785418 2137557 2324106 2455141 2621861 2844677 3400418 3595776
     4161162
2016 4770357 5015361 5801234 5922667 6225957 6136419 6275933 6483257 6813113 7599868 8021509
     9433412
2017 10680708 10194939 11346745 11348506 11693919 11512600 12080314 12458761 12564109 13703878
     14306375 16232215
2018 17945784 17383410 20059178 19881929 21442600 20273737 21070917 22635642 22971939 24784600
     26136657 31179146
2019 33886899 31023718 34869171 33565536 35236588 33935786 35728182 36745427 36996010 40440254
     40357832 44055757
2020 46800709 44004185 55544817 73224608 75628855 70374749 70592022 71405167 68027862 70572373
     78268317 89422803
2021 95853038 89892001 100023791 99184138 101011629 92190803 92193352 93679328 88133339
     88092721 87113345 95600810
2022 102110423 86339501 91140030 87200457 89300578 87649571 92055571 92670440 89174810
     92629656 89319297 93501009
2023 103178407 98471537 108201825 101706224 104193153 96641906 95300285 96118124 93218629
     94922297 92389636 96909211
2024 98994760 91567975 95804114 91377787 94400051 89342529 90106180 92198878 87713219
     94254891 90847982 96587411
2025 100412379 89430612 97512351 91757350 94068115 91189178 93092772 92695519 87049890
     91549148 90633152 94847276
2026 94604722 84600043 - 89900000 90887615 86483328 89288421 - - - -
"""


def _monthly_games() -> tuple[dict[str, int], list[str]]:
    """``MONTHLY_GAMES`` and the months interpolated (``-`` in ``_COUNTS``)."""
    counts: dict[str, int] = {}
    guessed: list[str] = []
    year = 0
    month = 0
    for token in _COUNTS.split():
        if len(token) == 4 and token.isdigit() and month in (0, 12):
            year, month = int(token), 0
            continue
        month += 1
        key = f"{year}-{month:02d}"
        if token == "-":
            before = sorted(list(counts.values())[-12:])
            counts[key] = (before[5] + before[6]) // 2
            guessed.append(key)
        else:
            counts[key] = int(token)
    return counts, guessed


MONTHLY_GAMES, _interpolated = _monthly_games()
#: A real month (the median of 2023-01 to 2026-11, rounded).
MONTH_GAMES = 92_000_000
#: Players seen so far per game played so far (2013-01 to 2018-09, see the top).
PLAYERS_PER_GAME_CUMULATIVE = 2_296_327 / 452_630_700


def make_month(work: Path, games: int, seed: int, month: str = "2024-03") -> tuple[Path, dict]:
    """The month of ``games`` games under ``work/GAMES`` (made once; reused when there) and
    its figures."""
    where = work / str(games)
    path = where / f"lichess_db_standard_rated_{month}.pgn.zst"
    stats_file = Path(str(path) + ".json")
    if not (path.exists() and stats_file.exists()):
        gen = load_script("gen_month")
        print(gen.describe(gen.write_month(where, games, month=month, seed=seed)), flush=True)
    return path, json.loads(stats_file.read_text())


def _fresh(db: Path) -> None:
    for old in db.parent.glob(db.name + "*"):
        if old.is_dir():
            shutil.rmtree(old)
        else:
            old.unlink()


def _list_rows(db: Path) -> tuple[int, int]:
    """(list rows, distinct players in the lists)."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    row = con.execute("SELECT COUNT(*), COUNT(DISTINCT name) FROM lists").fetchone()
    con.close()
    return (int(row[0]), int(row[1])) if row else (0, 0)


@dataclass
class SizeRuns:
    """One size's runs."""

    games: int
    players: int
    mb: float
    runs: dict[str, Run]
    rows: int


STAGES = ("zstd -dc | wc -l", "db ingest", "db rate", "db compare")


def run_size(work: Path, games: int, seed: int, keep: bool) -> SizeRuns:
    """Generate (or reuse) the month of ``games`` games and run the four commands on it."""
    path, stats = make_month(work, games, seed)
    db = path.parent / "month.duckdb"
    _fresh(db)
    runs: dict[str, Run] = {}
    runs["zstd -dc | wc -l"] = run_whole(f"zstd -dc '{path}' | wc -l")
    runs["db ingest"] = cli("db", "ingest", str(path), "--db", str(db), "--quiet")
    runs["db rate"] = cli("db", "rate", "--db", str(db), "--quiet")
    rows, _ = _list_rows(db)
    out = path.parent / "compare.json"
    runs["db compare"] = cli("db", "compare", "--db", str(db), "--format", "json", stdout=out)
    if not keep:
        shutil.rmtree(path.parent)
    else:
        _fresh(db)
    return SizeRuns(stats["games"], stats["players"], stats["bytes"] / 1e6, runs, rows)


def _table(results: list[SizeRuns]) -> str:
    head = f"{'stage':<18}{'games':>12}{'players':>11}{'wall s':>9}{'CPU s':>9}"
    lines = [head + f"{'RSS MB':>8}{'games/s':>12}{'x zstd':>8}{'load':>6}"]
    for stage in STAGES:
        for r in results:
            run = r.runs[stage]
            ratio = r.runs["zstd -dc | wc -l"].wall / run.wall
            lines.append(
                f"{stage:<18}{r.games:>12,}{r.players:>11,}{run.wall:>9.2f}{run.cpu:>9.2f}"
                f"{run.rss_mb:>8.0f}{r.games / run.wall:>12,.0f}{ratio:>8.3f}{run.load:>6.2f}"
            )
    return "\n".join(lines)


def _hms(seconds: float) -> str:
    if seconds >= 86400 * 2:
        return f"{seconds / 86400:,.1f} days"
    if seconds >= 3600:
        return f"{seconds / 3600:,.1f} h"
    return f"{seconds / 60:,.1f} min"


def project(
    results: list[SizeRuns], args: argparse.Namespace, spark: list[tuple[int, int, Run]]
) -> str:
    """The fits and the three projections, as text."""
    out: list[str] = []
    fits: dict[str, tuple[float, float]] = {}
    lines: dict[str, tuple[float, float]] = {}

    def worse(stage: str, n: float) -> float:
        """The stage's time at ``n`` games by the worse of its two fits."""
        (a, b), (c, d) = fits[stage], lines[stage]
        return max(a * n**b, c + d * n)

    for stage in STAGES:
        points = [(float(r.games), r.runs[stage].wall) for r in results]
        cpu_points = [(float(r.games), r.runs[stage].cpu) for r in results]
        fits[stage] = a, b = fit_power(points)
        lines[stage] = c, d = fit_line(points)
        ca, cb = fit_power(cpu_points)
        note = (
            "  (b < 0.8: the start-up weighs on it; larger sizes project better)" if b < 0.8 else ""
        )
        out.append(
            f"{stage:<18} wall t = {a:.3g} * n^{b:.3f} or {c:.2f} s + {d * 1e6:.2f} s per M games; "
            f"CPU t = {ca:.3g} * n^{cb:.3f}; {MONTH_GAMES / 1e6:.0f} M games: "
            f"{_hms(a * MONTH_GAMES**b)} / {_hms(c + d * MONTH_GAMES)} wall{note}"
        )
    month_total = sum(worse(s, MONTH_GAMES) for s in STAGES[1:])
    out.append(
        f"(a) one real month, ingest + rate + compare: {_hms(month_total)} wall (each stage "
        "by the worse of its two fits)"
    )

    largest = max(results, key=lambda r: r.games)
    c_rate, d_rate = lines["db rate"]
    per_game = d_rate if d_rate > 0 else largest.runs["db rate"].wall / largest.games
    unit = per_game * largest.games / (largest.games + largest.rows)
    perfs_per_player = largest.rows / max(1, largest.players)
    months = sorted(MONTHLY_GAMES)
    total_games = sum(MONTHLY_GAMES.values())
    seen = 0.0
    rate_units = 0.0
    ingest = compare = 0.0
    for m in months:
        g = MONTHLY_GAMES[m]
        seen += g
        entries = PLAYERS_PER_GAME_CUMULATIVE * seen * perfs_per_player
        rate_units += g + entries
        ingest += worse("db ingest", g)
        compare += worse("db compare", g)
    rate = max(0.0, c_rate) + unit * rate_units
    out.append(
        f"(b) the whole history, {len(months)} months {months[0]} to {months[-1]}, "
        f"{total_games / 1e9:.2f} billion games (interpolated: {', '.join(_interpolated)}):"
    )
    out.append(
        f"    db ingest, month by month: {_hms(ingest)}; db rate: {_hms(rate)} "
        f"({unit * 1e6:.2f} s per M games-or-entries from the line at {largest.games:,} games, "
        f"{rate_units / 1e9:.1f} billion of them: list entries by the end "
        f"{PLAYERS_PER_GAME_CUMULATIVE * total_games * perfs_per_player / 1e6:.0f} M, "
        f"{perfs_per_player:.2f} perfs a player); db compare: {_hms(compare)} (upper bound)"
    )
    out.append(f"    total on this machine: {_hms(ingest + rate + compare)}")
    out.append(
        "    commands: for f in lichess_db_standard_rated_*.pgn.zst; do lichess-elo db ingest "
        '"$f" --db lichess.duckdb; done; lichess-elo db rate --db lichess.duckdb; '
        "lichess-elo db compare --db lichess.duckdb"
    )
    cluster = (
        "lichess-elo db rate --db lichess.duckdb --engine spark --master spark://HOST:7077 "
        "--warehouse /mnt/shared/lichess"
    )
    out.append("(c) on a Spark cluster (ingest stays per month on this machine, as in (b)):")
    out.append(f"    command: {cluster}")
    if not spark:
        out.append(
            "    not measured: give --spark-size N[,N2] (<= 1 M) to time `db rate --engine spark "
            "--master local[2]` here and scale it"
        )
    else:
        units = [(float(n + rows), run.wall) for n, rows, run in spark]
        for n, rows, run in spark:
            out.append(
                f"    measured here: --engine spark --master local[2], {n:,} games, {rows:,} list "
                f"rows: {run.wall:.1f} s wall, {run.cpu:.1f} CPU-s (the Python side: the JVM "
                f"is not counted), {run.rss_mb:.0f} MB"
            )
        fixed, per_unit = fit_line(units) if len(units) >= 2 else (0.0, 0.0)
        if per_unit > 0:
            how = f"line over {len(units)} sizes: {fixed:.0f} s fixed + {per_unit * 1e6:.1f} s"
        else:  # one size, or sizes too close to tell the start-up from the work
            fixed, per_unit = 0.0, units[-1][1] / units[-1][0]
            how = (
                f"the largest size, start-up included (pessimistic; the sizes did not separate "
                f"the start-up from the work): {per_unit * 1e6:.1f} s"
            )
        local = fixed + per_unit * rate_units
        cluster_time = fixed + per_unit * rate_units * 2 / args.executor_cores
        out.append(f"    cost: {how} per M games-or-entries")
        out.append(
            f"    history in local[2]: {_hms(local)}; on {args.executor_cores} executor cores, "
            f"scaled linearly from 2: {_hms(cluster_time)} (a floor: shuffles and each "
            "month's write-back do not scale with cores)"
        )
    return "\n".join(out)


#: The package source the commands run (``--src``; None: the installed package).
SRC: list[Path | None] = [HERE.parent / "src"]


def cli(*args: str, stdout: Path | None = None) -> Run:
    """``lichess-elo ARGS`` as a whole command, with ``SRC``'s package."""
    return run_whole(lichess_elo(*args), stdout=stdout, src=SRC[0])


def run_spark(work: Path, games: int, seed: int) -> tuple[int, int, Run]:
    """``db rate --engine spark --master local[2]`` on a month of ``games`` games: (games,
    list rows, the run)."""
    path, _ = make_month(work, games, seed)
    db = path.parent / "spark.duckdb"
    _fresh(db)
    cli("db", "ingest", str(path), "--db", str(db), "--quiet")
    run = cli("db", "rate", "--db", str(db), "--quiet", "--engine", "spark", "--master", "local[2]")
    rows, _ = _list_rows(db)
    _fresh(db)
    return games, rows, run


# --- Progress bars under a pseudo-terminal --------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
_MONTHS = re.compile(r"(\d+)/(\d+) months")
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)%")
_ETA = re.compile(r"ETA (\d+):(\d\d):(\d\d)")


def watch(
    argv: list[str], width: int = 160
) -> tuple[list[tuple[float, float, float | None]], float]:
    """Run ``argv`` with its stdio on a pty of ``width`` columns; return the samples
    ``(seconds since start, fraction done, ETA seconds or None)`` read off its bar, and the
    seconds it took."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, width, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    env.pop("PYTHONPATH", None)
    if SRC[0] is not None:
        env["PYTHONPATH"] = str(SRC[0])
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    samples: list[tuple[float, float, float | None]] = []
    pending = ""
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        now = time.perf_counter() - start
        pending += _ANSI.sub("", data.decode(errors="replace"))
        *frames, pending = re.split(r"[\r\n]", pending)
        for frame in frames:
            fraction = None
            if found := _PERCENT.search(frame):  # the games done (the rate bar's too)
                fraction = float(found[1]) / 100
            elif found := _MONTHS.search(frame):
                fraction = int(found[1]) / max(1, int(found[2]))
            if fraction is None:
                continue
            eta = _ETA.search(frame)
            left = int(eta[1]) * 3600 + int(eta[2]) * 60 + int(eta[3]) if eta else None
            samples.append((now, fraction, left))
    proc.wait()
    os.close(master)
    return samples, time.perf_counter() - start


def eta_report(name: str, samples: list[tuple[float, float, float | None]], took: float) -> str:
    """The first ETA shown at or past 25, 50 and 75 % against the time that was left."""
    lines = [f"{name}: {took:.1f} s in all, {len(samples)} bar frames read"]
    for mark in (0.25, 0.50, 0.75):
        shown = next(((t, f, e) for t, f, e in samples if f >= mark and e is not None), None)
        if shown is None:
            seen = next(((t, f) for t, f, _ in samples if f >= mark), None)
            why = "no ETA shown" if seen else "the bar never got there"
            lines.append(f"  {mark:.0%}: {why}")
            continue
        t, f, e = shown
        actual = took - t
        lines.append(
            f"  {mark:.0%} (at {f:.0%}, {t:.1f} s): ETA {e:.0f} s, actually {actual:.1f} s left "
            f"({e - actual:+.1f} s)"
        )
    return "\n".join(lines)


def progress(work: Path, games: int, seed: int, months: int) -> None:
    """Ingest the month of ``games`` games, then rate it (or the same games over ``months``
    months), each under a pty; print the ETAs against the time that was left."""
    path, _ = make_month(work, games, seed)
    db = path.parent / "progress.duckdb"
    _fresh(db)
    samples, took = watch(lichess_elo("db", "ingest", str(path), "--db", str(db)))
    print(eta_report(f"db ingest ({games:,} games, one file)", samples, took))
    if months > 1:  # the rate bar counts months: the same games over several
        _fresh(db)
        gen = load_script("gen_month")
        where = work / f"progress-{games}-{months}"
        files = []
        for i in range(months):
            month = f"{2024 + (i + 2) // 12}-{(i + 2) % 12 + 1:02d}"
            file = where / f"lichess_db_standard_rated_{month}.pgn.zst"
            if not file.exists():
                gen.write_month(where, games // months, month=month, seed=seed + i)
            files.append(str(file))
        cli("db", "ingest", *files, "--db", str(db), "--quiet")
    samples, took = watch(lichess_elo("db", "rate", "--db", str(db)))
    print(eta_report(f"db rate ({games:,} games, {months} month(s))", samples, took))
    _fresh(db)


def main() -> None:
    """Run the month at each size, fit, project; or watch the bars with ``--progress``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="5000000,10000000,20000000", help="games, 3 sizes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="keep the generated months here and reuse them (outside the repository; "
        "default: a temporary directory, removed)",
    )
    parser.add_argument(
        "--spark-size",
        default="",
        help="games for the Spark runs, one size or two (N1,N2: fixed and per-game costs)",
    )
    parser.add_argument("--executor-cores", type=int, default=64, help="the cluster's cores")
    add_package_options(parser)
    parser.add_argument("--progress", action="store_true", help="check the bars' ETAs")
    parser.add_argument("--progress-months", type=int, default=1)
    args = parser.parse_args()
    sizes = sorted(int(v) for v in args.sizes.split(","))
    if len(set(sizes)) < 2:
        parser.error("--sizes: give two sizes or more to fit a growth")
    spark_sizes = [int(v) for v in args.spark_size.split(",") if v]
    if any(n > 1_000_000 for n in spark_sizes):
        parser.error("--spark-size: at most 1000000 (Spark in local mode is slow)")
    print(machine())
    SRC[0] = package_of(args)
    with tempfile.TemporaryDirectory(dir=args.data.parent if args.data else None) as tmp:
        work = args.data or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        if args.progress:
            progress(work, sizes[0], args.seed, args.progress_months)
            return
        results = []
        for games in sizes:
            results.append(run_size(work, games, args.seed, keep=args.data is not None))
            print(_table(results[-1:]), flush=True)
        print("\nAll sizes:")
        print(_table(results))
        spark = [run_spark(work, n, args.seed) for n in spark_sizes]
        print()
        print(project(results, args, spark))


if __name__ == "__main__":
    main()
