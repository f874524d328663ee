"""``report --html FILE``: the report as one self-contained page (an edge module).

The page is made from the report's own JSON document (``report.report_document``: the
chart, the tooltips and the data block) and from the terminal's own tables and sentences
(``report_text``, ``report_words``, ``accuracy``), so every number and word is the one the
terminal and ``--format json`` show; nothing is computed here. It is written through the
one output writer (``common.stream_output``: whole or not at all).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from lichess_elo._version import __version__
from lichess_elo.core.fide.adjustments import COMPRESSION_2024
from lichess_elo.core.fide.editions import EDITIONS_BY_KEY
from lichess_elo.core.fide.wording import day_text
from lichess_elo.core.games import CHESSCOM, SITE_NAMES
from lichess_elo.core.games import LICHESS as LICHESS_SITE
from lichess_elo.core.report.build import MIN_PERFORMANCE_GAMES
from lichess_elo.output.common import edition_json, signed
from lichess_elo.output.html.chart import chart_html
from lichess_elo.output.html.page import esc, lines_html, page, table_html
from lichess_elo.output.report import text
from lichess_elo.output.report.json import report_document
from lichess_elo.output.report.sites import SIDE_BY_SIDE, site_title
from lichess_elo.output.report.words import (
    headline,
    legend_items,
    scale_note,
    site_name,
)
from lichess_elo.output.report.words import other_perfs as other_perfs_line
from lichess_elo.output.scorecard import records as acc
from lichess_elo.output.scorecard import text as acc_text
from lichess_elo.output.scorecard import words as words
from lichess_elo.output.tables import Table

if TYPE_CHECKING:
    from lichess_elo.app.report import SiteRun, SitesRun
    from lichess_elo.core.report.model import PerfReport
    from lichess_elo.core.report.predictions import PerfAccuracy

#: Games tables longer than this start folded (their rows are made when opened).
OPEN_GAMES = 300
LICHESS = "https://lichess.org/"
_CHART_LEGEND = (
    ("Blue line", "the Lichess (Glicko-2) rating, game by game: each game goes from the "
     "rating before it to the rating after it"),
    ("Orange line", "the rating FIDE's rules would have given: it stays put for a whole "
     "rating period and moves once, at the period's end, like a FIDE list"),
    ("Dashed grey jump", "Lichess's rating moved between two games without a game here (a "
     "game not held, overlapping games, or a Lichess adjustment)"),
    ("Thin vertical lines", "where each rating period (a month, unless you chose another) "
     "starts"),
    (
        "Violet step",
        f"FIDE's one-time adjustment of {day_text(COMPRESSION_2024.day, long=True)}, not a game",
    ),
    ("Dashed red line", "the rating floor: FIDE lists no rating below it"),
)  # fmt: skip


def _anchor(perf: str, prefix: str = "") -> str:
    """A perf section's id (``prefix``: the site's, on a page of two sites)."""
    return f"{prefix}perf-{''.join(c if c.isalnum() else '-' for c in perf)}"


def _games_block(report: PerfReport, data_id: str, table: Table) -> str:
    head = "".join(
        f'<th scope="col"{" class=r" if c.align == "right" else ""}>{esc(c.header)}</th>'
        for c in table.columns
    )
    count = len(table.rows)
    return (
        f"<details{' open' if count <= OPEN_GAMES else ''}><summary>{esc(table.title)} "
        f"({count}; sort by any column)</summary>"
        f'<div class="scroll"><table class="sortable games" data-data="{esc(data_id)}">'
        f"<thead><tr>{head}</tr></thead><tbody></tbody></table></div>"
        "<noscript><p>The game table needs JavaScript; the CSV view has every game.</p>"
        "</noscript></details>"
    )


def _rules_block(doc: Mapping[str, Any], periods_table: Table) -> str:
    """The rules editions used, with their sources, and the K each period used and why."""
    editions: dict[str, Mapping[str, Any]] = {}
    for p in doc["periods"]:
        editions.setdefault(p["regulations_key"], p)
        for part in p["chapters"][1:]:  # a period spanning chapters: its other editions
            editions.setdefault(
                part["regulations_key"], edition_json(EDITIONS_BY_KEY[part["regulations_key"]])
            )
    items = []
    for p in editions.values():
        sources = "".join(
            f'<li><a href="{esc(s["url"])}">{esc(s["title"])}</a>'
            f"{': ' + esc(s['section']) if s.get('section') else ''}</li>"
            for s in p["sources"]
        )
        items.append(
            f"<li><b>{esc(p['regulations'])}</b> (from {esc(p['effective_from'])}; floor "
            f"{esc(p['floor'])})<ul>{sources}</ul></li>"
        )
    k_col = next((j for j, c in enumerate(periods_table.columns) if c.header == "K"), None)
    ks: dict[str, int] = {}
    if k_col is not None:
        for row in periods_table.rows:
            if row[k_col]:
                ks[row[k_col]] = ks.get(row[k_col], 0) + 1
    k_items = "".join(
        f"<li>K {esc(k)}: {n} period{'s' if n != 1 else ''}</li>" for k, n in ks.items()
    )
    return (
        f'<h3>Rules and K</h3><ul class="lines rules">{"".join(items)}</ul>'
        f"<p>K, FIDE's development coefficient (how far one game moves the rating), and why:</p>"
        f'<ul class="lines k">{k_items}</ul>'
    )


#: The scorecard's heading.
SCORECARD_TITLE = "Scorecard: which rating predicted the games better"


def _scorecard(card: PerfAccuracy, user: str, perf: str, heading: bool = True) -> str:
    said = words.headline(card.verdict, user, perf)
    parts = [
        f"<h3>{SCORECARD_TITLE}</h3>" if heading else "",
        f'<p class="lead">{esc(said)}</p>' if said else "",
        f'<p class="verdict">{esc(acc.verdict_text(card.verdict, user, perf))}</p>',
        table_html(acc_text.scores_table(card, perf)),
        table_html(acc_text.pairs_table(card)),
        *(table_html(t) for t in acc_text.calibration_tables(card)),
    ]
    if card.fit is not None:
        parts.append(table_html(acc_text.curve_table(card.fit), css="plain"))
        parts.append(lines_html([words.k_summary(card.fit), *acc_text.k_notes(card.fit)]))
    return "".join(parts)


def _notes(report: PerfReport) -> list[str]:
    notes = []
    adjusted = text.adjustment_note(report)
    if adjusted is not None:
        notes.append(adjusted)
    notes += [text.floor_note(f) for f in sorted({p.edition.floor for p in report.periods
                                                  if p.below_floor})]  # fmt: skip
    if any(p.gaps for p in report.periods):
        notes.append(text.GAPS_FOOTNOTE)
    return notes


def _section(
    report: PerfReport,
    doc: Mapping[str, Any],
    card: PerfAccuracy | None,
    user: str,
    prefix: str = "",
    title: str = "",
    scorecard_first: bool = False,
) -> str:
    anchor = _anchor(report.perf, prefix)
    head = f'<section id="{anchor}" class="perf" data-perf="{esc(report.perf)}">'
    head += f"<h2>{esc(title + report.perf)}</h2>"
    if report.message or not report.games:
        return f'{head}<p class="message">{esc(report.message or "No games.")}</p></section>'
    periods = text.periods_table(report)
    games = text.games_table(report)
    columns = [(c.header, c.align) for c in games.columns]
    data_id = f"data-{anchor}"
    parts = [
        head,
        f'<p class="headline">{esc(headline(report))}</p>',
        chart_html(data_id, doc, [list(r) for r in games.rows], columns),
        "<h3>Rating periods</h3>",
        table_html(periods),
        lines_html(_notes(report), "note"),
        "<h3>Summary</h3>",
        lines_html(text.summary_lines(report, full=True)[1:]),
        "<h3>Games</h3>",
        _games_block(report, data_id, games),
        (
            ""
            if card is None
            else f'<p class="note"><a href="#{_anchor(report.perf, "scorecard-")}">'
            f"{esc(report.perf)}: the scorecard</a> opens the page.</p>"
            if scorecard_first
            else _scorecard(card, user, report.perf)
        ),
        _rules_block(doc, periods),
        "</section>",
    ]
    return "".join(parts)


def _overview(reports: Sequence[PerfReport], prefix: str = "") -> str:
    site = site_name(reports[0]) if reports else "Lichess"
    rows = []
    for r in reports:
        s = r.summary
        link = f'<a href="#{_anchor(r.perf, prefix)}">{esc(r.perf)}</a>'
        if r.message or not r.games:
            rows.append(f"<tr><td>{link}</td><td class=r>0</td><td></td><td></td><td></td></tr>")
            continue
        rows.append(
            f"<tr><td>{link}</td><td class=r>{s.games:,}</td>"
            f"<td class=r>{s.elo_start}→{s.elo_final} ({signed(s.elo_change)})</td>"
            f"<td class=r>{s.lichess_start}→{s.lichess_final} "
            f"({signed(s.lichess_change)})</td><td class=words>{esc(headline(r))}</td></tr>"
        )
    heading = '<h2 id="overview">Overview</h2>' if not prefix else "<h3>Overview</h3>"
    return (
        f'{heading}<div class="scroll"><table class="sortable overview">'
        "<thead><tr><th>Perf</th><th class=r>Games</th><th class=r>FIDE rules</th>"
        f"<th class=r>{site} (in games)</th><th class=words>In one sentence</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


#: The chart's legend for Chess.com's games: its line is the published ratings.
_CHESSCOM_CHART = {
    "Blue line": (
        "Blue line",
        "Chess.com's published rating, game by game: each game goes from the rating "
        "before it (the previous rated game's, in the same pool) to the rating after it; "
        "Chess.com's Glicko constants are not published, so nothing here models them",
    ),
    "Dashed grey jump": (
        "Dashed grey jump",
        "Chess.com's rating moved between two games without a game here",
    ),
}


def _legend(cards: Mapping[str, PerfAccuracy], site: str = LICHESS_SITE, prefix: str = "") -> str:
    def items(pairs: Sequence[tuple[str, str]]) -> str:
        return "".join(
            f"<li><b>{esc(name)}</b>: {esc(said.format(min=MIN_PERFORMANCE_GAMES))}</li>"
            for name, said in pairs
        )

    chart: tuple[tuple[str, str], ...] = _CHART_LEGEND
    if site == CHESSCOM:
        chart = tuple(_CHESSCOM_CHART.get(name, (name, said)) for name, said in chart)
    scorecard = ""
    if cards:
        scan = any(c.fit is not None for c in cards.values())
        k_item = f"<li>{esc(words.K_LEGEND)}</li>" if scan else ""
        scorecard = (
            f'<h3>The scorecard</h3><ul class="lines">{items(words.SCORE_LEGEND)}{k_item}</ul>'
        )

    heading = (
        '<h2 id="legend">What the page shows</h2>'
        if not prefix
        else f'<h3 id="{prefix}legend">What the {SITE_NAMES.get(site, site)} part shows</h3>'
    )
    return (
        f"{heading}"
        f'<h3>The chart</h3><ul class="lines">{items(chart)}</ul>'
        '<h3>The rating periods table</h3><ul class="lines">'
        f"{items(legend_items('periods', site))}</ul>"
        f'<h3>The games table</h3><ul class="lines">{items(legend_items("games", site))}</ul>'
        f"{scorecard}<p>{esc(scale_note(site))}</p>"
    )


def _scorecards_first(
    reports: Sequence[PerfReport], cards: Mapping[str, PerfAccuracy], user: str
) -> str:
    """The scorecards of every perf, at the top of the page (``--view accuracy``)."""
    parts = [f'<section id="scorecard" class="scorecards"><h2>{SCORECARD_TITLE}</h2>']
    for r in reports:
        card = cards.get(r.perf)
        if card is None:
            continue
        parts.append(
            f'<section id="{_anchor(r.perf, "scorecard-")}" class="scorecard" '
            f'data-perf="{esc(r.perf)}"><h3>{esc(r.perf)}</h3>'
            f"{_scorecard(card, user, r.perf, heading=False)}"
            f'<p class="note"><a href="#{_anchor(r.perf)}">{esc(r.perf)}: the rating periods '
            "and games</a> follow below.</p></section>"
        )
    parts.append("</section>")
    return "".join(parts)


def report_html(
    user: str,
    reports: Sequence[PerfReport],
    accuracy: Mapping[str, PerfAccuracy] | None = None,
    scorecard_first: bool = False,
) -> str:
    """The whole page for ``reports``: a section per perf, an overview when there are
    several, and the legend; with ``scorecard_first`` (``--view accuracy``) and scorecards
    to show, the page opens on the scorecards, each perf's section linking back to its
    own."""
    document = report_document(user, reports, accuracy)
    cards = accuracy or {}
    first = scorecard_first and bool(cards)
    shown = [r.perf for r in reports]
    nav = '<a href="#scorecard">Scorecard</a>' if first else ""
    nav += "".join(f'<a href="#{_anchor(p)}">{esc(p)}</a>' for p in shown)
    rest = other_perfs_line(shown, reports[0].perf_counts) if reports else None
    site = reports[0].site if reports else LICHESS_SITE
    name = SITE_NAMES.get(site, site)
    did = "Lichess's Glicko-2 did" if site == LICHESS_SITE else f"{name} published"
    body = [
        f"<header><h1>{esc(user)}: FIDE rules next to {name}</h1>",
        f'<p class="muted">What FIDE\'s Elo rules would have made of these {name} games, next '
        f"to what {did}. Made by lichess-elo "
        f"{esc(__version__)}; this page works offline and prints.</p>",
        f'<nav class="toc">{nav}<a href="#legend">What the page shows</a></nav></header>',
        _scorecards_first(reports, cards, user) if first else "",
        _overview(reports) if len(reports) > 1 else "",
        *(
            _section(r, doc, cards.get(r.perf), user, scorecard_first=first)
            for r, doc in zip(reports, document["reports"], strict=True)
        ),
        f'<p class="note">{esc(rest)}</p>' if rest else "",
        _legend(cards, site),
        f"<footer>{esc(scale_note(site))}</footer>",
    ]
    return page(f"{user}: FIDE rules next to {name}", body)


def write_report_html(
    out: TextIO,
    user: str,
    reports: Sequence[PerfReport],
    accuracy: Mapping[str, PerfAccuracy] | None = None,
    scorecard_first: bool = False,
) -> None:
    """Write ``report_html``'s page to ``out`` (for ``common.stream_output``)."""
    out.write(report_html(user, reports, accuracy, scorecard_first))


