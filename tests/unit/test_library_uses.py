"""Three uses of the library as a program would write them (the README's "Library use"
shows the same code): rate one tournament with ``fide.calculate``, a player's report from
a Lichess PGN export with ``run_report``, and Glickman's worked Glicko-2 period. Each
expected number is worked out by hand beside it, from FIDE's table 8.1.2, the PGN's
headers or Glickman's paper."""

from __future__ import annotations

import gc
from decimal import Decimal
from pathlib import Path

import pytest

from tests.helpers import DATA


def test_rate_one_tournament_with_calculate() -> None:
    from lichess_elo import errors, fide

    # A 1850 player with 40 rated games before (K 20, FIDE 8.3.3), five rounds:
    games = [
        fide.GameResult(1750, 1),  # D = +100: PD 0.64, 1 - 0.64 = +0.36
        fide.GameResult(1950, "1/2"),  # D = -100: PD 0.36, 0.5 - 0.36 = +0.14
        fide.GameResult(1850, 0.5),  # D = 0: PD 0.50, 0.5 - 0.50 = 0
        fide.GameResult(2050, 0),  # D = -200: PD 0.24, 0 - 0.24 = -0.24
        fide.GameResult(1650, Decimal(1)),  # D = +200: PD 0.76, 1 - 0.76 = +0.24
    ]
    result = fide.calculate(1850, games, games_before=40, year=2025)
    # sum = 0.36 + 0.14 + 0 - 0.24 + 0.24 = 0.50; K 20 x 0.50 = +10
    assert (result.period is not None, result.k_rule) == (True, "standard")
    assert result.period is not None and result.period.k == 20
    assert result.period.points == Decimal(3)  # 1 + 0.5 + 0.5 + 0 + 1
    assert result.period.expected == Decimal("2.50")  # 0.64 + 0.36 + 0.50 + 0.24 + 0.76
    assert result.new_rating == 1860
    # a score that is not 0, 0.5 or 1 is the library's error, naming the argument
    with pytest.raises(errors.BadArgument) as caught:
        fide.calculate(1850, [fide.GameResult(1750, 0.7)], games_before=40, year=2025)
    assert isinstance(caught.value, ValueError) and caught.value.field == "score"


def test_a_players_report_from_a_pgn_file(tmp_path: Path) -> None:
    from lichess_elo import LichessSettings, ReportSettings, run_report

    seen_gc: list[bool] = []
    run = run_report(
        "thibault",
        LichessSettings(cache_dir=tmp_path, offline=True),  # a PGN needs no server
        ReportSettings(perfs=("blitz",)),
        pgn_file=DATA / "lichess" / "real" / "export-thibault-2025-05-07.pgn",
        replay_progress=lambda done, total: seen_gc.append(gc.isenabled()),
    )
    [report] = run.reports
    # tests/data/lichess/real/README.md: 44 rated blitz games and 3 rated arena games
    # (300+3: blitz), the no-move one among them, of 50
    assert (report.perf, report.summary.games) == ("blitz", 47)
    # the newest game (the file's first): WhiteElo 1712, WhiteRatingDiff +1
    assert report.summary.lichess_final == 1713
    # the shadow track starts at the rating before the oldest game (the file's last,
    # FDjBpJWf: thibault Black, BlackElo 1682), which he won as Black
    assert report.start_rating == 1682
    first = report.games[0]
    assert (first.id, first.color, first.score, first.opponent_rating) == (
        "FDjBpJWf",
        "black",
        Decimal(1),
        1689,
    )
    # the library leaves Python's garbage collector on (the command line pauses it)
    assert seen_gc and all(seen_gc) and gc.isenabled()


def test_glicko2_for_one_rating_period() -> None:
    from lichess_elo import glicko

    # Glickman, "Example of the Glicko-2 system" (2013), section "Example calculation":
    # a 1500 / RD 200 / 0.06 player beats a 1400 / 30, loses to 1550 / 100 and 1700 / 300,
    # tau 0.5 -> r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (the paper rounds its steps:
    # unrounded, r' is 1464.0507, tests/data/glicko-vectors.md; sigma' is printed cut short).
    player = glicko.Rating(1500, 200, 0.06)
    opponents = [
        (glicko.Rating(1400, 30), 1.0),
        (glicko.Rating(1550, 100), 0.0),
        (glicko.Rating(1700, 300), 0.0),
    ]
    after = glicko.glickman_period(player, opponents, tau=0.5)
    assert abs(after.rating - 1464.06) < 0.01
    assert round(after.deviation, 2) == 151.52
    assert abs(after.volatility - 0.05999) < 1e-5


