"""The renderer registry: what is rendered x format x view -> the function that renders it.

The command line asks ``render(subject, value, fmt, view, target=...)`` and never branches
on the format itself; ``choose_format`` and ``check`` refuse what the registry has no
renderer for, before any work. The entries are in ``output.renderers`` (loaded the first
time the registry is asked), so adding a format or a view is one entry there; the
``--format`` choices and their metavar follow from the registry.

A renderer returns the whole text, or a writer that streams it bit by bit (the report's
JSON and CSV rows are written as they are made, never held whole); ``render`` hands either
to the one writer (``output.common.write_output`` / ``stream_output``). A file that is not
text (a chart) comes as a :class:`Drawn`, which writes itself to the target's path.

The files written beside the main output, ``--html`` and ``--chart``, are entries too, in
the formats ``html`` and ``chart`` (``formats.FILE_FORMATS``: never ``--format`` choices),
each with the line said once it is written (``note``), if any.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

from lichess_elo.errors import BadInput, NoRenderer, UnknownChoice, WriteFailed
from lichess_elo.output.formats import FILE_FORMATS, FORMAT_ORDER, Format

#: A writer that streams the output to the file it is given.
Writer = Callable[[TextIO], object]


@dataclass(frozen=True)
class Drawn:
    """A file that is not text (a chart): ``save`` writes it to the path it is given
    (checked, atomically)."""

    save: Callable[[Path], object]


#: What a renderer returns: the whole text, a ``Writer``, or a ``Drawn`` file.
Rendered = str | Writer | Drawn


@dataclass(frozen=True)
class Key:
    """One registry entry's key: what is rendered, in which format and view.

    Attributes:
        subject: What is rendered (``"report"``, ``"club"``, ``"db-list"``...).
        format: The output format.
        view: The view (``""`` for a subject without views).
    """

    subject: str
    format: Format
    view: str = ""


@dataclass(frozen=True)
class Target:
    """Where the output goes.

    Attributes:
        path: The ``--output`` file, or ``None`` for standard output.
        width: The columns a table fits (``None``: no limit, as in a file).
    """

    path: Path | None = None
    width: int | None = None

    @classmethod
    def of(cls, path: Path | None) -> Target:
        """The target ``--output path`` names: the terminal's width on standard output."""
        if path is not None:
            return cls(path, None)
        from lichess_elo.output.tables import stdout_width

        return cls(None, stdout_width())


#: A renderer: the value and the target -> the text or a writer.
Renderer = Callable[[Any, Target], Rendered]
R = TypeVar("R", bound=Renderer)

#: Every renderer, by key (filled by ``output.renderers``; see ``renders``).
RENDERERS: dict[Key, Renderer] = {}
#: The line said once an entry's file is written (``{path}``: where), by key.
NOTES: dict[Key, str] = {}


def renders(subject: str, fmt: Format, *views: str, note: str | None = None) -> Callable[[R], R]:
    """Register the decorated function as the renderer of ``subject`` in ``fmt`` for each
    of ``views`` (none: the subject has no views); ``note``: the line said once the file
    is written, ``{path}`` standing for it."""

    def add(function: R) -> R:
        for view in views or ("",):
            RENDERERS[Key(subject, fmt, view)] = function
            if note is not None:
                NOTES[Key(subject, fmt, view)] = note
        return function

    return add


def _loaded() -> dict[Key, Renderer]:
    importlib.import_module("lichess_elo.output.renderers")
    return RENDERERS


def formats_of(subject: str) -> tuple[Format, ...]:
    """The formats ``subject`` renders in some view, the built-in ones first (the files
    beside the main output, ``FILE_FORMATS``, are no ``--format`` choice: not listed)."""
    found = list(
        dict.fromkeys(
            k.format for k in _loaded() if k.subject == subject and k.format not in FILE_FORMATS
        )
    )
    return tuple(sorted(found, key=lambda f: (FORMAT_ORDER + tuple(found)).index(f)))


def views_of(subject: str, fmt: Format | None = None) -> tuple[str, ...]:
    """The views ``subject`` renders (in ``fmt``, when given), in registration order."""
    keys = _loaded()
    return tuple(
        dict.fromkeys(k.view for k in keys if k.subject == subject and fmt in (None, k.format))
    )


def choose_format(value: str, subject: str) -> Format:
    """The ``--format`` value (case and spaces do not matter), checked against the formats
    ``subject`` renders.

    Raises:
        UnknownChoice: naming the value and the valid formats.
    """
    text = value.strip().lower()
    formats = formats_of(subject)
    for fmt in formats:
        if fmt == text:
            return fmt
    raise UnknownChoice("format", value, formats)


def check(subject: str, fmt: Format, view: str = "") -> Renderer:
    """The renderer of ``subject`` in ``fmt`` and ``view``.

    Raises:
        NoRenderer: there is none (with what the view and the format do take).
    """
    keys = _loaded()
    found = keys.get(Key(subject, fmt, view))
    if found is not None:
        return found
    formats = formats_of(subject)
    tabled = views_of(subject, formats[0]) if formats else ()
    raise NoRenderer(
        subject,
        fmt,
        view,
        view_formats=[f for f in formats if Key(subject, f, view) in keys],
        format_views=[v for v in views_of(subject, fmt) if v in tabled],
        tabled=view in tabled,
    )


def files_of(subject: str) -> dict[Format, tuple[str, ...]]:
    """The files ``subject`` writes beside its main output (``FILE_FORMATS``), each with
    the views it is written in."""
    keys = _loaded()
    return {
        fmt: tuple(k.view for k in keys if k.subject == subject and k.format == fmt)
        for fmt in FILE_FORMATS
        if any(k.subject == subject and k.format == fmt for k in keys)
    }


def render(subject: str, value: Any, fmt: Format, view: str = "", *, target: Target) -> str | None:
    """Render ``value`` (a ``subject``) in ``fmt`` and ``view`` to ``target``: the whole
    text at once, or streamed as it is made (whole or not at all in a file), or a drawn
    file saved to the target's path. Returns the entry's note with the path (the line to
    say once the file is written), ``None`` when it has none.

    Raises:
        NoRenderer: see ``check``.
        BadInput: a ``Drawn`` file asked for standard output, or a path it cannot take.
        WriteFailed: the file could not be written.
    """
    from lichess_elo.output.common import stream_output, write_output

    made = check(subject, fmt, view)(value, target)
    try:
        if isinstance(made, Drawn):
            if target.path is None:
                raise BadInput("needs a file to be written to", field=fmt)
            made.save(target.path)
        elif isinstance(made, str):
            write_output(target.path, made)
        else:
            stream_output(target.path, made)
    except WriteFailed as exc:
        if fmt in FILE_FORMATS and exc.field != fmt:  # the page's file, not --output's
            raise WriteFailed(exc.path, exc.reason, field=str(fmt)) from None
        raise
    note = NOTES.get(Key(subject, fmt, view))
    return None if note is None else note.format(path=target.path)
