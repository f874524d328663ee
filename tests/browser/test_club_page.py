"""``club --html``: the ladder page and one player's own page in a real headless Chromium;
the numbers are the same run's ``--format json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import DATA
from tests.runners import run_cli

pytestmark = pytest.mark.browser

CLUB = DATA / "club"
ARGS = [str(CLUB / "players.csv"), str(CLUB / "games.csv"), "--config", str(CLUB / "club.toml")]


def _club(folder: Path, *extra: str) -> tuple[Path, Any]:
    page, doc = folder / "club.html", folder / "club.json"
    env = {"LICHESS_ELO_CACHE_DIR": str(folder / "cache")}
    made = run_cli("club", *ARGS, *extra, "--html", str(page), "--format", "json",
                   "--output", str(doc), "--quiet", env=env)  # fmt: skip
    assert made.returncode == 0, made.stderr
    return page, json.loads(doc.read_text("utf-8"))


def test_ladder_page(tmp_path: Path, open_page: Any) -> None:
    page_file, doc = _club(tmp_path)
    opened = open_page(page_file)
    assert opened.errors == [] and opened.network == []
    page = opened.page
    rows = page.locator(".standings tbody tr")
    assert rows.count() == len(doc["players"]) == 6
    for i, player in enumerate(doc["players"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        mark = "?" if player["provisional"] else ""
        assert cells[:3] == [str(i + 1), player["name"], f"{player['rating']}{mark}"]
        assert cells[4] == str(player["games"])
    awards = page.locator(".awards").inner_text()
    for award in doc["awards"]["progress"]:
        assert f"{award['period']} {award['name']} {award['change']:+d}" in awards
    # sorting by name puts the names in alphabetical order
    page.locator(".standings thead th").nth(1).click()
    names = page.locator(".standings tbody tr td:nth-child(2)").all_inner_texts()
    assert names == sorted(p["name"] for p in doc["players"])


def test_one_players_page_shows_only_that_player(tmp_path: Path, open_page: Any) -> None:
    page_file, doc = _club(tmp_path, "--player", "Ania Nowak")
    opened = open_page(page_file)
    assert opened.errors == [] and opened.network == []
    text = opened.page.locator("main").inner_text()
    assert doc["name"] == "Ania Nowak"
    assert f"Ania Nowak: {doc['rating']}, {doc['games']} games" in text
    assert f"Next target: {doc['target']['rating']}" in text
    rows = opened.page.locator(".history tbody tr")
    assert rows.count() == len(doc["history"])
    assert rows.last.locator("td").last.inner_text() == str(round(doc["history"][-1]["rating"]))
    for other in ("Bartek Lis", "Celina Wrona", "Dawid Sowa", "Ewa Kruk", "Filip Mazur"):
        assert other not in text
