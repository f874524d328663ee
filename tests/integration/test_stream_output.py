"""``stream_output``: a streamed ``--output`` file is whole or not there at all."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import TextIO

import pytest

from lichess_elo.errors import WriteFailed
from lichess_elo.output.common import stream_output


def _rows(out: TextIO, stop_at: int | None = None) -> None:
    for number in range(1000):
        if number == stop_at:
            raise KeyboardInterrupt  # Ctrl-C half-way through the rows
        out.write(f"row {number}\n")


def test_rows_written_one_by_one_arrive_whole(tmp_path: Path) -> None:
    target = tmp_path / "r.csv"
    stream_output(target, _rows)
    assert target.read_text() == "".join(f"row {n}\n" for n in range(1000))
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"]


def test_an_interruption_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "r.csv"
    target.write_text("the previous report\n")
    with pytest.raises(KeyboardInterrupt):
        stream_output(target, lambda out: _rows(out, stop_at=500))
    assert target.read_text() == "the previous report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"]


def test_a_failed_write_names_the_users_path(tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "r.csv"  # the folder went away after the checks
    with pytest.raises(WriteFailed) as caught:
        stream_output(target, _rows)
    assert caught.value.path == target and ".tmp" not in str(caught.value)


def test_without_a_path_the_rows_go_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    stream_output(None, _rows)
    assert capsys.readouterr().out.splitlines()[-1] == "row 999"


def test_a_symbolic_link_stays_a_link_and_its_target_gets_the_rows(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    stream_output(link, _rows)
    assert link.is_symlink()
    assert real.read_text().splitlines() == [f"row {n}" for n in range(1000)]


def test_a_fifo_is_written_straight_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    stream_output(fifo, _rows)
    reader.join(timeout=30)
    assert got == ["".join(f"row {n}\n" for n in range(1000)).encode()]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # never replaced by a regular file
