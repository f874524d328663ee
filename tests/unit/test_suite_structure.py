"""The suite's own structure, checked on the source of every module in
tests/ (ast, no import):

* the CLI runs through tests/runners.py only (the ``cli``, ``subprocess_cli`` and
  ``pty_cli`` fixtures): no other module builds a ``CliRunner``, opens a pseudo-terminal or
  starts ``python -m lichess_elo`` / ``lichess-elo`` in a subprocess;
* no test module imports another test module (or a conftest): what tests share lives in
  helper modules (``tests/helpers.py``, ``tests/integration/db_rated.py``, ...);
* no test depends on a wall-clock budget: no hypothesis ``deadline`` but ``None`` (the
  root conftest's profile turns the default 200 ms one off), no ``assert`` on a reading of
  the clock. A bounded *wait* (``while ... and time.monotonic() < deadline``, then an
  assertion on what was waited for) is no budget and passes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import hypothesis
import pytest

TESTS = Path(__file__).resolve().parents[1]
#: The shared runners: the one place allowed to start the program.
RUNNERS = {"runners.py", "terminal.py"}
#: Clock readings (``time.X()``) an assertion may not compare.
CLOCKS = {"time", "monotonic", "perf_counter", "process_time"}
CLOCKS |= {f"{name}_ns" for name in CLOCKS}
#: Deliberate exceptions, ``"path: finding"`` → why it is fine. None today.
ALLOWED: dict[str, str] = {}


def _modules() -> list[Path]:
    modules = sorted(TESTS.rglob("*.py"))
    assert len(modules) > 50  # the scan sees the suite
    return modules


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _name(node: ast.AST) -> str:
    """``a.b.c`` for a name or attribute chain, else ``""``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""


