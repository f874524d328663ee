"""Splitting an NDJSON answer into lines in linear time, and what makes a month's answer
whole.

Why: berserk reads a stream with ``requests.Response.iter_lines()``, which reads 512-byte
chunks and glues each one to the unfinished line before it (``pending + chunk``, then
``splitlines()`` of the whole): a line of ``n`` bytes costs ``n**2 / 512`` byte copies.
A 16 MB game line took 97 s. The HTTP cache has already read the whole body before
berserk sees it, so ``LineReader`` splits that body with ``bytes.find`` instead: each
byte is looked at once.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

#: The longest NDJSON line accepted (bytes). A real game line is a few kB; a 64 MB line
#: is a broken or hostile answer, refused rather than parsed.
MAX_LINE_BYTES = 64 * 1024 * 1024
#: The content types a games export may carry (Lichess sends ``application/x-ndjson``).
NDJSON_TYPES = frozenset({"application/x-ndjson", "application/json"})


@dataclass(frozen=True)
class AnswerFault(Exception):
    """An answer that cannot be used whole. ``line`` is 1-based (0: the whole answer)."""

    line: int
    fault: str

    def __str__(self) -> str:
        return f"line {self.line} {self.fault}" if self.line else self.fault


class LineReader:
    """The non-empty lines of ``body`` (``\\n`` or ``\\r\\n`` separated), in linear time.

    ``number`` is the 1-based number of the last line handed out, so a caller that fails
    on a line can name it.
    """

    def __init__(self, body: bytes, max_line: int = MAX_LINE_BYTES) -> None:
        """Read ``body``; a line longer than ``max_line`` bytes raises ``AnswerFault``."""
        self._body = body
        self._max = max_line
        self.number = 0

    def __iter__(self) -> Iterator[bytes]:
        body, size, start, number = self._body, len(self._body), 0, 0
        while start < size:
            end = body.find(b"\n", start)
            if end < 0:
                end = size
            number += 1
            if end - start > self._max:
                self.number = number
                raise AnswerFault(number, f"is longer than the {_size(self._max)} limit")
            line = body[start:end]
            start = end + 1
            if line.endswith(b"\r"):
                line = line[:-1]
            if line.strip():
                self.number = number
                yield line

    def iter_lines(self, *_args: object, **_kwargs: object) -> Iterator[bytes]:
        """``requests.Response.iter_lines`` with the same lines (arguments are ignored)."""
        return iter(self)


def _size(count: int) -> str:
    mib = 1024 * 1024
    return f"{count // mib} MB" if count % mib == 0 else f"{count} bytes"


def check_content_type(content_type: str | None) -> None:
    """Check the ``Content-Type`` of a games export.

    Raises:
        AnswerFault: anything but NDJSON or JSON (e.g. an HTML page sent with status 200).
    """
    mime = (content_type or "").split(";", 1)[0].strip().lower()
    if mime not in NDJSON_TYPES:
        shown = mime or "none"
        raise AnswerFault(0, f"is not NDJSON (content type {shown})")


def check_line_text(line: bytes, number: int) -> str:
    """``line`` decoded as UTF-8.

    Raises:
        AnswerFault: it is not UTF-8 (names the byte and its column).
    """
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        byte = line[exc.start]
        raise AnswerFault(
            number, f"is not UTF-8 (byte 0x{byte:02x} at column {exc.start + 1})"
        ) from None
