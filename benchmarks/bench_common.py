"""What the benchmarks share: the whole-command runner, the baselines, the fake server child.

Not a benchmark itself. ``run_whole`` runs one command as a user types it, in a fresh
process (``lichess-elo ...``, its output into a file), and measures its wall time, its CPU
time and peak RSS (``os.wait4``: the child and every descendant it waited for) and the load
average when it started; ``interleaved`` runs a command and its baseline in turn, so both
see the same load, and ``table`` gives min and median and the ratios, min to min.

``BARE_LOOP`` is the baseline of the report's figures, as a whole process; ``bare_loop`` is
the same loop in-process (for the diagnosis benchmarks): a fresh ``chess.Board`` and
``Board.push_san`` for every move of every game, nothing else. ``serve`` runs the fake
Lichess server (tests/fake_lichess.py) in a child process holding ``BenchUser``'s
generated games, so the client's figures are its own.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "src"), str(REPO / "benchmarks")]

import chess  # noqa: E402

# A user's install has the package's bytecode (pip compiles it; a checkout writes it on its
# first run). A PYTHONDONTWRITEBYTECODE=1 shell would make every timed `lichess-elo` compile
# its modules again (0.3-0.4 s of CPU for a report), which the baselines, whose packages are
# compiled in site-packages, never pay: so the children may write bytecode, and the package
# is compiled once here, before any run is timed.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
compileall.compile_dir(REPO / "src" / "lichess_elo", quiet=1)

USER = "BenchUser"
START = datetime(2021, 1, 1, tzinfo=UTC)


def bare_loop(move_lists: Iterable[Iterable[str]]) -> None:
    """The baseline: push every SAN move on a fresh board, nothing else."""
    for moves in move_lists:
        board = chess.Board()
        push_san = board.push_san
        for san in moves:
            push_san(san)


def _serve(n: int, seed: int, port_queue: Any) -> None:
    """Child process: serve ``BenchUser``'s ``n`` generated games until terminated."""
    from gen_games import generate_games
    from tests.fake_lichess import FakeLichess

    server = FakeLichess()
    server.add_user(USER, START, generate_games(n, seed=seed, user=USER))
    server.start()
    port_queue.put(server.url)
    while True:
        time.sleep(3600)