def _strings(node: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _assigned(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Every value assigned to each plain name in the module (any scope)."""
    values: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        values.setdefault(name.id, []).append(node.value)
        elif (
            isinstance(node, (ast.AnnAssign, ast.AugAssign))
            and node.value is not None
            and isinstance(node.target, ast.Name)
        ):
            values.setdefault(node.target.id, []).append(node.value)
    return values


def runner_findings(tree: ast.Module) -> list[str]:
    """Local CLI runners: a ``CliRunner(...)``, a pty opened, or a subprocess call whose
    arguments (or the names they are built from) name the program."""
    found: list[str] = []
    values = _assigned(tree)

    def names_program(node: ast.AST, seen: set[str]) -> bool:
        if _strings(node) & {"lichess_elo", "lichess-elo"}:
            return True
        for name in ast.walk(node):
            if isinstance(name, ast.Name) and name.id not in seen and name.id in values:
                seen.add(name.id)
                if any(names_program(value, seen) for value in values[name.id]):
                    return True
        return False

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = _name(node.func)
        last = called.rsplit(".", 1)[-1]
        if last == "CliRunner":
            found.append(f"line {node.lineno}: CliRunner()")
        elif called in {"pty.fork", "pty.openpty", "pty.spawn", "os.openpty", "os.forkpty"}:
            found.append(f"line {node.lineno}: {called}()")
        elif called.startswith(("subprocess.", "os.spawn", "os.exec", "os.system")) or last in {
            "Popen", "check_output", "check_call"
        }:  # fmt: skip
            args = [*node.args, *(k.value for k in node.keywords if k.arg in {"args", None})]
            if any(names_program(arg, set()) for arg in args):
                found.append(f"line {node.lineno}: {called}() of the program")
    return found


def import_findings(tree: ast.Module) -> list[str]:
    """Imports of a test module or a conftest."""

    def is_test(module: str) -> bool:
        last = module.rsplit(".", 1)[-1]
        return last.startswith("test_") or last == "conftest"

    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [module] if module else []
            names += [f"{module}.{a.name}" for a in node.names]  # from tests.cli import test_x
            found += [f"line {node.lineno}: {n}" for n in names if is_test(n.lstrip("."))]
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: {a.name}" for a in node.names if is_test(a.name)]
    return found


def clock_findings(tree: ast.Module) -> list[str]:
    """Wall-clock budgets: a ``deadline=`` other than ``None``; an ``assert`` on a clock
    reading or on a name computed from one."""
    values = _assigned(tree)

    def reads_clock(node: ast.AST, seen: set[str]) -> bool:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                called = _name(sub.func)  # time.monotonic() or (imported) monotonic()
                clock = called.removeprefix("time.")
                if clock in CLOCKS and (clock != called or clock != "time"):
                    return True
            if isinstance(sub, ast.Name) and sub.id not in seen and sub.id in values:
                seen.add(sub.id)
                if any(reads_clock(value, seen) for value in values[sub.id]):
                    return True
        return False

    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "deadline":
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                found.append(f"line {node.value.lineno}: deadline={ast.unparse(node.value)}")
        elif isinstance(node, ast.Assert) and reads_clock(node.test, set()):
            found.append(f"line {node.lineno}: assert {ast.unparse(node.test)}")
    return found


def _all(check: object) -> list[str]:
    findings = [
        f"{path.relative_to(TESTS)}: {finding}"
        for path in _modules()
        if not (check is runner_findings and path.relative_to(TESTS).as_posix() in RUNNERS)
        for finding in check(_tree(path))  # type: ignore[operator]
    ]
    return [f for f in findings if f not in ALLOWED]


def test_no_module_but_the_runners_starts_the_cli() -> None:
    assert _all(runner_findings) == []


def test_no_test_module_imports_another() -> None:
    assert _all(import_findings) == []


def test_no_test_has_a_wall_clock_budget() -> None:
    assert _all(clock_findings) == []
    # the root conftest's hypothesis profile: no per-example deadline by default
    assert hypothesis.settings().deadline is None


def test_every_allowed_exception_is_still_found() -> None:
    found = set()
    for path in _modules():
        tree = _tree(path)
        for check in (runner_findings, import_findings, clock_findings):
            found |= {f"{path.relative_to(TESTS)}: {f}" for f in check(tree)}
    assert set(ALLOWED) <= found


# The checks themselves, on snippets they must catch (so an empty finding means something).
CAUGHT = [
    (runner_findings, "from typer.testing import CliRunner\nr = CliRunner()\n"),
    (runner_findings, "import os\nm, s = os.openpty()\n"),
    (runner_findings, "import pty\npty.fork()\n"),
    (runner_findings, "import subprocess, sys\n"
                      'subprocess.run([sys.executable, "-m", "lichess_elo"])\n'),
    (runner_findings, 'import subprocess\ncmd = ["lichess-elo", "db"]\nsubprocess.Popen(cmd)\n'),
    (import_findings, "from tests.cli.test_db_cli import _run\n"),
    (import_findings, "from tests.cli import test_db_cli\n"),
    (import_findings, "from tests.cli.conftest import REPO\n"),
    (import_findings, "import test_glicko\n"),
    (clock_findings, "@settings(deadline=500)\ndef test_x(): pass\n"),
    (clock_findings, "import time\nt = time.monotonic()\nassert time.monotonic() - t < 2\n"),
    (clock_findings, "from time import perf_counter\nt0 = perf_counter()\n"
                     "spent = perf_counter() - t0\nassert spent < 1\n"),
]  # fmt: skip
PASSED = [
    (runner_findings, 'import subprocess, sys\nsubprocess.run([sys.executable, "-c", "1"])\n'),
    (import_findings, "from tests.integration.db_helpers import game\n"),
    (clock_findings, "@settings(max_examples=9, deadline=None)\ndef test_x(): pass\n"),
    (clock_findings, "import time\nend = time.monotonic() + 60\n"
                     "while time.monotonic() < end: pass\nassert done\n"),
]  # fmt: skip


@pytest.mark.parametrize(("check", "source"), CAUGHT)
def test_the_checks_catch(check: object, source: str) -> None:
    assert check(ast.parse(source)) != []  # type: ignore[operator]


@pytest.mark.parametrize(("check", "source"), PASSED)
def test_the_checks_let_pass(check: object, source: str) -> None:
    assert check(ast.parse(source)) == []  # type: ignore[operator]
