"""Every exception the library raises on purpose, with structured fields.

Nothing below ``cli/`` prints or exits, and no message here names a command-line option:
an error carries *which* input was wrong (``field``, a logical name such as ``"k"`` or
``"birth_year"``), the value, the bounds or the inputs that conflict. ``str(error)`` words
it with plain labels ("K 800 is outside 1..700"); the command line words the same error with
its own option names ("--k 800 is outside 1..700") through ``describe(names)``.

Exit codes: 2 for what the user gave (``BadInput`` and its subclasses), 1 for what happened
at run time (network, server, disk, a locked or damaged cache). An OS or HTTP failure is
never ``BadInput``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

#: Plain labels of the logical input names, used when no caller gives its own names.
LABELS: Mapping[str, str] = {
    "rating": "rating",
    "games": "games",
    "k": "K",
    "games_before": "games before",
    "birth_year": "birth year",
    "peak": "peak rating",
    "rules": "rules",
    "rules_as_of": "rules date",
    "fide_id": "FIDE id",
    "start_rating": "start rating",
    "track": "track",
    "method": "method",
    "cap": "the 400-point rule switched off",
    "unrated": "an initial rating",
    "since": "since",
    "until": "until",
    "perf": "perf",
    "username": "username",
    "token": "token",
    "api_url": "server URL",
    "cache_dir": "cache folder",
    "replay": "cassette",
    "pgn": "PGN file",
    "offline": "offline",
    "refresh": "refresh",
    "output": "output file",
    "chart": "chart file",
    "score": "score",
    "result": "result",
    "days": "days",
    "white": "white",
    "black": "black",
    "player": "player",
    "advantage": "colour advantage",
    "bot": "BOT side",
    "config": "rules file",
    "start": "start",
    "provisional": "provisional K:GAMES",
    "return_k": "return K:MONTHS:GAMES",
    "count_time_control": "counted time control",
    "update": "update",
    "rounding": "rounding",
    "inputs": "input",
}


def label(field: str | None, names: Mapping[str, str] | None = None) -> str:
    """How to call ``field``: from ``names`` (e.g. option names), else ``LABELS``."""
    if field is None:
        return "input"
    if names is not None and field in names:
        return names[field]
    return LABELS.get(field, field.replace("_", " "))


class LichessEloError(Exception):
    """Base class of every error this package raises on purpose (exit code 1)."""

    exit_code = 1

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """The one-line message, with inputs called by ``names`` where it names any."""
        return str(self)


class BadInput(LichessEloError):
    """Something the user gave is wrong (exit code 2).

    Attributes:
        problem: What is wrong, without naming the input (e.g. "is not a whole number").
        field: The logical input (``"k"``, ``"since"``...), or ``None`` for a whole-run problem.
        value: The value given, shown with the message when not ``None``.
    """

    exit_code = 2

    def __init__(self, problem: str, *, field: str | None = None, value: object = None) -> None:
        self.problem = problem
        self.field = field
        self.value = value
        super().__init__(self.describe())

    def _shown(self) -> str:
        return "" if self.value is None else f" {self.value}"

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> <problem>`` or ``<input> <value>: <problem>`` (``<input> <value> is ...``
        when the problem starts with "is"); the problem alone without a field."""
        if self.field is None:
            return self.problem
        if self.value is None:
            return f"{label(self.field, names)} {self.problem}"
        sep = " " if self.problem.startswith("is ") else ": "
        return f"{label(self.field, names)}{self._shown()}{sep}{self.problem}"


