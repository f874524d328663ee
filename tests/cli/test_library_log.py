"""A library's log record (requests-cache, urllib3...) reaches the user as one warning line,
once a command is loaded; the root's help and ``--version`` do not import ``logging``."""

from __future__ import annotations

import logging

import pytest

from lichess_elo.cli import library_log
from lichess_elo.cli.root import load_command


def test_a_library_warning_is_one_line_naming_its_library(
    capsys: pytest.CaptureFixture[str],
) -> None:
    load_command("calc")
    root = logging.getLogger()
    routed = [h for h in root.handlers if isinstance(h, library_log._LibraryLog)]
    assert len(routed) == 1
    load_command("calc")  # a second command adds no second handler
    assert len([h for h in root.handlers if isinstance(h, library_log._LibraryLog)]) == 1
    logging.getLogger("requests_cache.backends").warning("cache %s\nsecond line", "locked")
    logging.getLogger("urllib3").info("below WARNING: not shown")
    err = capsys.readouterr().err
    assert err == "lichess-elo: warning: requests-cache: cache locked\n"
