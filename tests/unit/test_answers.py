"""The answer checks of the Lichess source (pure: no sockets)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from lichess_elo.errors import FetchFailed
from lichess_elo.sources.lichess.answers import describe, foreign_redirect
from lichess_elo.sources.lichess.ndjson import AnswerFault


def _response(url: str) -> SimpleNamespace:
    return SimpleNamespace(url=url)


@pytest.mark.parametrize(
    "target",
    ["/api/games/user/x?since=1", "https://lichess.org/api/games/user/x", None, ""],
)
def test_redirects_on_the_same_server_are_followed(target: str | None) -> None:
    foreign_redirect(
        "https://lichess.org", _response("https://lichess.org/api/games/user/x"), target
    )


@pytest.mark.parametrize(
    ("target", "server"),
    [
        ("http://127.0.0.1:9999/api/games/user/x", "http://127.0.0.1:9999"),
        ("https://evil.example/api", "https://evil.example"),
        ("//lichess.org.evil.example/x", "https://lichess.org.evil.example"),
    ],
)
def test_redirects_to_another_server_are_refused(target: str, server: str) -> None:
    response = _response("https://lichess.org/api/games/user/x")
    with pytest.raises(FetchFailed) as caught:
        foreign_redirect("https://lichess.org", response, target)
    assert f"to another server, {server};" in str(caught.value)
    assert "/api/games/user/x" in str(caught.value)


def test_describe_names_the_fault() -> None:
    with pytest.raises(json.JSONDecodeError) as broken:
        json.loads('{"a":')
    # no reader: the line is unknown (0), so only the fault is said
    assert describe(broken.value, None) == AnswerFault(0, "is not valid JSON")
    assert str(describe(broken.value, None)) == "is not valid JSON"
    fault = AnswerFault(4, "is longer than the 1 MB limit")
    assert describe(fault, None) is fault
    assert describe(TypeError("x"), None) == AnswerFault(0, "is not a game (TypeError)")
