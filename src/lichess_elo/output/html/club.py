"""``club --html FILE``: the ladder, or one player's own page, as a self-contained page.

An edge module: the tables are ``club``'s own (``standings_table``, ``history_table``) and
the sentences the terminal's own lines (``club_text``, ``club_player_text``), so the page
says what the terminal says, in a page an organiser can print or send.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lichess_elo._version import __version__
from lichess_elo.output.club import ladder as render
from lichess_elo.output.html.page import esc, lines_html, page, table_html
from lichess_elo.output.tables import render_table

if TYPE_CHECKING:
    from lichess_elo.core.club.rating import ClubResult, Standing, Target

_MADE = (
    f"<footer>Made by lichess-elo {esc(__version__)}; this page works offline and prints.</footer>"
)


def _after_table(text: str, skip: int) -> list[str]:
    """The terminal's lines after its first ``skip`` lines (the header and the table)."""
    return text.split("\n")[skip:]


def club_html(result: ClubResult, rules_file: str | None = None) -> str:
    """The ladder: the header lines, the standings (sortable), the notes and the awards."""
    header = render.club_header(result, rules_file)
    table = render.standings_table(result)
    shown = len(header) + 1 + len(render_table(table, None))
    rest = _after_table(render.club_text(result, rules_file, None), shown)
    awards = rest.index("Awards") if "Awards" in rest else len(rest)
    body = [
        "<header><h1>Club ladder</h1>",
        lines_html(header, "lines muted"),
        "</header>",
        '<section class="standings"><h2>Standings</h2>',
        table_html(table),
        lines_html(rest[:awards], "note"),
        "</section>",
        '<section class="awards"><h2>Awards</h2>',
        lines_html(rest[awards + 1 :]),
        "</section>",
        _MADE,
    ]
    return page("Club ladder", body)


def club_player_html(s: Standing, recent: int, months: int, target: Target) -> str:
    """One player's own page: their rating, their history and their next target only."""
    table = render.history_table(s)
    lines = render.club_player_text(s, recent, months, target).split("\n")
    shown = 2 + (len(render_table(table, None)) if s.history else 0)
    body = [
        f"<header><h1>{esc(s.name)}</h1>",
        f'<p class="headline">{esc(lines[0])}</p></header>',
        '<section class="history"><h2>Rating, event by event</h2>',
        table_html(table) if s.history else "",
        lines_html(lines[shown:]),
        "</section>",
        _MADE,
    ]
    return page(f"{s.name}: club rating", body)
