"""A chunk of a Lichess PGN dump's text read as one Arrow batch of its tags' raw text (an
edge; ``dump_arrow`` decompresses the chunks and runs this on them).

``parse_chunk`` reads it with the small C scanner (``pgnscan.c``, built when a compiler is
there) or else with numpy on the raw bytes; both follow the rules of ``dump_arrow``'s
docstring and give the same batch (``tests/integration/test_pgnscan.py``).

Each batch also holds each game's plies (``PLIES``), counted up to ``PLY_CAP`` (one more
than ``core.lichess_pgn.UNPLAYED_PLIES``: 0, 1 or "2 or more"), enough for the rule of
unplayed games. A game's movetext is its text after its header block up to the next header
block; in it a ``{`` opens a comment and a ``}`` closes it (across lines, never past the
game), and outside comments the bytes other than `` \t\r\n{}`` form words. A word holding
an ASCII letter is a ply: a SAN move always holds one (a piece, a file, the O of castling);
a move number (``12.``, ``12...``), a NAG (``$1``), a glyph (``!?``) and a result (``1-0``,
``0-1``, ``1/2-1/2``, ``*``) hold none. Lichess writes nothing else in movetext (no
variations, ``;`` comments or null moves); a variation's or a ``;`` comment's words would
count too (more plies: the game is kept), a zeros castling ``0-0`` or a null move ``--``
would not.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from lichess_elo.core.lichess_pgn import UNPLAYED_PLIES

try:  # the compiled scanner (setup.py builds it when a C compiler is there)
    from lichess_elo.sources.dump import pgnscan
except ImportError:  # pragma: no cover - an install without a compiler
    pgnscan = None  # type: ignore[assignment]

#: The column of each game's plies in a batch (int8), counted up to ``PLY_CAP``.
PLIES = "plies"
#: Plies are counted up to this many ("2 or more"): one more than the most an unplayed game
#: has, so that the count tells every unplayed game from a played one.
PLY_CAP = UNPLAYED_PLIES + 1

#: Bytes of a tag line compared after its ``[``: the longest name read and its space.
_KEY_BYTES = 16
#: Bytes a buffer holds past its text, so that the key of its last line reads in place.
SLACK = _KEY_BYTES + 8
_NL, _CR, _BRACKET, _QUOTE, _CLOSE, _SPACE = 10, 13, ord("["), ord('"'), ord("]"), ord(" ")
_TAB, _OPEN_COMMENT, _CLOSE_COMMENT = 9, ord("{"), ord("}")
#: Bytes of movetext first read for each game's plies (then four times more, for the games
#: not settled: a Lichess game's first two plies come within its first 60 bytes or so).
_PLY_WINDOW = 64


class TagTable:
    """The tags to read: ``name`` and a space, as a range of first words and a masked
    second word."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.schema = pa.schema(
            [("seq", pa.int64())] + [(n, pa.string()) for n in names] + [(PLIES, pa.int8())]
        )
        raws = [(n + " ").encode() for n in self.names]
        for name, raw in zip(self.names, raws, strict=True):
            if name == PLIES:
                raise ValueError(f"tag name {name!r}: the name of the plies column")
            if len(raw) > _KEY_BYTES or " " in name or not name:
                raise ValueError(f"tag name {name!r}: 1 to {_KEY_BYTES - 1} bytes, no space")
        value = np.zeros((len(raws), _KEY_BYTES), np.uint8)
        mask = np.zeros((len(raws), _KEY_BYTES), np.uint8)
        for i, raw in enumerate(raws):
            value[i, : len(raw)] = np.frombuffer(raw, np.uint8)
            mask[i, : len(raw)] = 0xFF
        # A line's first word (big-endian, so that a name is a prefix) falls in the range
        # of at most one name: [name and a space, then 0x00..., then 0xff...].
        first = [int.from_bytes(value[i, :8].tobytes(), "big") for i in range(len(raws))]
        free = [int.from_bytes((~mask[i, :8]).tobytes(), "big") for i in range(len(raws))]
        order = sorted(range(len(raws)), key=lambda i: first[i])
        for i, j in itertools.pairwise(order):
            if first[i] | free[i] >= first[j]:
                raise ValueError(f"tag names {names[i]!r}, {names[j]!r}: same first 8 bytes")
        self.low = np.array([first[i] for i in order], np.uint64)
        self.high = np.array([first[i] | free[i] for i in order], np.uint64)
        self.tag = np.array(order, np.int64)
        # The second word of each name, in the same order (masked: bytes past the space).
        self.value1 = value.view("<u8")[order, 1].copy()
        self.mask1 = mask.view("<u8")[order, 1].copy()
        self.skip = np.array([len(r) + 2 for r in raws], np.int64)  # '[', name, ' "'


