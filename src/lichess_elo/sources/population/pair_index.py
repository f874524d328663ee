"""The ids of the (perf, name) pairs of ``player_ids``, held in memory by two hashes of the
pair, so a batch of ``db ingest`` finds its pairs' ids without reading ``player_ids``.

Every pair has a 64-bit ``key`` and an independent 32-bit ``check`` (DuckDB's ``hash`` of
two different forms of the pair, ``KEY_SQL`` and ``CHECK_SQL``, computed anew each run, so
a change of DuckDB's hash between versions changes nothing stored). The index keeps, for
every pair, its key, check and id (16 bytes a pair: 160 MB at 10 M pairs):

- the pairs known when it was loaded or last merged, in 256 segments by the key's top
  byte, each sorted by key (so a merge copies one segment at a time, never the whole
  index at once);
- the pairs added since, in one sorted ``recent`` part of at most ``recent_max`` pairs,
  merged into the segments when it grows past that.

A pair looked up whose key is held with another check is a ``clash``: two pairs share the
key, and the caller finds it by its name in ``player_ids`` instead (and the new pair of
the two is then held under the same key: looking either up finds one of them first, and
the other's check differs, so it is a clash again). So an id is wrong only if two pairs
share both hashes, 96 bits: with 10 M pairs held and 10 M looked up, a chance of about
10 M * 10 M / 2**96, 1e-15.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt
import pyarrow as pa

#: A pair's key: DuckDB's hash of the perf and the name.
KEY_SQL = "hash(perf, name)"
#: A pair's check: the top 32 bits of DuckDB's hash of another string made of both (the
#: name shifted by one byte, so its 8-byte blocks are other blocks than the key's).
CHECK_SQL = "(hash('~' || name || chr(31) || perf) >> 32)::UINTEGER"

U64 = npt.NDArray[np.uint64]
U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

_SEGMENTS = 256
_SHIFT = np.uint64(56)  # the key's top byte names its segment
_LOAD_ROWS = 1 << 20


def numpy_of(column: pa.Array | pa.ChunkedArray, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """An Arrow column without NULLs, of a fixed-width type of ``dtype``'s size, as a numpy
    array of ``dtype``, read from its buffers (pyarrow's ``to_numpy`` imports pandas when
    it is installed: about 0.5 s at the first batch of an ingest)."""
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    size = np.dtype(dtype).itemsize
    parts = [
        np.frombuffer(c.buffers()[1], dtype=dtype, count=len(c), offset=c.offset * size)
        for c in chunks
    ]
    out: npt.NDArray[Any] = np.concatenate(parts) if parts else np.empty(0, dtype=dtype)
    return out


@dataclass
class _Part:
    """Pairs sorted by key, with their checks and ids beside."""

    keys: U64
    checks: U32
    ids: U32

    @classmethod
    def empty(cls) -> _Part:
        return cls(np.empty(0, np.uint64), np.empty(0, np.uint32), np.empty(0, np.uint32))

    @classmethod
    def sorted_from(cls, keys: U64, checks: U32, ids: U32) -> _Part:
        order = np.argsort(keys)  # of a key held twice, either may come first
        return cls(keys[order], checks[order], ids[order])

    def merged(self, other: _Part) -> _Part:
        """This part with ``other`` (sorted) inserted, keys in order."""
        at = np.searchsorted(self.keys, other.keys, side="right")
        return _Part(
            np.insert(self.keys, at, other.keys),
            np.insert(self.checks, at, other.checks),
            np.insert(self.ids, at, other.ids),
        )

    def find(self, keys: U64, checks: U32) -> tuple[I64, Bools]:
        """The id of each of ``keys`` held here with its check (-1 when not held), and
        whether it is a clash: held, with another check (the first pair of a key held
        twice: a pair held with the other's key has another check, so it is a clash)."""
        ids = np.full(len(keys), -1, np.int64)
        if not len(self.keys) or not len(keys):
            return ids, np.zeros(len(keys), np.bool_)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        held = self.keys[at] == keys
        same = held & (self.checks[at] == checks)
        ids[same] = self.ids[at[same]]
        return ids, held & ~same


class PairIndex:
    """The key, check and id of every pair of ``player_ids`` (see the module's text)."""

    def __init__(self, recent_max: int = 1 << 20) -> None:
        self._segments = [_Part.empty() for _ in range(_SEGMENTS)]
        self._recent = _Part.empty()
        self._recent_max = recent_max
        self.size = 0

    @classmethod
    def load(
        cls,
        con: duckdb.DuckDBPyConnection,
        recent_max: int = 1 << 20,
        batch_rows: int = _LOAD_ROWS,
    ) -> PairIndex:
        """The index of ``player_ids`` as it is, read ``batch_rows`` rows at a time (memory:
        the index, plus one segment while it is sorted)."""
        index = cls(recent_max)
        chunks: list[list[tuple[U64, U32, U32]]] = [[] for _ in range(_SEGMENTS)]
        reader = con.sql(
            f"SELECT {KEY_SQL} AS key, {CHECK_SQL} AS check, id FROM player_ids"
        ).to_arrow_reader(batch_rows)
        for batch in reader:
            keys = numpy_of(batch.column(0), np.uint64)
            checks = numpy_of(batch.column(1), np.uint32)
            ids = _as_ids(numpy_of(batch.column(2), np.int64))
            segment = (keys >> _SHIFT).astype(np.uint8)
            order = np.argsort(segment, kind="stable")  # a radix sort of bytes
            bounds = np.searchsorted(segment[order], np.arange(_SEGMENTS + 1))
            for s in np.flatnonzero(np.diff(bounds)):
                rows = order[bounds[s] : bounds[s + 1]]
                chunks[s].append((keys[rows], checks[rows], ids[rows]))
            index.size += batch.num_rows
        for no, parts in enumerate(chunks):
            if parts:
                index._segments[no] = _Part.sorted_from(
                    np.concatenate([p[0] for p in parts]),
                    np.concatenate([p[1] for p in parts]),
                    np.concatenate([p[2] for p in parts]),
                )
            chunks[no] = []
        return index

    def find(self, keys: U64, checks: U32) -> tuple[I64, Bools]:
        """The id of each pair of ``keys`` and ``checks`` (-1 when not held), and whether it
        is a clash: its key is held with another check. A clash's id is -1: only the pair's
        name can tell it."""
        ids = np.full(len(keys), -1, np.int64)
        clash = np.zeros(len(keys), np.bool_)
        # Looked up in key order: each binary search starts where the last one ended.
        order = np.argsort(keys)
        keys, checks = keys[order], checks[order]
        bounds = _bounds(keys)
        for s in np.flatnonzero(np.diff(bounds)):
            lo, hi = bounds[s], bounds[s + 1]
            ids[lo:hi], clash[lo:hi] = self._segments[s].find(keys[lo:hi], checks[lo:hi])
        rest = np.flatnonzero((ids < 0) & ~clash)  # a key held twice gives a clash
        ids[rest], clash[rest] = self._recent.find(keys[rest], checks[rest])
        out_ids, out_clash = np.empty_like(ids), np.empty_like(clash)
        out_ids[order], out_clash[order] = ids, clash
        return out_ids, out_clash

    def add(self, keys: U64, checks: U32, ids: npt.NDArray[np.integer]) -> None:
        """Hold the new pairs ``keys``, ``checks`` with their ``ids``."""
        if not len(keys):
            return
        self._recent = self._recent.merged(_Part.sorted_from(keys, checks, _as_ids(ids)))
        self.size += len(keys)
        if len(self._recent.keys) > self._recent_max:
            self._merge_recent()

    def _merge_recent(self) -> None:
        """Move ``recent`` into the segments, one segment at a time."""
        recent = self._recent
        bounds = _bounds(recent.keys)
        for s in np.flatnonzero(np.diff(bounds)):
            lo, hi = bounds[s], bounds[s + 1]
            part = _Part(recent.keys[lo:hi], recent.checks[lo:hi], recent.ids[lo:hi])
            self._segments[s] = self._segments[s].merged(part)
        self._recent = _Part.empty()


def _bounds(keys: U64) -> npt.NDArray[np.intp]:
    """Where each segment's keys start in ``keys`` (sorted), and their end."""
    starts = np.arange(_SEGMENTS + 1, dtype=np.uint64) << _SHIFT  # the last wraps to 0
    bounds = np.searchsorted(keys, starts)
    bounds[-1] = len(keys)
    return bounds


def _as_ids(ids: npt.NDArray[np.integer]) -> U32:
    """``ids`` as 32-bit ids (the index holds up to 2**32 pairs)."""
    if len(ids) and int(ids.max()) >= 1 << 32:
        raise OverflowError("more than 2**32 player ids")
    return ids.astype(np.uint32, copy=False)
