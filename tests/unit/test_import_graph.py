"""The package's modules import one another without a cycle, counting every
import statement: at the top, inside a function (a lazy import), and under
``if TYPE_CHECKING:`` (a type-only import is a cycle all the same to a reader and to a
refactoring). Built from the source with ``ast``, nothing imported.

An edge goes from a module to the module it names: ``from pkg import name`` names the
submodule ``pkg.name`` when there is one, else ``pkg`` itself. The implicit import of a
package's ``__init__`` on the way to its submodule is not an edge (every package would
otherwise be a cycle with its own submodules).

The same scan checks the layers (``shared/ARCHITECTURE.md``): ``core``
imports nothing of ``sources``, ``app``, ``output`` or ``cli``; ``sources`` nothing of
``app``, ``output`` or ``cli``; ``app`` nothing of ``output`` or ``cli``; ``output`` nothing
of ``cli``, and of ``app`` and ``sources`` only the types of the plain data they return,
under ``if TYPE_CHECKING:`` (never the ``db`` runners or use cases); ``errors``, like
``core``, nothing of the others. And no module imports a private name of another
(``from x import _name``; a dunder is no private name)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Import:
    """One name an import statement takes from the package: the module it names, the name
    taken (``None`` for ``import x`` or a submodule), whether it sits under
    ``if TYPE_CHECKING:``, and its line."""

    target: str
    name: str | None
    type_only: bool
    line: int


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(tree: ast.AST) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement of ``tree`` (nested ones too), and whether it is type-only."""
    found: list[tuple[ast.Import | ast.ImportFrom, bool]] = []
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, type_only = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append((node, type_only))
            continue
        if isinstance(node, ast.If) and _type_checking(node.test):
            stack.extend((child, True) for child in node.body)
            stack.extend((child, type_only) for child in node.orelse)
            continue
        stack.extend((child, type_only) for child in ast.iter_child_nodes(node))
    return found


def imports_of(
    name: str, path: Path, package: bool, modules: dict[str, tuple[Path, bool]]
) -> list[Import]:
    """What the module ``name`` (file ``path``) imports of the package."""
    here = name if package else name.rpartition(".")[0]
    out: list[Import] = []
    for node, type_only in _statements(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "lichess_elo":
                    owner = _owner(alias.name, modules)
                    if owner is not None:
                        out.append(Import(owner, None, type_only, node.lineno))
            continue
        base = node.module or ""
        if node.level:
            parts = here.split(".")
            head = ".".join(parts[: len(parts) - node.level + 1])
            base = f"{head}.{base}" if base else head
        if base.split(".")[0] != "lichess_elo":
            continue
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in modules:
                out.append(Import(sub, None, type_only, node.lineno))
            else:
                owner = _owner(base, modules)
                if owner is not None:
                    out.append(Import(owner, alias.name, type_only, node.lineno))
    return sorted(out, key=lambda i: i.line)


def import_graph(modules: dict[str, tuple[Path, bool]]) -> dict[str, set[str]]:
    """Each module -> the package modules its import statements name."""
    return {
        name: {i.target for i in imports_of(name, path, package, modules) if i.target != name}
        for name, (path, package) in modules.items()
    }


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
    assert "lichess_elo.sources.cache.http" in graph["lichess_elo.sources.lichess.session"]
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


# --- layers and private names ----------------------------------------------------------------

#: Layer -> the layers it may never import (a layer is ``lichess_elo.<first part>``).
FORBIDDEN: dict[str, frozenset[str]] = {
    "core": frozenset({"sources", "app", "output", "cli"}),
    "errors": frozenset({"sources", "app", "output", "cli"}),
    "sources": frozenset({"app", "output", "cli"}),
    "app": frozenset({"output", "cli"}),
    "output": frozenset({"cli"}),
}
#: Layers ``output`` may import only under ``if TYPE_CHECKING:`` (the types of plain data).
TYPE_ONLY: dict[str, frozenset[str]] = {"output": frozenset({"app", "sources"})}
#: What ``output`` never imports, not even for its types: the ``db`` runners and use cases.
NEVER_FROM_OUTPUT = ("lichess_elo.sources.population", "lichess_elo.app.db")


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _private(name: str | None) -> bool:
    return name is not None and name.startswith("_") and not name.startswith("__")


def layer_faults(modules: dict[str, tuple[Path, bool]]) -> list[str]:
    """Every import that breaks the layer rules, as ``module:line -> target`` and why."""
    faults: list[str] = []
    for name, (path, package) in sorted(modules.items()):
        layer = _layer(name)
        for i in imports_of(name, path, package, modules):
            target = _layer(i.target)
            where = f"{name}:{i.line} -> {i.target}"
            if target in FORBIDDEN.get(layer, ()):
                faults.append(f"{where} ({layer} never imports {target})")
            elif target in TYPE_ONLY.get(layer, ()) and not i.type_only:
                faults.append(f"{where} ({layer} imports {target} only for types)")
            if layer == "output" and i.target.startswith(NEVER_FROM_OUTPUT):
                faults.append(f"{where} (output imports no db runner or use case)")
    return faults


def private_imports(modules: dict[str, tuple[Path, bool]]) -> list[str]:
    """Every ``from x import _name`` of another module, as ``module:line -> x._name``."""
    return [
        f"{name}:{i.line} -> {i.target}.{i.name}"
        for name, (path, package) in sorted(modules.items())
        for i in imports_of(name, path, package, modules)
        if _private(i.name) and i.target != name
    ]


def _scan(tmp_path: Path, files: dict[str, str]) -> dict[str, tuple[Path, bool]]:
    """A small made-up package ``lichess_elo`` under ``tmp_path`` with ``files``."""
    found: dict[str, tuple[Path, bool]] = {}
    for dotted, text in files.items():
        package = dotted.endswith(".__init__")
        path = tmp_path / (dotted.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        found[dotted.removesuffix(".__init__")] = (path, package)
    return found


def test_the_layer_and_private_scans_catch_what_they_forbid(tmp_path: Path) -> None:
    modules = _scan(
        tmp_path,
        {
            "lichess_elo.__init__": "",
            "lichess_elo.core.__init__": "",
            "lichess_elo.core.a": "from lichess_elo.sources.b import thing\n",
            "lichess_elo.sources.__init__": "",
            "lichess_elo.sources.b": "from lichess_elo.core.a import _hidden, __doc__\n",
            "lichess_elo.app.__init__": "",
            "lichess_elo.app.db": "thing = 1\n",
            "lichess_elo.output.__init__": "",
            "lichess_elo.output.c": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from lichess_elo.app.db import thing\n"
                "def f():\n    from lichess_elo.sources import b\n"
            ),
            "lichess_elo.output.d": "from lichess_elo.output.c import _own\n",
        },
    )
    assert layer_faults(modules) == [
        "lichess_elo.core.a:1 -> lichess_elo.sources.b (core never imports sources)",
        "lichess_elo.output.c:3 -> lichess_elo.app.db (output imports no db runner or use case)",
        "lichess_elo.output.c:5 -> lichess_elo.sources.b (output imports sources only for types)",
    ]
    # a dunder is no private name; a private name of the module's own package's other
    # module is one (output.d takes output.c's)
    assert private_imports(modules) == [
        "lichess_elo.output.d:1 -> lichess_elo.output.c._own",
        "lichess_elo.sources.b:1 -> lichess_elo.core.a._hidden",
    ]


def test_the_package_keeps_its_layers() -> None:
    assert layer_faults(_modules()) == []


def test_no_module_imports_a_private_name_of_another() -> None:
    assert private_imports(_modules()) == []
