"""``ClubOptions``: the club's rule overrides, typed, checked by themselves, laid over rules."""

from __future__ import annotations

import pytest

from lichess_elo.core.club.model import Rules
from lichess_elo.core.club.options import ClubOptions, Override, parse_numbers, parse_override
from lichess_elo.errors import BadInput, Malformed, OutOfRange, UnknownChoice


def test_from_text_reads_every_shape() -> None:
    options = ClubOptions.from_text(
        k=["25", "children=30", "Ania Nowak=50"],
        start=["fide", "beginner=700"],
        provisional="40:12",
        return_k="40:6:5",
        update="game",
    )
    assert options.k == (Override(None, 25), Override("children", 30), Override("Ania Nowak", 50))
    assert options.start == (Override(None, "fide"), Override("beginner", 700))
    assert (options.provisional, options.return_k, options.update) == ((40, 12), (40, 6, 5), "game")
    options.check()


def test_apply_sets_groups_players_and_simple_rules() -> None:
    rules = Rules(start_groups={"beginner": 800}, k_groups={"children": 40})
    options = ClubOptions.from_text(
        k=["25", "children=30", "Ania Nowak=50"],
        start=["beginner=700"],
        provisional="40:12",
        return_k="35:6:5",
        method="fide-table",
        count_time_controls=("900+10", "blitz"),
    )
    new = options.apply(rules, groups=set())
    # "children" and "beginner" are groups of the rules, "Ania Nowak" is a player
    assert (new.k, dict(new.k_groups), dict(new.k_players)) == (
        25,
        {"children": 30},
        {"ania nowak": 50},
    )
    assert (dict(new.start_groups), dict(new.start_players)) == ({"beginner": 700}, {})
    assert (new.provisional_k, new.provisional_games) == (40, 12)
    assert (new.return_k, new.return_months, new.return_games) == (35, 6, 5)
    # 900 s + 10 is 15 minutes + 10; untouched options keep the file's rules
    assert new.count_time_controls == ("15+10", "blitz")
    assert (new.method, new.update, new.rounding) == ("fide-table", "event", "display")
    # a group of the players file counts as a group too
    kids = ClubOptions.from_text(k=["kids=45"]).apply(Rules(), groups={"kids"})
    assert dict(kids.k_groups) == {"kids": 45} and dict(kids.k_players) == {}


def test_a_players_start_cannot_be_fide() -> None:
    with pytest.raises(BadInput) as err:
        ClubOptions.from_text(start=["Ania=fide"]).apply(Rules(), groups=set())
    assert err.value.field == "start"
    assert str(err.value) == "start 'Ania=fide': fide is for the default or a group"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        # typed directly (not through from_text): K 0 is no K, as in club.toml (k >= 1)
        (ClubOptions(provisional=(0, 12)), "provisional"),
        (ClubOptions(return_k=(0, 6, 5)), "return_k"),
        (ClubOptions(return_k=(40, -1, 5)), "return_k"),
        (ClubOptions(k=(Override("kids", 0),)), "k"),
        (ClubOptions(start=(Override(None, 4001),)), "start"),
        (ClubOptions(count_time_controls=("rapid", "abc")), "count_time_control"),
        (ClubOptions(update="week"), "update"),  # type: ignore[arg-type]
    ],
)
def test_check_refuses_with_the_field(options: ClubOptions, field: str) -> None:
    with pytest.raises(BadInput) as err:
        options.check()
    assert err.value.field == field
    assert "--" not in str(err.value)


def test_check_error_kinds_and_words() -> None:
    with pytest.raises(BadInput, match=r"^provisional K:GAMES 0:12: K must be at least 1$"):
        ClubOptions(provisional=(0, 12)).check()
    with pytest.raises(OutOfRange, match=r"^start 4001 is outside 0\.\.4000$"):
        ClubOptions(start=(Override(None, 4001),)).check()
    with pytest.raises(Malformed, match=r"^counted time control 'abc' is not a time control; "):
        ClubOptions(count_time_controls=("abc",)).check()
    with pytest.raises(UnknownChoice):
        ClubOptions(method="elo").check()  # type: ignore[arg-type]


def test_text_shapes_are_malformed_with_the_field() -> None:
    assert parse_numbers("40:6:5", "return_k", ("K", "MONTHS", "GAMES"), "40:6:5") == (40, 6, 5)
    assert parse_numbers(None, "provisional", ("K", "GAMES"), "40:12") is None
    for text, field in (("40", "provisional"), ("0:12", "provisional"), ("²:12", "provisional")):
        # "²" is a digit to str.isdigit but not to int(): a message, not a ValueError
        with pytest.raises(Malformed) as err:
            ClubOptions.from_text(provisional=text)
        assert (err.value.field, err.value.value) == (field, text)
        assert "K:GAMES, e.g. 40:12 (K at least 1)" in str(err.value)
    with pytest.raises(Malformed, match=r"^return K:MONTHS:GAMES '40:6': expected K:MONTHS"):
        ClubOptions.from_text(return_k="40:6")
    for text, field in (("many", "k"), ("0", "k"), ("²", "k"), ("x", "start")):
        with pytest.raises(Malformed) as err:
            parse_override(text, field)
        assert err.value.field == field
    assert parse_override("beginner = 800", "start") == Override("beginner", 800)