@contextmanager
def serve(n: int, seed: int = 0) -> Iterator[str]:
    """The URL of a fake Lichess server (a child process) holding ``n`` games."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    child = ctx.Process(target=_serve, args=(n, seed, queue), daemon=True)
    child.start()
    try:
        yield str(queue.get(timeout=600))
    finally:
        child.terminate()
        child.join()


# --- Whole commands -------------------------------------------------------------------
# The figures that count: every command run as a user types it, in a fresh
# process, against a baseline that is itself a fresh process doing the bare work, timed in
# the same run, the two interleaved. Ratios only, with the load average beside each.


@dataclass(frozen=True)
class Run:
    """One whole process: wall and CPU seconds (user + system, with every descendant it
    waited for, such as a pool's workers), peak resident set (MB) and the 1-minute load
    average when it started."""

    wall: float
    cpu: float
    rss_mb: float
    load: float


def lichess_elo(*args: str) -> list[str]:
    """The command line ``lichess-elo ARGS``: the console script installed beside this
    interpreter (``python -m lichess_elo`` where there is none)."""
    script = Path(sys.executable).with_name("lichess-elo")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "lichess_elo", *args]


#: The process that starts every measured command (see ``run_whole``): a small Python
#: that reads one request a line (argv, env, stdout file) and answers with the wait4 figures.
_LAUNCHER_CODE = r"""
import json, os, subprocess, sys, time
for line in sys.stdin:
    req = json.loads(line)
    with open(req["stdout"], "wb") as out:
        start = time.perf_counter()
        child = subprocess.Popen(req["argv"], stdout=out, stderr=subprocess.PIPE, env=req["env"])
        errors = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    child.stderr.close()
    print(json.dumps({"code": os.waitstatus_to_exitcode(status), "wall": wall,
                      "cpu": usage.ru_utime + usage.ru_stime, "maxrss": usage.ru_maxrss,
                      "errors": errors.decode(errors="replace")[-800:]}), flush=True)
"""
_launcher: subprocess.Popen[str] | None = None


def _launch(command: list[str], env: dict[str, str], stdout: str) -> dict[str, Any]:
    """Run ``command`` from the launcher process and return its figures.

    Why a launcher: Linux carries a process's peak RSS across ``exec`` from the process it
    was forked from, so a command forked straight from this script (which may hold a large
    history while it benchmarks) would report this script's size as its own peak. The
    launcher is a small, freshly started Python, so its children's peaks are their own.
    """
    import json

    global _launcher
    if _launcher is None or _launcher.poll() is not None:
        _launcher = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER_CODE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
    assert _launcher.stdin is not None and _launcher.stdout is not None
    _launcher.stdin.write(json.dumps({"argv": command, "env": env, "stdout": stdout}) + "\n")
    _launcher.stdin.flush()
    answer: dict[str, Any] = json.loads(_launcher.stdout.readline())
    return answer


def _installed() -> bool:
    """Whether this interpreter imports ``lichess_elo`` from this repository without a
    ``PYTHONPATH`` (``pip install -e .``, or ``pip install .`` of it)."""
    code = "import importlib.util as u; s = u.find_spec('lichess_elo'); print(s is not None)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd="/", check=False
    )
    return found.stdout.strip() == "True"


def run_whole(argv: Sequence[str], stdout: Path | None = None, src: Path | None = None) -> Run:
    """Run ``argv`` (a list, or one string for ``sh -c``) in a fresh process, its output
    into ``stdout`` (a file, like ``> out.json``) or /dev/null; fails loudly if it fails.
    ``src`` is another checkout's package source, put first on ``PYTHONPATH`` for a
    before-and-after figure; without it the command runs the installed package with no
    ``PYTHONPATH``, as a user types it (a ``PYTHONPATH`` entry is searched before the
    standard library for every import: about 7 % of ``--help``'s CPU), and this repository's
    ``src`` is added only when the package is not installed. The process is started by a
    small launcher (``_launch``), so its peak RSS is its own, not this script's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LICHESS", "COLUMNS"))}
    env.pop("PYTHONPATH", None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    elif not _installed():
        env["PYTHONPATH"] = str(REPO / "src")
    command = ["sh", "-c", argv] if isinstance(argv, str) else list(argv)
    load = os.getloadavg()[0]
    got = _launch(command, env, str(stdout or os.devnull))
    if got["code"] != 0:
        raise SystemExit(f"{' '.join(command)} failed: {got['errors']}")
    return Run(got["wall"], got["cpu"], got["maxrss"] / 1024, load)


def python_child(code: str, *args: str) -> list[str]:
    """The command line running ``code`` in a fresh interpreter (a baseline)."""
    return [sys.executable, "-c", code, *args]


#: The bare python-chess loop as a whole process: one game a line, its SAN moves.
BARE_LOOP = """
import sys, chess
for line in open(sys.argv[1]):
    push_san = chess.Board().push_san
    for san in line.split():
        push_san(san)
"""


def write_moves(games: Iterable[dict[str, Any]], path: Path) -> Path:
    """Write the generated games' moves for ``BARE_LOOP``: one game a line."""
    path.write_text("".join(g["moves"] + "\n" for g in games))
    return path


def interleaved(repeat: int, cases: dict[str, Callable[[], Run]]) -> dict[str, list[Run]]:
    """``repeat`` rounds of every case in turn (so all see the same load)."""
    runs: dict[str, list[Run]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, case in cases.items():
            runs[name].append(case())
    return runs


def machine() -> str:
    """The machine, for the figures' heading."""
    loads = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return (
        f"{os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}, load average now {loads} (1, 5, 15 min)"
    )


def table(runs: dict[str, list[Run]], baseline: str, targets: dict[str, float]) -> str:
    """Each case's min and median wall and CPU, its ratios to ``baseline`` (min to min),
    its peak RSS and the median load average at its starts; ``targets`` gives the highest
    ratio allowed for a case, checked on its CPU ratio and its wall ratio."""
    base = runs[baseline]
    bw, bc = min(r.wall for r in base), min(r.cpu for r in base)
    head = f"{'command':<44}{'wall':>7}{'(med)':>7}{'CPU':>7}{'(med)':>7}"
    lines = [head + f"{'x wall':>8}{'x CPU':>8}{'RSS MB':>8}{'load':>6}  target"]
    for name, rs in runs.items():
        wall, cpu = min(r.wall for r in rs), min(r.cpu for r in rs)
        goal = targets.get(name)
        verdict = ""
        if goal is not None:
            met = [what for what, x in (("wall", wall / bw), ("CPU", cpu / bc)) if x <= goal]
            verdict = f"<= {goal}x: " + (f"met ({', '.join(met)})" if met else "MISSED")
        lines.append(
            f"{name:<44}{wall:>7.2f}{statistics.median(r.wall for r in rs):>7.2f}"
            f"{cpu:>7.2f}{statistics.median(r.cpu for r in rs):>7.2f}"
            f"{wall / bw:>8.3f}{cpu / bc:>8.3f}{max(r.rss_mb for r in rs):>8.0f}"
            f"{statistics.median(r.load for r in rs):>6.2f}  {verdict}"
        )
    return "\n".join(lines)


def load_script(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module (the generators are scripts run by path, not a
    package), registered under ``NAME``."""
    path = Path(__file__).resolve().parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def add_package_options(parser: argparse.ArgumentParser) -> None:
    """``--src DIR`` (the package source the commands run; default this checkout's src)
    and ``--installed`` (the installed package), read back by ``package_of``."""
    parser.add_argument(
        "--src",
        type=Path,
        default=REPO / "src",
        help="the package source the commands run (default: this checkout's src)",
    )
    parser.add_argument("--installed", action="store_true", help="run the installed package")


def package_of(args: argparse.Namespace) -> Path | None:
    """The source folder ``add_package_options`` chose (``None``: the installed package);
    printed as the run's ``package:`` line."""
    src: Path | None = None if args.installed else args.src.resolve()
    print(f"package: {src or 'installed'}")
    return src
