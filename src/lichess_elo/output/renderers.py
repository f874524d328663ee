"""Every renderer of the command line, one entry per what x format x view (``output.registry``).

Adding a format or a view is one entry here: its ``--format`` choice, metavar and the
refusals of the pairs without one follow. Each renderer imports its module when it runs,
so a command imports only the renderers it uses. Values that are more than one result
come as the small records below.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lichess_elo.output.formats import CHART, CSV, HTML, JSON, TABLE, ClubView, ReportView
from lichess_elo.output.registry import Drawn, Rendered, Target, renders

if TYPE_CHECKING:
    from lichess_elo.app.club import ClubRun
    from lichess_elo.app.fetch import SiteFetch
    from lichess_elo.app.games import Listing
    from lichess_elo.app.glicko import GlickoSettings
    from lichess_elo.app.report import ReportRun, SitesRun
    from lichess_elo.core.fide import CalcResult
    from lichess_elo.core.glicko import SideResult
    from lichess_elo.core.population.rows import (
        CompareResult,
        Holdings,
        IngestResult,
        PlayerRows,
        RatingList,
    )
    from lichess_elo.output.tables import Table
    from lichess_elo.sources.lichess.api import FetchResult


def _json(value: object) -> str:
    from lichess_elo.output.common import dump_json

    return dump_json(value) + "\n"


def _table(table: Table, target: Target) -> str:
    from lichess_elo.output.tables import render_table

    return "\n".join(render_table(table, target.width)) + "\n"


def _line(text: str) -> str:
    return text.rstrip("\n") + "\n"


# --- report ---------------------------------------------------------------------------------

_PERIODS, _GAMES = ReportView.periods.value, ReportView.games.value
_SUMMARY, _ACCURACY = ReportView.summary.value, ReportView.accuracy.value
_PREDICTIONS = ReportView.predictions.value


def _report_view(view: str, csv: bool) -> None:
    """Register the report's table of ``view`` and, when ``csv``, its CSV rows (streamed)."""

    @renders("report", TABLE, view)
    def lines(run: ReportRun, target: Target) -> Rendered:
        from lichess_elo.output.report.text import report_lines

        return "\n".join(report_lines(run.reports, view, target.width)) + "\n"

    if csv:

        @renders("report", CSV, view)
        def rows(run: ReportRun, target: Target) -> Rendered:
            from lichess_elo.output.report.csv import write_report_csv

            return lambda out: write_report_csv(out, run.reports, view)


_report_view(_PERIODS, csv=True)
_report_view(_GAMES, csv=True)
_report_view(_SUMMARY, csv=False)


