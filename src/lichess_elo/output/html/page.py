"""The self-contained HTML page's shared parts (an edge module: text only, no maths).

One page is one file: its style sheet and script (``html/page.css``, ``html/page.js``, a few
hundred lines written for this page, no library) and its data are inlined, so it opens by
double-click with no network and nothing beside it. Tables are the terminal's own
``tables.Table`` values, so the page shows the same words and numbers as the terminal.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from typing import Any

from lichess_elo.output.tables import Table

#: Where the page says it came from.
GENERATOR = "lichess-elo"


def esc(text: object) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


@cache
def _asset(name: str) -> str:
    return resources.files("lichess_elo.output").joinpath("html", name).read_text("utf-8")


def json_script(element_id: str, value: Any) -> str:
    """``value`` as an inline JSON data block the page's script reads (``</script>`` and
    ``<!--`` cannot occur in it: every ``<`` is written ``\\u003c``)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f'<script type="application/json" id="{esc(element_id)}">{text}</script>'


def table_html(
    table: Table,
    *,
    css: str = "sortable",
    links: dict[int, str] | None = None,
    caption: bool = True,
) -> str:
    """``table`` as an HTML table (sortable by any column unless ``css`` says otherwise);
    ``links`` maps a column to a URL prefix its cells link to (``https://lichess.org/``)."""
    links = links or {}
    head = "".join(
        f'<th scope="col"{" class=r" if c.align == "right" else ""}>{esc(c.header)}</th>'
        for c in table.columns
    )
    body = []
    for row in table.rows:
        cells = []
        for j, (column, value) in enumerate(zip(table.columns, row, strict=True)):
            text = esc(value)
            if j in links and value:
                text = f'<a href="{esc(links[j] + value)}">{text}</a>'
            cls = ' class="r"' if column.align == "right" else ""
            cells.append(f"<td{cls}>{text}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    # The title is said above the scroll box, where it wraps at the screen's width (a
    # <caption> is as wide as its table, so a phone cut it); the <caption> stays for screen
    # readers, hidden from the eye.
    shown = (
        f'<p class="caption" aria-hidden="true">{esc(table.title)}</p>'
        if caption and table.title
        else ""
    )
    title = f'<caption class="sr">{esc(table.title)}</caption>' if shown else ""
    return (
        f'{shown}<div class="scroll"><table class="{esc(css)}">{title}<thead><tr>{head}</tr>'
        f"</thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def lines_html(lines: Iterable[str], css: str = "lines") -> str:
    """Lines of text as a list: the terminal's indent is dropped, a line indented deeper
    than two spaces is a sub-item."""
    items = "".join(
        f"<li{' class=sub' if line.startswith('    ') else ''}>{esc(line.strip())}</li>"
        for line in lines
        if line.strip()
    )
    return f'<ul class="{esc(css)}">{items}</ul>' if items else ""


def page(title: str, body: Sequence[str], lang: str = "en") -> str:
    """The whole page: ``body``'s parts inside one document with the inlined style and
    script, in the language ``lang``; printable (the style sheet has print rules)."""
    return (
        f'<!DOCTYPE html>\n<html lang="{esc(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="{GENERATOR}">\n'
        # Nothing outside the file: no fetch, no image, no font, no frame.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{esc(title)}</title>\n<style>\n{_asset('page.css')}</style>\n</head>\n"
        f"<body>\n<main>\n{''.join(body)}\n</main>\n<script>\n{_asset('page.js')}</script>\n"
        "</body>\n</html>\n"
    )
