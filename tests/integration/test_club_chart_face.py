"""The club chart for a noticeboard (issue 10): event names, each line ending with the
player's name and rating, the report chart's style. Text kept as text in the SVG."""

from __future__ import annotations

from pathlib import Path

import matplotlib

from lichess_elo.app.club import ClubSettings, rate_club_files
from lichess_elo.output.chart_club import write_club_chart
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
