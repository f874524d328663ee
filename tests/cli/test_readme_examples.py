"""Every ``$ lichess-elo ...`` example of the README prints what the README shows.

The examples run as a user would type them, from the repository's root, on a pipe, with an
empty cache (``scripts/readme_examples.py`` finds and runs them; ``--write`` refreshes them
after a deliberate change of the output).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO

_SPEC = importlib.util.spec_from_file_location(
    "readme_examples", REPO / "scripts" / "readme_examples.py"
)
assert _SPEC is not None and _SPEC.loader is not None
readme_examples = importlib.util.module_from_spec(_SPEC)
sys.modules["readme_examples"] = readme_examples  # dataclasses look their module up
_SPEC.loader.exec_module(readme_examples)

EXAMPLES = readme_examples.examples((REPO / "README.md").read_text(encoding="utf-8"))


def test_the_readme_has_an_example_of_each_command() -> None:
    commands = {e.command.split()[1] for e in EXAMPLES}
    assert {"report", "fetch", "games", "calc", "glicko", "club"} <= commands


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.command[:80] for e in EXAMPLES])
def test_readme_example_prints_what_the_readme_shows(example: object, tmp_path: Path) -> None:
    printed = readme_examples.run(example.command, tmp_path)  # type: ignore[attr-defined]
    assert printed == example.shown  # type: ignore[attr-defined]
