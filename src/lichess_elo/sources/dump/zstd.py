"""Reading a zstd stream of one or more frames, as Lichess's dumps are written (an edge).

``Frames`` reads the decompressed text into the caller's buffer like a file and, unlike
``zstandard``'s ``stream_reader``, says when the last frame did not end (a download cut
short would otherwise pass for a whole month); ``zstd_faults`` words what goes wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lichess_elo.errors import DumpUnreadable


class Truncated(Exception):
    """The compressed stream ends inside a zstd frame (a download cut short)."""


class Frames:
    """Decompressed text of every zstd frame of ``raw``, read into the caller's buffer.

    ``readinto`` fills a buffer like a file's; at the end of ``raw`` it raises
    ``Truncated`` when the last frame did not end (``stream_reader`` would return what it
    had without a word, and a dump cut short would replace a whole month).
    """

    def __init__(self, raw: Any, read_size: int = 1 << 20) -> None:
        import zstandard

        self._raw, self._read_size = raw, read_size
        self._new = zstandard.ZstdDecompressor().decompressobj
        self._obj = self._new()
        self._started = False  # the current frame has had input
        self._out = memoryview(b"")

    def readinto(self, view: memoryview) -> int:
        """Copy up to ``len(view)`` decompressed bytes into ``view``; 0 at the end."""
        while not self._out:
            data = self._raw.read(self._read_size)
            if not data:
                if self._started and not self._obj.eof:
                    raise Truncated
                return 0
            out = []
            while data:
                if self._obj.eof:  # the next frame starts in the unused input
                    self._obj, self._started = self._new(), False
                self._started = True
                out.append(self._obj.decompress(data))
                data = self._obj.unused_data if self._obj.eof else b""
            self._out = memoryview(b"".join(out))
        n = min(len(view), len(self._out))
        view[:n] = self._out[:n]
        self._out = self._out[n:]
        return n


@contextmanager
def zstd_faults(path: Path) -> Iterator[None]:
    """Turn a damaged or cut-short zstd stream read inside into ``DumpUnreadable``."""
    import zstandard

    try:
        yield
    except zstandard.ZstdError as exc:
        raise DumpUnreadable(path, f"not a valid zstd stream ({exc})") from None
    except Truncated:
        raise DumpUnreadable(
            path, "ends in the middle of a zstd frame (a download cut short?)"
        ) from None
