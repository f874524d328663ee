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

from lichess_elo.errors.base import (
    LABELS,
    BadInput,
    LichessEloError,
    label,
)
from lichess_elo.errors.data import (
    DatabaseFault,
    DatabaseMissing,
    DumpUnreadable,
    EngineUnavailable,
    MonthUnratable,
    NotADatabase,
    NotLichessPgn,
    NotRated,
    TooLarge,
    WorkerLost,
)
from lichess_elo.errors.inputs import (
    AgainWithout,
    BadArgument,
    BadFile,
    Conflict,
    Malformed,
    Missing,
    NoRenderer,
    NotBefore,
    OutOfRange,
    UnknownChoice,
    UnknownKeyword,
    WrongType,
)
from lichess_elo.errors.runtime import (
    AccountClosed,
    BadFideData,
    CacheLocked,
    CacheUnusable,
    CannotConnect,
    CassetteMissing,
    DamagedAnswer,
    FetchFailed,
    FetchHint,
    FidePlayerNotFound,
    GlickoConvergenceError,
    NotCached,
    NotFound,
    PackageMissing,
    RateLimited,
    TokenRefused,
    UserNotFound,
    WriteFailed,
)

__all__ = [
    "LABELS",
    "AccountClosed",
    "AgainWithout",
    "BadArgument",
    "BadFideData",
    "BadFile",
    "BadInput",
    "CacheLocked",
    "CacheUnusable",
    "CannotConnect",
    "CassetteMissing",
    "Conflict",
    "DamagedAnswer",
    "DatabaseFault",
    "DatabaseMissing",
    "DumpUnreadable",
    "EngineUnavailable",
    "FetchFailed",
    "FetchHint",
    "FidePlayerNotFound",
    "GlickoConvergenceError",
    "LichessEloError",
    "Malformed",
    "Missing",
    "MonthUnratable",
    "NoRenderer",
    "NotADatabase",
    "NotBefore",
    "NotCached",
    "NotFound",
    "NotLichessPgn",
    "NotRated",
    "OutOfRange",
    "PackageMissing",
    "RateLimited",
    "TokenRefused",
    "TooLarge",
    "UnknownChoice",
    "UnknownKeyword",
    "UserNotFound",
    "WorkerLost",
    "WriteFailed",
    "WrongType",
    "label",
]
