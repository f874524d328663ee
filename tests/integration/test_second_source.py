"""A second site plugs in with one class and no change to the library.

``MiniSite`` is a made-up site whose games are a JSON list of its own shape, written as a
user would write it: the class is the code block of docs/sources.md, run here as it is
written there, and handed to ``run_report`` and ``list_games`` as ``games_from``, with no
Lichess settings: the run owns its cache folder (``cache_dir``).
"""

from __future__ import annotations

import json
import re
import sys
import types
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from lichess_elo import LichessSettings, ReportSettings, run_report
from lichess_elo.app import report as app_report
from lichess_elo.app.games import ListSettings, list_games
from lichess_elo.cli import heap as cli_heap
from tests.helpers import REPO


def _mini_site() -> Any:
    """The ``MiniSite`` class of docs/sources.md, run from the docs' own code block."""
    text = (REPO / "docs" / "sources.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    module = types.ModuleType("mini_site")  # a real module: dataclasses look theirs up
    sys.modules[module.__name__] = module
    exec(compile(block, "docs/sources.md", "exec"), module.__dict__)
    return module.MiniSite


MiniSite = _mini_site()


# The site publishes ratings after the game: Hero's are 1500, 1512, 1498 (win, win, loss).
GAMES = [
    {"id": "g0000001", "at": "2024-05-02T10:00", "white": "Hero", "black": "Ann",
     "ratings": [1500, 1500], "result": "1-0"},
    {"id": "g0000002", "at": "2024-05-09T10:00", "white": "Bob", "black": "Hero",
     "ratings": [1600, 1512], "result": "0-1"},
    {"id": "g0000003", "at": "2024-05-16T10:00", "white": "Hero", "black": "Cy",
     "ratings": [1498, 1400], "result": "0-1"},
]  # fmt: skip


def test_a_report_from_a_second_site(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps(GAMES), encoding="utf-8")
    settings = ReportSettings(perfs=("blitz",), start_rating=1500, k=20)
    # no Lichess settings: the run owns its cache folder (the replays)
    run = run_report(
        "Hero",
        settings=settings,
        games_from=MiniSite(path),
        cache_dir=tmp_path / "cache",
    )
    assert run.user == "Hero"
    run = run_report(
        "Hero",
        LichessSettings(cache_dir=tmp_path / "cache", offline=True),  # still taken
        settings,
        games_from=MiniSite(path),
    )
    (report,) = run.reports
    (period,) = report.periods  # all three in May 2024
    # FIDE table 8.1.2: D 0 -> PD .50; D -100 (1500 v 1600) -> .36; D +100 (v 1400) -> .64.
    # Expected 1.50, score 1 + 1 + 0 = 2, change 20 x (2 - 1.50) = +10: 1500 -> 1510.
    assert [row.expected for row in report.games] == [Decimal("0.50"), Decimal("0.36"),
                                                      Decimal("0.64")]  # fmt: skip
    assert period.games == 3 and period.score == 2
    assert period.elo_start == 1500 and period.elo_change == 10 and period.elo_end == 1510


def test_the_site_chain_from_post_game_ratings(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps(GAMES), encoding="utf-8")
    run = run_report(
        "Hero",
        settings=ReportSettings(perfs=("blitz",), k=20),
        games_from=MiniSite(path),
        cache_dir=tmp_path / "cache",
    )
    (report,) = run.reports
    # Hero's afters 1500, 1512, 1498: no rating before the first game was published, so
    # its change is unknown; then 1512 - 1500 = +12 and 1498 - 1512 = -14. Each game's
    # "before" is the previous game's after: the chain cannot break, no gap is invented.
    assert [row.lichess_rating for row in report.games] == [None, 1500, 1512]
    assert [row.lichess_diff for row in report.games] == [None, 12, -14]
    assert [row.gap_before for row in report.games] == [None, None, None]
    (period,) = report.periods
    # the track starts at the first rating published: 1500 + 12 - 14 = 1498
    assert (period.lichess_start, period.lichess_change, period.lichess_end) == (1500, -2, 1498)
    assert period.gaps == () and report.summary.gap_count == 0


def test_a_listing_from_a_second_site(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps(GAMES), encoding="utf-8")
    listing = list_games(
        "Hero", settings=ListSettings(), games_from=MiniSite(path), cache_dir=tmp_path / "cache"
    )
    assert [row.game.id for row in listing.rows] == ["g0000001", "g0000002", "g0000003"]
    assert [row.color for row in listing.rows] == ["white", "black", "white"]


def test_a_library_run_leaves_the_heap_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps(GAMES), encoding="utf-8")
    monkeypatch.setattr(app_report, "SLIM_FROM", 0)  # 3 games take the slimming path
    trimmed: list[int] = []
    monkeypatch.setattr(cli_heap, "return_freed_memory", lambda: trimmed.append(1))
    settings = ReportSettings(perfs=("blitz",))
    run_report("Hero", settings=settings, games_from=MiniSite(path), cache_dir=tmp_path / "c")
    assert trimmed == []  # no on_release: the process's heap is not touched
    released: list[int] = []
    run_report(
        "Hero",
        settings=settings,
        games_from=MiniSite(path),
        cache_dir=tmp_path / "c",
        on_release=lambda: released.append(1),
    )
    # once when the moves go (3 >= SLIM_FROM 0), once when the games go (no K scan)
    assert released == [1, 1] and trimmed == []
