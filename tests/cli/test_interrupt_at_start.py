"""Ctrl-C at any moment of start-up, while the modules import, is one line and exit 130
(it gave a traceback in the first second). SIGINT is sent for real, by the
process to itself, at the moment a given module starts importing: no timing involved."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import REPO

_RUN = """
import os, signal, sys

class SigintOn:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, SigintOn())
sys.argv = ["lichess-elo", *{argv!r}]
{entry}
"""


# Each command's module is imported only when that command runs, so the
# report's and db's are interrupted under their own commands.
@pytest.mark.parametrize(
    ("module", "argv"),
    [
        # the package's own first import, once imported before main's handler
        ("lichess_elo.cli.gc_pause", ["calc", "1500", "1500:1"]),
        ("typer", ["calc", "1500", "1500:1"]),
        ("rich", ["calc", "1500", "1500:1"]),
        ("lichess_elo.cli.root", ["calc", "1500", "1500:1"]),
        ("lichess_elo.cli.calc", ["calc", "1500", "1500:1"]),
        ("lichess_elo.cli.report", ["report", "--help"]),
        ("lichess_elo.cli.db", ["db", "--help"]),
    ],
)
@pytest.mark.parametrize(
    "entry",
    ["from lichess_elo.cli import main; main()", "import runpy; runpy.run_module('lichess_elo')"],
    ids=["console-script", "python-m"],
)
def test_ctrl_c_while_importing_is_one_line_and_exit_130(
    module: str, argv: list[str], entry: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _RUN.format(module=module, argv=argv, entry=entry)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert (done.returncode, done.stderr, done.stdout) == (130, "lichess-elo: interrupted\n", "")