def _tag_lines(chunk: Any, padded: np.ndarray, size: int) -> tuple[int, Any, Any, Any, Any]:
    """(games, game of each tag line, start, end, movetext) of the header blocks' lines in
    the first ``size`` bytes; ``end`` excludes the ``\\n`` and a ``\\r`` (looked for only
    when the text holds one); ``movetext``: each game's first and last byte + 1 of the text
    after its header block (from the blank line that ends it) up to the next game."""
    nl = np.flatnonzero(padded[:size] == _NL)
    # Line j runs from bound[j] + 1 to bound[j + 1]: a last line without its newline too,
    # and after a last newline an empty line, which changes nothing.
    bound = np.empty(len(nl) + 2, np.int64)
    bound[0] = -1
    bound[1:-1] = nl
    bound[-1] = size
    starts = bound[:-1] + 1
    first = padded[starts]  # a blank line's is its own newline
    finder = chunk if hasattr(chunk, "find") else bytes(chunk[:size])
    cr = finder.find(b"\r", 0, size) >= 0  # memchr: far cheaper than a pass of numpy
    if cr:
        length = bound[1:] - starts
        blank = (length == 0) | ((length == 1) & (first == _CR))
    else:
        blank = first == _NL
    blank[-1] |= starts[-1] >= size  # the empty line past the end (its byte is not text)
    bracket = first == _BRACKET
    opens = ~blank
    opens[1:] &= blank[:-1]  # the first line of each block
    header_block = opens & bracket
    # The block each line belongs to, and whether that block is a header block.
    block = np.cumsum(opens) - 1
    block_is_header = np.append(header_block[opens], False)  # [-1]: before any block
    rows = np.flatnonzero(bracket & block_is_header[block])
    game = np.cumsum(header_block) - 1
    ends = bound[rows + 1]
    if cr:
        ends -= padded[ends - 1] == _CR
    openers = np.flatnonzero(header_block)
    blanks = np.flatnonzero(blank)
    after = np.searchsorted(blanks, openers)  # the blank line that ends each header block
    ended = after < len(blanks)
    movetext = np.full((2, len(openers)), size, np.int64)
    movetext[0, ended] = np.minimum(starts[blanks[after[ended]]], size)
    movetext[1, :-1] = starts[openers[1:]]
    return len(openers), game[rows], starts[rows], ends, movetext


def _tag_of(padded: np.ndarray, starts: np.ndarray, tags: TagTable) -> np.ndarray:
    """The index in ``tags`` of each line's name (after its ``[``), -1 for another name."""
    every = np.ndarray((len(padded) - 7,), "<u8", padded, 0, (1,))  # a word at every byte
    key = every[starts + 1].byteswap()
    at = np.searchsorted(tags.low, key, side="right") - 1
    inside = at >= 0
    at[~inside] = 0
    hit = inside & (key <= tags.high[at])
    hit &= (every[starts + 9] & tags.mask1[at]) == tags.value1[at]
    return np.where(hit, tags.tag[at], -1)


def scanner() -> str:
    """``"c"`` when the compiled scanner (``pgnscan``) is built, else ``"numpy"``."""
    return "numpy" if pgnscan is None else "c"


