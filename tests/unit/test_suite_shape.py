"""The suite's own structure (issue #21): no test module imports another test module;
what tests share lives in helper modules (``tests/helpers.py``, ``db_rated.py``, ...)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _imported(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


def test_no_test_module_imports_another() -> None:
    modules = sorted(TESTS.rglob("*.py"))
    assert len(modules) > 50  # the scan sees the suite
    found = [
        f"{path.relative_to(TESTS)} imports {name}"
        for path in modules
        for name in _imported(path)
        if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")
    ]
    assert found == []
