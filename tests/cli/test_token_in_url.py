"""A token inside ``--api-url`` (``http://user:TOKEN@host/``) never reaches a message, the
cache or the server: the URL is refused in one line, exit 2, shown without it,
before anything is opened or asked. Real processes against the fake server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_lichess import FakeLichess
from tests.runners import run_cli

SECRET = "lip_Secret0Token0In0Url"


@pytest.mark.parametrize("how", ["option", "option=", "environment"])
def test_a_token_in_the_api_url_is_refused_without_showing_it(tmp_path: Path, how: str) -> None:
    server = FakeLichess().start()
    try:
        host = server.url.removeprefix("http://")
        url = f"http://user:{SECRET}@{host}/"
        cache = tmp_path / "cache"
        args = ["report", "OnBoard247", "--cache-dir", str(cache)]
        env = {}
        if how == "option":
            args += ["--api-url", url]
        elif how == "option=":
            args += [f"--api-url={url}"]
        else:
            env["LICHESS_API_URL"] = url
        result = run_cli(*args, env=env)
        assert result.returncode == 2
        assert result.stderr == (
            f"lichess-elo: error: --api-url http://***@{host}/: carries a user name or "
            "password; a Lichess token goes in LICHESS_TOKEN or a token file, never in the "
            "URL\n"
        )
        assert SECRET not in result.stdout
        assert server.requests == []  # nothing was sent anywhere
        assert not cache.exists()  # and nothing kept
    finally:
        server.stop()
