"""The JSON report's game lines, written without building a dict per game.

An edge module (it writes text). ``game_lines`` gives, for each ``GameRow``, exactly the
text ``json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode`` makes of the
game's dict (``output.report._game_json``): the keys in the same order, strings escaped by
the same C function the encoder calls, numbers by the same ``repr``. It fills one format
string per game instead of making four dicts, and remembers the few text forms of the
Decimals (scores, FIDE's expected scores and changes) and the timestamps' prefixes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from decimal import Decimal
from json.encoder import encode_basestring
from typing import TYPE_CHECKING

from lichess_elo.core.games import game_url

if TYPE_CHECKING:
    from lichess_elo.core.report.model import GameRow

#: One game's line; each ``%s`` takes a value's JSON text.
_LINE = (
    '{"id": %s, "url": %s, "played_at": %s, "period": %s, "color": %s, "opponent": %s, '
    '"opponent_title": %s, "opponent_rating": %s, "opponent_provisional": %s, '
    '"score": %s, "status": %s, "endings": %s, '
    '"lichess": {"rating": %s, "diff": %s, "provisional": %s}, '
    '"elo": {"rating": %s, "expected": %s, "k": %s, "change": %s}, '
    '"replay": {"valid": %s, "plies": %s}, "gap_before": %s, "gap_cause": %s, '
    '"flags": %s, "chapter": %s, "not_rated": %s}'
)


def _number(value: Decimal, places: int) -> str:
    """``output.report._num``'s number as the encoder writes it."""
    number = float(value)
    return repr(int(number)) if number.is_integer() else repr(round(number, places))


def _optional(value: object) -> str:
    """An int, a bool, a str or None as the encoder writes it."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return encode_basestring(value)
    return repr(value)


def _strings(values: Iterable[str]) -> str:
    """A list of strings as the encoder writes it."""
    return "[" + ", ".join(map(encode_basestring, values)) + "]"


class _Texts:
    """The text forms seen so far (a few hundred values repeat over many games)."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[Decimal, int], str] = {}
        self.strings: dict[str, str] = {}
        self.days: dict[tuple[int, int, int], str] = {}

    def number(self, value: Decimal, places: int) -> str:
        key = (value, places)
        text = self.numbers.get(key)
        if text is None:
            text = self.numbers[key] = _number(value, places)
        return text

    def string(self, value: str | None) -> str:
        if value is None:
            return "null"
        text = self.strings.get(value)
        if text is None:
            text = self.strings[value] = encode_basestring(value)
        return text

    def timestamp(self, when: datetime) -> str:
        """``output.common.iso_utc`` in quotes (the day's part remembered)."""
        if when.tzinfo is not UTC:
            when = when.astimezone(UTC)
        day = self.days.get((when.year, when.month, when.day))
        if day is None:
            day = when.strftime('"%Y-%m-%dT')
            self.days[when.year, when.month, when.day] = day
        return f'{day}{when.hour:02d}:{when.minute:02d}:{when.second:02d}Z"'


_BOOL = {True: "true", False: "false", None: "null"}


def game_lines(rows: Iterable[GameRow]) -> Iterator[str]:
    """Each row's JSON line, byte for byte the encoder's text of its ``_game_json`` dict."""
    texts = _Texts()
    string, number = texts.string, texts.number
    for row in rows:
        plies = row.plies
        yield _LINE % (
            encode_basestring(row.id),
            encode_basestring(game_url(row.id)),
            texts.timestamp(row.played_at),
            string(row.period),
            string(row.color),
            string(row.opponent),
            string(row.opponent_title),
            repr(row.opponent_rating),
            _BOOL[row.opponent_provisional],
            number(row.score, 2),
            string(row.status),
            _strings(row.endings) if row.endings else "[]",
            repr(row.lichess_rating),
            repr(row.lichess_diff),
            _BOOL[row.provisional],
            repr(row.elo_rating),
            number(row.expected, 4),
            repr(row.k),
            number(row.elo_change, 4),
            _BOOL[row.replay_valid],
            "null" if plies is None else repr(plies),
            _optional(row.gap_before),
            string(row.gap_cause),
            _strings(row.flags),
            string(row.chapter),
            string(row.not_rated),
        )
