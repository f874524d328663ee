"""Where ``--output`` and ``--chart`` write: a FIFO, a character device, a
symbolic link, ``-`` and a folder are never replaced by a regular file, and the temporary
file of a run killed with SIGKILL is removed by the next write.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.runners import Cli, invoke

REPO = Path(__file__).resolve().parents[2]
CASSETTE = REPO / "cassettes" / "onboard247.yaml"


def _report(tmp_path: Path, output: Path | str, *extra: str) -> object:
    args = ["report", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(tmp_path)]
    return invoke([*args, "--format", "json", "--output", str(output), *extra])


@pytest.fixture(scope="module")
def report_json(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The report as written to a plain new file (what every other target must receive)."""
    folder = tmp_path_factory.mktemp("plain")
    result = _report(folder, folder / "r.json")
    assert result.exit_code == 0, result.output
    return (folder / "r.json").read_bytes()


def test_a_fifo_is_written_through(tmp_path: Path, report_json: bytes) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = _report(tmp_path, fifo)
    reader.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not a regular file
    assert received == [report_json]


def test_a_character_device_is_written_through(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # a private copy of /dev/null (major 1, minor 3 on Linux): as root, the old code
        # would have replaced the real one
        device = tmp_path / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:
        device = Path("/dev/null")  # a normal user cannot rename over it anyway
    result = _report(tmp_path, device)
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_symlink_keeps_being_a_link_and_its_target_is_replaced(
    tmp_path: Path, report_json: bytes
) -> None:
    real = tmp_path / "reports" / "latest.json"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "r.json"
    link.symlink_to(real)
    result = _report(tmp_path, link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == report_json


def test_dash_is_standard_output(tmp_path: Path, report_json: bytes) -> None:
    result = _report(tmp_path, "-")
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == report_json
    assert not (tmp_path / "-").exists()


def test_a_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    result = _report(tmp_path, folder)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(folder) in lines[0] and "folder" in lines[0]


@pytest.mark.parametrize("option", ["--output", "--chart", "--html"])
def test_a_symlink_that_loops_is_refused_and_kept(tmp_path: Path, option: str) -> None:
    # A link to itself, and a pair pointing at each other: writing there replaced the link
    # with a file; it is refused before any work, in one line, and stays a link.
    end = ".png" if option == "--chart" else ""  # a chart's name ends in .png or .svg
    one, a, b = (tmp_path / f"{name}{end}" for name in ("loop", "a", "b"))
    one.symlink_to(one)
    a.symlink_to(b)
    b.symlink_to(a)
    for link in (one, a):
        args = ["report", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(tmp_path)]
        result = invoke([*args, option, str(link)])
        assert result.exit_code == 2
        assert result.stderr == (
            f"lichess-elo: error: {option} {link}: a symbolic link that loops, never reaching "
            "a file; give another name\n"
        )
        assert link.is_symlink()
    assert (os.readlink(one), os.readlink(a), os.readlink(b)) == (str(one), str(b), str(a))


_KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from lichess_elo.output.writer import write_file
os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)  # die just before the rename
write_file(Path(sys.argv[1]), "half a report")
"""


def test_kill_9_leftover_is_removed_by_the_next_write(tmp_path: Path, report_json: bytes) -> None:
    out = tmp_path / "r.json"
    killed = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(out)], check=False)
    assert killed.returncode == -signal.SIGKILL
    leftovers = [p for p in tmp_path.iterdir() if p.name.startswith(".r.json.")]
    assert len(leftovers) == 1 and leftovers[0].name.endswith(".tmp")
    result = _report(tmp_path, out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == report_json
    assert [p for p in tmp_path.iterdir() if p.name.startswith(".r.json.")] == []


def test_a_chart_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "charts" / "me.svg"
    real.parent.mkdir()
    link = tmp_path / "me.svg"
    link.symlink_to(real)
    result = _report(tmp_path, tmp_path / "r.json", "--chart", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert real.read_bytes().lstrip().startswith(b"<?xml")


@pytest.mark.parametrize("option", ["--output", "--chart"])
def test_a_name_the_system_refuses_is_one_line_exit_2(
    cli: Cli, tmp_path: Path, option: str
) -> None:
    # a file name over 255 bytes gave "unexpected OSError: [Errno 36]".
    suffix = ".png" if option == "--chart" else ".json"
    name = tmp_path / ("a" * 300 + suffix)
    args = ["report", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(tmp_path)]
    result = cli([*args, option, str(name)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"lichess-elo: error: {option} {name}: cannot be used (File name too long)\n"
    )
