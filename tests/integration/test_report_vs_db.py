"""``report`` against ``db player`` on the same games: one player's games taken out of a
dump (the generated population of ``population_gen``) are rated by ``report --pgn`` and by
``db rate`` + ``db player``. Every difference comes from a named setting, and docs/population.md's
combination (``db rate --opponents lichess``, ``report --games-before 0``) makes the two
tracks equal, month by month."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO
from tests.integration.db_helpers import write_dump
from tests.integration.population_gen import population
from tests.runners import invoke


def _block() -> list[list[str]]:
    """The commands of docs/population.md's "report against db player" example."""
    page = (REPO / "docs" / "population.md").read_text(encoding="utf-8")
    section = page[page.index("## `report` against `db player`") :]
    match = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert match is not None
    lines = [line.split("  #")[0].strip() for line in match.group(1).splitlines()]
    return [shlex.split(line)[1:] for line in lines if line.startswith("lichess-elo ")]


def _run(args: list[str]) -> str:
    out = invoke(args)
    assert out.exit_code == 0, out.output
    return out.output


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """games.pgn.zst (the population) and each compared player's games taken out of it."""
    tmp = tmp_path_factory.mktemp("rvd")
    games = population()
    write_dump(tmp / "games.pgn.zst", games)
    for who in ("P03", "P00"):
        mine = [g for g in games if f'[White "{who}"]' in g or f'[Black "{who}"]' in g]
        (tmp / f"{who.lower()}.pgn").write_text("".join(mine), encoding="utf-8")
    return tmp


def _report(*args: str) -> list[dict[str, Any]]:
    doc = json.loads(_run(["report", *args, "--format", "json", "-q"]))
    return list(doc["reports"][0]["periods"])


def _db_rows(db: Path, who: str, perf: str) -> dict[str, dict[str, Any]]:
    out = _run(["db", "player", who, "--db", str(db), "--perf", perf, "--format", "json"])
    return {row["month"]: row for row in json.loads(out)["rows"]}


def _track(periods: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    return {p["period"]: (p["elo"]["start"], p["elo"]["end"]) for p in periods}


def _db_track(rows: dict[str, dict[str, Any]], months: list[str]) -> dict[str, tuple[int, int]]:
    """The db list rating at the start and end of each month (a month without a db row —
    no rated game — keeps the rating)."""
    out: dict[str, tuple[int, int]] = {}
    last: int | None = None
    for month in months:
        row = rows.get(month)
        if row is not None:
            out[month] = (row["rating"], row["next_rating"])
            last = row["next_rating"]
        else:
            assert last is not None
            out[month] = (last, last)
    return out


def test_the_readme_combination_makes_report_and_db_equal(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(workdir)
    outputs = [_run(args) for args in _block()]
    db_doc = json.loads(outputs[2])
    assert db_doc["rules"][0]["opponents"] == "lichess"
    periods = json.loads(outputs[3])["reports"][0]["periods"]
    rows = {row["month"]: row for row in db_doc["rows"]}
    months = [p["period"] for p in periods]
    assert len(months) > 20 and set(rows) == set(months)
    assert _db_track(rows, months) == _track(periods)
    # K after the 700 rule and the edition, month by month.
    assert {p["period"]: (p["k"], p["regulations_key"]) for p in periods} == {
        m: (r["k_used"], r["edition"]) for m, r in rows.items()
    }


def test_each_difference_has_a_named_setting(workdir: Path) -> None:
    db = workdir / "named.duckdb"
    _run(["db", "ingest", str(workdir / "games.pgn.zst"), "--db", str(db), "-q"])
    same = _report("P03", "--pgn", str(workdir / "p03.pgn"), "--perf", "classical",
                   "--games-before", "0")  # fmt: skip
    months = [p["period"] for p in same]
    # 1. Opponents: db's default is each opponent's list rating in the run, the report's
    #    their Lichess rating in the game; --opponents lichess makes them one.
    _run(["db", "rate", "--db", str(db)])
    listed = _db_track(_db_rows(db, "P03", "classical"), months)
    assert listed != _track(same)
    _run(["db", "rate", "--db", str(db), "--opponents", "lichess"])
    rows = _db_rows(db, "P03", "classical")
    assert _db_track(rows, months) == _track(same)
    # 2. Games before: a dump's PGN marks no provisional rating, so the report takes P03's
    #    first game held as established and assumes 30 rated games before it (its K
    #    warning): K 20 for an established player below 2400, where db counts the games
    #    before from 0 and gives the new player's K 40. P03's first classical game (January
    #    2022, 30+0) is FIDE rapid: the Rapid & Blitz rules then give everyone K 20 ("flat"),
    #    so the count first decides K in February, a 90+30 game (standard-2022-01): the
    #    report 30 + 1 = 31 games before and K 20, db 1 game before and K 40.
    #    --games-before 0 tells the report the count.
    warned = _report("P03", "--pgn", str(workdir / "p03.pgn"), "--perf", "classical")
    assert (warned[0]["period"], warned[0]["k"], warned[0]["k_reason"]) == ("2022-01", 20, "flat")
    assert (warned[1]["period"], warned[1]["k"], warned[1]["games_before"]) == ("2022-02", 20, 31)
    assert (rows["2022-02"]["k"], rows["2022-02"]["games_before"]) == (40, 1)
    # 3. Games counted: a month whose every game the 600/2600 rule leaves unrated (P00,
    #    rapid, from December 2024) is a report period of unrated games with no change,
    #    and no db row; the ratings agree.
    p00 = _report("P00", "--pgn", str(workdir / "p00.pgn"), "--perf", "rapid",
                  "--games-before", "0")  # fmt: skip
    db_p00 = _db_rows(db, "P00", "rapid")
    unrated = [p for p in p00 if p["period"] not in db_p00]
    assert unrated and all(p["elo"]["change"] == 0 and p["period"] >= "2024-12" for p in unrated)
    assert _db_track(db_p00, [p["period"] for p in p00]) == _track(p00)