@renders("report", TABLE, _ACCURACY)
def _accuracy_table(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.scorecard.text import accuracy_text

    return accuracy_text(run.reports, run.accuracy, run.user, target.width)


@renders("report", CSV, _ACCURACY)
def _accuracy_csv(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.scorecard.records import accuracy_csv

    return accuracy_csv(run.reports, run.accuracy)


@renders("report", CSV, _PREDICTIONS)
def _predictions_csv(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.scorecard.predictions import write_predictions_csv

    return lambda out: write_predictions_csv(out, run.reports, run.accuracy)


@renders("report", JSON, _PERIODS, _GAMES, _SUMMARY, _ACCURACY)
def _report_json(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.report.json import write_report_json

    return lambda out: write_report_json(out, run.user, run.reports, run.accuracy)


@renders("report", JSON, _PREDICTIONS)
def _predictions_json(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.scorecard.predictions import predictions_document

    return _json(predictions_document(run.user, run.reports, run.accuracy))


_REPORT_VIEWS = tuple(v.value for v in ReportView)


@renders(
    "report", HTML, *(v for v in _REPORT_VIEWS if v != _ACCURACY), note="page written to {path}"
)
def _report_html(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.html.report import write_report_html

    return lambda out: write_report_html(out, run.user, run.reports, run.accuracy)


@renders("report", HTML, _ACCURACY, note="page written to {path}")
def _accuracy_html(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.html.report import write_report_html

    return lambda out: write_report_html(
        out, run.user, run.reports, run.accuracy, scorecard_first=True
    )


@renders(
    "report", CHART, *(v for v in _REPORT_VIEWS if v != _ACCURACY), note="chart written to {path}"
)
def _report_chart(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.charts.report import write_chart

    return Drawn(lambda path: write_chart(run.reports, path, user=run.user))


@renders("report", CHART, _ACCURACY)
def _accuracy_chart(run: ReportRun, target: Target) -> Rendered:
    from lichess_elo.output.charts.scorecard import write_accuracy_chart

    return Drawn(lambda path: write_accuracy_chart(run.reports, run.accuracy, path, run.user))


# --- a report of two accounts (report NAME chess.com:OTHER) -------------------------------

_SITES = "report-sites"
_SITES_VIEWS = (_PERIODS, _GAMES, _SUMMARY)


def _sites_view(view: str, csv: bool) -> None:
    """Register the two-site table of ``view`` and, when ``csv``, its CSV rows."""

    @renders(_SITES, TABLE, view)
    def lines(run: SitesRun, target: Target) -> Rendered:
        from lichess_elo.output.report.sites import sites_lines

        return "\n".join(sites_lines(run, view, target.width)) + "\n"

    if csv:

        @renders(_SITES, CSV, view)
        def rows(run: SitesRun, target: Target) -> Rendered:
            from lichess_elo.output.report.sites import write_sites_csv

            return lambda out: write_sites_csv(out, run, view)


_sites_view(_PERIODS, csv=True)
_sites_view(_GAMES, csv=True)
_sites_view(_SUMMARY, csv=False)


@renders(_SITES, JSON, *_SITES_VIEWS)
def _sites_json(run: SitesRun, target: Target) -> Rendered:
    from lichess_elo.output.report.sites import write_sites_json

    return lambda out: write_sites_json(out, run)


@renders(_SITES, HTML, *_SITES_VIEWS, note="page written to {path}")
def _sites_html(run: SitesRun, target: Target) -> Rendered:
    from lichess_elo.output.html.report import write_sites_html

    return lambda out: write_sites_html(out, run)


@renders(_SITES, CHART, *_SITES_VIEWS, note="chart written to {path}")
def _sites_chart(run: SitesRun, target: Target) -> Rendered:
    from lichess_elo.output.charts.report import write_sites_chart

    return Drawn(lambda path: write_sites_chart(run, path))


# --- games, fetch ---------------------------------------------------------------------------


@renders("games", TABLE)
def _games_table(listed: Listing, target: Target) -> Rendered:
    from lichess_elo.output.games import games_text

    return games_text(listed.user, listed.rows, target.width)


@renders("games", CSV)
def _games_csv(listed: Listing, target: Target) -> Rendered:
    from lichess_elo.output.games import games_csv

    return games_csv(listed.rows)


@renders("games", JSON)
def _games_json(listed: Listing, target: Target) -> Rendered:
    from lichess_elo.output.games import games_document

    return _json(games_document(listed.user, listed.rows))


@dataclass(frozen=True)
class Fetched:
    """What ``fetch`` shows: its result, and whether the games came from a cassette."""

    result: FetchResult | SiteFetch
    replay: bool


@renders("fetch", TABLE)
def _fetch_table(shown: Fetched, target: Target) -> Rendered:
    from lichess_elo.output.fetch import fetch_summary_text

    return fetch_summary_text(shown.result, replay=shown.replay, width=target.width)


@renders("fetch", JSON)
def _fetch_json(shown: Fetched, target: Target) -> Rendered:
    from lichess_elo.output.fetch import fetch_document

    return _json(fetch_document(shown.result))


# --- calc, glicko ---------------------------------------------------------------------------


@renders("calc", TABLE)
def _calc_table(result: CalcResult, target: Target) -> Rendered:
    from lichess_elo.output.calc import calc_text

    return calc_text(result, target.width) + "\n"


@renders("calc", JSON)
def _calc_json(result: CalcResult, target: Target) -> Rendered:
    from lichess_elo.output.calc import calc_json_text

    return calc_json_text(result) + "\n"


@dataclass(frozen=True)
class GlickoGame:
    """What ``glicko`` shows: its settings, the result as given and both sides after it."""

    settings: GlickoSettings
    result: str
    sides: tuple[SideResult, SideResult]


@renders("glicko", TABLE)
def _glicko_table(game: GlickoGame, target: Target) -> Rendered:
    from lichess_elo.output.glicko import glicko_table

    return glicko_table(game.settings, game.result, game.sides, target.width) + "\n"


@renders("glicko", JSON)
def _glicko_json(game: GlickoGame, target: Target) -> Rendered:
    from lichess_elo.output.glicko import glicko_json

    return _json(glicko_json(*game.sides))


# --- club -----------------------------------------------------------------------------------

_STANDINGS, _EXCLUDED = ClubView.standings.value, ClubView.excluded.value


@dataclass(frozen=True)
class ClubLadder:
    """What ``club`` shows: the run, the rules file it was read with (if any) and how many
    of the top players its chart draws (``None``: every one)."""

    run: ClubRun
    rules_file: str | None = None
    top: int | None = None


@renders("club", TABLE, _STANDINGS)
def _club_table(ladder: ClubLadder, target: Target) -> Rendered:
    from lichess_elo.output.club.ladder import club_text

    return _line(club_text(ladder.run.table, ladder.rules_file, target.width))


@renders("club", TABLE, _EXCLUDED)
def _club_excluded(ladder: ClubLadder, target: Target) -> Rendered:
    from lichess_elo.output.club.ladder import club_excluded_text

    return _line(club_excluded_text(ladder.run.table, ladder.rules_file, target.width))


@renders("club", CSV, _STANDINGS)
def _club_csv(ladder: ClubLadder, target: Target) -> Rendered:
    from lichess_elo.output.club.ladder import club_csv

    return _line(club_csv(ladder.run.table))


@renders("club", CSV, _EXCLUDED)
def _club_excluded_csv(ladder: ClubLadder, target: Target) -> Rendered:
    from lichess_elo.output.club.ladder import club_excluded_csv

    return _line(club_excluded_csv(ladder.run.table))


@renders("club", JSON, _STANDINGS, _EXCLUDED)
def _club_json(ladder: ClubLadder, target: Target) -> Rendered:
    from lichess_elo.output.club.ladder import club_json

    return _json(club_json(ladder.run.table, ladder.rules_file))


@renders("club-player", TABLE)
def _player_page(run: ClubRun, target: Target) -> Rendered:
    from lichess_elo.output.club.ladder import club_player_text

    page = run.player
    assert page is not None
    text = club_player_text(page.standing, page.recent, page.months, page.target, target.width)
    return _line(text)


@renders("club-player", CSV)
def _player_csv(run: ClubRun, target: Target) -> Rendered:
    from lichess_elo.output.club.ladder import club_player_csv

    assert run.player is not None
    return _line(club_player_csv(run.player.standing))


@renders("club-player", JSON)
def _player_json(run: ClubRun, target: Target) -> Rendered:
    from lichess_elo.output.club.ladder import club_player_json

    page = run.player
    assert page is not None
    return _json(club_player_json(page.standing, page.recent, page.months, page.target))


_CLUB_VIEWS = (_STANDINGS, _EXCLUDED)


@renders("club", HTML, *_CLUB_VIEWS)
def _club_html(ladder: ClubLadder, target: Target) -> Rendered:
    from lichess_elo.output.html.club import club_html

    return club_html(ladder.run.table, ladder.rules_file, ladder.top)


@renders("club", CHART, *_CLUB_VIEWS)
def _club_chart(ladder: ClubLadder, target: Target) -> Rendered:
    from lichess_elo.output.charts.club import write_club_chart

    table = ladder.run.table
    names = [s.name for s in table.standings[: ladder.top]]
    return Drawn(lambda path: write_club_chart(table, names, path))


@renders("club-player", HTML)
def _player_html(run: ClubRun, target: Target) -> Rendered:
    from lichess_elo.output.html.club import club_player_html

    page = run.player
    assert page is not None
    return club_player_html(page.standing, page.recent, page.months, page.target, run.result.rules)


@renders("club-player", CHART)
def _player_chart(run: ClubRun, target: Target) -> Rendered:
    from lichess_elo.output.charts.club import write_club_chart

    page = run.player
    assert page is not None
    return Drawn(lambda path: write_club_chart(run.result, [page.standing.name], path))


# --- db -------------------------------------------------------------------------------------


@renders("db-ingest", TABLE)
def _ingest_table(result: IngestResult, target: Target) -> Rendered:
    from lichess_elo.output.db.results import ingest_text

    return _line(ingest_text(result, target.width))


@renders("db-ingest", JSON)
def _ingest_json(result: IngestResult, target: Target) -> Rendered:
    from lichess_elo.output.db.results import ingest_document

    return _json(ingest_document(result))


@dataclass(frozen=True)
class ListShown:
    """What ``db list`` shows: the list (cut to ``--top``) and how many players it left out."""

    result: RatingList
    more: int = 0


@renders("db-list", TABLE)
def _list_table(shown: ListShown, target: Target) -> Rendered:
    from dataclasses import replace

    from lichess_elo.output.db.results import list_table

    table = list_table(shown.result)
    if shown.more:
        note = f"{shown.more:,} more players; --top 0 for all"
        table = replace(table, notes=(note, *table.notes))
    return _table(table, target)


@renders("db-list", CSV)
def _list_csv(shown: ListShown, target: Target) -> Rendered:
    from lichess_elo.output.common import write_csv
    from lichess_elo.output.db.results import LIST_FIELDS

    return _line(write_csv(shown.result.players, LIST_FIELDS))


@renders("db-list", JSON)
def _list_json(shown: ListShown, target: Target) -> Rendered:
    return _json(shown.result.document())


@renders("db-player", TABLE)
def _db_player_table(result: PlayerRows, target: Target) -> Rendered:
    from lichess_elo.output.db.results import player_table

    return _table(player_table(result), target)


@renders("db-player", CSV)
def _db_player_csv(result: PlayerRows, target: Target) -> Rendered:
    from lichess_elo.output.common import write_csv
    from lichess_elo.output.db.results import PLAYER_FIELDS

    return _line(write_csv(result.rows, PLAYER_FIELDS))


@renders("db-player", JSON)
def _db_player_json(result: PlayerRows, target: Target) -> Rendered:
    return _json(result.document())


@renders("db-compare", TABLE)
def _compare_table(result: CompareResult, target: Target) -> Rendered:
    from lichess_elo.output.db.results import compare_text

    return _line(compare_text(result, target.width))


@renders("db-compare", JSON)
def _compare_json(result: CompareResult, target: Target) -> Rendered:
    from lichess_elo.output.db.results import compare_document

    return _json(compare_document(result))


@renders("db-compare", CHART, note="chart: {path}")
def _compare_chart(result: CompareResult, target: Target) -> Rendered:
    from lichess_elo.output.charts.compare import write_compare_chart

    return Drawn(lambda path: write_compare_chart(result, path))


@dataclass(frozen=True)
class Months:
    """What ``db months`` shows: what the database holds, and the database's file."""

    held: Holdings
    db: Path


@renders("db-months", TABLE)
def _months_table(months: Months, target: Target) -> Rendered:
    from lichess_elo.output.db.months import months_table

    return _table(months_table(months.held, months.db), target)


@renders("db-months", CSV)
def _months_csv(months: Months, target: Target) -> Rendered:
    from lichess_elo.output.db.months import months_csv

    return _line(months_csv(months.held))


@renders("db-months", JSON)
def _months_json(months: Months, target: Target) -> Rendered:
    return _json(months.held.document())
