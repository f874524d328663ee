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

``write_file`` writes a whole text or bytes; ``open_output`` gives a handle to write through,
bit by bit, with the same rules (a report's rows are written as they are made, never held
whole). The temporary file is ``.<name>.<pid>-<random>.tmp``. A run killed before its rename
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
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, BinaryIO, Literal, TextIO, overload

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


def _loops(path: Path) -> bool:
    """Whether ``path`` is a symbolic link whose chain comes back on itself (writing there
    would replace the link with a file)."""
    if not path.is_symlink():
        return False
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


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
        BadInput: a folder, a socket or block device, a missing or read-only folder, a
            file that is not writable, or a name the system refuses (too long, a folder
            that cannot be entered); ``field`` is the input that named ``path``.
    """
    try:
        _check_target(path, field)
    except OSError as exc:  # e.g. ENAMETOOLONG from a name over 255 bytes
        raise BadInput(f"cannot be used ({exc.strerror or exc})", field=field, value=path) from None


def _check_target(path: Path, field: str) -> None:
    if is_stream(path):
        if str(path) not in STDOUT_NAMES and not os.access(path, os.W_OK):
            raise BadInput("not writable", field=field, value=path)
        return
    if _loops(path):
        loop = "a symbolic link that loops, never reaching a file; give another name"
        raise BadInput(loop, field=field, value=path)
    target = _target(path)
    problem = _refused(target)
    if problem:
        raise BadInput(problem, field=field, value=path)
    folder = _folder(target)
    if not folder.is_dir():
        raise BadInput(f"the folder {folder} does not exist", field=field, value=path)
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise BadInput("not writable", field=field, value=path)


def _same_file(a: Path, b: Path) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return False


def check_not_read(path: Path, field: str, reads: Mapping[Path, str]) -> None:
    """Refuse to write to a file the run reads: ``reads`` maps each such file
    (an input, a cache file, even one not made yet) to what it is, for the message.

    Raises:
        BadInput: ``path`` is (or links to) one of ``reads``.
    """
    if is_stream(path):
        return
    for item, what in reads.items():
        if _same_file(path, item):
            raise BadInput(
                f"is {what}, which this run reads; give another file name",
                field=field,
                value=path,
            )


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


@contextmanager
def _through(path: Path, binary: bool) -> Iterator[IO[Any]]:
    """A handle straight to standard output, a FIFO or a device."""
    if str(path) in STDOUT_NAMES:
        sys.stdout.flush()
        stream: IO[Any] = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    # O_TRUNC is harmless on a FIFO or a device
    with open(path, "wb" if binary else "w", encoding=None if binary else "utf-8") as handle:
        yield handle


@contextmanager
def _replacing(target: Path, binary: bool) -> Iterator[IO[Any]]:
    """A handle on a temporary file beside ``target``, synced and renamed over it when the
    block ends without an error, removed when it ends with one (an interruption too)."""
    folder = _folder(target)
    while True:
        tmp = folder / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        mode, encoding, newline = ("wb", None, None) if binary else ("w", "utf-8", "")
        with os.fdopen(fd, mode, 1 << 16, encoding, None, newline) as handle:
            with contextlib.suppress(OSError):  # no file yet: the umask already applied
                os.fchmod(handle.fileno(), stat.S_IMODE(os.stat(target).st_mode))
            yield handle
            # On disk before the rename: a power loss cannot leave an empty file.
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@overload
def open_output(
    path: Path, *, binary: Literal[False] = ...
) -> contextlib.AbstractContextManager[TextIO]: ...
@overload
def open_output(
    path: Path, *, binary: Literal[True]
) -> contextlib.AbstractContextManager[BinaryIO]: ...
def open_output(path: Path, *, binary: bool = False) -> contextlib.AbstractContextManager[Any]:
    """A handle to write ``path`` through, bit by bit, as the module docstring says: text
    is UTF-8 with no newline translation. ``path`` is only replaced once the block ends
    without an error; standard output, a FIFO or a device is written straight through.

    Raises:
        OSError: as ``write_file``; its ``filename`` is ``path``, never the temporary file.
    """
    return _opened(path, binary)


@contextmanager
def _opened(path: Path, binary: bool) -> Iterator[IO[Any]]:
    try:
        if is_stream(path):
            handles = _through(path, binary)
        else:
            target = _target(path)
            problem = _refused(target)
            if problem:
                code = errno.EISDIR if target.is_dir() else errno.EINVAL
                raise OSError(code, problem, str(path))
            remove_leftovers(target)
            handles = _replacing(target, binary)
        with handles as handle:
            yield handle
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None


def write_file(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text is UTF-8) to ``path`` as the module docstring says.

    Raises:
        OSError: ``path`` is a folder (``EISDIR``) or another kind of file that is not
            written to (``EINVAL``), or the write failed (disk full, no permission...);
            its ``filename`` is ``path``, never the temporary file.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with open_output(path, binary=True) as handle:
        handle.write(payload)