def test_the_library_pages_examples_print_what_their_comments_say(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    from tests.helpers import REPO

    text = (REPO / "docs" / "library.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    # fide.calculate, Glickman's period, and the notebook's cells on the OnBoard247
    # cassette (run from the project's folder, as the page says). The notebook's promised
    # values are the Quickstart's January row (README: 62 games, score 31.0, expected
    # 37.45, FIDE rules 2450->2385, Lichess ->2419), the two months' scores 31.0 and 38.0
    # and expected 37.45 + 36.58 = 74.03, and the scorecard's calibration
    # (docs/scorecard.md: 69 of 130 = 0.53 a game where Lichess expected 0.59).
    assert len(blocks) == 3
    monkeypatch.chdir(REPO)
    for block in blocks:
        # what each print's comment promises: the words up to two spaces or the end
        promised = [
            re.split(r"\s{2,}", line.split("#", 1)[1].strip())[0]
            for line in block.splitlines()
            if line.startswith("print(")
        ]
        exec(compile(block, "docs/library.md", "exec"), {})
        printed = capsys.readouterr().out.splitlines()
        assert printed == promised


def test_to_frame_without_pandas_is_one_line_naming_the_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    from lichess_elo import errors
    from lichess_elo.core.population.rows import RatingList

    # ``import pandas`` raises ImportError when sys.modules holds None for it
    monkeypatch.setitem(sys.modules, "pandas", None)
    board = RatingList("blitz", "2023-01")
    with pytest.raises(errors.PackageMissing) as caught:
        board.to_frame()
    assert str(caught.value) == "to_frame() needs pandas: pip install pandas"
    assert caught.value.package == "pandas"
    # the rows themselves need no pandas
    assert board.to_dict() == []


def test_the_db_rows_as_dicts_and_frames() -> None:
    from lichess_elo.core.population.rows import (
        LIST_COLUMNS,
        PLAYER_COLUMNS,
        ListRow,
        PlayerRow,
        PlayerRows,
        RatingList,
    )

    a: ListRow = {"name": "a", "rating": 1600, "games_before": 12, "k": 40, "lichess_rating": None}
    board = RatingList("blitz", "2023-02", [a])
    # each row carries the list's perf and month ahead of the row of ``db list``
    assert board.to_dict() == [{"perf": "blitz", "month": "2023-02", **a}]
    frame = board.to_frame()
    assert tuple(frame.columns) == LIST_COLUMNS
    assert frame.loc[0, "rating"] == 1600 and frame.loc[0, "month"] == "2023-02"
    # an empty list is a frame with the columns and no row
    assert tuple(RatingList("blitz", "2023-03").to_frame().columns) == LIST_COLUMNS

    # 2 games, 1.5 points, expected 0.64 + 0.36 = 1.00, K 40: +20 (FIDE 8.3.1)
    month: PlayerRow = {
        "perf": "blitz", "name": "a", "month": "2023-02", "rating": 1600, "games_before": 12,
        "k": 40, "lichess_rating": 1650, "games": 2, "points": 1.5, "expected": 1.0,
        "k_used": 40, "change": 20, "next_rating": 1620, "edition": None,
    }  # fmt: skip
    rows = PlayerRows("a", [month])
    assert rows.to_dict() == [month] and rows.to_dict()[0] is not month
    frame = rows.to_frame()
    assert tuple(frame.columns) == PLAYER_COLUMNS
    assert frame.loc[0, "next_rating"] - frame.loc[0, "rating"] == frame.loc[0, "change"]


def test_a_report_run_refuses_an_unknown_table(tmp_path: Path) -> None:
    from lichess_elo import errors
    from lichess_elo.app.report import ReportRun

    run = ReportRun("someone", (), 0)
    with pytest.raises(errors.UnknownChoice) as caught:
        run.to_dict("game")  # type: ignore[arg-type]
    assert caught.value.field == "table" and "games" in caught.value.choices
    # no report: each table is its columns and no row
    assert list(run.to_frame("games").columns)[:3] == ["perf", "site", "id"]
    assert run.to_dict("predictions") == []
