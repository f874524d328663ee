"""Every source an edition cites exists, has an address, and is listed in docs/rules.md."""

from __future__ import annotations

import pytest

from lichess_elo.core import fide
from tests.helpers import REPO

RULES_MD = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("edition", fide.EDITIONS, ids=lambda e: e.key)
def test_every_edition_names_its_sources(edition: fide.Edition) -> None:
    assert edition.sources, f"{edition.key} cites nothing"
    for source in edition.source_list:
        assert source.url.startswith("http"), source.key
        assert source.section, source.key
        assert f"[{source.key}]" in RULES_MD, f"{source.key} is not in docs/rules.md"


@pytest.mark.parametrize("adjustment", fide.ADJUSTMENTS, ids=lambda a: a.key)
def test_every_adjustment_names_its_sources(adjustment: fide.Adjustment) -> None:
    for key in adjustment.sources:
        assert key in fide.SOURCES and f"[{key}]" in RULES_MD


def test_each_edition_is_listed_in_the_docs_table() -> None:
    # the table's first column: "1 Oct 2022 | rapid-blitz" (bold where it is new)
    for edition in fide.EDITIONS:
        day = f"{edition.effective_from.day} {edition.effective_from:%b %Y}"
        rows = [
            line
            for line in RULES_MD.splitlines()
            if line.startswith("|") and day in line and f"| {edition.chapter} |" in line
        ]
        assert rows, f"{edition.key} is not in the editions table of docs/rules.md"
