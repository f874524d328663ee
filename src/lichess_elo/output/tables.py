"""Plain-text tables that fit the terminal without ever cutting a value (an edge module).

One table style for every command: a title line, a header line, a rule, one line per row;
columns two spaces apart; no trailing spaces. When the table is wider than the terminal it
is made to fit, in this order, and never by cutting a cell:

1. the compact headers (``Column.short``);
2. columns with a ``fold`` rank move, highest rank first, to a second line under their row,
   written ``Header value`` (that second line wraps between items, never inside one);
3. if even the kept columns are too wide, columns fold from the right (never the first).

A cell wider than the whole terminal is still printed whole (the terminal wraps it); the
layout never shortens text. ``width=None`` (a file or a pipe) keeps every row on one line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rich.cells import cell_len

Align = Literal["left", "right"]

#: Spaces between two columns, and the indent of a folded row's second line.
GAP = 2
INDENT = 4
#: Between two folded items on a row's second line.
ITEM_GAP = 3


@dataclass(frozen=True)
class Column:
    """One column: its header, alignment, compact header and fold rank.

    ``fold`` 0 keeps the column on the row's line whatever the width; a higher rank moves
    to the second line earlier than a lower one.
    """

    header: str
    align: Align = "right"
    short: str = ""
    fold: int = 0

    def label(self, compact: bool) -> str:
        """The header to show (the compact one when asked and given)."""
        return self.short if compact and self.short else self.header


@dataclass(frozen=True)
class Table:
    """Rows of text cells under ``columns``; an empty cell means "nothing to show"."""

    columns: Sequence[Column]
    rows: Sequence[Sequence[str]]
    title: str = ""
    notes: Sequence[str] = field(default_factory=tuple)


def _pad(text: str, width: int, align: Align) -> str:
    space = " " * (width - cell_len(text))
    return space + text if align == "right" else text + space


def _widths(table: Table, keep: Sequence[int], compact: bool) -> list[int]:
    return [
        max([cell_len(table.columns[i].label(compact))] + [cell_len(r[i]) for r in table.rows])
        for i in keep
    ]


def _line_width(widths: Sequence[int]) -> int:
    return sum(widths) + GAP * max(0, len(widths) - 1)


def _choose(table: Table, width: int | None) -> tuple[list[int], list[int], bool]:
    """The columns kept on the row line, the folded ones (in column order) and whether the
    compact headers are used."""
    everything = list(range(len(table.columns)))
    if width is None or _line_width(_widths(table, everything, False)) <= width:
        return everything, [], False
    if _line_width(_widths(table, everything, True)) <= width:
        return everything, [], True
    keep = list(everything)
    ranks = sorted({c.fold for c in table.columns if c.fold > 0}, reverse=True)
    for rank in ranks:
        keep = [i for i in keep if table.columns[i].fold != rank]
        if _line_width(_widths(table, keep, True)) <= width:
            return keep, [i for i in everything if i not in keep], True
    while len(keep) > 1 and _line_width(_widths(table, keep, True)) > width:
        keep.pop()  # then from the right, the first column always stays
    return keep, [i for i in everything if i not in keep], True


def _folded_lines(table: Table, row: Sequence[str], folded: Sequence[int], width: int) -> list[str]:
    items = [f"{table.columns[i].label(False)} {row[i]}" for i in folded if row[i]]
    lines: list[str] = []
    current = ""
    for item in items:
        candidate = f"{current}{' ' * ITEM_GAP}{item}" if current else item
        if INDENT + cell_len(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(" " * INDENT + current)
        if INDENT + cell_len(item) <= width:
            current = item
        else:  # an item wider than the line: wrapped between words, never inside one
            lines += wrap_words(" " * INDENT + item, width, "  ")
            current = ""
    if current:
        lines.append(" " * INDENT + current)
    return lines


def render_table(table: Table, width: int | None) -> list[str]:
    """The table as lines of at most ``width`` cells (``None``: no limit), no trailing space.

    Every cell appears whole. Folded columns are named under the rule ("Second line: ...")
    so a reader knows where they went.
    """
    keep, folded, compact = _choose(table, width)
    widths = _widths(table, keep, compact)
    lines = wrap_words(table.title, width, "  ") if table.title else []
    header = "  ".join(
        _pad(table.columns[i].label(compact), w, table.columns[i].align)
        for i, w in zip(keep, widths, strict=True)
    )
    lines.append(header.rstrip())
    lines.append("─" * _line_width(widths))
    if folded:
        names = ", ".join(table.columns[i].header for i in folded)
        lines.extend(wrap_words(f"(second line of each row: {names})", width))
    for row in table.rows:
        text = "  ".join(
            _pad(row[i], w, table.columns[i].align) for i, w in zip(keep, widths, strict=True)
        )
        lines.append(text.rstrip())
        if folded:
            lines.extend(_folded_lines(table, row, folded, width or 10**6))
    for note in table.notes:  # fitted like the rows: split between words
        lines.extend(wrap_words(note, width, "    "))
    return [line.rstrip() for line in lines]


def table_text(table: Table, width: int | None) -> str:
    """``render_table`` joined with newlines, ending with one."""
    return "\n".join(render_table(table, width)) + "\n"


def wrap_words(text: str, width: int | None, indent: str = "") -> list[str]:
    """``text`` split between words into lines of at most ``width`` cells (never inside a
    word). The first line keeps ``text``'s leading spaces; the next lines get them plus
    ``indent``. ``None``: one line."""
    if width is None or cell_len(text) <= width:
        return [text.rstrip()]
    lead = " " * (len(text) - len(text.lstrip(" ")))
    lines: list[str] = []
    current = lead
    for word in text.split():
        candidate = f"{current} {word}" if current.strip() else current + word
        if current.strip() and cell_len(candidate) > width:
            lines.append(current)
            current = lead + indent + word
        else:
            current = candidate
    lines.append(current)
    return [line.rstrip() for line in lines]


def stdout_width() -> int | None:
    """The width to fit on stdout: the terminal's columns, or ``None`` (no limit) for a
    file or a pipe, where nothing wraps.

    A file or a pipe is told without rich (its console costs about 40 ms to import) when
    no variable could make rich take it for a terminal (``FORCE_COLOR``,
    ``TTY_COMPATIBLE=1``): rich's own answer is the same then."""
    env = os.environ
    if "FORCE_COLOR" not in env and env.get("TTY_COMPATIBLE", "") != "1":
        try:
            if not sys.stdout.isatty():
                return None
        except (AttributeError, ValueError):  # no isatty, or closed: rich decides
            pass
    from lichess_elo.output.common import console

    out = console()
    return out.width if out.is_terminal else None
