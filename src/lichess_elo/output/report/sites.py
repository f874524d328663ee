"""A report of two accounts (``report NAME chess.com:OTHER``) as text, JSON and CSV.

An edge module (it writes text, no maths). Each account's part is its one-site report as
``output.report.text``, ``output.report.json`` and ``output.report.csv`` write it, under
its site's name: nothing here puts one site's number against the other's.

- Text: a banner per site (``Lichess: OnBoard247``), then that site's tables, summary and
  legend.
- JSON: ``{"sites": {"lichess": DOC, "chesscom": DOC}}``, each ``DOC`` the account's
  one-site document (``{"user", "reports"}``) byte for byte, indented two more levels
  (``docs/json.md``).
- CSV: the one-site columns with ``site`` and ``user`` first, the sites' rows one after
  the other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO, cast

from lichess_elo.core.games import SITE_NAMES
from lichess_elo.output.common import stream_csv
from lichess_elo.output.report.csv import (
    REPORT_GAME_FIELDS,
    REPORT_PERIOD_FIELDS,
    game_rows,
    period_rows,
)
from lichess_elo.output.report.json import write_report_json
from lichess_elo.output.report.text import report_lines
from lichess_elo.output.tables import wrap_words

if TYPE_CHECKING:
    from lichess_elo.app.report import SitesRun
    from lichess_elo.core.report.model import PerfReport

#: The first line of a two-site table: what is side by side, and what is not done.
SIDE_BY_SIDE = (
    "Two accounts, side by side: each site's FIDE rules track is worked out from that "
    "site's games alone, next to that site's own rating; no rating of one site is put "
    "against the other's."
)


def site_title(site: str, user: str) -> str:
    """The heading of a site's part: ``Lichess: OnBoard247``."""
    return f"{SITE_NAMES.get(site, site)}: {user}"


def sites_lines(run: SitesRun, view: str, width: int | None) -> list[str]:
    """The table output of two accounts: the opening line, then per site a banner and its
    one-site report (``report_lines``), fitted to ``width`` columns (``None``: no limit)."""
    lines = wrap_words(SIDE_BY_SIDE, width)
    for one in run.runs:
        title = site_title(one.site, one.run.user)
        lines += ["", "", title, "═" * min(len(title), width or len(title)), ""]
        lines += report_lines(one.run.reports, view, width)
    return lines


class _Indented:
    """A text stream writing to ``out`` with ``indent`` after every line break but the
    last one written, which is held back and dropped at the end (the one-site document's
    closing ``}`` ends an entry here, not the file)."""

    def __init__(self, out: TextIO, indent: str) -> None:
        self.out = out
        self.indent = indent
        self.held = False

    def write(self, text: str) -> int:
        """Write ``text`` indented; returns its length."""
        if not text:
            return 0
        head = "\n" + self.indent if self.held else ""
        self.held = text.endswith("\n")
        body = text[:-1] if self.held else text
        self.out.write(head + body.replace("\n", "\n" + self.indent))
        return len(text)


def write_sites_json(out: TextIO, run: SitesRun) -> None:
    """Write ``{"sites": {SITE: DOC, ...}}`` to ``out``, each ``DOC`` streamed as the
    account's one-site JSON (``write_report_json``), in the order the accounts were given."""
    out.write('{\n  "sites": {')
    for number, one in enumerate(run.runs):
        out.write(("\n" if number == 0 else ",\n") + f'    "{one.site}": ')
        inner = cast(TextIO, _Indented(out, "    "))
        write_report_json(inner, one.run.user, one.run.reports, one.run.accuracy)
    out.write("\n  }\n}\n")


def _site_rows(
    run: SitesRun, rows: Callable[[Sequence[PerfReport]], Iterator[dict[str, Any]]]
) -> Iterator[dict[str, Any]]:
    """Each site's rows, ``site`` and ``user`` first."""
    for one in run.runs:
        for row in rows(one.run.reports):
            yield {"site": one.site, "user": one.run.user, **row}


def write_sites_csv(out: TextIO, run: SitesRun, view: str) -> None:
    """Write the CSV of two accounts: one row per game (``view == "games"``) or per period,
    ``site`` and ``user`` first, the sites one after the other."""
    if view == "games":
        stream_csv(out, _site_rows(run, game_rows), ("site", "user", *REPORT_GAME_FIELDS))
    else:
        stream_csv(out, _site_rows(run, period_rows), ("site", "user", *REPORT_PERIOD_FIELDS))
