"""What the user gave that is wrong (exit code 2): out of range, malformed, an unknown
choice, two inputs that conflict, a missing input, a bad file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from lichess_elo.errors.base import BadInput, clipped, label


class OutOfRange(BadInput):
    """A number outside its bounds (inclusive ``low``..``high``)."""

    def __init__(self, field: str, value: float, low: float, high: float) -> None:
        self.low, self.high = low, high
        super().__init__(f"is outside {low:g}..{high:g}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> <value> is outside <low>..<high>``."""
        return f"{label(self.field, names)} {clipped(self.value)} {self.problem}"


class Malformed(BadInput):
    """A value that does not parse: ``kind`` says what it should be ("a date"), ``expected``
    how to write it."""

    def __init__(self, field: str, value: object, expected: str, kind: str = "") -> None:
        self.expected, self.kind = expected, kind
        super().__init__(f"expected {expected}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> '<value>' is not <kind>; expected <how>`` (or ``: expected <how>``)."""
        shown = f"{label(self.field, names)} {clipped(self.value)!r}"
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
        text = f"unknown {label(self.field)} {clipped(self.value)!r}{near}; valid: " + ", ".join(
            self.choices
        )
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


class AgainWithout(BadInput):
    """What the user asked cannot be done with ``field`` given: ``again`` says what to do
    instead, without that input (named by its option at the command line)."""

    def __init__(self, field: str, reason: str, again: str) -> None:
        self.again = again
        super().__init__(reason, field=field)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<reason>; <again> (without <input>)``."""
        return f"{self.problem}; {self.again} (without {label(self.field, names)})"


class NotBefore(BadInput):
    """Two dates (or numbers) in the wrong order: ``field`` must come before ``other``."""

    def __init__(self, field: str, value: object, other: str, other_value: object) -> None:
        self.other, self.other_value = other, other_value
        super().__init__(f"is not before {other} {other_value}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> <value> is not before <other> <other value>``."""
        return (
            f"{label(self.field, names)} {clipped(self.value)} is not before "
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


def _argument(field: str | None, names: Mapping[str, str] | None) -> str:
    """A library call's argument by its own name (``white_score``), or by ``names``."""
    if names is not None and field in names:
        return label(field, names)
    return field or "argument"


class WrongType(BadInput, TypeError):
    """A library call's argument of the wrong type: ``field`` names the argument (with
    ``where``, e.g. ``"game 3"``, inside a sequence), ``value`` is what was given and
    ``expected`` what it takes, in words (``"a whole number (int)"``)."""

    def __init__(self, field: str, value: object, expected: str, *, where: str = "") -> None:
        self.expected, self.where = expected, where
        super().__init__(f"expected {expected}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> <value!r>[ of <where>] is a <type>; expected <what>``."""
        where = f" of {self.where}" if self.where else ""
        kind = type(self.value).__name__
        article = "an" if kind[:1].lower() in "aeiou" else "a"
        shown = f"{_argument(self.field, names)} {clipped(self.value)!r}{where}"
        return f"{shown} is {article} {kind}; {self.problem}"


class BadArgument(BadInput, ValueError):
    """A library call's argument of the right type whose value it does not take: ``field``
    (and ``where`` inside a sequence), ``value`` and ``allowed``, in words (``"0, 0.5 or
    1"``)."""

    def __init__(self, field: str, value: object, allowed: str, *, where: str = "") -> None:
        self.allowed, self.where = allowed, where
        super().__init__(f"expected {allowed}", field=field, value=value)

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<input> <value!r>[ of <where>] is not allowed; expected <what>``."""
        where = f" of {self.where}" if self.where else ""
        shown = f"{_argument(self.field, names)} {clipped(self.value)!r}{where}"
        return f"{shown} is not allowed; {self.problem}"


class NoRenderer(BadInput):
    """A format and view that have no renderer (CSV of a summary, a table of predictions).

    Attributes:
        subject: What was to be rendered (``"report"``, ``"club"``...).
        format: The format asked for.
        view: The view asked for (``""`` for a subject without views).
        view_formats: The formats that render ``view``.
        format_views: The views ``format`` renders that the first format renders too.
        tabled: Whether ``view`` renders in the subject's first format (its default).
    """

    def __init__(
        self,
        subject: str,
        fmt: str,
        view: str,
        *,
        view_formats: Sequence[str],
        format_views: Sequence[str],
        tabled: bool,
    ) -> None:
        self.subject, self.format, self.view = subject, fmt, view
        self.view_formats, self.format_views = tuple(view_formats), tuple(format_views)
        self.tabled = tabled
        super().__init__(f"has no {fmt} of the {view} view", field="format", value=fmt)


class UnknownKeyword(BadArgument, TypeError):
    """A keyword argument that a library call does not take: ``field`` is the keyword given,
    ``call`` the function or record (``"ClubOptions"``) and ``accepted`` the keywords it
    takes. Also a ``TypeError``, as Python's own error for an unknown keyword is."""

    def __init__(self, call: str, field: str, accepted: Sequence[str]) -> None:
        self.call, self.accepted = call, tuple(accepted)
        super().__init__(field, field, f"a keyword of {call}: {', '.join(self.accepted)}")

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """``<call>() takes no keyword '<k>' (did you mean 'k'?); it takes a, b, c``."""
        from lichess_elo.core.words import did_you_mean

        near = did_you_mean(str(self.field), self.accepted)
        near = f" ({near})" if near else ""
        takes = ", ".join(self.accepted)
        return f"{self.call}() takes no keyword {self.field!r}{near}; it takes {takes}"