def parse_chunk(chunk: Any, size: int, tags: TagTable, first_seq: int = 0) -> pa.RecordBatch:
    """The tags and the plies (``PLIES``) of the games in the first ``size`` bytes of
    ``chunk`` (bytes-like; whole games, Lichess PGN), by the compiled scanner when it is
    built, else by numpy (the two give the same batch). Bytes past ``size`` are never read
    as text."""
    if pgnscan is None:
        games, columns = _numpy_columns(chunk, size, tags)
    else:
        games, columns = _c_columns(chunk, size, tags)
    seq = int64_array(np.arange(first_seq, first_seq + games, dtype=np.int64))
    return pa.RecordBatch.from_arrays([seq, *columns], schema=tags.schema)


def int8_array(values: np.ndarray) -> pa.Array:
    """``values`` (int8) as an Arrow array on their buffer (as ``int64_array``)."""
    return pa.Array.from_buffers(pa.int8(), len(values), [None, pa.py_buffer(values)])


def int64_array(values: np.ndarray) -> pa.Array:
    """``values`` (int64) as an Arrow array on their buffer (``pa.array`` of a numpy array
    and ``pc.add`` import pandas when it is installed: 0.5 s at the first batch)."""
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def _c_columns(chunk: Any, size: int, tags: TagTable) -> tuple[int, list[pa.Array]]:
    """The games, the tag columns and the plies of ``parse_chunk``, found by ``pgnscan``;
    values all ASCII are strings as they are (no UTF-8 to check)."""
    assert pgnscan is not None
    games, valid, offsets, data, plain, plies = pgnscan.scan(chunk, size, tags.names, PLY_CAP)
    small = len(data) < 1 << 31
    if plain:
        kind = pa.string() if small else pa.large_string()
    else:
        kind = pa.binary() if small else pa.large_binary()
    count = len(tags.names)
    values = pa.Array.from_buffers(
        kind, count * games, [pa.py_buffer(valid), pa.py_buffer(offsets), pa.py_buffer(data)]
    )
    counted = pa.Array.from_buffers(pa.int8(), games, [None, pa.py_buffer(plies)])
    if plain and small:
        return games, [*(values.slice(i * games, games) for i in range(count)), counted]
    return games, [*_columns(values, games, count, small), counted]


def _numpy_columns(chunk: Any, size: int, tags: TagTable) -> tuple[int, list[pa.Array]]:
    """The games, the tag columns and the plies of ``parse_chunk``, found with numpy (a
    chunk without ``SLACK`` bytes past ``size`` is copied first)."""
    if len(chunk) < size + SLACK:
        chunk = bytes(chunk[:size]) + bytes(SLACK)
    padded = np.frombuffer(chunk, np.uint8)
    games, game, starts, ends, movetext = _tag_lines(chunk, padded, size)
    plies = _plies(padded, size, movetext[0], movetext[1])
    tag = _tag_of(padded, starts, tags)
    # A wanted name, a '"' after its space, at least '""]' after that: a whole tag line.
    # (Every byte read is inside the line or the padding, whatever the line.)
    begin = starts + tags.skip[tag]  # tag -1: any skip, the line is dropped below
    stop = ends - 2
    ok = (tag >= 0) & (begin <= stop) & (padded[begin - 1] == _QUOTE)
    ok &= (padded[stop] == _QUOTE) & (padded[stop + 1] == _CLOSE)  # stop -1: the padding
    keep = np.flatnonzero(ok)
    tag, game, begin, stop = tag[keep], game[keep], begin[keep], stop[keep]
    # One value per (tag, game): the last line gives it.
    slot = tag * games + game
    index = np.full(len(tags.names) * games, -1, np.int64)
    np.maximum.at(index, slot, np.arange(len(slot)))
    columns = _cut(chunk, size, begin, stop, index.reshape(len(tags.names), games))
    return games, [*columns, int8_array(plies)]


