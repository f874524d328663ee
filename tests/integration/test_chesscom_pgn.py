"""A real Chess.com PGN export through ``games --pgn`` and ``report --pgn``.

The file is the body of the recorded ``/pgn`` answer
(tests/data/chesscom/cassette-games-fabianocaruana-2020-05-pgn.yaml), unedited: 17 games of
FabianoCaruana in 2020-05. Its facts, read from the file by hand and set beside the JSON
archive of the same month (cassette-games-fabianocaruana-2020-05.yaml), game by ``Link``:

- every ``[Event]`` is ``"Live Chess"``: rated and unrated games alike (the JSON: 8 rated
  blitz, 9 unrated rapid), so the export does not say which games were rated;
- every ``[WhiteElo]``/``[BlackElo]`` (34) equals the JSON's ``white.rating``/
  ``black.rating`` of the same game: the ratings after the game;
- ``[EndDate]``/``[EndTime]`` is the JSON's ``end_time`` (``2020.05.15 21:05:14`` for
  live/4861239226, end_time 1589576714).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from lichess_elo.core.chesscom.pgn import is_chesscom, time_class_of
from lichess_elo.sources.chesscom.pgn import read_pgn
from tests.runners import Cli

DATA = Path(__file__).resolve().parents[1] / "data" / "chesscom"
PGN_CASSETTE = DATA / "cassette-games-fabianocaruana-2020-05-pgn.yaml"
JSON_CASSETTE = DATA / "cassette-games-fabianocaruana-2020-05.yaml"
#: The 8 blitz games' post-game ratings, oldest first (the file's own order is newest first).
BLITZ_AFTER = [3047, 3030, 3033, 3052, 3062, 3040, 3027, 3016]


def _body(cassette: Path) -> str:
    data = yaml.safe_load(cassette.read_text(encoding="utf-8"))
    body: str = data["interactions"][0]["response"]["body"]["string"]
    return body


@pytest.fixture
def pgn_file(tmp_path: Path) -> Path:
    path = tmp_path / "fabianocaruana-2020-05.pgn"
    path.write_text(_body(PGN_CASSETTE), encoding="utf-8")
    return path


def test_the_elo_tags_are_the_ratings_after_the_game() -> None:
    """The evidence for reading ``WhiteElo``/``BlackElo`` as post-game ratings: each equals
    the JSON archive's rating of that side, which the API documents as the one after."""
    archive = {g["url"]: g for g in json.loads(_body(JSON_CASSETTE))["games"]}
    blocks = re.split(r"\n\n(?=\[Event )", _body(PGN_CASSETTE))
    assert len(blocks) == 17
    for block in blocks:
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.MULTILINE))
        game = archive[tags["Link"]]
        assert int(tags["WhiteElo"]) == game["white"]["rating"]
        assert int(tags["BlackElo"]) == game["black"]["rating"]
        assert tags["Event"] == "Live Chess"  # rated or not
        assert tags["TimeControl"] == game["time_control"]
        assert time_class_of(tags["TimeControl"]) == game["time_class"]
        assert is_chesscom(tags)


def test_the_reader_builds_chesscom_games() -> None:
    warnings: list[str] = []
    games = read_pgn(_body(PGN_CASSETTE), player="FabianoCaruana", on_warning=warnings.append)
    assert len(games) == 17 and {g.site for g in games} == {"chesscom"}
    blitz = sorted((g for g in games if g.perf == "blitz"), key=lambda g: g.created_at)
    mine = [g.side(g.color_of("fabianocaruana") or "white") for g in blitz]
    assert [s.rating_after for s in mine] == BLITZ_AFTER
    # each change is the after minus the one before: 3030-3047 = -17, 3033-3030 = +3,
    # 3052-3033 = +19, 3062-3052 = +10, 3040-3062 = -22, 3027-3040 = -13, 3016-3027 = -11
    assert [s.rating_diff for s in mine] == [None, -17, 3, 19, 10, -22, -13, -11]
    # The last blitz game (live/4861239226): "Grischuk won by resignation", Result 1-0,
    # Caruana black; ended 2020.05.15 21:05:14 UTC.
    last = blitz[-1]
    assert (last.id, last.winner, last.status) == ("live/4861239226", "white", "resign")
    assert last.created_at.isoformat() == "2020-05-15T21:05:14+00:00"
    # rated only where the ratings moved: the first blitz game (no game before it in the
    # file) and the 9 rapid games (2773 each time) cannot be shown rated
    assert [g.rated for g in blitz] == [False] + [True] * 7
    assert not any(g.rated for g in games if g.perf == "classical")
    assert len(warnings) == 1 and "10 of 17 Chess.com games taken as unrated" in warnings[0]


