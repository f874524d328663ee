"""The club readers: CSV layouts, PGN tags, results, dates, club.toml and the options."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from lichess_elo.club_io import (
    Inputs,
    parse_day,
    parse_result,
    read_csv,
    read_inputs,
    read_pgn,
    time_control,
    tournament_ref,
)
from lichess_elo.club_rules import parse_numbers, read_rules, with_overrides
from lichess_elo.errors import BadInput

DATA = Path(__file__).parent.parent / "data" / "club"


@pytest.mark.parametrize(
    ("text", "score"),
    [
        *[("1", "1"), ("0.5", "0.5"), ("0", "0"), ("1-0", "1"), ("½-½", "0.5"), ("0-1", "0")],
        *[("1/2-1/2", "0.5"), ("½", "0.5"), (" 1 - 0 ", "1")],
    ],
)
def test_results_from_a_side(text: str, score: str) -> None:
    assert parse_result(text, "f:2") == Decimal(score)


@pytest.mark.parametrize("text", ["2", "1-1", "x", "w", "0.7", ""])
def test_bad_results(text: str) -> None:
    with pytest.raises(BadInput, match="f:2: field result"):
        parse_result(text, "f:2")


def test_dates() -> None:
    assert parse_day("2026-03-07", "f:2") == date(2026, 3, 7)
    assert parse_day("2026.03.07", "f:2") == date(2026, 3, 7)
    assert parse_day("7.3.2026", "f:2") == date(2026, 3, 7)
    for bad in ("2026-02-30", "03/07/2026", "yesterday"):
        with pytest.raises(BadInput, match="f:2: field date"):
            parse_day(bad, "f:2")


def test_time_control_in_minutes() -> None:
    assert time_control(900, 10) == "15+10"
    assert time_control(30, 0) == "0.5+0"


def test_semicolon_csv_with_bom_and_player_a_b(tmp_path: Path) -> None:
    text = "\ufeffDate;Player A;Player B;Result;Round\n07.03.2026;Ania;Bartek;½-½;2\n"
    into = Inputs()
    read_csv(tmp_path / "g.csv", text.lstrip("\ufeff"), into)
    (game,) = into.games
    assert (game.white, game.black, game.score, game.day, game.round) == (
        "Ania",
        "Bartek",
        Decimal("0.5"),
        date(2026, 3, 7),
        (2,),
    )
    assert game.where.endswith("g.csv:2")


def test_players_file_errors(tmp_path: Path) -> None:
    into = Inputs()
    with pytest.raises(BadInput, match=r"p.csv:3: field rating: 'abc' is not a whole number"):
        read_csv(tmp_path / "p.csv", "name,rating\nAnia,1200\nBartek,abc\n", into)
    with pytest.raises(BadInput, match=r"p\.csv:1: the header is neither"):
        read_csv(tmp_path / "p.csv", "who,elo\nAnia,1200\n", Inputs())


PGN = """[Event "?"]
[Date "2026.04.02"]
[Round "1"]
[White "Ania"]
[Black "Bartek"]
[Result "0-1"]
[Site "https://lichess.org/AbCd1234"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Cup"]
[Date "????.??.??"]
[White "Celina"]
[Black "Dawid"]
[Result "1-0"]

1. e4 1-0
"""


def test_pgn_tags_and_line_numbers(tmp_path: Path) -> None:
    into = Inputs()
    with pytest.raises(BadInput, match=r"x.pgn:11: field Date: '\?\?\?\?.\?\?.\?\?'"):
        read_pgn(tmp_path / "x.pgn", PGN, into)
    (game,) = into.games
    assert (game.white, game.black, game.score, game.event, game.game_id) == (
        "Ania",
        "Bartek",
        Decimal(0),
        None,
        "AbCd1234",
    )
    assert game.event_name == "2026-04-02"


def test_read_inputs_kinds(tmp_path: Path) -> None:
    inputs = read_inputs([str(DATA / "players.csv"), str(DATA / "seed-event.pgn")])
    assert inputs.roster and len(inputs.players) == 6 and len(inputs.games) == 3
    with pytest.raises(BadInput, match="neither a file nor a Lichess tournament"):
        read_inputs(["not a thing"])
    toml = tmp_path / "club.toml"
    toml.write_text("k = 20\n", encoding="utf-8")
    with pytest.raises(BadInput, match=r"club\.toml goes in --config"):
        read_inputs([str(toml)])


@pytest.mark.parametrize(
    ("arg", "ref"),
    [
        ("https://lichess.org/swiss/Zr5kTq1B", ("swiss", "Zr5kTq1B")),
        ("https://lichess.org/tournament/clubAr26", ("arena", "clubAr26")),
        ("swiss:Zr5kTq1B", ("swiss", "Zr5kTq1B")),
        ("clubAr26", (None, "clubAr26")),
        ("club-ar", None),
    ],
)
def test_tournament_refs(arg: str, ref: tuple[str | None, str] | None) -> None:
    assert tournament_ref(arg) == ref


def test_club_toml_every_key() -> None:
    rules = read_rules(DATA / "club.toml")
    assert (rules.update, rules.method, rules.rounding, rules.newcomers) == (
        "event",
        "formula",
        "display",
        False,
    )
    assert (rules.start, dict(rules.start_groups)) == (1000, {"beginner": 800, "children": 1000})
    assert (rules.k, dict(rules.k_groups), rules.provisional_k, rules.provisional_games) == (
        20,
        {"children": 40},
        40,
        10,
    )
    assert (rules.return_k, rules.return_months, rules.return_games) == (40, 6, 5)
    assert rules.count_time_controls == ("rapid", "classical")
    assert rules.exclude_events == ("*handicap*",)
    assert (rules.target_step, rules.term_end) == (50, date(2026, 6, 26))
    assert rules.cap_used is False


def test_toml_scalars_and_fide_start(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('start = "fide"\nk = 32\nmethod = "fide-table"\n', encoding="utf-8")
    rules = read_rules(path)
    assert (rules.start, rules.k, rules.method, rules.cap_used) == ("fide", 32, "fide-table", True)
    path.write_text("[k]\ngroups = { kids = 0 }\n", encoding="utf-8")
    with pytest.raises(BadInput, match=r"club.toml:2: key k.groups.kids: expected a whole"):
        read_rules(path)


def test_overrides_group_or_player() -> None:
    rules = read_rules(DATA / "club.toml")
    new = with_overrides(
        rules,
        groups={"children"},
        k=["25", "children=30", "Ania Nowak=50"],
        start=["beginner=700"],
        update="game",
        method=None,
    )
    assert (new.k, new.k_groups["children"], new.k_players["ania nowak"]) == (25, 30, 50)
    # "beginner" is not a group of the players passed, but club.toml names it as a group
    assert new.start_players == {} and new.start_groups["beginner"] == 700
    assert (new.update, new.method) == ("game", "formula")
    assert parse_numbers("40:6:5", "--return-k", ("K", "MONTHS", "GAMES")) == (40, 6, 5)
    with pytest.raises(BadInput, match="--k 'many'"):
        with_overrides(rules, groups=set(), k=["many"])
