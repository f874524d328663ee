"""Every ``$ lichess-elo ...`` example of the README and of ``docs/*.md`` prints what the page
shows.

The examples run as a user would type them, from the repository's root, on a pipe, with an
empty cache (``scripts/readme_examples.py`` finds and runs them; ``--write`` refreshes them
after a deliberate change of the output).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scripts import readme_examples

from tests.helpers import REPO

PAGES = readme_examples.documents()
EXAMPLES = [
    (page.relative_to(REPO).as_posix(), example)
    for page in PAGES
    for example in readme_examples.examples(page.read_text(encoding="utf-8"))
]


def test_the_pages_are_the_readme_and_every_docs_page() -> None:
    names = [page.relative_to(REPO).as_posix() for page in PAGES]
    assert names[0] == "README.md"
    assert {"docs/commands.md", "docs/club.md", "docs/options.md"} <= set(names)


def test_the_readme_has_an_example_of_each_command() -> None:
    commands = {
        e.command.split("lichess-elo ", 1)[1].split()[0]
        for page, e in EXAMPLES
        if page == "README.md"
    }
    assert {"report", "fetch", "games", "calc", "glicko", "club"} <= commands


def test_the_docs_keep_the_more_examples() -> None:
    # the examples that moved out of the README are still run: 4 of report, games --pgn,
    # 3 of calc, 2 of glicko, 3 of club
    in_docs = [e.command for page, e in EXAMPLES if page.startswith("docs/")]
    assert sum(c.startswith("lichess-elo report ") for c in in_docs) >= 3
    assert any("--pgn" in c and c.startswith("lichess-elo games ") for c in in_docs)
    assert any("--unrated" in c for c in in_docs)
    assert any("--player" in c for c in in_docs)
    assert any("cassettes/club-swiss.yaml" in c for c in in_docs)


@pytest.mark.parametrize(
    "example", [e for _, e in EXAMPLES], ids=[f"{p}: {e.command[:70]}" for p, e in EXAMPLES]
)
def test_example_prints_what_the_page_shows(example: object, tmp_path: Path) -> None:
    printed = readme_examples.run(example.command, tmp_path)  # type: ignore[attr-defined]
    assert printed == example.shown  # type: ignore[attr-defined]
