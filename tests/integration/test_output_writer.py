"""The one output writer (``output.writer``) on real files: which leftovers it removes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from lichess_elo.errors import BadInput
from lichess_elo.output.writer import check_target, remove_leftovers, write_file


def test_leftovers_of_dead_runs_go_live_ones_stay(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    dead = tmp_path / ".r.json.999999999-0123abcd.tmp"  # no such process id on Linux
    live = tmp_path / f".r.json.{os.getppid()}-0123abcd.tmp"  # our parent is alive
    old = tmp_path / ".r.json.89abcdef.tmp"  # an older version's name, 20 minutes old
    recent = tmp_path / ".r.json.fedcba98.tmp"  # an older version's, just written
    other = tmp_path / ".s.json.999999999-0123abcd.tmp"  # another output's
    for path in (dead, live, old, recent, other):
        path.write_text("partial")
    stamp = time.time() - 1200
    os.utime(old, (stamp, stamp))
    write_file(out, "{}\n")
    assert out.read_text() == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["r.json", live.name, recent.name, other.name]
    )
    assert remove_leftovers(out) == []


def test_mode_of_a_replaced_file_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    out.write_text("old")
    out.chmod(0o600)
    write_file(out, b"new")
    assert out.read_bytes() == b"new" and (out.stat().st_mode & 0o777) == 0o600


def test_a_dangling_symlink_gets_its_target_made(tmp_path: Path) -> None:
    link = tmp_path / "r.json"
    link.symlink_to(tmp_path / "made.json")
    write_file(link, "x")
    assert link.is_symlink() and (tmp_path / "made.json").read_text() == "x"


@pytest.mark.parametrize("name", ["missing/r.json"])
def test_checks_name_the_path(tmp_path: Path, name: str) -> None:
    with pytest.raises(BadInput, match="does not exist"):
        check_target(tmp_path / name)
    with pytest.raises(BadInput, match="a folder, not a file"):
        check_target(tmp_path)


def test_write_errors_name_the_users_path(tmp_path: Path) -> None:
    with pytest.raises(OSError) as caught:
        write_file(tmp_path / "missing" / "r.json", "x")
    assert caught.value.filename == str(tmp_path / "missing" / "r.json")
