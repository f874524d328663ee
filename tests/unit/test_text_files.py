"""Decoding the user's text files: UTF-8 only, a failure names file, line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from lichess_elo.errors import BadInput
from lichess_elo.sources.text_files import decode_text


def test_utf8_with_and_without_bom() -> None:
    assert decode_text("a,b\nZoë\n".encode(), Path("x.csv")) == "a,b\nZoë\n"
    assert decode_text(b"\xef\xbb\xbfa\n", Path("x.csv")) == "a\n"


def test_latin1_names_line_and_column() -> None:
    data = "name\nAnia\nZoë Brontë\n".encode("latin-1")
    with pytest.raises(BadInput) as caught:
        decode_text(data, Path("players.csv"))
    # line 3 is "Zoë Brontë": 'Z','o' then 0xeb at column 3
    message = str(caught.value)
    assert message.startswith("players.csv:3: not UTF-8 text (byte 0xeb at column 3")
    assert "Latin-1" in message and "UTF-8, with or without a byte-order mark" in message
