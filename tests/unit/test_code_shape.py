"""The shape of the code: no command body over 40 lines, and no module past a hard bound.

About 400 lines is a guide for a module, not a rule: a module holds one concern, and its
cohesion wins over its length (``docs/design.md``). The test holds only the hard bound of
600 lines, past which a module has always turned out to hold more than one concern.

A command body is the statements of a ``cli/`` function registered as a command (decorated
``@….command(...)`` or named ``*_command``/``*_cmd``), after its docstring: the parsing of
the options is in the signature, the work in ``app/`` and the printing in ``output/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "lichess_elo"
MAX_MODULE_LINES = 600
MAX_COMMAND_BODY = 40


def body_lines(function: ast.FunctionDef) -> int:
    """Lines from the first statement after the docstring to the last one."""
    body = function.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and len(body) > 1:
        body = body[1:]
    end = body[-1].end_lineno or body[-1].lineno
    return end - body[0].lineno + 1


def is_command(function: ast.FunctionDef) -> bool:
    """Whether ``function`` is a typer command (by its decorator or its name)."""
    for decorator in function.decorator_list:
        call = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(call, ast.Attribute) and call.attr == "command":
            return True
    return function.name.endswith(("_command", "_cmd"))


def commands(tree: ast.AST) -> list[ast.FunctionDef]:
    """Every command function of a module."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and is_command(n)]


def test_no_module_is_past_the_hard_bound() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in sorted(SRC.rglob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_command_body_is_over_40_lines() -> None:
    found = []
    for path in sorted((SRC / "cli").glob("*.py")):
        for function in commands(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(function.name)
            if (n := body_lines(function)) > MAX_COMMAND_BODY:
                pytest.fail(f"{path.name}: {function.name} has a {n}-line body")
    # The scan sees the commands (report, fetch, games, calc, glicko, club and db's).
    assert {"report_command", "club_command", "calc_command", "rate_cmd"} <= set(found)


def test_the_measures_count_what_they_say() -> None:
    source = '''
@app.command("x")
def x_cmd(a: int) -> None:
    """Doc."""
    one = 1
    two = (
        2
    )
    print(one, two)


def helper() -> None:
    pass
'''
    tree = ast.parse(source)
    found = commands(tree)
    # One command (the decorated one; helper is neither decorated nor named so); its body
    # is lines 5..9 of the source (``one = 1`` to ``print``): 5 lines, the docstring left out.
    assert [f.name for f in found] == ["x_cmd"]
    assert body_lines(found[0]) == 5
