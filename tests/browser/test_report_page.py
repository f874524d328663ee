"""``report --html``: the bundled OnBoard247 page in a real headless Chromium.

The page is made by the real command (``python -m lichess_elo``, the bundled cassette);
the expected numbers are the same run's ``--format json`` output, formatted the way the
README's JSON format and the terminal table say (a change with its sign, FIDE's to one
decimal), never read back from the page's own data.
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.runners import run_cli

pytestmark = pytest.mark.browser

CASSETTE = "cassettes/onboard247.yaml"


def signed(value: float, places: int = 0) -> str:
    """``+9``, ``-14.6``, ``0.0``: the terminal's way of writing a change."""
    exponent = Decimal(1).scaleb(-places)
    rounded = Decimal(str(value)).quantize(exponent, rounding=ROUND_HALF_UP)
    return f"{rounded:+}" if rounded else f"{Decimal(0).quantize(exponent)}"


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The OnBoard247 ``--perf all`` page and the same run's JSON document."""
    folder = tmp_path_factory.mktemp("page")
    page, doc = folder / "onboard247.html", folder / "onboard247.json"
    env = {"LICHESS_ELO_CACHE_DIR": str(folder / "cache")}
    common = ["report", "OnBoard247", "--replay", CASSETTE, "--perf", "all", "--quiet"]
    made = run_cli(*common, "--html", str(page), env=env)
    assert made.returncode == 0, made.stderr
    out = run_cli(*common, "--format", "json", "--output", str(doc), env=env)
    assert out.returncode == 0, out.stderr
    return page, json.loads(doc.read_text("utf-8"))


def test_loads_offline_with_every_perf(
    bundled: tuple[Path, dict[str, Any]], open_page: Any
) -> None:
    path, doc = bundled
    opened = open_page(path)
    assert opened.errors == []
    assert opened.network == []
    perfs = [r["perf"] for r in doc["reports"]]
    assert len(perfs) == 6
    page = opened.page
    assert page.eval_on_selector_all("section.perf", "s => s.map(x => x.dataset.perf)") == perfs
    assert page.locator("table.overview tbody tr").count() == len(perfs)
    # under 1 MB, as the issue asks of the bundled --perf all page
    assert path.stat().st_size < 1_000_000
    assert page.locator(".chart").count() == len(perfs)


def test_headline_and_period_table_equal_the_json(
    bundled: tuple[Path, dict[str, Any]], open_page: Any
) -> None:
    path, doc = bundled
    page = open_page(path).page
    for report in doc["reports"]:
        section = page.locator(f'section[data-perf="{report["perf"]}"]')
        rows = section.locator("table.sortable").first.locator("tbody tr")
        cells = [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]
        periods = [c for c in cells if c[0] != "adjusted"]
        assert [c[0] for c in periods] == [p["period"] for p in report["periods"]]
        for c, p in zip(periods, report["periods"], strict=True):
            e, li = p["elo"], p["lichess"]
            assert f"{e['start']}→{e['end']} ({signed(e['change'])})" in c
            assert f"{li['start']}→{li['end']} ({signed(li['change'])})" in c
            assert c[1] == str(p["games"])
            assert signed(p["difference"]) in c
        s = report["summary"]
        headline = section.locator(".headline").inner_text()
        assert f"your {s['games']} {report['perf']} games" in headline


def test_games_table_equals_the_json(bundled: tuple[Path, dict[str, Any]], open_page: Any) -> None:
    path, doc = bundled
    page = open_page(path).page
    report = doc["reports"][1]  # blitz: 130 games
    table = page.locator(f'section[data-perf="{report["perf"]}"] table.games')
    heads = table.locator("thead th").all_inner_texts()
    rows = table.locator("tbody tr")
    assert rows.count() == len(report["games"]) == 130
    for i in (0, 57, 129):
        cells = dict(zip(heads, rows.nth(i).locator("td").all_inner_texts(), strict=True))
        g = report["games"][i]
        assert cells["Game"] == g["id"]
        assert cells["Date (UTC)"] == g["played_at"][:10]
        assert cells["Lichess"].rstrip("?") == str(g["lichess"]["rating"])
        assert cells["Lichess ±"] == signed(g["lichess"]["diff"])
        assert cells["FIDE"] == str(g["elo"]["rating"])
        assert cells["FIDE ±"] == signed(g["elo"]["change"], 1)
        link = rows.nth(i).locator("a").get_attribute("href")
        assert link == f"https://lichess.org/{g['id']}"


