"""The base of every error: ``LichessEloError``, ``BadInput`` (what the user gave) and the
plain labels of the inputs they name (see the package's docstring)."""

from __future__ import annotations

from collections.abc import Mapping

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


#: A value longer than this many characters is shown cut, with its length: a message
#: stays one readable line whatever was given (a 100 KB username was echoed whole).
SHOWN_CHARACTERS = 60


def clipped(value: object) -> object:
    """``value`` as a message shows it: a string over ``SHOWN_CHARACTERS`` cut to its
    first characters, marked and measured (``'aaaa…' (100,000 characters)`` once quoted);
    anything else as it is."""
    if isinstance(value, str) and len(value) > SHOWN_CHARACTERS:
        return _Clipped(value)
    return value


class _Clipped(str):
    """A long string shown by its head and its length (``str`` and ``repr``)."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{str.__str__(self)[:SHOWN_CHARACTERS]}… ({len(self):,} characters)"

    def __repr__(self) -> str:
        head = str.__repr__(str.__str__(self)[:SHOWN_CHARACTERS])
        return f"{head[:-1]}…{head[-1]} ({len(self):,} characters)"


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
        return "" if self.value is None else f" {clipped(self.value)}"

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> <problem>`` or ``<input> <value>: <problem>`` (``<input> <value> is ...``
        when the problem starts with "is"); the problem alone without a field."""
        if self.field is None:
            return self.problem
        if self.value is None:
            return f"{label(self.field, names)} {self.problem}"
        sep = " " if self.problem.startswith("is ") else ": "
        return f"{label(self.field, names)}{self._shown()}{sep}{self.problem}"
