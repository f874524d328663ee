"""Read the tags of a Lichess PGN dump as Arrow batches of raw text (an edge; no parsing of
values), with a small C scanner (``_pgnscan.c``, built when a compiler is there) or else
numpy on the raw bytes, and Arrow's C++ kernels for the strings.

The text is decompressed into a few reused buffers of ``CHUNK_BYTES``, each cut at a game
boundary (before a ``\\n\\n[``), and a buffer is read as lines: a block of lines between
blank lines is a header block when its first line starts with ``[`` (movetext never does;
the ``[%clk]`` lines are never looked at past their first byte). A tag line is
``[Name "value"]`` (cut short, without the closing ``"]``, it gives nothing), a line may end
in ``\\r\\n``, a tag given twice keeps its last value and a missing tag is null. The name of
every tag line is looked up once (numpy: its first 16 bytes as two words, masked by the
length of the name), and the values are cut out of the buffer (numpy: by one Arrow
``take``; C: copied as it reads, without the GIL), whose cast to ``string`` checks the
UTF-8 (invalid bytes are replaced, never fatal; C says when all are ASCII, and then there
is nothing to check). ``parse_chunk`` chooses between the two. Decompression, the scanner
and the kernels release the GIL: one thread fills the buffers and ``PARSERS`` threads
parse them while the caller works on the batches before.

Every batch has the columns ``seq`` (the game's position in the file) and the tags asked for
(strings, null when absent), in that order.
"""

from __future__ import annotations

import itertools
import os
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from lichess_elo.sources.zstd_stream import Frames, zstd_faults

try:  # the compiled scanner (setup.py builds it when a C compiler is there)
    from lichess_elo.sources import _pgnscan
except ImportError:  # pragma: no cover - an install without a compiler
    _pgnscan = None  # type: ignore[assignment]

#: Decompressed bytes per chunk: large enough for numpy, small enough for the CPU cache
#: (parsing 32 MB chunks cost about 3.4 µs a game, 1 to 8 MB about 2).
CHUNK_BYTES = 4 << 20
#: Threads parsing chunks while a thread decompresses the next ones and the caller checks
#: the batches before (batches still come out in file order). One: on two cores,
#: decompression and DuckDB take the other.
PARSERS = 1
#: Compressed bytes decompressed at a time: their text (about 10 times more) stays in the
#: cache until it is copied into a chunk.
READ_BYTES = 128 << 10
#: Text the threads may decompress and parse ahead of the caller (bounds the batches held,
#: about 0.2 bytes of Arrow a byte of text): enough to go on while the caller
#: checks ``ingest.STAGE_ROWS`` games (about 0.25 s, 150 MB of text at the reader's pace).
AHEAD_BYTES = 512 << 20
#: Called with (games so far, bytes of the file consumed so far).
Progress = Callable[[int, int], None]

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
    """``"c"`` when the compiled scanner (``_pgnscan``) is built, else ``"numpy"``."""
    return "numpy" if _pgnscan is None else "c"


def parse_chunk(chunk: Any, size: int, tags: TagTable, first_seq: int = 0) -> pa.RecordBatch:
    """The tags of the games in the first ``size`` bytes of ``chunk`` (bytes-like; whole
    games, Lichess PGN), by the compiled scanner when it is built, else by numpy (the two
    give the same batch). Bytes past ``size`` are never read as text."""
    if _pgnscan is None:
        games, columns = _numpy_columns(chunk, size, tags)
    else:
        games, columns = _c_columns(chunk, size, tags)
    seq = _int64(np.arange(first_seq, first_seq + games, dtype=np.int64))
    return pa.RecordBatch.from_arrays([seq, *columns], schema=tags.schema)


def _int64(values: np.ndarray) -> pa.Array:
    """``values`` (int64) as an Arrow array on their buffer (``pa.array`` of a numpy array
    and ``pc.add`` import pandas when it is installed: 0.5 s at the first batch)."""
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def _c_columns(chunk: Any, size: int, tags: TagTable) -> tuple[int, list[pa.Array]]:
    """The games and the tag columns of ``parse_chunk``, found by ``_pgnscan``; values all
    ASCII are strings as they are (no UTF-8 to check)."""
    assert _pgnscan is not None
    games, valid, offsets, data, plain = _pgnscan.scan(chunk, size, tags.names)
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
    path: Path,
    tags: Sequence[str],
    *,
    chunk_bytes: int = CHUNK_BYTES,
    progress: Progress | None = None,
) -> Iterator[pa.RecordBatch]:
    """Batches of the ``tags`` of a ``.pgn.zst`` dump, in file order.

    Raises:
        DumpUnreadable: the file is not a zstd stream, or ends inside a frame (a PGN
            damaged inside is not an error: its games are counted as malformed later).
    """
    return _read_pgn(
        path, lambda raw: Frames(raw, READ_BYTES), TagTable(tags), chunk_bytes, progress
    )


