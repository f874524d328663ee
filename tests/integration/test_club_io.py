"""The club readers: CSV layouts, PGN tags, results, dates, club.toml and the options."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from lichess_elo.core.club.config import time_control_pattern
from lichess_elo.core.club.options import ClubOptions
from lichess_elo.core.club.rating import time_control_speed
from lichess_elo.errors import BadFile, BadInput
from lichess_elo.sources.club.config import read_rules
from lichess_elo.sources.club.files import (
    Inputs,
    parse_day,
    read_csv,
    read_inputs,
    read_pgn,
    result_in_file,
    time_control,
    tournament_ref,
)
from lichess_elo.sources.lichess.parse import parse_games
from lichess_elo.sources.lichess.tournaments import games_from_lichess
from tests import helpers

DATA = helpers.DATA / "club"
F = Path("f")


@pytest.mark.parametrize(
    ("text", "score"),
    [
        *[("1", "1"), ("0.5", "0.5"), ("0", "0"), ("1-0", "1"), ("½-½", "0.5"), ("0-1", "0")],
        *[("1/2-1/2", "0.5"), ("½", "0.5"), (" 1 - 0 ", "1")],
        # the same spellings in every command
        *[("1:0", "1"), ("1/2", "0.5"), ("draw", "0.5"), ("=", "0.5"), ("0:1", "0")],
        *[("w", "1"), ("d", "0.5"), ("l", "0")],
    ],
)
def test_results_from_a_side(text: str, score: str) -> None:
    assert result_in_file(text, F, 2) == (Decimal(score), False)


@pytest.mark.parametrize(("text", "score"), [("+:-", "1"), ("-:+", "0"), ("+-", "1"), ("-+", "0")])
def test_forfeits_are_recorded_and_flagged(text: str, score: str) -> None:
    # FIDE rates no forfeit: the result stands (+:- means White won), the flag keeps it
    # out of the rating.
    assert result_in_file(text, F, 2) == (Decimal(score), True)


# "w", "d" and "l" are results too: every command reads one set of spellings (core.games).
@pytest.mark.parametrize("text", ["2", "1-1", "x", "0.7", "", "2-0"])
def test_bad_results(text: str) -> None:
    with pytest.raises(BadInput, match="f:2: field result"):
        result_in_file(text, F, 2)


def test_dates() -> None:
    assert parse_day("2026-03-07", F, 2) == date(2026, 3, 7)
    assert parse_day("2026.03.07", F, 2) == date(2026, 3, 7)
    assert parse_day("7.3.2026", F, 2) == date(2026, 3, 7)
    for bad in ("2026-02-30", "03/07/2026", "yesterday"):
        with pytest.raises(BadInput, match="f:2: field date"):
            parse_day(bad, F, 2)


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
    with pytest.raises(BadFile, match=r"club\.toml: not a \.csv or \.pgn file") as err:
        read_inputs([str(toml)])
    assert "--" not in str(err.value)


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
    options = ClubOptions.from_text(
        k=["25", "children=30", "Ania Nowak=50"], start=["beginner=700"], update="game"
    )
    new = options.apply(rules, {"children"})
    assert (new.k, new.k_groups["children"], new.k_players["ania nowak"]) == (25, 30, 50)
    # "beginner" is not a group of the players passed, but club.toml names it as a group
    assert new.start_players == {} and new.start_groups["beginner"] == 700
    assert (new.update, new.method) == ("game", "formula")


def test_toml_errors_are_bad_files_with_the_line(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text("k = 20\n\n[target]\nstep = 0\n", encoding="utf-8")
    with pytest.raises(BadFile) as err:
        read_rules(path)
    assert (err.value.path, err.value.line, err.value.field) == (path, 4, "config")
    assert err.value.problem == "key target.step: expected a whole number >= 1, got 0"
    with pytest.raises(BadFile, match="cannot read the rules file"):
        read_rules(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("rapid", "rapid"),
        ("ultraBullet", "ultraBullet"),
        ("Correspondence", "Correspondence"),  # matched without regard to case
        ("15+10", "15+10"),  # minutes, as a club writes it
        ("900+10", "15+10"),  # PGN's seconds: 900 s = 15 min
        ("5400+30", "90+30"),  # 5400 s = 90 min
        ("180+2", "180+2"),  # a base of 180 or less is minutes
        (" 3 + 2 ", "3+2"),
        ("15+*", "15+*"),
        ("?+0", "?+0"),
        ("abc", None),
        ("15 min", None),
        ("", None),
    ],
)
def test_time_control_patterns(text: str, pattern: str | None) -> None:
    assert time_control_pattern(text) == pattern


def test_time_control_option_and_speeds() -> None:
    options = ClubOptions(count_time_controls=("900+10", "blitz"))
    assert options.time_controls() == ("15+10", "blitz")
    with pytest.raises(BadInput, match=r"^counted time control 'abc' is not a time control"):
        ClubOptions(count_time_controls=("rapid", "abc")).check()
    # Lichess's speed: initial + 40 x increment seconds; under 30 is ultraBullet:
    # 0.25+0 -> 15 s; 0.5+0 -> 30 s is bullet
    assert time_control_speed("0.25+0") == "ultraBullet"
    assert time_control_speed("0.5+0") == "bullet"


def test_club_toml_time_controls_checked(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('k = 20\n\n[count]\ntime_controls = ["rapid", "abc"]\n', encoding="utf-8")
    with pytest.raises(BadInput, match=r"club\.toml:4: key count\.time_controls: 'abc' is not"):
        read_rules(path)
    path.write_text('[count]\ntime_controls = ["900+10", "Blitz"]\n', encoding="utf-8")
    assert read_rules(path).count_time_controls == ("15+10", "Blitz")


def test_club_toml_missing_return_k_and_scalar_table(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    # the [return_k] header is on line 3 and has no k: the message points at the header
    path.write_text('update = "event"\n\n[return_k]\nafter_months = 3\n', encoding="utf-8")
    with pytest.raises(BadInput, match=r"club\.toml:3: key return_k\.k: missing"):
        read_rules(path)
    path.write_text("k = 20\ncount = 3\n", encoding="utf-8")
    with pytest.raises(BadInput, match=r"club\.toml:2: key count: expected a table"):
        read_rules(path)


def test_csv_time_control_in_seconds_and_correspondence(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    text = "date,white,black,result,time_control\n2026-03-07,A,B,1,900+10\n2026-03-08,A,B,0,G/90\n"
    into = Inputs()
    read_csv(path, text, into)
    # 900 s + 10 -> 15+10; a time control that is not BASE+INC is kept as written
    assert [g.time_control for g in into.games] == ["15+10", "G/90"]
    game = {
        "id": "cOrr1234", "rated": True, "variant": "standard", "speed": "correspondence",
        "perf": "correspondence", "createdAt": 1790874000000, "status": "resign",
        "players": {"white": {"user": {"name": "A", "id": "a"}, "rating": 1500},
                    "black": {"user": {"name": "B", "id": "b"}, "rating": 1500}},
        "winner": "white",
    }  # fmt: skip
    (club_game,) = games_from_lichess(list(parse_games([game])), name="T", where="swiss T")
    # no clock: the game is matched by its speed
    assert club_game.time_control == "correspondence"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        (ClubOptions(provisional=(0, 12)), "provisional"),
        (ClubOptions(count_time_controls=("15 min",)), "count_time_control"),
    ],
)
def test_library_refuses_bad_options_before_any_work(
    options: ClubOptions, field: str, tmp_path: Path
) -> None:
    from lichess_elo.app.club import ClubSettings, rate_club_files

    # The input does not exist and the rules file neither: the options are checked first.
    missing = tmp_path / "nope.csv"
    for settings in (options, ClubSettings(config=tmp_path / "nope.toml", options=options)):
        with pytest.raises(BadInput) as err:
            rate_club_files([str(missing)], settings)
        assert err.value.field == field
        assert not isinstance(err.value, BadFile)
        assert "--" not in str(err.value)


def test_players_file_marks_a_newcomers_rating_with_a_question_mark(tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_text(
        "name,rating,start\nAnia,1150?,\nBartek,1400,\nCelina,?,\nDawid,,900?\nEwa,12x?,\n",
        encoding="utf-8",
    )
    into = Inputs()
    with pytest.raises(BadFile, match=r"players.csv:6: field rating: '12x' is not a whole"):
        read_csv(path, path.read_text(encoding="utf-8"), into)
    path.write_text(path.read_text(encoding="utf-8").replace("Ewa,12x?,\n", ""), "utf-8")
    into = Inputs()
    read_csv(path, path.read_text(encoding="utf-8"), into)
    assert [(p.name, p.rating, p.start, p.provisional) for p in into.players] == [
        ("Ania", 1150, None, True),
        ("Bartek", 1400, None, False),
        ("Celina", None, None, True),
        ("Dawid", None, 900, True),
    ]


def test_publish_table_of_club_toml(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text("[publish]\nmin_games = 10\nhide_provisional = true\n", encoding="utf-8")
    rules = read_rules(path)
    assert (rules.min_games, rules.hide_provisional) == (10, True)
    path.write_text("[publish]\nmin_games = -1\n", encoding="utf-8")
    with pytest.raises(BadFile, match=r"club.toml:2: key publish.min_games: expected a whole"):
        read_rules(path)
    path.write_text('[publish]\nhide_provisional = "yes"\n', encoding="utf-8")
    with pytest.raises(BadFile, match=r"club.toml:2: key publish.hide_provisional: expected tr"):
        read_rules(path)
    path.write_text("[publish]\nhide = true\n", encoding="utf-8")
    with pytest.raises(BadFile, match=r"key publish.hide: unknown key \(known: hide_provisional"):
        read_rules(path)
    # the options win over the file
    new = ClubOptions(min_games=0, hide_provisional=False, junior=(40, 16)).apply(
        read_rules(DATA / "club.toml"), set()
    )
    assert (new.min_games, new.hide_provisional, new.junior_k, new.junior_age) == (
        0, False, 40, 16,
    )  # fmt: skip
