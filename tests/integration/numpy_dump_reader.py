"""The numpy dump reader that ``sources/dump/arrow.py`` replaced (``db ingest`` until
2026-12-02), kept here only as the reference of the differential test
(``test_dump_arrow.py``): the same batches, the same database.

Its header tags are ``core.population.schema.HEADERS``; a chunk is read as lines with numpy
on the raw bytes and each wanted tag found by comparing the bytes after ``[`` with its name.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from lichess_elo.core.population.schema import HEADERS
from lichess_elo.sources.dump.zstd import Frames, zstd_faults

SCHEMA = pa.schema([("seq", pa.int64())] + [(h, pa.string()) for h in HEADERS])
#: Called with (games so far, bytes of the file consumed so far).
Progress = Callable[[int, int], None]

#: Decompressed bytes per chunk: large enough for numpy, small enough for memory.
CHUNK_BYTES = 32 << 20
#: Chunks parsed at once, in threads, while the next chunk is decompressed (batches still
#: come out in file order). One: on two cores, decompression and DuckDB take the other.
PARSERS = 1

#: Bytes of a tag line compared after its ``[``: the longest wanted name and its space.
_KEY_BYTES = 16
#: Bytes a buffer holds past its text, so that the key of its last line reads in place.
SLACK = _KEY_BYTES + 8
_NL, _CR, _BRACKET, _QUOTE, _CLOSE = 10, 13, ord("["), ord('"'), ord("]")


def _key(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(value, mask) as two little-endian words: ``name`` and a space, then anything."""
    raw = (name + " ").encode()
    if len(raw) > _KEY_BYTES:
        raise ValueError(f"tag name {name!r} longer than {_KEY_BYTES - 1} bytes")
    value = np.zeros(_KEY_BYTES, np.uint8)
    value[: len(raw)] = np.frombuffer(raw, np.uint8)
    mask = np.zeros(_KEY_BYTES, np.uint8)
    mask[: len(raw)] = 0xFF
    return value.view("<u8"), mask.view("<u8")


_KEYS = {name: _key(name) for name in HEADERS}


