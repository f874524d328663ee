"""The package's modules import one another without a cycle (issue #21), counting every
import statement: at the top, inside a function (a lazy import), and under
``if TYPE_CHECKING:`` (a type-only import is a cycle all the same to a reader and to a
refactoring). Built from the source with ``ast``, nothing imported.

An edge goes from a module to the module it names: ``from pkg import name`` names the
submodule ``pkg.name`` when there is one, else ``pkg`` itself. The implicit import of a
package's ``__init__`` on the way to its submodule is not an edge (every package would
otherwise be a cycle with its own submodules)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import REPO

SRC = REPO / "src"


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module of ``lichess_elo`` by dotted name, with its file and whether it is a
    package's ``__init__``."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted((SRC / "lichess_elo").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _owner(name: str, modules: dict[str, tuple[Path, bool]]) -> str | None:
    """The module ``name`` is, or the innermost module holding it (``pkg.mod.attr``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(modules: dict[str, tuple[Path, bool]]) -> dict[str, set[str]]:
    """Each module -> the package modules its import statements name."""
    graph: dict[str, set[str]] = {}
    for name, (path, package) in modules.items():
        here = name if package else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "lichess_elo":
                        targets.add(_owner(alias.name, modules))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")
                    head = ".".join(parts[: len(parts) - node.level + 1])
                    base = f"{head}.{base}" if base else head
                if base.split(".")[0] != "lichess_elo":
                    continue
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.add(sub if sub in modules else _owner(base, modules))
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its modules in order, the first repeated at the end), or
    ``None`` when it has none: a depth-first search without recursion."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for root in sorted(graph):
        if root in state:
            continue
        path = [root]
        stack = [iter(sorted(graph[root]))]
        state[root] = 1
        while stack:
            step = next(stack[-1], None)
            if step is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(step) == 1:
                return [*path[path.index(step) :], step]
            elif step not in state:
                state[step] = 1
                path.append(step)
                stack.append(iter(sorted(graph[step])))
    return None


def test_the_scan_sees_the_package_and_its_lazy_and_type_only_imports() -> None:
    modules = _modules()
    graph = import_graph(modules)
    assert len(modules) > 100
    # a top-level import, one inside a function and one under TYPE_CHECKING
    assert "lichess_elo.core.fide" in graph["lichess_elo.core.report.model"]
    assert "lichess_elo.sources.lichess.http_cache" in graph["lichess_elo.sources.lichess.session"]
    assert "lichess_elo.core.report.settings" in graph["lichess_elo.core.report.model"]
    # ``from lichess_elo import errors`` names the module, the root's lazy names their modules
    assert "lichess_elo.app.report" in graph["lichess_elo"]


@pytest.mark.parametrize(
    ("graph", "cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, None),  # a diamond is no cycle
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"b"}, "b": {"b2"}, "b2": {"b"}}, ["b", "b2", "b"]),
    ],
)
def test_find_cycle_on_small_graphs(graph: dict[str, set[str]], cycle: list[str] | None) -> None:
    assert find_cycle(graph) == cycle


def test_the_package_has_no_import_cycle() -> None:
    assert find_cycle(import_graph(_modules())) is None