def _json(cli: Cli, args: list[str]) -> dict[str, Any]:
    result = cli(args)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def test_games_pgn_gives_the_observed_changes(cli: Cli, pgn_file: Path) -> None:
    document = _json(cli, ["games", "FabianoCaruana", "--pgn", str(pgn_file), "--format", "json"])
    games = document["games"]
    assert len(games) == 17
    blitz = [g for g in games if g["perf"] == "blitz"]
    # the same observed changes as the API import of the same month
    # (tests/integration/test_chesscom_report.py)
    assert [g["chesscom"]["after"] for g in blitz] == BLITZ_AFTER
    assert [g["chesscom"]["diff"] for g in blitz] == [None, -17, 3, 19, 10, -22, -13, -11]
    assert [g["rated"] for g in blitz] == [False] + [True] * 7
    # 1500+10: 1500 + 40 × 10 = 1900 s, classical by Lichess's clock; all 2773: no change
    rapid = [g for g in games if g["perf"] == "classical"]
    assert len(rapid) == 9 and not any(g["rated"] for g in rapid)
    assert {g["chesscom"]["after"] for g in rapid} == {2773}
    assert {g["chesscom"]["diff"] for g in rapid} == {None}


def test_report_pgn_puts_the_rated_blitz_games_on_the_fide_track(cli: Cli, pgn_file: Path) -> None:
    """The FIDE track of the 7 blitz games the file shows rated, worked out by hand.

    As for the API import (test_chesscom_report.py): FIDE's rapid and blitz chapter, K 20,
    one period, every game rated at 3047 (the first counted game's rating before it).
    Table 8.1.2 with the opponents' estimated ratings (after + change): 3074 (D -27 ->
    0.46), 3093 (-46 -> 0.44), 3100 (-53 -> 0.43), 2915 (132 -> 0.68), 2896 (151 -> 0.70),
    3085 (-38 -> 0.45), 3093 (-46 -> 0.44): E = 3.60; score 0 + ½ + 1 + 1 + 0 + 0 + 0 = 2.5;
    change 20 × (2.5 − 3.60) = −22, so the track ends at 3025.
    """
    args = ["report", "FabianoCaruana", "--pgn", str(pgn_file), "--format", "json", "-q"]
    document = _json(cli, args)
    assert [r["perf"] for r in document["reports"]] == ["blitz"]
    [blitz] = document["reports"]
    games = blitz["games"]
    assert [g["chesscom"]["diff"] for g in games] == [-17, 3, 19, 10, -22, -13, -11]
    assert [g["elo"]["expected"] for g in games] == [0.46, 0.44, 0.43, 0.68, 0.7, 0.45, 0.44]
    [period] = blitz["periods"]
    assert period["elo"]["start"] == 3047 and period["elo"]["end"] == 3025
    assert period["elo"]["change"] == -22
    # off the FIDE track: the 9 rapid games (other perf: no rated classical game at all)
    # and the first blitz game, not shown rated
    assert blitz["summary"]["excluded"]["other_perf"] == 9
    assert blitz["summary"]["excluded"]["casual"] == 1


def test_a_lichess_pgn_is_read_as_before() -> None:
    """A Lichess game in the same file stays Lichess's (its own reader, its own site)."""
    lichess = (
        '[Event "Rated Blitz game"]\n[Site "https://lichess.org/abcdEFGH"]\n'
        '[UTCDate "2024.01.02"]\n[UTCTime "10:00:00"]\n[White "a"]\n[Black "b"]\n'
        '[Result "0-1"]\n[WhiteElo "1500"]\n[BlackElo "1500"]\n[WhiteRatingDiff "-6"]\n'
        '[BlackRatingDiff "+6"]\n[TimeControl "300+0"]\n[Termination "Normal"]\n\n'
        "1. f3 e5 2. g4 Qh4# 0-1\n\n"
    )
    games = read_pgn(lichess + _body(PGN_CASSETTE), player="FabianoCaruana")
    assert [g.site for g in games].count("lichess") == 1
    assert [g.site for g in games].count("chesscom") == 17