class OutOfRange(BadInput):
    """A number outside its bounds (inclusive ``low``..``high``)."""

    def __init__(self, field: str, value: float, low: float, high: float) -> None:
        self.low, self.high = low, high
        super().__init__(f"is outside {low:g}..{high:g}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> <value> is outside <low>..<high>``."""
        return f"{label(self.field, names)} {self.value} {self.problem}"


class Malformed(BadInput):
    """A value that does not parse: ``kind`` says what it should be ("a date"), ``expected``
    how to write it."""

    def __init__(self, field: str, value: object, expected: str, kind: str = "") -> None:
        self.expected, self.kind = expected, kind
        super().__init__(f"expected {expected}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> '<value>' is not <kind>; expected <how>`` (or ``: expected <how>``)."""
        shown = f"{label(self.field, names)} {self.value!r}"
        if self.kind:
            return f"{shown} is not {self.kind}; {self.problem}"
        return f"{shown}: {self.problem}"


class UnknownChoice(BadInput):
    """A value that is not one of ``choices`` (its message names the closest, if any)."""

    def __init__(self, field: str, value: str, choices: Sequence[str]) -> None:
        self.choices = tuple(choices)
        super().__init__(f"not one of {', '.join(self.choices)}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``[<option>: ]unknown <input> '<value>'; valid: a, b, c``."""
        from lichess_elo.core.words import did_you_mean

        near = did_you_mean(str(self.value), self.choices)
        near = f" ({near})" if near else ""
        text = f"unknown {label(self.field)} {self.value!r}{near}; valid: {', '.join(self.choices)}"
        option = names.get(self.field) if names and self.field else None
        return f"{option}: {text}" if option else text


class Conflict(BadInput):
    """Two inputs that exclude each other (``fields``), with the reason."""

    def __init__(self, fields: tuple[str, str], reason: str = "") -> None:
        self.fields = fields
        super().__init__(reason, field=fields[0])

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<a> does not apply with <b> (<reason>)``."""
        first, second = (label(f, names) for f in self.fields)
        reason = f" ({self.problem})" if self.problem else ""
        return f"{first} does not apply with {second}{reason}"


class NotBefore(BadInput):
    """Two dates (or numbers) in the wrong order: ``field`` must come before ``other``."""

    def __init__(self, field: str, value: object, other: str, other_value: object) -> None:
        self.other, self.other_value = other, other_value
        super().__init__(f"is not before {other} {other_value}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> <value> is not before <other> <other value>``."""
        return (
            f"{label(self.field, names)} {self.value} is not before "
            f"{label(self.other, names)} {self.other_value}"
        )


class Missing(BadInput):
    """A required input is absent; ``hint`` says what to give."""

    def __init__(self, field: str, hint: str = "") -> None:
        super().__init__(hint, field=field)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``missing <input>: <hint>``."""
        hint = f": {self.problem}" if self.problem else ""
        return f"missing {label(self.field, names)}{hint}"


class BadFile(BadInput):
    """A file the user gave is wrong: ``path`` (and ``line``) with what is wrong there.

    ``unreadable`` marks a file that could not be read at all (missing, a folder, no
    permission), as opposed to a file whose content is wrong.
    """

    def __init__(
        self,
        path: Path | str,
        problem: str,
        *,
        line: int | None = None,
        field: str | None = None,
        unreadable: bool = False,
    ) -> None:
        self.path = Path(path)
        self.line = line
        self.unreadable = unreadable
        super().__init__(problem, field=field)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``[cannot read ][<input> ]<path>[:line]: <problem>``."""
        where = f"{self.path}:{self.line}" if self.line is not None else str(self.path)
        prefix = f"{label(self.field, names)} " if self.field else ""
        verb = "cannot read " if self.unreadable else ""
        return f"{verb}{prefix}{where}: {self.problem}"


# --- run-time failures (exit 1) ---------------------------------------------------------


class NotFound(LichessEloError):
    """Lichess has no such thing (HTTP 404): a user, a tournament, a FIDE player."""


class UserNotFound(NotFound):
    """Lichess has no user with that name (HTTP 404)."""


class FidePlayerNotFound(NotFound):
    """Lichess knows no FIDE player with that id (HTTP 404)."""

    def __init__(self, fide_id: int) -> None:
        super().__init__(f"no FIDE player with id {fide_id}")
        self.fide_id = fide_id


class BadFideData(LichessEloError):
    """A FIDE answer from Lichess is not in the documented format."""


class AccountClosed(LichessEloError):
    """The Lichess account exists but is closed (``disabled``)."""


@dataclass(frozen=True)
class FetchHint:
    """What would fetch a missing item: the user (or the tournament id when ``tournament``),
    a month's ``[since, until)``, the FIDE id of a FIDE record, and the server and cache
    folder when not the defaults."""

    user: str
    since: date | None = None
    until: date | None = None
    api_url: str | None = None
    cache_dir: Path | None = None
    tournament: bool = False
    fide_id: int | None = None


class NotCached(LichessEloError):
    """Offline mode asked for something the cache does not hold; ``hint`` says what fetches it."""

    def __init__(self, what: str, hint: FetchHint) -> None:
        self.what, self.hint = what, hint
        super().__init__(f"{what} is not in the cache; fetch it online first")


class RateLimited(LichessEloError):
    """Lichess answered HTTP 429 and retries were exhausted."""


class FetchFailed(LichessEloError):
    """A request failed for good after the retries (network, 5xx, cut stream, HTTP 4xx).

    ``connection_error`` is true when the server could not be reached at all, where the
    cache may still serve the run.
    """

    def __init__(self, message: str, *, connection_error: bool = False) -> None:
        self.connection_error = connection_error
        super().__init__(message)


class CannotConnect(FetchFailed):
    """The server refused the connection or its name does not resolve (reported fast).

    Attributes:
        url: The server that could not be reached.
        reason: What went wrong, e.g. ``connection refused``.
        cached: Whether the cache holds the user asked for (so working offline would help).
    """

    def __init__(self, url: str, reason: str, *, cached: bool = False) -> None:
        super().__init__(f"cannot connect to {url} ({reason})", connection_error=True)
        self.url = url
        self.reason = reason
        self.cached = cached


class TokenRefused(FetchFailed):
    """Lichess refused the token (HTTP 401): a server answer, so a run-time failure."""


class CassetteMissing(LichessEloError):
    """A replayed cassette lacks a request that the run needed."""


class CacheUnusable(LichessEloError):
    """The HTTP or replay cache file is damaged, locked or read-only; ``path`` is the file
    (or folder) when known."""

    def __init__(self, message: str, *, path: Path | None = None) -> None:
        self.path = path
        super().__init__(message)


class CacheLocked(CacheUnusable):
    """Another run held a cache file's lock for longer than the lock timeout."""


class DamagedAnswer(FetchFailed):
    """An answer (from Lichess, the cache or a cassette) that cannot be used whole: a line
    that is not JSON or not UTF-8, the wrong content type, a line over the size limit.

    ``what`` is what was asked (e.g. a month), ``fault`` what is wrong with the answer;
    ``hint`` is set when a damaged cached answer must be fetched again online.
    """

    def __init__(
        self, message: str, *, what: str = "", fault: str = "", hint: FetchHint | None = None
    ) -> None:
        self.what, self.fault, self.hint = what, fault, hint
        super().__init__(message)


class WriteFailed(LichessEloError):
    """An output file could not be written: ``path`` is the user's path, ``field`` the input
    that named it (``output`` or ``chart``), ``reason`` the system's words."""

    def __init__(self, path: Path, reason: str, field: str = "output") -> None:
        self.path, self.reason, self.field = path, reason, field
        super().__init__(f"{path}: cannot write ({reason})")

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<option> <path>: cannot write (<reason>)`` when ``names`` names the input."""
        prefix = f"{names[self.field]} " if names and self.field in names else ""
        return f"{prefix}{self}"


class GlickoConvergenceError(LichessEloError):
    """The Glicko-2 volatility iteration did not converge."""


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
    checksums), ``locked`` (``pid`` holds it), ``read_only`` or ``disk_full``; ``path``
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
            }[kind]
        )
