"""The dump headers beside the PGN reader (``sources/dump/arrow.py``, which reads a ``.pgn``
or ``.pgn.zst``): the check that a PGN is Lichess's before any of it is read, and Parquet in
the mirror's layout (the wanted columns, batch by batch, cast to text).

Every batch has the columns ``seq`` (the game's position in the file) and ``HEADERS``
(strings, null when the tag is absent). Values are checked later, by the ingest SQL.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa

from lichess_elo.core.population.schema import HEADERS
from lichess_elo.errors import DumpUnreadable, NotLichessPgn
from lichess_elo.sources.dump.zstd import Frames, zstd_faults

SCHEMA = pa.schema([("seq", pa.int64())] + [(h, pa.string()) for h in HEADERS])
#: Called with (games so far, bytes of the file consumed so far).
Progress = Callable[[int, int], None]

SNIFF_BYTES = 1 << 20
_SITE = re.compile(rb'^\[Site "https?://lichess\.org/[A-Za-z0-9]{8}"\]\r?$', re.MULTILINE)
_TAG = re.compile(rb"^\[[A-Za-z0-9_]+ \"", re.MULTILINE)


def check_lichess_pgn(path: Path, compressed: bool) -> None:
    """Refuse a PGN that Lichess did not write, before any of it is read.

    Lichess writes every game's ``Site`` as ``https://lichess.org/<8-character id>`` (both
    exporters, ``docs/lichess.md``). The first ``SNIFF_BYTES`` of text must hold a game
    whose ``Site`` is one.

    Raises:
        NotLichessPgn: no PGN tag at all, or no game with a Lichess ``Site``.
        DumpUnreadable: a ``.pgn.zst`` that is not a zstd stream.
    """

    buf = bytearray(SNIFF_BYTES)
    size = 0
    with path.open("rb") as raw, memoryview(buf) as view:
        reader = Frames(raw) if compressed else raw
        with zstd_faults(path):
            while size < SNIFF_BYTES and (got := reader.readinto(view[size:])):
                size += got
    head = bytes(buf[:size])
    if not _TAG.search(head):
        raise NotLichessPgn(path, "no PGN game in it")
    if not _SITE.search(head):
        raise NotLichessPgn(path, "no game with a lichess.org Site in its first MB")


def _as_text(column: pa.Array) -> pa.Array:
    """A mirror column as the text its PGN header would hold (dates ``YYYY.MM.DD``)."""
    import pyarrow.compute as pc  # only a Parquet mirror needs it (0.04 s to import)

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
