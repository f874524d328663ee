"""The C header scanner under UndefinedBehaviorSanitizer: no undefined behaviour on empty
values (it called ``memcpy`` with a NULL pointer and length 0 in ``keep`` and ``fill``),
real Lichess PGN or awkward text. The scanner's own source is compiled with gcc's
``-fsanitize=undefined -fno-sanitize-recover=all`` (the runtime linked in statically) into
a folder of the test's, and a child Python scans with it: any report ends the child with a
non-zero exit and the sanitizer's line on stderr."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from lichess_elo.core.population.schema import HEADERS
from lichess_elo.sources.dump import parse as dump_parse
from tests.integration.db_helpers import REPO, awkward_games

#: The scanner's source, beside the module that calls it.
SOURCE = Path(dump_parse.__file__).with_name("pgnscan.c")
REAL = REPO / "tests" / "data" / "lichess" / "real"
CC = shutil.which("gcc")

#: CI requires the C scanner (LICHESS_ELO_REQUIRE_CSCAN=1) and so gcc: there this runs.
if CC is None and os.environ.get("LICHESS_ELO_REQUIRE_CSCAN") == "1":
    raise RuntimeError("LICHESS_ELO_REQUIRE_CSCAN=1 but gcc is not on PATH")
pytestmark = pytest.mark.skipif(CC is None, reason="gcc is not on PATH")

CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
import pgnscan
names = tuple(sys.argv[2].split(","))
for path in sys.argv[3:]:
    text = open(path, "rb").read()
    chunk = bytearray(text) + bytes(4096)
    found = pgnscan.scan(chunk, len(text), names, 2)
    print(path.rsplit("/", 1)[-1], found[0], sum(found[5]))
"""


def _sanitized(folder: Path) -> Path:
    """The scanner built with UBSan into ``folder`` (importable there as ``pgnscan``)."""
    folder.mkdir()
    include = sysconfig.get_paths()["include"]
    target = folder / f"pgnscan{sysconfig.get_config_var('EXT_SUFFIX')}"
    flags = ["-fsanitize=undefined", "-fno-sanitize-recover=all", "-static-libubsan"]
    assert CC is not None
    subprocess.run(
        [
            CC,
            "-shared",
            "-fPIC",
            "-O1",
            "-g",
            *flags,
            f"-I{include}",
            str(SOURCE),
            "-o",
            str(target),
        ],
        check=True,
        timeout=300,
    )
    return folder


def test_the_scanner_has_no_undefined_behaviour_on_empty_values_real_and_awkward_pgn(
    tmp_path: Path,
) -> None:
    built = _sanitized(tmp_path / "build")
    files = tmp_path / "inputs"
    files.mkdir()
    # Every value empty: the first value kept is empty, so the values buffer is still NULL
    # when keep() copies it and when fill() copies it out (the two places UBSan flagged).
    (files / "empty.pgn").write_bytes(
        b"".join(f'[{name} ""]\n'.encode() for name in HEADERS) + b"\n1. e4 *\n\n"
    )
    (files / "awkward.pgn").write_bytes(b"".join(awkward_games()))
    # Movetext the ply count reads: comments open and closed, across lines, left open.
    (files / "movetext.pgn").write_bytes(
        b'[White "a"]\n\n1. { x\ny } e4 } { 1-0\n\n[White "b"]\n\n{\n\n[White "c"]\n\n'
    )
    inputs = [
        files / "empty.pgn",
        files / "awkward.pgn",
        files / "movetext.pgn",
        *sorted(REAL.glob("*.pgn")),
    ]
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(built), ",".join(HEADERS), *map(str, inputs)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "runtime error" not in done.stderr, done.stderr
    counts = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()}
    assert counts["empty.pgn"] == ["1", "1"]  # the one game, every tag empty; 1 ply ("e4")
    assert counts["movetext.pgn"] == ["3", "1"]  # plies 1 ("e4"), 0 and 0
    assert len(counts) == len(inputs)
