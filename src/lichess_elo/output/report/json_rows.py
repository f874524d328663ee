"""The JSON report's game lines, written without building a dict per game.

An edge module (it writes text). ``game_lines`` gives, for each ``GameRow``, exactly the
text ``json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode`` makes of the
game's dict (``output.report.json._game_json``): the keys in the same order, strings escaped by
the same C function the encoder calls, numbers by the same ``repr``. It works a column at a
time over a block of rows: each field's values are read and turned into text by C calls
(``attrgetter``, ``map``, the dicts' lookups), each distinct value's text made once (a few
hundred Decimals, strings and lists repeat over many games), and one format string a game
is filled from the columns, so no Python code runs per game but the ``flags`` property.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from itertools import islice, repeat
from json.encoder import encode_basestring
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any

from lichess_elo.core.games import game_url

if TYPE_CHECKING:
    from lichess_elo.core.report.model import GameRow

#: The game page's text up to the id: ``game_url``'s prefix, escaped (plain ASCII, so the
#: escaped id without its opening quote completes it).
_URL = encode_basestring(game_url(""))[:-1]
#: Rows turned into text at once (a block of columns, not the whole report).
_BLOCK = 2048

_BOOL = {True: "true", False: "false", None: "null"}


def _number(value: Decimal, places: int) -> str:
    """``output.report.json._num``'s number as the encoder writes it."""
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


class _Strings(dict[str | None, str]):
    """A string's (or None's) JSON text, made once per string."""

    def __missing__(self, key: str | None) -> str:
        text = self[key] = "null" if key is None else encode_basestring(key)
        return text


class _Lists(dict[tuple[str, ...], str]):
    """A tuple of strings' JSON list, made once per tuple."""

    def __missing__(self, key: tuple[str, ...]) -> str:
        text = self[key] = _strings(key)
        return text


class _Optionals(dict[object, str]):
    """An optional int's JSON text, made once per value."""

    def __missing__(self, key: object) -> str:
        text = self[key] = _optional(key)
        return text


class _Numbers(dict[Decimal, str]):
    """``_number`` of a Decimal at ``places``, made once per value."""

    def __init__(self, places: int) -> None:
        super().__init__()
        self.places = places

    def __missing__(self, key: Decimal) -> str:
        text = self[key] = _number(key, self.places)
        return text


class _Texts:
    """The text forms seen so far, for every block of a report."""

    def __init__(self) -> None:
        self.strings = _Strings()
        self.lists = _Lists()
        self.optionals = _Optionals()
        self.hundredths = _Numbers(2)
        self.ten_thousandths = _Numbers(4)
        self.days: dict[tuple[int, int, int], str] = {}

    def timestamp(self, when: datetime) -> str:
        """``output.common.iso_utc`` in quotes (the day's part remembered)."""
        if when.tzinfo is not UTC:
            when = when.astimezone(UTC)
        day = self.days.get((when.year, when.month, when.day))
        if day is None:
            day = when.strftime('"%Y-%m-%dT')
            self.days[when.year, when.month, when.day] = day
        return f'{day}{when.hour:02d}:{when.minute:02d}:{when.second:02d}Z"'

    def timestamps(self, whens: Sequence[datetime]) -> Iterable[str]:
        """``timestamp`` of each: in UTC from year 1000 on (every Lichess game), the first
        19 characters of ``isoformat`` (``YYYY-MM-DDTHH:MM:SS``, which ``strftime`` writes
        the same), in C; else one at a time."""
        if all(map(is_, map(_TZ, whens), repeat(UTC))) and min(map(_YEAR, whens)) >= 1000:
            return map('"%.19sZ"'.__mod__, map(datetime.isoformat, whens))
        return map(self.timestamp, whens)


_TZ = attrgetter("tzinfo")
_YEAR = attrgetter("year")


def _column(rows: Sequence[GameRow], name: str) -> list[object]:
    return list(map(attrgetter(name), rows))


def _block_lines(rows: Sequence[GameRow], texts: _Texts) -> Iterator[str]:
    """The lines of a block of rows, a column at a time."""

    def looked_up(table: Mapping[Any, str], name: str) -> Iterator[str]:
        """Each row's ``name`` field, as its text in ``table``."""
        return map(table.__getitem__, map(attrgetter(name), rows))

    def strings(name: str) -> Iterator[str]:
        return looked_up(texts.strings, name)

    def bools(name: str) -> Iterator[str]:
        return looked_up(_BOOL, name)

    def raw(name: str) -> Iterator[object]:
        return map(attrgetter(name), rows)

    ids = list(map(encode_basestring, map(attrgetter("id"), rows)))
    columns = zip(
        ids,
        map(str.__getitem__, ids, repeat(slice(1, None))),
        texts.timestamps(list(map(attrgetter("played_at"), rows))),
        strings("period"),
        strings("color"),
        strings("opponent"),
        strings("opponent_title"),
        raw("opponent_rating"),
        bools("opponent_provisional"),
        looked_up(texts.hundredths, "score"),
        strings("status"),
        looked_up(texts.lists, "endings"),
        looked_up(texts.optionals, "lichess_rating"),  # None: not published nor implied
        looked_up(texts.optionals, "lichess_diff"),
        bools("provisional"),
        raw("elo_rating"),
        looked_up(texts.ten_thousandths, "expected"),
        raw("k"),
        looked_up(texts.ten_thousandths, "elo_change"),
        bools("replay_valid"),
        looked_up(texts.optionals, "plies"),
        looked_up(texts.optionals, "gap_before"),
        strings("gap_cause"),
        looked_up(texts.lists, "flags"),
        strings("chapter"),
        strings("not_rated"),
        strict=True,
    )
    # one f-string a game (faster than ``%`` with 26 values); an int's text is its ``str``,
    # the same as its ``repr``
    url = _URL
    return (
        f'{{"id": {id_}, "url": {url}{tail}, "played_at": {at}, "period": {period}, '
        f'"color": {color}, "opponent": {opp}, "opponent_title": {title}, '
        f'"opponent_rating": {opp_rating}, "opponent_provisional": {opp_prov}, '
        f'"score": {score}, "status": {status}, "endings": {endings}, '
        f'"lichess": {{"rating": {rating}, "diff": {diff}, "provisional": {prov}}}, '
        f'"elo": {{"rating": {elo}, "expected": {expected}, "k": {k}, "change": {change}}}, '
        f'"replay": {{"valid": {valid}, "plies": {plies}}}, "gap_before": {gap}, '
        f'"gap_cause": {cause}, "flags": {flags}, "chapter": {chapter}, '
        f'"not_rated": {not_rated}}}'
        for (
            id_, tail, at, period, color, opp, title, opp_rating, opp_prov, score, status,
            endings, rating, diff, prov, elo, expected, k, change, valid, plies, gap, cause,
            flags, chapter, not_rated,
        ) in columns
    )  # fmt: skip


def game_lines(rows: Iterable[GameRow]) -> Iterator[str]:
    """Each row's JSON line, byte for byte the encoder's text of its ``_game_json`` dict."""
    texts = _Texts()
    remaining = iter(rows)
    while block := list(islice(remaining, _BLOCK)):
        yield from _block_lines(block, texts)
