"""A chunk of a Lichess PGN dump's text read as one Arrow batch of its tags' raw text (an
edge; ``dump_arrow`` decompresses the chunks and runs this on them).

``parse_chunk`` reads it with the small C scanner (``pgnscan.c``, built when a compiler is
there) or else with numpy on the raw bytes; both follow the rules of ``dump_arrow``'s
docstring and give the same batch (``tests/integration/test_pgnscan.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

try:  # the compiled scanner (setup.py builds it when a C compiler is there)
    from lichess_elo.sources.dump import pgnscan
except ImportError:  # pragma: no cover - an install without a compiler
    pgnscan = None  # type: ignore[assignment]

#: Bytes of a tag line compared after its ``[``: the longest name read and its space.
_KEY_BYTES = 16
#: Bytes a buffer holds past its text, so that the key of its last line reads in place.
SLACK = _KEY_BYTES + 8
_NL, _CR, _BRACKET, _QUOTE, _CLOSE, _SPACE = 10, 13, ord("["), ord('"'), ord("]"), ord(" ")


class TagTable:
    """The tags to read: ``name`` and a space, as a range of first words and a masked
    second word."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.schema = pa.schema([("seq", pa.int64())] + [(n, pa.string()) for n in names])
        raws = [(n + " ").encode() for n in self.names]
        for name, raw in zip(self.names, raws, strict=True):
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


def _tag_lines(chunk: Any, padded: np.ndarray, size: int) -> tuple[int, Any, Any, Any]:
    """(games, game of each tag line, start, end) of the header blocks' lines in the first
    ``size`` bytes; ``end`` excludes the ``\\n`` and a ``\\r`` (looked for only when the
    text holds one)."""
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
    return int(np.count_nonzero(header_block)), game[rows], starts[rows], ends


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
    """The tags of the games in the first ``size`` bytes of ``chunk`` (bytes-like; whole
    games, Lichess PGN), by the compiled scanner when it is built, else by numpy (the two
    give the same batch). Bytes past ``size`` are never read as text."""
    if pgnscan is None:
        games, columns = _numpy_columns(chunk, size, tags)
    else:
        games, columns = _c_columns(chunk, size, tags)
    seq = int64_array(np.arange(first_seq, first_seq + games, dtype=np.int64))
    return pa.RecordBatch.from_arrays([seq, *columns], schema=tags.schema)


def int64_array(values: np.ndarray) -> pa.Array:
    """``values`` (int64) as an Arrow array on their buffer (``pa.array`` of a numpy array
    and ``pc.add`` import pandas when it is installed: 0.5 s at the first batch)."""
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def _c_columns(chunk: Any, size: int, tags: TagTable) -> tuple[int, list[pa.Array]]:
    """The games and the tag columns of ``parse_chunk``, found by ``pgnscan``; values all
    ASCII are strings as they are (no UTF-8 to check)."""
    assert pgnscan is not None
    games, valid, offsets, data, plain = pgnscan.scan(chunk, size, tags.names)
    small = len(data) < 1 << 31
    if plain:
        kind = pa.string() if small else pa.large_string()
    else:
        kind = pa.binary() if small else pa.large_binary()
    count = len(tags.names)
    values = pa.Array.from_buffers(
        kind, count * games, [pa.py_buffer(valid), pa.py_buffer(offsets), pa.py_buffer(data)]
    )
    if plain and small:
        return games, [values.slice(i * games, games) for i in range(count)]
    return games, _columns(values, games, count, small)


def _numpy_columns(chunk: Any, size: int, tags: TagTable) -> tuple[int, list[pa.Array]]:
    """The games and the tag columns of ``parse_chunk``, found with numpy (a chunk without
    ``SLACK`` bytes past ``size`` is copied first)."""
    if len(chunk) < size + SLACK:
        chunk = bytes(chunk[:size]) + bytes(SLACK)
    padded = np.frombuffer(chunk, np.uint8)
    games, game, starts, ends = _tag_lines(chunk, padded, size)
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
    return games, _cut(chunk, size, begin, stop, index.reshape(len(tags.names), games))


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
