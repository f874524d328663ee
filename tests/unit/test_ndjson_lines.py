"""The linear NDJSON line splitter and the answer checks. Pure: bytes in."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lichess_elo.sources.lichess.ndjson import (
    AnswerFault,
    LineReader,
    check_content_type,
    check_line_text,
)


def test_lines_blank_lines_and_crlf() -> None:
    body = b'{"a":1}\n\n{"b":2}\r\n  \n{"c":3}'
    reader = LineReader(body)
    assert list(reader) == [b'{"a":1}', b'{"b":2}', b'{"c":3}']
    assert reader.number == 5  # the last line handed out is the 5th of the body


def test_number_names_the_line_being_read() -> None:
    reader = LineReader(b"one\n\nthree\nfour\n")
    seen = []
    for line in reader:
        seen.append((reader.number, line))
    assert seen == [(1, b"one"), (3, b"three"), (4, b"four")]


def test_a_line_over_the_limit() -> None:
    reader = LineReader(b"short\n" + b"x" * 11 + b"\nnever\n", max_line=10)
    got = []
    with pytest.raises(AnswerFault) as caught:
        got.extend(reader)
    assert got == [b"short"]
    assert caught.value.line == 2
    assert str(caught.value) == "line 2 is longer than the 10 bytes limit"


def test_a_line_at_the_limit_is_read() -> None:
    assert list(LineReader(b"x" * 10, max_line=10)) == [b"x" * 10]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=30).filter(lambda b: b"\n" not in b and b"\r" not in b)))
def test_same_lines_as_splitlines(parts: list[bytes]) -> None:
    body = b"\n".join(parts)
    expected = [p for p in body.split(b"\n") if p.strip()]
    assert list(LineReader(body)) == expected


def test_iter_lines_ignores_requests_arguments() -> None:
    reader = LineReader(b"a\nb\n")
    assert list(reader.iter_lines(chunk_size=512, decode_unicode=False)) == [b"a", b"b"]


@pytest.mark.parametrize(
    "value", ["application/x-ndjson", "application/x-ndjson; charset=utf-8", "application/json"]
)
def test_ndjson_content_types(value: str) -> None:
    check_content_type(value)


@pytest.mark.parametrize(
    ("value", "shown"), [("text/html; charset=utf-8", "text/html"), (None, "none"), ("", "none")]
)
def test_other_content_types(value: str | None, shown: str) -> None:
    with pytest.raises(AnswerFault, match=f"content type {shown}"):
        check_content_type(value)


def test_a_latin1_line_names_byte_and_column() -> None:
    assert check_line_text("Zoë".encode(), 4) == "Zoë"
    with pytest.raises(AnswerFault) as caught:
        check_line_text('{"n":"Zoë"}'.encode("latin-1"), 4)
    # 'Z','o' are columns 8 and 9 after '{"n":"' (6 bytes + 1): 'ë' (0xeb) is column 9
    assert str(caught.value) == "line 4 is not UTF-8 (byte 0xeb at column 9)"