def read_pgn_plain(
    path: Path,
    tags: Sequence[str],
    *,
    chunk_bytes: int = CHUNK_BYTES,
    progress: Progress | None = None,
) -> Iterator[pa.RecordBatch]:
    """Batches of the ``tags`` of an uncompressed ``.pgn`` (a user's export)."""
    return _read_pgn(path, lambda raw: raw, TagTable(tags), chunk_bytes, progress)


def _read_pgn(
    path: Path,
    reader_of: Callable[[Any], Any],
    tags: TagTable,
    chunk_bytes: int,
    progress: Progress | None,
) -> Iterator[pa.RecordBatch]:
    """Batches of the PGN text ``reader_of(file)`` reads into buffers: one thread fills
    them and hands each to ``PARSERS`` parsing threads (``_Reader``); the caller's work on
    a batch overlaps both, and they run on while it works (up to ``AHEAD_BYTES`` of text)."""
    games = 0
    held: tuple[pa.RecordBatch, int] | None = None  # one batch back: the last is the file's end
    with path.open("rb") as raw:
        reader = _Reader(path, reader_of(raw), raw, tags, chunk_bytes)
        try:
            while True:
                got = reader.next()
                if held is not None:
                    batch, read = held
                    seq = np.arange(games, games + batch.num_rows, dtype=np.int64)
                    batch = batch.set_column(0, "seq", _int64(seq))
                    games += batch.num_rows
                    if progress:
                        progress(games, os.path.getsize(path) if got is None else read)
                    yield batch
                if got is None:
                    return
                held = got
        finally:
            reader.close()


class _Reader:
    """A thread that decompresses the text into reused buffers, each cut at a game
    boundary (``zstandard`` releases the GIL), and gives each to a pool of ``PARSERS``
    threads, which free the buffer once parsed; the batches queue in file order, at most
    ``AHEAD_BYTES`` of text ahead of the caller."""

    def __init__(self, path: Path, reader: Any, raw: Any, tags: TagTable, chunk_bytes: int):
        self.free: queue.SimpleQueue[bytearray | None] = queue.SimpleQueue()
        for _ in range(PARSERS + 3):
            self.free.put(bytearray(chunk_bytes + SLACK))
        self._ahead = threading.Semaphore(max(PARSERS + 3, AHEAD_BYTES // chunk_bytes))
        self._out: queue.SimpleQueue[Future[tuple[pa.RecordBatch, int]] | BaseException | None]
        self._out = queue.SimpleQueue()
        self._pool = ThreadPoolExecutor(max_workers=PARSERS, thread_name_prefix="pgn-parse")
        self._tags = tags
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(path, reader, raw), name="pgn-fill", daemon=True
        )
        self._thread.start()

    def _parse(self, buf: bytearray, end: int, read: int) -> tuple[pa.RecordBatch, int]:
        """Parse a filled buffer, then give it back to the filling thread."""
        try:
            return parse_chunk(buf, end, self._tags), read
        finally:
            self.free.put(buf)

    def _run(self, path: Path, reader: Any, raw: Any) -> None:
        """Fill buffers until the stream ends (then ``None``) or fails (the exception)."""
        try:
            carry = b""
            eof = False
            while not eof:
                self._ahead.acquire()  # the caller is not too far behind
                buf = self.free.get()
                if buf is None or self._stop.is_set():
                    return
                with zstd_faults(path):
                    buf, size, eof = _fill(reader, buf, carry)
                end = size if eof else _boundary(buf, size)
                carry = bytes(buf[end:size])
                if not eof or buf[:end].strip():  # a last chunk of blank lines holds no game
                    self._out.put(self._pool.submit(self._parse, buf, end, raw.tell()))
                else:
                    self.free.put(buf)
            self._out.put(None)
        except BaseException as exc:  # given to the reader, in its thread
            self._out.put(exc)

    def next(self) -> tuple[pa.RecordBatch, int] | None:
        """The next batch and the bytes of the file read when its text was; None at the
        end. Raises what the threads raised."""
        got = self._out.get()
        if isinstance(got, BaseException):
            raise got
        if got is None:
            return None
        self._ahead.release()
        return got.result()

    def close(self) -> None:
        """Stop the threads (after the buffer being filled) and wait for them."""
        self._stop.set()
        self.free.put(None)
        # The thread acquires at most once more before it sees the stop (Python's
        # ``release(n)`` notifies n times: 1 << 20 of them cost a second of CPU).
        self._ahead.release(2)
        self._thread.join()
        self._pool.shutdown(cancel_futures=True)