def _lines(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(start, end) of every line of ``a``; ``end`` excludes the ``\\n`` and a ``\\r``."""
    if not len(a):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    nl = np.flatnonzero(a == _NL)
    starts = np.empty(len(nl) + 1, np.int64)
    starts[0] = 0
    starts[1:] = nl + 1
    ends = np.empty_like(starts)
    ends[:-1] = nl
    ends[-1] = len(a)
    if len(a) and a[-1] == _NL:  # no line after the last newline
        starts, ends = starts[:-1], ends[:-1]
    last = np.maximum(ends - 1, 0)
    ends = ends - ((ends > starts) & (a[last] == _CR))
    return starts, ends


def _tag_lines(a: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """(games, game of each tag line, start, end) of the header blocks' lines."""
    starts, ends = _lines(a)
    blank = ends == starts
    first = np.where(blank, 0, a[np.minimum(starts, max(len(a) - 1, 0))])
    opens = ~blank
    opens[1:] &= blank[:-1]  # the first line of each block
    header_block = opens & (first == _BRACKET)
    # The block each line belongs to, and whether that block is a header block.
    block = np.cumsum(opens) - 1
    block_is_header = np.append(header_block[opens], False)  # [-1]: before any block
    tagged = ~blank & (first == _BRACKET) & block_is_header[block]
    game = np.cumsum(header_block) - 1
    rows = np.flatnonzero(tagged)
    return int(header_block.sum()), game[rows], starts[rows], ends[rows]


def _last(game: np.ndarray) -> np.ndarray:
    """Mask of the last entry of each run of a non-decreasing ``game`` (a tag given twice
    keeps its last value)."""
    last = np.ones(len(game), bool)
    last[:-1] = game[1:] != game[:-1]
    return last


def _columns(
    a: np.ndarray, games: int, spans: list[tuple[np.ndarray, np.ndarray, np.ndarray]]
) -> list[pa.Array]:
    """One string column of ``games`` slots per (game, begin, end) of ``spans``: the bytes
    ``a[begin:end]`` for the games listed, null for the others.

    Every value is copied once into one buffer that the columns share.
    """
    width = len(spans)
    lengths = np.zeros((width, games), np.int64)
    begins = np.zeros((width, games), np.int64)
    valid = np.zeros((width, games), bool)
    for i, (game, begin, end) in enumerate(spans):
        lengths[i, game] = end - begin
        begins[i, game] = begin
        valid[i, game] = True
    offsets = np.zeros(width * games + 1, np.int64)
    np.cumsum(lengths.ravel(), out=offsets[1:])
    total = int(offsets[-1])
    flat = lengths.ravel()
    at = np.repeat(begins.ravel() - offsets[:-1], flat) + np.arange(total)
    data = pa.py_buffer(a[at])
    small = total < 1 << 31  # 32-bit offsets unless one chunk holds 2 GB of values
    text, binary = (pa.string(), pa.binary()) if small else (pa.large_string(), pa.large_binary())
    offsets = offsets.astype(np.int32) if small else offsets
    columns = []
    for i in range(width):
        bitmap = pa.py_buffer(np.packbits(valid[i], bitorder="little"))
        window = pa.py_buffer(offsets[i * games : (i + 1) * games + 1])
        column = pa.Array.from_buffers(text, games, [bitmap, window, data])
        try:
            column.validate(full=True)
        except pa.ArrowInvalid:  # invalid UTF-8: replaced, never fatal
            raw = pa.Array.from_buffers(binary, games, [bitmap, window, data])
            column = pa.array(
                [None if b is None else b.decode("utf-8", "replace") for b in raw.to_pylist()],
                text,
            )
        columns.append(column.cast(pa.string()))
    return columns


def parse_chunk(chunk: Any, size: int, first_seq: int = 0) -> pa.RecordBatch:
    """The header columns of the games in the first ``size`` bytes of ``chunk`` (bytes-like;
    whole games, Lichess PGN). Bytes past ``size`` are never read as text: a chunk without
    ``SLACK`` of them is copied first."""
    if len(chunk) < size + SLACK:
        chunk = bytes(chunk[:size]) + bytes(SLACK)
    padded = np.frombuffer(chunk, np.uint8)
    a = padded[:size]
    games, game, starts, ends = _tag_lines(a)
    # A tag line cut short (no closing '"]') counts as absent.
    whole = ends - starts >= 4
    at_end = np.where(whole, ends, 2)
    whole &= (a[at_end - 1] == _CLOSE) & (a[at_end - 2] == _QUOTE)
    game, starts, ends = game[whole], starts[whole], ends[whole]
    words = _words(padded, starts + 1)
    spans = []
    for name in HEADERS:
        value, mask = _KEYS[name]
        hit = (words[0] & mask[0]) == value[0]
        if mask[1]:
            hit &= (words[1] & mask[1]) == value[1]
        rows = np.flatnonzero(hit)
        begin = starts[rows] + len(name) + 3  # after '[', the name, ' "'
        end = ends[rows] - 2
        ok = (begin <= end) & (a[np.minimum(begin - 1, len(a) - 1)] == _QUOTE)
        rows, begin, end = rows[ok], begin[ok], end[ok]
        last = _last(game[rows])
        spans.append((game[rows][last], begin[last], end[last]))
    seq = pa.array(np.arange(first_seq, first_seq + games, dtype=np.int64))
    return pa.RecordBatch.from_arrays([seq, *_columns(a, games, spans)], schema=SCHEMA)


def _words(a: np.ndarray, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two little-endian 8-byte words of ``a`` at each of ``at``; ``a`` must hold
    ``SLACK`` bytes past the last ``at``."""
    every = np.ndarray((len(a) - 7,), "<u8", a, 0, (1,))  # a word at every byte
    return every[at], every[at + 8]


def _boundary(buf: bytearray, size: int) -> int:
    """Where the last game of ``buf[:size]`` starts (after a blank line, at its ``[``), or
    -1; a blank line may end in ``\\r\\n``."""
    lf = buf.rfind(b"\n\n[", 0, size)
    crlf = buf.rfind(b"\n\r\n[", max(lf, 0), size)
    return max(lf + 2 if lf >= 0 else -1, crlf + 3 if crlf >= 0 else -1)


def _fill(reader: Any, buf: bytearray, carry: bytes) -> tuple[bytearray, int, bool]:
    """``carry`` then decompressed text into ``buf`` (up to ``SLACK`` before its end) until
    it is full with a game boundary in it, or the stream ends. Returns the buffer (a larger
    one when a single game did not fit), the length of its text and whether the stream
    ended."""
    size = len(carry)
    buf[:size] = carry
    while True:
        room = len(buf) - SLACK
        with memoryview(buf) as view:
            while size < room:
                got = reader.readinto(view[size:room])
                if not got:
                    return buf, size, True
                size += got
        if _boundary(buf, size) > 0:
            return buf, size, False
        grown = bytearray(2 * len(buf))  # one game is larger than the buffer
        grown[:size] = buf[:size]
        buf = grown


def read_pgn_zst(
    path: Path, *, chunk_bytes: int = CHUNK_BYTES, progress: Progress | None = None
) -> Iterator[pa.RecordBatch]:
    """Header batches of a ``.pgn.zst`` dump, in file order.

    Raises:
        DumpUnreadable: the file is not a zstd stream (a PGN damaged inside is not an error:
            its games are counted as malformed later).
    """
    return _read_pgn(path, Frames, chunk_bytes=chunk_bytes, progress=progress)


def read_pgn_plain(
    path: Path, *, chunk_bytes: int = CHUNK_BYTES, progress: Progress | None = None
) -> Iterator[pa.RecordBatch]:
    """Header batches of an uncompressed ``.pgn`` (a user's export, or a dump unpacked)."""
    return _read_pgn(path, lambda raw: raw, chunk_bytes=chunk_bytes, progress=progress)


def _read_pgn(
    path: Path,
    reader_of: Callable[[Any], Any],
    *,
    chunk_bytes: int,
    progress: Progress | None,
) -> Iterator[pa.RecordBatch]:
    """Header batches of the PGN text ``reader_of(file)`` reads into buffers."""

    games = 0
    # One buffer being filled while each parser holds one; a parsed batch holds copies.
    free = [bytearray(chunk_bytes + SLACK) for _ in range(PARSERS + 1)]
    pending: deque[tuple[Future[pa.RecordBatch], bytearray]] = deque()
    with path.open("rb") as raw, ThreadPoolExecutor(max_workers=PARSERS) as pool:
        reader = reader_of(raw)

        def done(last: bool) -> pa.RecordBatch:
            nonlocal games
            future, buf = pending.popleft()
            batch = future.result()
            free.append(buf)
            batch = batch.set_column(
                0, "seq", pc.add(batch.column(0), pa.scalar(games, pa.int64()))
            )
            games += batch.num_rows
            if progress:
                progress(games, os.path.getsize(path) if last else raw.tell())
            return batch

        carry = b""
        eof = False
        while not eof:
            with zstd_faults(path):
                buf, size, eof = _fill(reader, free.pop(), carry)
            end = size if eof else _boundary(buf, size)
            carry = bytes(buf[end:size])
            if not eof or buf[:end].strip():  # a last chunk of blank lines holds no game
                pending.append((pool.submit(parse_chunk, buf, end), buf))
            else:
                free.append(buf)
            if len(pending) > PARSERS:
                yield done(False)
        while pending:
            yield done(len(pending) == 1)