def _tags(**more: str) -> dict[str, str]:
    """The tags of the file's last game (live/4861239226), changed by ``more``."""
    tags = {
        "Site": "Chess.com",
        "White": "Grischuk",
        "Black": "FabianoCaruana",
        "Result": "1-0",
        "WhiteElo": "3104",
        "BlackElo": "3016",
        "TimeControl": "180",
        "Termination": "Grischuk won by resignation",
        "EndDate": "2020.05.15",
        "EndTime": "21:05:14",
        "Link": "https://www.chess.com/game/live/4861239226",
    }
    return {**tags, **more}


@pytest.mark.parametrize(
    ("more", "problem"),
    [
        ({"Termination": "FabianoCaruana won by resignation"}, "disagrees with Result"),
        ({"Termination": "Grischuk won by magic"}, "unknown Termination"),
        ({"Result": "1/2-1/2", "Termination": "Game drawn by magic"}, "unknown drawn"),
        ({"Result": "*"}, "not a finished game"),
        ({"WhiteElo": "?"}, "WhiteElo '?' is not a whole number"),
        ({"Link": ""}, "no Link tag"),
        ({"TimeControl": "-"}, "bad TimeControl"),
        ({"Variant": "Bughouse 2"}, "unknown Variant"),
    ],
)
def test_a_game_the_tags_cannot_make_is_named(more: dict[str, str], problem: str) -> None:
    from lichess_elo.core.chesscom import GameFault
    from lichess_elo.core.chesscom.pgn import parse_pgn_game

    with pytest.raises(GameFault, match=re.escape(problem)):
        parse_pgn_game(_tags(**more), "")


def test_the_draw_and_loss_phrases_are_the_documented_codes() -> None:
    from lichess_elo.core.chesscom.pgn import parse_pgn_game

    drawn = parse_pgn_game(_tags(Result="1/2-1/2", Termination="Game drawn by repetition"), "")
    assert (drawn.white.result, drawn.black.result) == ("repetition", "repetition")
    timed = parse_pgn_game(_tags(Termination="Grischuk won on time"), "")
    assert (timed.white.result, timed.black.result) == ("win", "timeout")


def test_a_file_game_with_a_bad_termination_is_left_out_with_a_warning() -> None:
    text = _body(PGN_CASSETTE).replace("Grischuk won by resignation", "Grischuk won by magic", 1)
    warnings: list[str] = []
    games = read_pgn(text, player="FabianoCaruana", on_warning=warnings.append)
    assert len(games) == 16
    assert any("live/4861239226" in w and "won by magic" in w for w in warnings)


def test_club_reads_a_members_chess_com_export(cli: Cli, pgn_file: Path) -> None:
    # The same 17 real games as a club's games file (no club.toml: every player starts at
    # 1000, K 20, one update by event, its expected scores from the start ratings). The
    # Event "Live Chess" is Chess.com's "no event": grouped by month, as Lichess's
    # "rated blitz game" is, so the 17 games are one event, "Live Chess 2020-05".
    # FabianoCaruana's results, game by game from the file's [Result]: 0 0 0 1 1 ½ 0 0 1 1
    # ½ 1 ½ ½ 1 1 1 = 8 wins + 4 draws = 10 points against 17 x 0.50 expected = 8.5:
    # 20 x (10 - 8.5) = +30 -> 1030. Grischuk won both his: 20 x (2 - 1) = +20 -> 1020.
    result = cli(["club", str(pgn_file), "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    ratings = {p["name"]: (p["rating"], p["games"]) for p in doc["players"]}
    assert ratings["FabianoCaruana"] == (1030, 17)
    assert ratings["Grischuk"] == (1020, 2)
    assert len(ratings) == 10
    assert (
        '17 Chess.com games outside any event (Event "Live Chess" or "Let\'s Play!") '
        "grouped into one event a month"
    ) in result.stderr
