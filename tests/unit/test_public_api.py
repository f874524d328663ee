"""The package's public names: ``dir(lichess_elo)`` and ``__all__`` list them,
each imports on first use and says what it is; ``import lichess_elo`` itself imports
none of them (``tests/cli/test_startup_imports.py`` checks the command's start-up)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import lichess_elo

#: The names a library user reaches for first (the README's "Library use").
CORE = {"fide", "glicko", "errors", "run_report", "ReportSettings", "LichessSettings", "read_pgn"}
CORE |= {"ClubOptions", "rate_club", "list_games", "load_games", "build_report", "Game"}


def test_dir_and_all_list_the_public_names_and_nothing_private() -> None:
    assert set(lichess_elo.__all__) >= CORE
    assert sorted(dir(lichess_elo)) == sorted(lichess_elo.__all__)
    assert len(set(lichess_elo.__all__)) == len(lichess_elo.__all__)
    assert not [n for n in lichess_elo.__all__ if n.startswith("_") and n != "__version__"]
    assert lichess_elo.__version__.count(".") == 2


@pytest.mark.parametrize("name", [n for n in lichess_elo.__all__ if n != "__version__"])
def test_every_public_name_imports_and_has_a_docstring(name: str) -> None:
    value = getattr(lichess_elo, name)
    doc = getattr(value, "__doc__", None)
    assert doc is not None and len(doc.strip()) > 10, name
    assert value is getattr(lichess_elo, name)  # the same object the second time


def test_a_name_not_public_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'rate_period'"):
        lichess_elo.rate_period  # noqa: B018 - the lookup is the test


def test_import_lichess_elo_imports_no_public_module() -> None:
    code = (
        "import sys, lichess_elo\n"
        "print(sorted(m for m in sys.modules if m.startswith('lichess_elo')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    # The package alone: even ``__version__`` is read on first use, so a Ctrl-C in the
    # command line's first moments finds no import of the package under way.
    assert out.stdout.strip() == "['lichess_elo']"


def test_the_version_is_read_on_first_use() -> None:
    from lichess_elo._version import __version__

    assert lichess_elo.__version__ == __version__
    assert "__version__" in dir(lichess_elo)


def test_the_old_name_source_is_lichess_settings_for_one_release() -> None:
    # docs/library.md, "What moved": Source was renamed LichessSettings
    assert lichess_elo.Source is lichess_elo.LichessSettings
