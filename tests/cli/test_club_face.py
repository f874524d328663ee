"""``club`` as an organiser runs it: Lichess accounts in the players file, every
excluded game with its rule, the K really used, provisional only by the club's rule, one
set of result spellings with forfeits recorded but never rated, the date formats, and the
rules file found in the current folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests import helpers
from tests.runners import Cli, invoke

DATA = helpers.DATA / "club"
CASSETTE = helpers.REPO / "cassettes" / "club-swiss.yaml"
SWISS_URL = "https://lichess.org/swiss/Zr5kTq1B"


def _run(*args: str) -> Any:
    return invoke(["club", *args])


def test_lichess_column_rates_members_not_newcomers(tmp_path: Path) -> None:
    # The swiss (cassettes/club-swiss.yaml) is played by Lichess accounts Ania_N ... Ewa_K.
    # Every member is in the file at 1000, so the swiss plays out as with no players file:
    # expected 0.5 each game, K 20 -> +/-10 a win/loss (tests/integration/test_club_lichess:
    # Ania_N 1020, Filip_M 1020, Bartek_L 1010, Celina_W 1000, Dawid_S 980, Ewa_K 970).
    players = tmp_path / "players.csv"
    players.write_text(
        "name,rating,lichess\n"
        "Ania Nowak,1000,Ania_N\nBartek Lis,1000,bartek_l\nCelina Wrona,1000,@Celina_W\n"
        "Dawid Sowa,1000,Dawid_S\nEwa Kruk,1000,Ewa_K\nFilip Mazur,1000,Filip_M\n",
        encoding="utf-8",
    )
    result = _run(str(players), SWISS_URL, "--replay", str(CASSETTE), "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {p["name"]: p["rating"] for p in doc["players"]} == {
        "Ania Nowak": 1020,
        "Filip Mazur": 1020,
        "Bartek Lis": 1010,
        "Celina Wrona": 1000,
        "Dawid Sowa": 980,
        "Ewa Kruk": 970,
    }
    assert all(p["games"] == 3 for p in doc["players"])  # 3 rounds, nobody sat out


def test_an_account_that_is_another_members_name_is_refused(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("name,rating,lichess\nAnia,1000,Bartek\nBartek,1000,\n", encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result\n2026-03-07,Ania,Bartek,1-0\n", encoding="utf-8")
    result = _run(str(players), str(games))
    assert result.exit_code == 2
    assert "players.csv:2: field lichess: 'Bartek' is also the name of another member" in (
        result.stderr
    )


def test_excluded_games_are_listed_with_their_rule() -> None:
    # club.toml counts rapid and classical only and excludes "*handicap*": the 3+2 Friday
    # Blitz and the Coach handicap simul are the two games left out of games.csv.
    base = [str(DATA / "players.csv"), str(DATA / "games.csv"), "--config", str(DATA / "club.toml")]
    doc = json.loads(_run(*base, "--format", "json").stdout)
    assert [(x["event"], x["result"], x["rule"]) for x in doc["excluded"]] == [
        (
            "Friday Blitz",
            "1-0",
            "count.time_controls (rapid, classical) leaves out the time control 3+2 (blitz)",
        ),
        ("Coach handicap simul", "0-1", "exclude.events (*handicap*) matches the event"),
    ]
    table = _run(*base, "--view", "excluded")
    assert table.exit_code == 0, table.output
    assert "2 games not rated" in table.stdout
    row = next(line for line in table.stdout.splitlines() if line.startswith("2026-05-09"))
    assert "Celina Wrona" in row and "exclude.events (*handicap*) matches the event" in row
    # The standings say where to look.
    assert "2 games not rated: see --view excluded" in _run(*base).stdout


def test_header_shows_the_k_really_used_and_provisional_follows_the_rule() -> None:
    # club.toml: K 20, children 40, provisional K 40 for a newcomer's first 10 games.
    # Children used 40; of the others, Bartek and Celina (rated in the players file,
    # unmarked) K 20, Ewa (no rating there: a newcomer) K 40.
    base = [str(DATA / "players.csv"), str(DATA / "games.csv"), "--config", str(DATA / "club.toml")]
    doc = json.loads(_run(*base, "--format", "json").stdout)
    assert doc["k_used"] == {"children": [40], "others": [20, 40]}
    # Only Ewa starts from a group rating; the others' rating or start is in the file.
    assert [p["name"] for p in doc["players"] if p["provisional"]] == ["Ewa Kruk"]
    # Without a provisional rule nobody is provisional, whatever their game count.
    plain = json.loads(
        _run(str(DATA / "players.csv"), str(DATA / "games.csv"), "--format", "json").stdout
    )
    assert not any(p["provisional"] for p in plain["players"])
    assert plain["k_used"] == {"others": [20]}  # the default K, no groups with their own


def test_every_result_spelling_and_forfeits_never_rated(tmp_path: Path) -> None:
    # Ten games, one per day, in every spelling of a result; then two forfeits. Only the
    # counts are checked here: all ten are rated, the forfeits are listed and not rated.
    games = tmp_path / "games.csv"
    spellings = ["1-0", "1:0", "0-1", "½-½", "1/2", "draw", "=", "w", "d", "l"]
    lines = [f"2026-03-{day:02d},A,B,{r}" for day, r in enumerate(spellings, start=1)]
    lines += ["2026-04-01,A,B,+:-", "2026-04-02,A,B,-:+"]
    games.write_text("date,white,black,result\n" + "\n".join(lines) + "\n", encoding="utf-8")
    result = _run(str(games), "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert sum(e["games"] for e in doc["events"]) == 10  # the forfeits are not rated
    assert [(x["result"], x["rule"]) for x in doc["excluded"]] == [
        ("+:-", "forfeit: recorded, never rated"),
        ("-:+", "forfeit: recorded, never rated"),
    ]
    # A forfeit alone moves nobody: both newcomers stay at the default start, 1000.
    only = tmp_path / "forfeit.csv"
    only.write_text("date,white,black,result\n2026-04-01,A,B,+:-\n", encoding="utf-8")
    alone = json.loads(_run(str(only), "--format", "json").stdout)
    assert [(p["name"], p["rating"], p["games"]) for p in alone["players"]] == [
        ("A", 1000, 0),
        ("B", 1000, 0),
    ]


@pytest.mark.parametrize("command", ["calc", "glicko"])
def test_forfeits_are_named_in_the_rating_calculators(cli: Cli, command: str) -> None:
    args = ["1500", "1400:+:-"] if command == "calc" else ["1500/60", "1500/60", "+:-"]
    result = cli([command, *args])
    assert result.exit_code == 2
    assert "a forfeit is recorded, never rated" in result.stderr


def test_date_error_lists_every_format() -> None:
    result = _run(str(DATA / "bad-date.csv"))
    assert result.exit_code == 2
    assert "'2026-13-07' is not a date" in result.stderr
    assert "YYYY-MM-DD, YYYY.MM.DD, YYYY/MM/DD or DD.MM.YYYY" in result.stderr


def test_club_toml_in_the_current_folder_is_used_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("players.csv", "games.csv"):
        shutil.copy(DATA / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    none = _run("players.csv", "games.csv")
    assert none.exit_code == 0, none.output
    assert "rules: the defaults (no club.toml)" in none.stdout
    assert (
        json.loads(_run("players.csv", "games.csv", "--format", "json").stdout)["rules_file"]
        is None
    )
    shutil.copy(DATA / "club.toml", tmp_path / "club.toml")
    found = _run("players.csv", "games.csv")
    assert "rules: club.toml" in found.stdout
    # club.toml's count rules now apply: the blitz and the handicap simul are left out.
    assert "2 games not rated" in found.stdout