#: The line on a Chess.com part of a two-site page where the Lichess part has a scorecard.
NO_SCORECARD = (
    "No scorecard for Chess.com: its contenders model Lichess's Glicko-2 with Lichess's "
    "constants, and Chess.com publishes none to model its rating by."
)


def _site_part(one: SiteRun) -> str:
    """One account's part of a two-site page: its heading, overview, perf sections and
    legend, every id prefixed with its site."""
    run = one.run
    reports = run.reports
    prefix = f"{one.site}-"
    name = SITE_NAMES.get(one.site, one.site)
    document = report_document(run.user, reports, run.accuracy)
    cards = run.accuracy or {}
    rest = other_perfs_line([r.perf for r in reports], reports[0].perf_counts) if reports else None
    did = "Lichess's Glicko-2 did" if one.site == LICHESS_SITE else f"{name} published"
    parts = [
        f'<section id="site-{esc(one.site)}" class="site" data-site="{esc(one.site)}">',
        f"<h2>{esc(site_title(one.site, run.user))}</h2>",
        f'<p class="muted">FIDE rules on {esc(run.user)}\'s {name} games alone, next to '
        f"what {did}.</p>",
        f'<p class="note">{esc(NO_SCORECARD)}</p>' if one.site == CHESSCOM else "",
        _overview(reports, prefix) if len(reports) > 1 else "",
        *(
            _section(r, doc, cards.get(r.perf), run.user, prefix, f"{name} · ")
            for r, doc in zip(reports, document["reports"], strict=True)
        ),
        f'<p class="note">{esc(rest)}</p>' if rest else "",
        _legend(cards, one.site, prefix),
        "</section>",
    ]
    return "".join(parts)


