"""The ingest summary's last line: the games stored, with a speed only when it means one."""

from __future__ import annotations

from pathlib import Path

from lichess_elo.core.population.rows import IngestResult, MonthIngested
from lichess_elo.output.db.results import ingest_text


def _result(games: int, seconds: float) -> IngestResult:
    # months are YYYYMM
    return IngestResult((Path("d.pgn.zst"),), (MonthIngested(202401, games, {}),), 0, seconds)


def test_speed_of_a_large_ingest() -> None:
    # 1,000,000 games in 4.0 s: 250,000 games a second
    last = ingest_text(_result(1_000_000, 4.0), None).splitlines()[-1]
    assert last == "1,000,000 games stored (250,000 games/s)"


def test_no_speed_for_a_few_games() -> None:
    # 2 games in 3 s would read "0 games/s": the time is the start-up's, not the reading's
    assert ingest_text(_result(2, 3.0), None).splitlines()[-1] == "2 games stored"
    # from 1,000 games on the speed is given: 1,000 in 2.0 s
    assert ingest_text(_result(1000, 2.0), None).splitlines()[-1] == (
        "1,000 games stored (500 games/s)"
    )
