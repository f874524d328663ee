"""Reading the user's text files (club CSV and PGN, ``club.toml``, ``--pgn``): UTF-8 only,
and a file in another encoding is named with the line where it stops being UTF-8.

An edge module (it reads files); the messages carry no option names.
"""

from __future__ import annotations

from pathlib import Path

from lichess_elo.errors import BadFile

#: What the readers accept, for messages.
ACCEPTED = "UTF-8, with or without a byte-order mark"


def decode_text(data: bytes, path: Path, field: str | None = None) -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark dropped).

    Raises:
        BadFile: the bytes are not UTF-8; names ``path`` (given as ``field``), the line and
            column, the byte, and the accepted encodings.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        offset = exc.start
        line = data.count(b"\n", 0, offset) + 1
        column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
        hint = "; it may be Latin-1 or Windows-1252" if data[offset] >= 0x80 else ""
        problem = (
            f"not UTF-8 text (byte 0x{data[offset]:02x} at column {column}{hint}); "
            f"save the file as {ACCEPTED}"
        )
        raise BadFile(path, problem, line=line, field=field) from None


def read_text(path: Path, field: str | None = None) -> str:
    """The text of ``path`` (see ``decode_text``).

    Raises:
        FileNotFoundError, IsADirectoryError, OSError: as ``Path.read_bytes``.
        BadFile: the file is not UTF-8.
    """
    return decode_text(path.read_bytes(), path, field)
