"""The population database's errors (dumps, the DuckDB file, the engines) and the replay
workers'."""

from __future__ import annotations

from pathlib import Path

from lichess_elo.errors.base import BadInput, LichessEloError


class DumpUnreadable(LichessEloError):
    """A dump file could not be read at all (not zstd, not Parquet, cut short)."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class NotLichessPgn(BadInput):
    """A file given to ``db ingest`` is not PGN that Lichess wrote (exit code 2)."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"not a Lichess PGN ({reason})", field="files", value=path)
        self.path = path
        self.reason = reason


class DatabaseMissing(BadInput):
    """The population database named does not exist (nothing was ingested there)."""

    def __init__(self, path: object) -> None:
        super().__init__(f"no database at {path}: ingest dumps into it first")
        self.path = path


class NotRated(LichessEloError):
    """The population database has games but no lists for what was asked."""


class EngineUnavailable(LichessEloError):
    """The engine asked for cannot run here (module or Java missing)."""


class MonthUnratable(LichessEloError):
    """A month whose games ``db rate`` cannot all rate: ``month`` (``YYYY-MM``) and the
    ``reason``. Nothing of the run is kept: the lists before it stay whole."""

    def __init__(self, month: str, reason: str) -> None:
        self.month, self.reason = month, reason
        super().__init__(
            f"the games of {month} cannot all be rated ({reason}); nothing was changed: "
            "ingest that month again"
        )


class TooLarge(LichessEloError):
    """A population too large for ``db rate`` on this machine: its arrays would take
    ``needed`` bytes of the ``available`` ones (``keys`` players, one per name and perf;
    ``given``: the limit is the user's, not the machine's). Refused before any work; the
    Spark engine rates it on a cluster."""

    def __init__(self, needed: int, available: int, keys: int, *, given: bool = False) -> None:
        self.needed, self.available, self.keys, self.given = needed, available, keys, given
        has = "is allowed" if given else "is free on this machine"
        more = "" if given else ", or free memory and run again"
        super().__init__(
            f"rating {keys:,} players needs about {size_text(needed)} of memory and "
            f"{size_text(available)} {has}: rate it on Spark{more}"
        )


def size_text(size: int) -> str:
    """A number of bytes for a person: ``3.2 GiB``, ``750 MiB``, ``12 KiB``, ``900 bytes``."""
    for unit, power in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 2**power:
            value = size / 2**power
            return f"{value:.1f} {unit}" if unit == "GiB" else f"{value:.0f} {unit}"
    return f"{size} bytes"


class WorkerLost(LichessEloError):
    """A replay worker process died (killed, out of memory) before handing its games back:
    ``pid`` and ``signal`` (or ``exit_status``) when known; ``kept_in`` is the cache folder
    that holds the replays already back (``None``: nothing was kept)."""

    def __init__(
        self,
        *,
        pid: int | None = None,
        signal: int | None = None,
        exit_status: int | None = None,
        kept_in: Path | None = None,
    ) -> None:
        self.pid, self.signal, self.exit_status, self.kept_in = pid, signal, exit_status, kept_in
        who = "a replay worker" if pid is None else f"replay worker PID {pid}"
        if signal is not None:
            how = f"was killed by signal {signal}"
            how += " (SIGKILL: the out-of-memory killer does this)" if signal == 9 else ""
        elif exit_status is not None:
            how = f"ended with status {exit_status}"
        else:
            how = "ended abruptly"
        if kept_in is None:
            after = "run the command again"
        else:
            after = f"the replays already done are kept in {kept_in}: run the command again"
        super().__init__(f"{who} {how}; {after}")


class NotADatabase(BadInput):
    """The file named as the population database is not a DuckDB database (another kind
    of file, random bytes, empty): refused before DuckDB reads it. ``path`` is the file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(
            "is not a DuckDB database (or is damaged): move it aside, or name another file",
            field="db",
            value=path,
        )


class DatabaseFault(LichessEloError):
    """The population database cannot be used now: ``kind`` is ``damaged`` (cut short, bad
    checksums), ``locked`` (``pid`` holds it), ``read_only``, ``disk_full`` or
    ``foreign_log`` (a ``.wal`` beside it that belongs to another file); ``path``
    the file, ``reason`` DuckDB's or the system's words. What it held stays whole."""

    def __init__(self, kind: str, path: Path, reason: str = "", pid: int | None = None) -> None:
        self.kind, self.path, self.reason, self.pid = kind, path, reason, pid
        by = f" (PID {pid})" if pid is not None else ""
        super().__init__(
            {
                "damaged": f"the database {path} is damaged ({reason}): move it aside and "
                "ingest the dumps again",
                "locked": f"the database {path} is in use by another run{by} ({reason}); "
                "let it finish and run again",
                "read_only": f"the database {path} cannot be written ({reason}): make it "
                "writable or copy it somewhere you can write",
                "disk_full": f"the database {path} cannot be written ({reason}): free some "
                "space and run again; what it held before stays whole",
                "foreign_log": f"the database {path} cannot be opened: its write-ahead log "
                f"{path}.wal was written for another file (a copy of the database without "
                "its log, or a log copied beside it); move that .wal file aside and run again",
            }[kind]
        )
