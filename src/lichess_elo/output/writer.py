"""Writing an output file (``--output``, ``--chart``): the one writer every command uses.

What is at the path decides how it is written:

- a regular file or a new path: through a temporary file beside it, synced, then renamed
  over it (a failure never leaves a half-written file);
- a symbolic link: the link is resolved and its target replaced the same way; the link
  stays a link;
- a FIFO, a character device (``/dev/null``, a terminal), ``-`` or ``/dev/stdout``:
  written straight through, never renamed over (replacing ``/dev/null`` with a regular
  file, as root, would break the machine);
- a folder (or anything else: a socket, a block device): refused.

The temporary file is ``.<name>.<pid>-<random>.tmp``. A run killed before its rename
(``kill -9``) leaves it behind; the next write to the same path removes every such file
whose process is gone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import sys
import time
from pathlib import Path

from lichess_elo.errors import BadInput

#: Paths that mean "standard output" rather than a file.
STDOUT_NAMES = frozenset({"-", "/dev/stdout"})
#: A temporary file of an older version (no process id) is only removed when older than
#: this many seconds, so a run of that version still writing it is left alone.
_OLD_TMP_AGE = 600.0


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _target(path: Path) -> Path:
    """``path`` with every symbolic link resolved (a dangling link: where it points)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def is_stream(path: Path) -> bool:
    """Whether ``path`` is written straight through: ``-``, ``/dev/stdout``, a FIFO or a
    character device (after following symbolic links)."""
    if str(path) in STDOUT_NAMES:
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def _refused(target: Path) -> str | None:
    """Why nothing is written at ``target`` (a folder, a socket...), or ``None``."""
    if target.is_dir():
        return "a folder, not a file; give a file name"
    if target.exists() and not target.is_file():
        return "not a regular file, a FIFO or a terminal; give a file name"
    return None


def check_target(path: Path, field: str = "output") -> None:
    """Check, before any work is done, that an output can be written to ``path``.

    Raises:
        BadInput: a folder, a socket or block device, a missing or read-only folder, or a
            file that is not writable; ``field`` is the input that named ``path``.
    """
    if is_stream(path):
        if str(path) not in STDOUT_NAMES and not os.access(path, os.W_OK):
            raise BadInput("not writable", field=field, value=path)
        return
    target = _target(path)
    problem = _refused(target)
    if problem:
        raise BadInput(problem, field=field, value=path)
    folder = _folder(target)
    if not folder.is_dir():
        raise BadInput(f"the folder {folder} does not exist", field=field, value=path)
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise BadInput("not writable", field=field, value=path)


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, as another user
        return True
    return True


def remove_leftovers(path: Path) -> list[Path]:
    """Remove the temporary files that killed runs left beside ``path``; return them.

    A file of this version names its process and goes when that process is gone; a file
    of an older version (no process id) goes when older than ten minutes.
    """
    folder = _folder(path)
    pattern = re.compile(
        rf"\.{re.escape(path.name)}\.(?:(?P<pid>\d+)-[0-9a-f]{{8}}|[0-9a-f]{{8}})\.tmp"
    )
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        match = pattern.fullmatch(name)
        if match is None:
            continue
        leftover = folder / name
        pid = match["pid"]
        if pid is not None and _pid_alive(int(pid)):
            continue
        if pid is None:
            with contextlib.suppress(OSError):
                if now - leftover.stat().st_mtime < _OLD_TMP_AGE:
                    continue
        with contextlib.suppress(OSError):
            leftover.unlink()
            removed.append(leftover)
    return removed


def _write_through(path: Path, payload: bytes) -> None:
    if str(path) in STDOUT_NAMES:
        sys.stdout.flush()
        stream = sys.stdout.buffer
        stream.write(payload)
        stream.flush()
        return
    with open(path, "wb") as handle:  # O_TRUNC is harmless on a FIFO or a device
        handle.write(payload)


def _replace(target: Path, payload: bytes) -> None:
    folder = _folder(target)
    while True:
        tmp = folder / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as handle:
            with contextlib.suppress(OSError):  # no file yet: the umask already applied
                os.fchmod(handle.fileno(), stat.S_IMODE(os.stat(target).st_mode))
            handle.write(payload)
            # On disk before the rename: a power loss cannot leave an empty file.
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_file(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text is UTF-8) to ``path`` as the module docstring says.

    Raises:
        OSError: ``path`` is a folder (``EISDIR``) or another kind of file that is not
            written to (``EINVAL``), or the write failed (disk full, no permission...);
            its ``filename`` is ``path``, never the temporary file.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if is_stream(path):
            _write_through(path, payload)
            return
        target = _target(path)
        problem = _refused(target)
        if problem:
            code = errno.EISDIR if target.is_dir() else errno.EINVAL
            raise OSError(code, problem, str(path))
        remove_leftovers(target)
        _replace(target, payload)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
