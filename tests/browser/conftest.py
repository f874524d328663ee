"""Fixtures for the page tests: Debian's headless Chromium driven by playwright.

The browser is the system's (``/usr/bin/chromium``, or ``LICHESS_ELO_CHROMIUM``); no
browser is ever downloaded. Without it the tests skip, except under
``LICHESS_ELO_REQUIRE_BROWSER=1`` (``.ci/run`` sets it), where they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("LICHESS_ELO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
_REQUIRED = os.environ.get("LICHESS_ELO_REQUIRE_BROWSER") == "1"
#: Chromium's switches: headless, no sandbox (root in CI), and nothing of its own on the
#: network (no updates, sync, QUIC or background fetches) so every request is the page's.
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None  # type: ignore[assignment]

_MISSING = (
    "the playwright package is not installed"
    if sync_playwright is None
    else None
    if Path(CHROMIUM).is_file()
    else f"no Chromium at {CHROMIUM}"
)
if _MISSING and _REQUIRED:
    raise RuntimeError(f"LICHESS_ELO_REQUIRE_BROWSER=1 but {_MISSING}")


@dataclass
class Opened:
    """A page opened from a file, with what it logged and asked for."""

    page: Any
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    @property
    def network(self) -> list[str]:
        """Every request that is not the page's own file."""
        return [url for url in self.requests if not url.startswith("file://")]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole run."""
    if _MISSING:
        pytest.skip(_MISSING)
    assert sync_playwright is not None
    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """``open_page(path, width=1280)``: the page at ``path`` as a ``file://`` URL, loaded,
    with its console errors, page errors and requests recorded."""
    contexts = []

    def opener(path: Path, width: int = 1280, height: int = 900) -> Opened:
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        opened = Opened(page)
        page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: opened.errors.append(str(e)))
        page.on("request", lambda r: opened.requests.append(r.url))
        page.goto(path.resolve().as_uri())
        page.wait_for_load_state("load")
        return opened

    yield opener
    for context in contexts:
        context.close()
