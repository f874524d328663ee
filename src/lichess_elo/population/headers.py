"""Stream the headers of a Lichess dump as Arrow batches of raw text (no parsing of values).

* ``.pgn.zst``: decompressed in large chunks; each chunk is split at blank lines with Arrow
  kernels, the blocks that start with ``[`` are the header blocks (movetext never starts
  with ``[``), and each wanted tag is picked out by its ``[Tag "`` prefix. The movetext
  is never parsed or copied into Python objects. Decompression (zstandard) and the Arrow
  kernels release the GIL, so ``PARSERS`` threads parse chunks while the next is read.
* Parquet in the mirror's layout: the wanted columns, batch by batch, cast to text.

Every batch has the columns ``seq`` (the game's position in the file) and ``HEADERS``
(strings, null when the tag is absent). Values are checked later, by the ingest SQL.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from lichess_elo.errors import DumpUnreadable
from lichess_elo.population.schema import HEADERS

#: Decompressed bytes per chunk: large enough for the kernels, small enough for memory.
CHUNK_BYTES = 32 << 20
#: Chunks parsed at once, in threads, while the next chunk is decompressed (batches still
#: come out in file order). One: on two cores, decompression and DuckDB take the other, and
#: a second parser measured no faster here while holding 100 MB more.
PARSERS = 1
SCHEMA = pa.schema([("seq", pa.int64())] + [(h, pa.string()) for h in HEADERS])
#: Called with (games so far, bytes of the file consumed so far).
Progress = Callable[[int, int], None]


def _chunks(path: Path, chunk_bytes: int, on_bytes: Callable[[int], None]) -> Iterator[bytes]:
    """Decompressed text cut at game boundaries (a chunk ends before a ``\\n\\n[``)."""
    import zstandard

    with path.open("rb") as raw:
        rest = b""
        reader = zstandard.ZstdDecompressor().read_to_iter(
            raw, read_size=1 << 22, write_size=chunk_bytes
        )
        try:
            for data in reader:
                on_bytes(raw.tell())
                buf = rest + data if rest else data
                cut = buf.rfind(b"\n\n[")
                if cut < 0:
                    rest = buf
                    continue
                yield buf[: cut + 2]
                rest = buf[cut + 2 :]
        except zstandard.ZstdError as exc:
            raise DumpUnreadable(path, f"not a valid zstd stream ({exc})") from None
        if rest.strip():
            yield rest


def _blocks(chunk: bytes) -> pa.Array:
    """The header blocks of ``chunk`` as strings; invalid UTF-8 is replaced, never fatal.

    Splitting and filtering run on the raw bytes, so only the headers (about a fifth of a
    dump) are checked as UTF-8, never the movetext.
    """
    parts = pc.list_flatten(pc.split_pattern(pa.array([chunk], pa.large_binary()), "\n\n"))
    blocks = pc.filter(parts, pc.starts_with(parts, "["))
    try:
        return blocks.cast(pa.large_string())
    except pa.ArrowInvalid:
        fixed = [b.decode("utf-8", "replace") for b in blocks.to_pylist()]
        return pa.array(fixed, pa.large_string())


def parse_chunk(chunk: bytes, first_seq: int) -> pa.RecordBatch:
    """The header columns of the games in ``chunk`` (whole games, Lichess PGN)."""
    blocks = _blocks(chunk)
    n = len(blocks)
    lines = pc.split_pattern(blocks, "\n")
    parents = pc.list_parent_indices(lines).to_numpy()
    flat = pc.list_flatten(lines)
    whole = pc.ends_with(flat, '"]')  # a tag line cut short counts as absent
    columns: list[pa.Array] = [pa.array(np.arange(first_seq, first_seq + n, dtype=np.int64))]
    for name in HEADERS:
        prefix = f'[{name} "'
        mask = pc.and_(pc.starts_with(flat, prefix), whole)
        where = np.flatnonzero(mask.to_numpy(zero_copy_only=False))
        values = pc.utf8_slice_codeunits(pc.filter(flat, mask), len(prefix), -2)
        # One slot per game; games without the tag point at a trailing null.
        slot = np.full(n, len(where), dtype=np.int64)
        slot[parents[where]] = np.arange(len(where))
        padded = pa.concat_arrays([values.cast(pa.string()), pa.nulls(1, pa.string())])
        columns.append(padded.take(pa.array(slot)))
    return pa.RecordBatch.from_arrays(columns, schema=SCHEMA)


def read_pgn_zst(
    path: Path, *, chunk_bytes: int = CHUNK_BYTES, progress: Progress | None = None
) -> Iterator[pa.RecordBatch]:
    """Header batches of a ``.pgn.zst`` dump, in file order.

    Raises:
        DumpUnreadable: the file is not a zstd stream (a PGN damaged inside is not an error:
            its games are counted as malformed later).
    """
    done = [0, 0]  # games, bytes

    def on_bytes(position: int) -> None:
        done[1] = position

    seq = 0

    def numbered(batch: pa.RecordBatch) -> pa.RecordBatch:
        nonlocal seq
        shifted = batch.set_column(0, "seq", pc.add(batch.column(0), pa.scalar(seq, pa.int64())))
        seq += batch.num_rows
        done[0] += batch.num_rows
        return shifted

    with ThreadPoolExecutor(max_workers=PARSERS) as pool:
        pending: deque[Future[pa.RecordBatch]] = deque()
        for chunk in _chunks(path, chunk_bytes, on_bytes):
            pending.append(pool.submit(parse_chunk, chunk, 0))
            if len(pending) > PARSERS:
                batch = numbered(pending.popleft().result())
                if progress:
                    progress(done[0], done[1])
                yield batch
        while pending:
            batch = numbered(pending.popleft().result())
            if progress:
                progress(done[0], os.path.getsize(path) if not pending else done[1])
            yield batch


def _as_text(column: pa.Array) -> pa.Array:
    """A mirror column as the text its PGN header would hold (dates ``YYYY.MM.DD``)."""
    if pa.types.is_date(column.type):
        return pc.strftime(column.cast(pa.timestamp("s")), format="%Y.%m.%d")
    if pa.types.is_time(column.type):
        seconds = column.cast(pa.time32("s")).cast(pa.int32()).cast(pa.int64())
        return pc.strftime(seconds.cast(pa.timestamp("s")), format="%H:%M:%S")
    return column.cast(pa.string())


def read_parquet(path: Path, *, progress: Progress | None = None) -> Iterator[pa.RecordBatch]:
    """Header batches of a Parquet file in the mirror's columns (missing columns are null).

    Raises:
        DumpUnreadable: the file is not Parquet.
    """
    import pyarrow.parquet as pq

    try:
        source = pq.ParquetFile(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise DumpUnreadable(path, f"not a Parquet file ({exc})") from None
    present = [h for h in HEADERS if h in source.schema_arrow.names]
    seq = games = 0
    total = source.metadata.num_rows or 1
    size = os.path.getsize(path)
    for batch in source.iter_batches(batch_size=262_144, columns=present):
        n = batch.num_rows
        columns = [pa.array(np.arange(seq, seq + n, dtype=np.int64))]
        for name in HEADERS:
            if name in present:
                columns.append(_as_text(batch.column(name)))
            else:
                columns.append(pa.nulls(n, pa.string()))
        seq += n
        games += n
        if progress:
            progress(games, size * games // total)
        yield pa.RecordBatch.from_arrays(columns, schema=SCHEMA)