def _plies(padded: np.ndarray, size: int, first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Each game's plies up to ``PLY_CAP`` (int8), its movetext the bytes ``first[g]`` up to
    ``last[g]``: the first ``_PLY_WINDOW`` bytes of each, then four times more for the games
    whose count is not settled (under the cap, and more movetext to read)."""
    plies = np.zeros(len(first), np.int8)
    todo = np.arange(len(first))
    width = _PLY_WINDOW
    while len(todo):
        begin, end = first[todo], last[todo]
        at = begin[None, :] + np.arange(width)[:, None]  # byte by game: columns are games
        text = np.where(at < end[None, :], padded[np.minimum(at, size)], _SPACE)
        count = _window_plies(text)
        done = (count >= PLY_CAP) | (end - begin <= width)
        plies[todo[done]] = np.minimum(count[done], PLY_CAP)
        todo = todo[~done]
        width *= 4
    return plies


def _window_plies(text: np.ndarray) -> np.ndarray:
    """The plies of each column of ``text`` (bytes of movetext by games, each from its
    start): the words outside ``{}`` comments that hold a letter (``pgnscan.c``'s
    ``count_plies``)."""
    opens = text == _OPEN_COMMENT
    brace = opens | (text == _CLOSE_COMMENT)
    # A comment is open after a byte when the last brace up to it is a "{": each brace as
    # 2 * its row + 1 for "{", the running maximum is the last one (-1: none yet).
    row = np.arange(0, 2 * len(text), 2, dtype=np.int32)[:, None]
    last = np.maximum.accumulate(np.where(brace, row + opens, -1), axis=0)
    inside = np.zeros(text.shape, bool)
    inside[1:] = ((last[:-1] & 1) == 1) & (last[:-1] >= 0)
    word = (text != _SPACE) & (text != _TAB) & (text != _NL) & (text != _CR)
    word &= ~(inside | brace)
    lower = text | 0x20
    letter = word & (lower >= ord("a")) & (lower <= ord("z"))
    starts = word.copy()
    starts[1:] &= ~word[:-1]
    number = np.cumsum(starts, axis=0, dtype=np.int32)  # the word each byte is in
    # A letter counts when no letter before it is in its word (word numbers only rise).
    seen = np.maximum.accumulate(np.where(letter, number, 0), axis=0)
    before = np.zeros_like(seen)
    before[1:] = seen[:-1]
    counted: np.ndarray = np.count_nonzero(letter & (number != before), axis=0)
    return counted


def _cut(
    chunk: Any, size: int, begin: np.ndarray, stop: np.ndarray, index: np.ndarray
) -> list[pa.Array]:
    """One string column per row of ``index`` (value ``k``: the bytes ``begin[k]:stop[k]``
    of ``chunk``; -1: null); ``begin`` rises and the spans do not overlap."""
    # Offsets b0, e0, b1, e1, ...: element 2k is span k, element 2k+1 the bytes up to the
    # next one; the buffer is the chunk itself (no copy until ``take``).
    bounds = np.empty(2 * len(begin) + 1, np.int64)
    bounds[0:-1:2] = begin
    bounds[1::2] = stop
    bounds[-1] = size
    if not len(begin):
        bounds[0] = 0
    small = size < 1 << 31
    offsets = bounds.astype(np.int32) if small else bounds
    kind = pa.binary() if small else pa.large_binary()
    spans = pa.Array.from_buffers(
        kind, len(bounds) - 1, [None, pa.py_buffer(offsets), pa.py_buffer(chunk)]
    )
    flat = index.ravel()
    picked = pa.array(2 * flat, pa.int64(), mask=flat < 0)
    return _columns(spans.take(picked), index.shape[1], len(index), small)


def _columns(raw: pa.Array, games: int, count: int, small: bool) -> list[pa.Array]:
    """``raw`` (binary, ``large`` unless ``small``: ``count`` columns of ``games`` values one
    after the other) as ``count`` string columns."""
    text = pa.string() if small else pa.large_string()
    try:
        whole = raw.cast(text)
    except pa.ArrowInvalid:  # invalid UTF-8: replaced, never fatal (column by column)
        return [_text(raw.slice(i * games, games), text) for i in range(count)]
    return [whole.slice(i * games, games).cast(pa.string()) for i in range(count)]


def _text(raw: pa.Array, text: pa.DataType) -> pa.Array:
    """``raw`` (binary) as strings, invalid UTF-8 replaced by U+FFFD."""
    try:
        return raw.cast(text).cast(pa.string())
    except pa.ArrowInvalid:
        return pa.array(
            [None if b is None else b.decode("utf-8", "replace") for b in raw.to_pylist()],
            pa.string(),
        )
