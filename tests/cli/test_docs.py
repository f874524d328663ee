"""The README and docs/ hold together: the README stays short, every
relative link of the README, docs/*.md and the CHANGELOG leads to a file and heading that
exist, every docs page is in both indexes, and docs/options.md names every option the
program has, under its command."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
import typer

from lichess_elo.cli import app
from tests.helpers import REPO, heading_slug, markdown_anchors

DOCS = REPO / "docs"
PAGES = [REPO / "README.md", REPO / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _outside_code(text: str) -> str:
    """``text`` without its fenced blocks and inline code (links there are not links)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    return re.sub(r"`[^`\n]*`", "", text)


def test_slug_follows_github() -> None:
    # GitHub's own anchors for two headings of these pages
    assert heading_slug("The report as a page (`--html`)") == "the-report-as-a-page---html"
    since = "--since-and---until-what-is-fetched"
    assert heading_slug("`--since` and `--until`: what is fetched") == since


def test_the_readme_is_short() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 600


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(REPO).as_posix() for p in PAGES])
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in _LINK.findall(_outside_code(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file}")
        elif anchor and file.suffix == ".md" and anchor not in markdown_anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not broken, "\n".join(broken)


def test_every_docs_page_is_in_both_indexes() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        if page.name == "README.md":
            continue
        assert f"](docs/{page.name})" in readme, page.name
        assert f"]({page.name})" in index, page.name


def _commands() -> list[tuple[str, click.Command]]:
    root = typer.main.get_command(app)
    found: list[tuple[str, click.Command]] = []

    def walk(command: click.Command, name: str) -> None:
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for sub in command.list_commands(ctx):
                child = command.get_command(ctx, sub)
                assert child is not None
                walk(child, f"{name} {sub}".strip())
        else:
            found.append((name, command))

    walk(root, "")
    return found


def _section(text: str, name: str) -> str:
    start = text.index(f"\n## `{name}`\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else len(text)]


def test_options_page_names_every_option_under_its_command() -> None:
    text = (DOCS / "options.md").read_text(encoding="utf-8")
    commands = _commands()
    assert {"report", "club", "db rate", "db compare"} <= {name for name, _ in commands}
    missing = []
    for name, command in commands:
        section = _section(text, name.split()[0])
        if name.startswith("db "):
            row = next(ln for ln in section.splitlines() if ln.startswith(f"| `{name}"))
            section = row
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                for opt in param.opts + param.secondary_opts:
                    if opt not in ("--help", "-h") and f"`{opt}" not in section:
                        missing.append(f"{name} {opt}")
    start = text.index("\n## Global options\n")
    global_options = text[start : text.index("\n## ", start + 1)]
    for param in typer.main.get_command(app).params:
        for opt in param.opts:
            if f"`{opt}" not in global_options:
                missing.append(f"lichess-elo {opt}")
    assert not missing, "\n".join(missing)


#: A docs page, and maybe a heading, as a docstring or comment of the package names it.
_DOCS_NAMED = re.compile(r"docs/([A-Za-z0-9_.-]+\.md)(?:#([A-Za-z0-9_-]+))?")
SOURCES = sorted((REPO / "src" / "lichess_elo").rglob("*.py"))


def test_every_docs_page_and_heading_the_code_names_exists() -> None:
    named = 0
    problems = []
    for path in SOURCES:
        for page, anchor in _DOCS_NAMED.findall(path.read_text(encoding="utf-8")):
            named += 1
            where = path.relative_to(REPO).as_posix()
            if not (DOCS / page).exists():
                problems.append(f"{where}: no docs/{page}")
            elif anchor and anchor not in markdown_anchors(DOCS / page):
                problems.append(f"{where}: no heading #{anchor} in docs/{page}")
    assert named > 20  # the scan sees the references (27 when this test was written)
    assert not problems, "\n".join(problems)


def test_the_code_sends_readers_to_docs_not_to_the_readme() -> None:
    # the README is for newcomers: reference text lives in docs/, and docstrings say where
    mentions = [
        f"{path.relative_to(REPO).as_posix()}:{number}"
        for path in SOURCES
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "README" in line
    ]
    assert not mentions, mentions