def sites_html(run: SitesRun) -> str:
    """The page of two accounts (``report NAME chess.com:OTHER --html``): a part per site,
    each its one-site page's sections under the site's name; nothing across the sites."""
    names = " and ".join(
        f"{one.run.user} ({SITE_NAMES.get(one.site, one.site)})" for one in run.runs
    )
    nav = "".join(
        f'<a href="#site-{esc(one.site)}">{esc(site_title(one.site, one.run.user))}</a>'
        + "".join(
            f'<a href="#{_anchor(r.perf, one.site + "-")}">{esc(r.perf)}</a>'
            for r in one.run.reports
        )
        for one in run.runs
    )
    body = [
        f"<header><h1>{esc(names)}: FIDE rules next to each site</h1>",
        f'<p class="muted">{esc(SIDE_BY_SIDE)} Made by lichess-elo {esc(__version__)}; '
        "this page works offline and prints.</p>",
        f'<nav class="toc">{nav}</nav></header>',
        *(_site_part(one) for one in run.runs),
        f"<footer>{esc(' '.join(dict.fromkeys(scale_note(o.site) for o in run.runs)))}</footer>",
    ]
    return page(f"{names}: FIDE rules next to each site", body)


def write_sites_html(out: TextIO, run: SitesRun) -> None:
    """Write ``sites_html``'s page to ``out`` (for ``common.stream_output``)."""
    out.write(sites_html(run))
