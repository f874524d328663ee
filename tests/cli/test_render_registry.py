"""The renderer registry (``output.registry``): every format x view the
command line offers has a renderer or one refusal, and adding a format is one entry.

The commands are the real typer commands (``load_command``); the toy format goes through
the real ``games`` command reading a real PGN file, with a real cache in ``tmp_path``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from lichess_elo.app.games import Listing
from lichess_elo.cli.errors import no_renderer_message
from lichess_elo.cli.root import COMMANDS, load_command
from lichess_elo.errors import NoRenderer
from lichess_elo.output import registry as render
from lichess_elo.output.formats import (
    CHART,
    CSV,
    FILE_FORMATS,
    HTML,
    TABLE,
    ClubView,
    Format,
    ReportView,
)
from tests.helpers import REPO
from tests.runners import Cli

PGN = REPO / "tests" / "data" / "lichess" / "game-export-q7ZvsdUF.pgn"

#: What each command with ``--format`` renders (its registry subject).
SUBJECTS = {
    "calc": "calc", "glicko": "glicko", "fetch": "fetch", "games": "games",
    "report": "report", "club": "club", "db ingest": "db-ingest", "db list": "db-list",
    "db player": "db-player", "db compare": "db-compare", "db months": "db-months",
}  # fmt: skip


def _commands() -> Iterator[tuple[str, click.Command]]:
    for name in COMMANDS:
        command = load_command(name)
        if isinstance(command, click.Group):
            for sub, child in command.commands.items():
                yield f"{name} {sub}", child
        else:
            yield name, command


def _option(command: click.Command, name: str) -> click.Option | None:
    found = [p for p in command.params if isinstance(p, click.Option) and name in p.opts]
    return found[0] if found else None


def test_every_format_and_view_the_commands_offer_has_a_renderer_or_one_refusal() -> None:
    with_format = set()
    for name, command in _commands():
        option = _option(command, "--format")
        if option is None:
            continue
        with_format.add(name)
        subject = SUBJECTS[name]
        assert option.opts == ["--format", "-f"], name
        formats = tuple(str(option.metavar).split("|"))
        assert formats == render.formats_of(subject), name
        view = _option(command, "--view")
        views = tuple(view.type.choices) if view and isinstance(view.type, click.Choice) else ("",)
        for fmt in formats:  # each format renders some view, each view some format
            assert any(render.Key(subject, Format(fmt), v) in render.RENDERERS for v in views)
        for v in views:
            assert any(render.Key(subject, Format(f), v) in render.RENDERERS for f in formats)
        for fmt in formats:
            for v in views:
                try:
                    assert callable(render.check(subject, Format(fmt), str(v)))
                except NoRenderer as refused:
                    message = no_renderer_message(refused)
                    assert message.startswith(("--view ", "--format ")) and "\n" not in message
    assert with_format == set(SUBJECTS)
    # --player shows one player's page: the same formats as the ladder
    assert render.formats_of("club-player") == render.formats_of("club")


def test_the_html_page_and_the_chart_are_registry_entries_of_report_club_and_compare() -> None:
    def files(subject: str) -> dict[Format, set[str]]:
        return {fmt: set(views) for fmt, views in render.files_of(subject).items()}

    every_report_view = {v.value for v in ReportView}
    assert files("report") == {HTML: every_report_view, CHART: every_report_view}
    club_views = {v.value for v in ClubView}
    assert files("club") == {HTML: club_views, CHART: club_views}
    assert files("club-player") == {HTML: {""}, CHART: {""}}
    assert files("db-compare") == {CHART: {""}}
    # the notes the command line prints under a table: none for the scorecard's chart
    assert render.NOTES[render.Key("report", HTML, "games")] == "page written to {path}"
    assert render.NOTES[render.Key("report", CHART, "periods")] == "chart written to {path}"
    assert render.Key("report", CHART, "accuracy") not in render.NOTES
    assert render.NOTES[render.Key("db-compare", CHART, "")] == "chart: {path}"
    # files, not --format choices
    for subject in ("report", "club", "club-player", "db-compare"):
        assert not set(render.formats_of(subject)) & set(FILE_FORMATS)


def test_a_pair_without_renderer_is_refused_in_todays_words() -> None:
    # The report's table renders periods, games, summary and accuracy; predictions only in
    # CSV and JSON, so the view is the odd one out:
    with pytest.raises(NoRenderer) as table:
        render.check("report", TABLE, "predictions")
    assert no_renderer_message(table.value) == "--view predictions takes --format csv or json"
    # A summary has a table, so the format is: CSV renders periods, games, accuracy and
    # predictions, of which periods, games and accuracy also have a table.
    with pytest.raises(NoRenderer) as csv:
        render.check("report", CSV, "summary")
    assert no_renderer_message(csv.value) == "--format csv takes --view periods, games or accuracy"


def _toy(listed: Listing, target: render.Target) -> str:
    """A toy format: the user, then each game's id."""
    return f"{listed.user}: " + " ".join(row.game.id for row in listed.rows) + "\n"


@pytest.fixture
def toy_format() -> Iterator[Format]:
    """``games --format toy``, registered in one place for the test's length."""
    toy = Format("toy")
    render.renders("games", toy)(_toy)
    games_module = importlib.import_module("lichess_elo.cli.games")
    importlib.reload(games_module)  # its --format metavar is read from the registry
    try:
        yield toy
    finally:
        del render.RENDERERS[render.Key("games", toy)]
        importlib.reload(games_module)


def test_adding_a_format_is_one_registry_entry(
    cli: Cli, toy_format: Format, tmp_path: Path
) -> None:
    option = _option(load_command("games"), "--format")
    assert option is not None and option.metavar == "table|csv|json|toy"
    result = cli(
        ["games", "Lance5500", "--pgn", str(PGN), "--cache-dir", str(tmp_path), "-f", "TOY"],
    )
    assert result.exit_code == 0, result.output
    # The PGN holds one game, https://lichess.org/q7ZvsdUF, with Lance5500 as White.
    assert result.stdout == "Lance5500: q7ZvsdUF\n"


def test_a_bad_format_has_the_one_message_everywhere(cli: Cli, tmp_path: Path) -> None:
    runs = {
        ("calc", "1500", "1400:1"): "table, json",
        ("games", "Lance5500", "--pgn", str(PGN), "--cache-dir", str(tmp_path)): (
            "table, csv, json"
        ),
        ("db", "months", "--db", str(tmp_path / "none.duckdb")): "table, csv, json",
    }
    for args, valid in runs.items():
        result = cli([*args, "-f", "xml"])
        assert result.exit_code == 2, result.output
        assert (
            result.stderr == f"lichess-elo: error: --format: unknown format 'xml'; valid: {valid}\n"
        )
