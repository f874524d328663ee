"""``report --view accuracy --html``: the page opens on the scorecard (issue #40).

The page is made by the real command over the bundled OnBoard247 cassette; what the reader
sees first is measured in headless Chromium at a laptop's and a phone's size.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.runners import run_cli

pytestmark = pytest.mark.browser

CASSETTE = "cassettes/onboard247.yaml"


@pytest.fixture(scope="module")
def accuracy_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The OnBoard247 blitz page of ``--view accuracy``."""
    folder = tmp_path_factory.mktemp("accuracy")
    page = folder / "accuracy.html"
    made = run_cli(
        "report", "OnBoard247", "--replay", CASSETTE, "--perf", "blitz", "--view", "accuracy",
        "--quiet", "--html", str(page), env={"LICHESS_ELO_CACHE_DIR": str(folder / "cache")},
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return page


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_the_accuracy_page_opens_on_the_scorecard(
    accuracy_page: Path, open_page: Any, width: int, height: int, tmp_path: Path
) -> None:
    opened = open_page(accuracy_page, width=width, height=height)
    assert opened.errors == []
    page = opened.page
    page.screenshot(path=str(tmp_path / f"accuracy-{width}.png"))
    # the scorecard's heading is on the first screen, and it comes before the perf's section
    top = page.locator("#scorecard h2").bounding_box()
    assert top is not None and top["y"] < height / 2
    assert "Scorecard" in page.locator("#scorecard h2").inner_text()
    order = page.evaluate(
        "[...document.querySelectorAll('#scorecard, section.perf')].map(s => s.id)"
    )
    assert order == ["scorecard", "perf-blitz"]
    # the scorecard is not said twice: the perf's section links back to it instead
    assert page.locator("section.perf table").count() >= 1
    assert page.locator("section.perf a[href='#scorecard-perf-blitz']").count() == 1
    # its verdict table is there: the scores of each contender
    assert page.locator("#scorecard-perf-blitz table").count() >= 2
