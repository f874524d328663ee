"""A full disk: an offline run still reads the caches it has, and an online
run says the disk is full, in one line.

The full disk is real: a small tmpfs mounted for the test, filled to the last byte with a
file of zeros. Mounting needs root (CI runs as root); elsewhere the test is skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lichess_elo.sources.cache.sqlite import whole_in_main_file
from tests.fake_lichess import FakeLichess
from tests.runners import run_cli


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs at ``tmp_path / "disk"``, unmounted after the test."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill_disk(disk: Path) -> None:
    fd = os.open(disk / "zeros", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:  # ENOSPC: the disk is full
        pass
    finally:
        os.close(fd)
    assert shutil.disk_usage(disk).free < 4096


def _report(server: FakeLichess, cache: Path, *more: str) -> subprocess.CompletedProcess[str]:
    args = ["report", "OnBoard247", "--api-url", server.url, "--cache-dir", str(cache)]
    return run_cli(*args, "--until", "2023-03", "--format", "json", *more)


def test_offline_reading_survives_a_full_disk(
    onboard_server: FakeLichess, tmp_path: Path, small_disk: Path
) -> None:
    # the HTTP cache filled on a normal disk (as it was before the disk filled up)
    roomy = tmp_path / "roomy"
    first = _report(onboard_server, roomy)
    assert first.returncode == 0, first.stderr
    cache = small_disk / "cache"
    cache.mkdir()
    shutil.copy(roomy / "http.sqlite", cache / "http.sqlite")  # WAL mode, all in the file
    _fill_disk(small_disk)

    offline = _report(onboard_server, cache, "--offline")
    assert offline.returncode == 0, offline.stderr
    assert offline.stdout == first.stdout  # the same report, read from the full disk
    warnings = offline.stderr.strip().splitlines()
    # the two caches the run would have written say, each in one line, why they are not
    assert len(warnings) == 2, offline.stderr
    assert all(w.startswith("lichess-elo: warning:") for w in warnings)
    assert "parsed-games cache" in warnings[0] and "replay cache" in warnings[1]

    online = run_cli(
        "fetch", "OnBoard247", "--api-url", onboard_server.url, "--cache-dir", str(cache)
    )
    assert online.returncode == 1
    line = online.stderr.strip()
    assert "\n" not in line and "unexpected" not in line
    assert line.startswith("lichess-elo: error: the disk holding the cache file")
    assert str(cache / "http.sqlite") in line and "is full" in line


def test_an_immutable_read_is_only_taken_when_the_wal_holds_nothing(tmp_path: Path) -> None:
    db = tmp_path / "http.sqlite"
    db.write_bytes(b"")
    assert whole_in_main_file(db)  # no -wal file
    wal = tmp_path / "http.sqlite-wal"
    wal.write_bytes(b"")
    assert whole_in_main_file(db)  # an empty one
    wal.write_bytes(b"\x37\x7f\x06\x82" + b"\0" * 28)  # a WAL header: changes may follow
    assert not whole_in_main_file(db)


def test_each_output_file_onto_a_full_disk_is_named_by_its_own_option(
    onboard_server: FakeLichess, tmp_path: Path, small_disk: Path
) -> None:
    # --html onto a full disk was worded as --output's; each file names its own option.
    _fill_disk(small_disk)
    for option, name in (("--html", "page.html"), ("--chart", "chart.png"), ("--output", "r.json")):
        target = small_disk / name
        done = _report(onboard_server, tmp_path / "cache", option, str(target), "-q")
        assert done.returncode == 1, (option, done.stderr)
        assert done.stderr == (
            f"lichess-elo: error: {option} {target}: cannot write (No space left on device)\n"
        )
        assert not target.exists()  # nothing half-written is left where the file was asked
