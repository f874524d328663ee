"""A reader that leaves early (``lichess-elo report ... | head -c 10``): the run ends as
``cat`` or ``git log`` do there, by SIGPIPE (141 in the shell), with nothing on stderr; it
ended with exit 1, which reads as a failure of the run under ``set -o pipefail``."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.helpers import REPO
from tests.runners import start_cli


def test_a_reader_that_leaves_early_ends_the_run_by_sigpipe_and_silently(tmp_path: Path) -> None:
    # --perf all of the recorded OnBoard247 games is about 230 KB of JSON, more than a
    # pipe holds (64 KB), so the writer is still writing when the reader closes its end.
    args = [
        "report", "OnBoard247", "--replay", str(REPO / "cassettes" / "onboard247.yaml"),
        "--format", "json", "--perf", "all", "-q",
    ]  # fmt: skip
    with start_cli(*args, env={"LICHESS_ELO_CACHE_DIR": str(tmp_path)}) as child:
        assert child.stdout is not None and child.stderr is not None
        first = child.stdout.read(10)
        child.stdout.close()  # the reader leaves, as head does
        errors = child.stderr.read()
        code = child.wait(timeout=120)
    assert first == b'{\n  "user"'
    assert code == -signal.SIGPIPE, errors  # Popen's way of saying "ended by SIGPIPE"
    assert errors == b""
