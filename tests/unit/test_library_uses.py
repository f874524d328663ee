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
    capsys: pytest.CaptureFixture[str],
) -> None:
    import re

    from tests.helpers import REPO

    text = (REPO / "docs" / "library.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
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
