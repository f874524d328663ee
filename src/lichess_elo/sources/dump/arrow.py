"""Read the tags of a Lichess PGN dump as Arrow batches of raw text (an edge; no parsing of
values), with a small C scanner (``pgnscan.c``, built when a compiler is there) or else
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

import os
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from lichess_elo.sources.dump.parse import SLACK, TagTable, int64_array, parse_chunk
from lichess_elo.sources.dump.zstd import Frames, zstd_faults

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
                    batch = batch.set_column(0, "seq", int64_array(seq))
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