def test_hovering_a_game_shows_its_numbers(
    bundled: tuple[Path, dict[str, Any]], open_page: Any
) -> None:
    path, doc = bundled
    page = open_page(path).page
    for report in doc["reports"]:
        games = report["games"]
        plot = page.locator(f'section[data-perf="{report["perf"]}"] .chart .plot')
        plot.scroll_into_view_if_needed()
        box = plot.bounding_box()
        tip = page.locator(f'section[data-perf="{report["perf"]}"] .chart .tip')
        for i in sorted({0, len(games) // 2, len(games) - 1}):
            g = games[i]
            # game i of n is drawn over [i, i + 1] of the plot's width
            page.mouse.move(box["x"] + (i + 0.5) / len(games) * box["width"], box["y"] + 20)
            assert tip.is_visible()
            assert tip.locator(".t-link").get_attribute("href") == f"https://lichess.org/{g['id']}"
            assert tip.locator(".t-lichess-change").inner_text() == signed(g["lichess"]["diff"])
            assert tip.locator(".t-fide-change").inner_text() == signed(g["elo"]["change"], 1)
            assert tip.locator(".t-fide").inner_text() == str(g["elo"]["rating"])
            assert g["played_at"][:10] in tip.inner_text()
            assert g["opponent"] in tip.inner_text()


def test_sorting_a_column_reorders_the_rows(
    bundled: tuple[Path, dict[str, Any]], open_page: Any
) -> None:
    path, doc = bundled
    page = open_page(path).page
    report = doc["reports"][1]
    table = page.locator(f'section[data-perf="{report["perf"]}"] table.games')
    heads = table.locator("thead th").all_inner_texts()
    column = heads.index("Lichess ±")
    header = table.locator("thead th").nth(column)
    diffs = [g["lichess"]["diff"] for g in report["games"]]

    def shown() -> list[int]:
        texts = table.locator(f"tbody tr td:nth-child({column + 1})").all_inner_texts()
        return [int(t) for t in texts]

    assert shown() == diffs  # oldest first, as the terminal
    header.click()
    assert shown() == sorted(diffs)
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    assert shown() == sorted(diffs, reverse=True)
    # the ids move with their rows: the biggest Lichess gain's game is first
    first = table.locator("tbody tr").first.locator("a").inner_text()
    assert first == max(report["games"], key=lambda g: g["lichess"]["diff"])["id"]


def test_zoom_widens_the_plot_and_print_hides_the_controls(
    bundled: tuple[Path, dict[str, Any]], open_page: Any
) -> None:
    path, _ = bundled
    page = open_page(path).page
    plot = page.locator(".chart .plot").nth(1)
    width = plot.bounding_box()["width"]
    page.locator(".chart + .controls").nth(1).get_by_text("Zoom in").click()
    assert plot.bounding_box()["width"] == pytest.approx(2 * width, rel=0.01)
    page.emulate_media(media="print")
    assert not page.locator(".chart + .controls").first.is_visible()
    pdf = page.pdf()
    assert pdf.startswith(b"%PDF")


def test_phone_width_has_no_sideways_page(
    bundled: tuple[Path, dict[str, Any]], open_page: Any
) -> None:
    path, _ = bundled
    opened = open_page(path, width=390, height=844)
    assert opened.errors == []
    # wide tables scroll inside their own box; the page itself never does
    assert opened.page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_tooltip_says_what_each_number_is(
    bundled: tuple[Path, dict[str, Any]], open_page: Any, tmp_path: Path
) -> None:
    import re

    path, doc = bundled
    page = open_page(path).page
    report = doc["reports"][1]  # blitz
    games = report["games"]
    plot = page.locator(f'section[data-perf="{report["perf"]}"] .chart .plot')
    plot.scroll_into_view_if_needed()
    box = plot.bounding_box()
    tip = page.locator(f'section[data-perf="{report["perf"]}"] .chart .tip')
    # a loss (score 0): its 0 is named as the score, beside the word
    i = next(j for j, g in enumerate(games) if g["score"] == 0)
    page.mouse.move(box["x"] + (i + 0.5) / len(games) * box["width"], box["y"] + 20)
    page.screenshot(path=str(tmp_path / "tooltip.png"))
    said = tip.inner_text()
    assert "Result: lost (score 0," in said
    # FIDE's expected score in words, to two decimals as the games table has it
    assert f"expected score {games[i]['elo']['expected']:.2f}" in said
    assert not re.search(r"\bE\b", said)
    # no number stands alone on a line or after a bare colon
    assert not re.search(r"(^|\n|: )[-+]?\d+(\.\d+)?\s*($|\n)", said)


def test_the_periods_caption_is_whole_at_phone_width(
    bundled: tuple[Path, dict[str, Any]], open_page: Any, tmp_path: Path
) -> None:
    path, _ = bundled
    page = open_page(path, width=390, height=844).page
    caption = page.locator("section.perf p.caption").first
    caption.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "caption-390.png"))
    # the caption wraps inside the screen and none of it is hidden
    right = caption.evaluate("c => c.getBoundingClientRect().right")
    assert right <= 390
    assert caption.evaluate("c => c.scrollWidth <= c.clientWidth")
    assert caption.is_visible()
