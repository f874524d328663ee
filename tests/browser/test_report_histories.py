"""``report --html`` on histories the bundled data does not have: 20,000 games of one perf
(drawn from runs of games, with the note, and still hovered game by game) and a single
game. The games come from benchmarks/gen_games.py through a PGN file (no network)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.runners import run_cli

pytestmark = pytest.mark.browser


def _gen() -> ModuleType:
    from benchmarks import gen_games

    return gen_games


def _blitz_pgn(path: Path, n: int, user: str) -> None:
    """``n`` rated blitz games of ``user`` in one rating chain (each game's rating is the
    last one's plus its ratingDiff), oldest first."""
    gen = _gen()
    games = list(reversed(gen.generate_games(n, seed=11, user=user)))
    rating = 1500
    for g in games:
        g.update(speed="blitz", perf="blitz", rated=True)
        g["clock"] = {"initial": 180, "increment": 2, "totalTime": 260}
        white = g["players"]["white"]
        me = white if white.get("user", {}).get("name") == user else g["players"]["black"]
        me.pop("provisional", None)
        me["rating"] = rating
        me.setdefault("ratingDiff", 0)
        rating += me["ratingDiff"]
    path.write_text("".join(gen.to_pgn(g) for g in games), "utf-8")


def _make(folder: Path, n: int, user: str) -> tuple[Path, dict[str, Any]]:
    pgn, page, doc = folder / "games.pgn", folder / "page.html", folder / "doc.json"
    _blitz_pgn(pgn, n, user)
    env = {"LICHESS_ELO_CACHE_DIR": str(folder / "cache")}
    common = ["report", user, "--pgn", str(pgn), "--offline", "--quiet"]
    made = run_cli(*common, "--html", str(page), "--format", "json", "--output", str(doc),
                   env=env, timeout=900)  # fmt: skip
    assert made.returncode == 0, made.stderr
    return page, json.loads(doc.read_text("utf-8"))


def _hover(page: Any, n: int, i: int) -> Any:
    plot = page.locator(".chart .plot").first
    box = plot.bounding_box()
    page.mouse.move(box["x"] + (i + 0.5) / n * box["width"], box["y"] + 20)
    return page.locator(".chart .tip").first


@pytest.mark.slow
def test_twenty_thousand_games(tmp_path: Path, open_page: Any) -> None:
    page_file, doc = _make(tmp_path, 20_000, "LongUser")
    (report,) = doc["reports"]
    games = report["games"]
    assert len(games) == 20_000
    opened = open_page(page_file)
    assert opened.errors == []
    assert opened.network == []
    page = opened.page
    # 20,000 games > 4,000: the line is drawn from runs of ceil(20000 / 2000) = 10 games
    note = page.locator(".note.decimated").inner_text()
    assert "20,000 games" in note and "each run of 10 games" in note
    assert page.locator(".chart").get_attribute("data-games") == "20000"
    # hovering still shows single games: at this width a pixel holds about 17 games, so
    # the game shown is the one under the pixel, within a pixel's worth of games
    index = {g["id"]: i for i, g in enumerate(games)}
    per_pixel = len(games) / page.locator(".chart .plot").bounding_box()["width"]
    for i in (0, 12_345, 19_999):
        tip = _hover(page, len(games), i)
        shown = tip.locator(".t-link").get_attribute("href").rsplit("/", 1)[1]
        assert abs(index[shown] - i) <= per_pixel + 1
        assert tip.locator(".t-fide").inner_text() == str(games[index[shown]]["elo"]["rating"])
    # the arrow keys step one game at a time, and stop at the last
    plot = page.locator(".chart .plot").first
    plot.focus()
    for key, step in (("ArrowLeft", -1), ("ArrowRight", 1), ("ArrowRight", 1)):
        before = index[tip.locator(".t-link").get_attribute("href").rsplit("/", 1)[1]]
        plot.press(key)
        after = index[tip.locator(".t-link").get_attribute("href").rsplit("/", 1)[1]]
        assert after == min(before + step, len(games) - 1)
    # the games table starts folded, is made when opened and shows 500 games a page
    details = page.locator("details").first
    assert details.get_attribute("open") is None
    details.locator("summary").click()
    rows = page.locator("table.games tbody tr")
    assert rows.count() == 500
    assert page.locator(".pager .range").inner_text() == "Games 1–500 of 20,000"
    page.locator(".pager").get_by_text("Next").click()
    assert rows.first.locator("a").inner_text() == games[500]["id"]
    # sorting sorts all 20,000 games, not the page: the first row is the biggest loss
    heads = page.locator("table.games thead th").all_inner_texts()
    page.locator("table.games thead th").nth(heads.index("Lichess ±")).click()
    first = rows.first.locator("td").nth(heads.index("Lichess ±")).inner_text()
    assert int(first) == min(g["lichess"]["diff"] for g in games)
    assert page.locator(".pager .range").inner_text() == "Games 1–500 of 20,000"


def test_one_game(tmp_path: Path, open_page: Any) -> None:
    page_file, doc = _make(tmp_path, 1, "OneGame")
    (report,) = doc["reports"]
    (game,) = report["games"]
    opened = open_page(page_file)
    assert opened.errors == []
    assert opened.network == []
    page = opened.page
    assert page.locator("section.perf").count() == 1
    assert page.locator("table.overview").count() == 0  # one perf: no overview
    assert page.locator(".note.decimated").count() == 0
    tip = _hover(page, 1, 0)
    assert tip.locator(".t-link").get_attribute("href") == f"https://lichess.org/{game['id']}"
    assert page.locator("table.games tbody tr").count() == 1
