"""The club pages' words (``data/club_words.toml``, ``output/club/words.py``): every
language has every key, numbers take the right form of the word after them, and points are
written one way (issue #40)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from lichess_elo.output.club.ladder import points_text
from lichess_elo.output.club.words import Words, languages


def test_the_languages_shipped() -> None:
    assert languages() == ("en", "pl")


@pytest.mark.parametrize("language", ["pl"])
def test_every_language_has_every_key_and_placeholder(language: str) -> None:
    en, other = Words("en"), Words(language)
    keys = en.keys()  # the English table is the full list of keys
    assert keys <= other.keys(), keys - other.keys()
    for key in keys:
        if isinstance(en.raw(key), str):
            wanted = set(re.findall(r"{(\w+)", en.raw(key)))
            found = set(re.findall(r"{(\w+)", other.raw(key)))
            # a language may leave a placeholder unused (Polish says {count} for {wins})
            assert found <= wanted | {"count"}, (key, found - wanted)


@pytest.mark.parametrize(
    ("count", "english", "polish"),
    [
        # Polish: 1 partia; 2-4 partie (also 22-24, 102-104); else partii (5-21, 12-14, 25...)
        (1, "1 game", "1 partia"),
        (2, "2 games", "2 partie"),
        (4, "4 games", "4 partie"),
        (5, "5 games", "5 partii"),
        (12, "12 games", "12 partii"),
        (14, "14 games", "14 partii"),
        (22, "22 games", "22 partie"),
        (25, "25 games", "25 partii"),
        (0, "0 games", "0 partii"),
    ],
)
def test_a_number_takes_its_form_of_the_word(count: int, english: str, polish: str) -> None:
    assert Words("en").count(count, "games") == english
    assert Words("pl").count(count, "games") == polish


def test_numbers_take_the_languages_decimal_mark() -> None:
    assert Words("en").number(20.0) == "+20.0"
    assert Words("pl").number(20.0) == "+20,0"


@pytest.mark.parametrize(
    ("points", "text"),
    [("3", "3"), ("3.0", "3"), ("2.5", "2½"), ("0.5", "½"), ("0", "0"), ("0.0", "0"),
     ("10.5", "10½")],
)  # fmt: skip
def test_points_are_written_one_way(points: str, text: str) -> None:
    assert points_text(Decimal(points)) == text
