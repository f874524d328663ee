"""``club --html``: the ladder page and one player's own page in a real headless Chromium;
the numbers are the same run's ``--format json``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.club_pl import write_club
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


def _polish(folder: Path, *extra: str) -> Path:
    """The Polish club's page (tests/club_pl.py; its numbers are derived in
    tests/cli/test_club_polish.py)."""
    page = folder / "club.html"
    env = {"LICHESS_ELO_CACHE_DIR": str(folder / "cache")}
    made = run_cli("club", *write_club(folder), *extra, "--html", str(page), "--quiet", env=env)
    assert made.returncode == 0, made.stderr
    return page


def _shot(opened: Any, name: str) -> None:
    """A full-page screenshot into LICHESS_ELO_SCREENSHOTS (a folder), to look at."""
    folder = os.environ.get("LICHESS_ELO_SCREENSHOTS")
    if folder:
        opened.page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _visible(opened: Any, text: str) -> bool:
    """``text`` is on the page, inside the viewport's width (no sideways scroll to see it)."""
    box = opened.page.get_by_text(text, exact=True).first.bounding_box()
    width = opened.page.evaluate("window.innerWidth")
    return (
        box is not None and box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= width
    )


@pytest.mark.parametrize("width", [390, 1280])
def test_polish_player_page_fits_a_phone(tmp_path: Path, open_page: Any, width: int) -> None:
    opened = open_page(_polish(tmp_path, "--player", "Zosia"), width=width)
    _shot(opened, f"player-{width}")
    assert opened.errors == [] and opened.network == []
    page = opened.page
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("html").get_attribute("lang") == "pl"
    # Zosia after each event (tests/cli/test_club_polish.py): 1000, 1019, 1019
    cells = page.locator(".history tbody tr td:last-child")
    assert cells.all_inner_texts() == ["1000", "1019", "1019"]
    for i in range(cells.count()):
        box = cells.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    # at phone width each event is a card, its cells labelled in Polish
    label = cells.first.evaluate("td => getComputedStyle(td, '::before').content")
    assert label == ('"Ranking po"' if width == 390 else "none")
    assert _visible(opened, "Zmiana w ostatnich 3 miesiącach: +19")
    svg = page.locator("svg.club-chart")
    assert svg.count() == 1 and svg.bounding_box()["width"] <= width
    # the chart's points: the start, then the rating after each event
    assert page.locator("svg.club-chart .pl").all_text_contents() == [
        "1000",
        "1000",
        "1019",
        "1019",
    ]


@pytest.mark.parametrize("width", [390, 1280])
def test_polish_ladder_page_fits_a_phone(tmp_path: Path, open_page: Any, width: int) -> None:
    # The legend names the rules file by its path: an organiser's folder with a long name
    # without a break (72 characters here) must wrap, not widen the page.
    folder = tmp_path / (
        "Klub_Szachowy_UKS_Skoczek_sezon_2025_2026_turnieje_dla_dzieci_i_mlodziezy"
    )
    folder.mkdir()
    opened = open_page(_polish(folder), width=width)
    _shot(opened, f"ladder-{width}")
    assert opened.errors == [] and opened.network == []
    page = opened.page
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.title() == "UKS Skoczek: Ranking klubowy"
    assert page.locator("h1").inner_text() == "UKS Skoczek"
    # every rating of the standings is seen without a sideways scroll
    ratings = page.locator(".standings tbody tr td:nth-child(3)")
    assert ratings.all_inner_texts() == ["1219", "1200", "1181", "1020", "1019", "961"]
    for i in range(ratings.count()):
        box = ratings.nth(i).bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
    # the chart draws the top 5, named in the key under it
    assert page.locator(".club-figure .who li").count() == 5
    legend = page.locator("header .legend").inner_text()
    assert "Użyte K: dzieci 40; pozostali 20." in legend
    assert page.locator("header li").count() == 0
