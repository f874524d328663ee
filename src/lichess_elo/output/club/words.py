"""The words of the club's pages in the club's language (``[page] language``).

An edge module: the wording table is one file, ``data/club_words.toml`` (one table per
language; a key a language leaves out is taken from English), so a club adds its language
by adding a table. ``Words`` fills a key's ``{placeholders}`` and picks the form of a word
after a number by the language's plural rule.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

#: The language whose table every other falls back to.
FALLBACK = "en"


@cache
def _table() -> Mapping[str, Mapping[str, Any]]:
    text = resources.files("lichess_elo").joinpath("data", "club_words.toml").read_text("utf-8")
    return tomllib.loads(text)


def languages() -> tuple[str, ...]:
    """The languages shipped (the tables of ``data/club_words.toml``), sorted."""
    return tuple(sorted(_table()))


def _form(rule: str, count: int) -> int:
    """Which form of a word follows ``count``: English 0 one, 1 other; Polish 0 one, 1 few
    (2-4, 22-24, ... but not 12-14), 2 many."""
    if count == 1:
        return 0
    if rule == "pl" and count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return 1
    return 2 if rule == "pl" else 1


class Words:
    """The words of one language (``KeyError`` for a language not shipped)."""

    def __init__(self, language: str = FALLBACK) -> None:
        self.language = language
        self._own = _table()[language]
        self._en = _table()[FALLBACK]

    def keys(self) -> set[str]:
        """The keys this language's own table gives (without the English fallback)."""
        return set(self._own)

    def raw(self, key: str) -> Any:
        """The table's value of ``key`` (English when the language lacks it)."""
        return self._own.get(key, self._en[key])

    def __call__(self, key: str, **values: object) -> str:
        """The text of ``key`` with its ``{placeholders}`` filled."""
        text: str = self.raw(key)
        return text.format(**values) if values else text

    def count(self, count: int, key: str) -> str:
        """``count`` and the word ``key`` in its form after it: ``3 games``, ``5 partii``."""
        forms = self.raw(key)
        # an English word (a key the language lacks) takes the English rule
        rule = FALLBACK if key not in self._own else self.raw("plural")
        index = min(_form(rule, count), len(forms) - 1)
        return f"{count} {forms[index]}"

    def number(self, value: float, places: int = 1) -> str:
        """``value`` signed, with ``places`` decimals and the language's decimal mark."""
        return f"{value:+.{places}f}".replace(".", self.raw("decimal"))
