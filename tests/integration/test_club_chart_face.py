"""The club chart for a noticeboard: event names, each line ending with the
player's name and rating, the report chart's style. Text kept as text in the SVG."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import pytest

from lichess_elo.app.club import ClubSettings, rate_club_files
from lichess_elo.output.charts.club import write_club_chart
from lichess_elo.output.charts.compare import SERIES_COLOURS
from tests import helpers

DATA = helpers.DATA / "club"


def test_club_chart_names_events_and_ends_lines_with_names(tmp_path: Path) -> None:
    result = rate_club_files(
        [str(DATA / "players.csv"), str(DATA / "games.csv")],
        ClubSettings(config=DATA / "club.toml"),
    ).result
    path = tmp_path / "ladder.svg"
    names = [s.name for s in result.standings[:3]]
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        write_club_chart(result, names, path)
    svg = path.read_text(encoding="utf-8")
    # club.toml counts two events (tests/cli/test_club_cli.py derives the ratings).
    for event in ("Spring Club Cup", "April Rapid"):
        assert event in svg
    for label in ("Bartek Lis 1387", "Ania Nowak 1245", "Celina Wrona 1200"):
        assert label in svg
    assert "Top 3 players&#39; club rating after April Rapid" in svg or (
        "Top 3 players' club rating after April Rapid" in svg
    )
    assert "2 events, 2026-03-07 to 2026-04-11" in svg


NAMES = ["Ania Nowak", "Bartek Lis", "Celina Wrona", "Dawid Sowa", "Ewa Kruk", "Filip Mazur",
         "Hania Zielińska", "Igor Łukasik", "Julia Wójcik", "Kacper Dąbrowski",
         "Lena Kowalczyk", "Marek Zając"]  # fmt: skip


def _one_event_club(tmp_path: Path, players: int) -> list[str]:
    """``players`` members rated 1000 + 10 x i, one event on 2026-03-07 where each beats
    the next one (a ring), so everyone has a game and a line."""
    names = NAMES[:players]
    roster = tmp_path / "players.csv"
    roster.write_text(
        "name,rating\n" + "".join(f"{n},{1000 + 10 * i}\n" for i, n in enumerate(names)), "utf-8"
    )
    games = tmp_path / "games.csv"
    pairs = [(names[i], names[(i + 1) % len(names)]) for i in range(len(names))]
    games.write_text(
        "date,white,black,result,event,round\n"
        + "".join(f"2026-03-07,{a},{b},1,Spring Club Cup,{r}\n" for r, (a, b) in enumerate(pairs)),
        "utf-8",
    )
    return [str(roster), str(games)]


@pytest.mark.parametrize("players", [3, 12])
def test_one_event_spans_weeks_and_twelve_players_have_twelve_colours(
    tmp_path: Path, players: int
) -> None:
    result = rate_club_files(_one_event_club(tmp_path, players)).result
    path = tmp_path / "ladder.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        write_club_chart(result, [s.name for s in result.standings], path)
    svg = path.read_text(encoding="utf-8")
    # the axis spans 2026-02-25..2026-03-17, so no tick names another year
    ticks = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert not any(y in t for t in ticks for y in ("2024", "2025", "2027", "2031")), ticks
    # every player's line in a colour of its own (the db compare chart's palette)
    strokes = set(re.findall(r"stroke: (#[0-9a-f]{6}); stroke-width: 2", svg))
    assert strokes & set(SERIES_COLOURS) == set(SERIES_COLOURS[:players])
    # every line ends with the name (diacritics kept) and the shown rating
    for s in result.standings:
        assert f"{s.name} {s.shown}" in svg
