"""``report NAME chess.com:OTHER --html``: the page of two accounts in a real headless
Chromium, made offline from the two bundled cassettes (OnBoard247 on Lichess, the recorded
month of FabianoCaruana on Chess.com): both parts are shown, each with its own chart and
tables, the page loads nothing from outside, and nothing overflows sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.runners import run_cli

pytestmark = pytest.mark.browser

CASSETTES = [
    "--replay", "cassettes/onboard247.yaml",
    "--replay", "cassettes/chesscom-fabianocaruana-2020-05.yaml",
]  # fmt: skip


@pytest.fixture(scope="module")
def two_sites(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of both accounts, every perf."""
    folder = tmp_path_factory.mktemp("two")
    page = folder / "two.html"
    env = {"LICHESS_ELO_CACHE_DIR": str(folder / "cache")}
    made = run_cli(
        "report", "OnBoard247", "chess.com:FabianoCaruana", *CASSETTES, "--perf", "blitz",
        "--quiet", "--html", str(page), env=env,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return page


@pytest.mark.parametrize("width", [390, 1280])
def test_both_parts_are_shown(two_sites: Path, open_page: Any, width: int) -> None:
    opened = open_page(two_sites, width=width, height=900)
    assert opened.errors == []
    assert opened.network == []
    page = opened.page
    for site, title in (
        ("lichess", "Lichess: OnBoard247"),
        ("chesscom", "Chess.com: FabianoCaruana"),
    ):
        part = page.locator(f"#site-{site}")
        part.scroll_into_view_if_needed()
        assert part.is_visible()
        assert part.locator("h2").first.inner_text() == title
        section = part.locator(f"#{site}-perf-blitz")
        section.scroll_into_view_if_needed()
        assert section.is_visible()
        assert section.locator(".chart .plot").first.is_visible()
    # each part's chart draws its own games: 130 Lichess blitz games, 8 Chess.com
    charts = page.locator(".chart")
    assert [charts.nth(i).get_attribute("data-games") for i in range(charts.count())] == [
        "130",
        "8",
    ]
    assert "No scorecard for Chess.com" in page.locator("#site-chesscom").inner_text()
    # the page itself never scrolls sideways (wide tables scroll inside their own box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
