"""A report whose games are all replayed already never needs python-chess (its
import is a tenth of a warm report's start): the modules a warm ``report`` runs import
none of it, and the replay and the PGN reader bring it in only when used. Checked in a
fresh interpreter's ``sys.modules``; no timing involved."""

from __future__ import annotations

import subprocess
import sys

_CHECK = """
import sys
import lichess_elo.app.report, lichess_elo.app.accuracy, lichess_elo.cli.report
import lichess_elo.output.report.json, lichess_elo.sources.cache.replay
print(sorted(m for m in sys.modules if m == "chess" or m.startswith("chess.")))
from lichess_elo.sources.cache.replay import replay_rows
print("chess" in sys.modules)
replay_rows([("g", "standard", None, "started", ("e4",))], False)
print("chess" in sys.modules)
"""


def test_the_report_modules_import_no_python_chess_until_a_game_is_replayed() -> None:
    run = subprocess.run([sys.executable, "-c", _CHECK], capture_output=True, text=True, check=True)
    assert run.stdout.split("\n")[:3] == ["[]", "False", "True"]
