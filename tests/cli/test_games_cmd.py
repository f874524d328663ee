"""``lichess-elo games``: the real command over the real cassette, the fake Lichess server
(real HTTP) and a PGN file, with a real replay cache in tmp_path."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

from tests.fake_lichess import FakeLichess
from tests.helpers import ONBOARD_CREATED, REPO
from tests.runners import invoke

CASSETTE = REPO / "cassettes" / "onboard247.yaml"
DATA = REPO / "tests" / "data" / "lichess"
JSON_KEYS = {
    "time_control",
    "fide_speed",
    "chapter",
    "id",
    "played_at",
    "perf",
    "rated",
    "color",
    "opponent",
    "opponent_rating",
    "score",
    "status",
    "lichess",
    "replay",
    "ended",
}
REPLAY_KEYS = {
    "valid",
    "plies",
    "error",
    "final_fen",
    "checkmate",
    "stalemate",
    "insufficient_material",
    "material",
    "status_agrees",
}


def _run(*args: str) -> Any:
    return invoke(["games", *args])


def _json(*args: str) -> dict[str, Any]:
    result = _run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def _cache_rows(cache: Path) -> int:
    with sqlite3.connect(cache / "replay.sqlite") as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM replay_facts").fetchone()[0]
    return count


def test_cassette_lists_all_221_games_valid_oldest_first(tmp_path: Path) -> None:
    doc = _json("OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(tmp_path))
    games = doc["games"]
    assert doc["user"] == "OnBoard247"
    # The data README: 221 games, all rated, blitz 130, bullet 57, rapid 15, classical 8,
    # correspondence 6, chess960 5 (with initialFen).
    assert len(games) == 221
    assert Counter(g["perf"] for g in games) == {
        "blitz": 130,
        "bullet": 57,
        "rapid": 15,
        "classical": 8,
        "correspondence": 6,
        "chess960": 5,
    }
    assert all(set(g) == JSON_KEYS and set(g["replay"]) == REPLAY_KEYS for g in games)
    assert set(games[0]["lichess"]) == {"rating", "diff", "provisional"}
    assert [g["played_at"] for g in games] == sorted(g["played_at"] for g in games)
    assert all(g["replay"]["valid"] and g["replay"]["error"] is None for g in games)
    # The newest game of the export (its first line): 8x83EMvs, OnBoard247 white 2407,
    # ratingDiff -7, lost by resignation to STKA1969 (2360); its moves string has 62 SAN
    # tokens (counted with str.split on the raw line), so 62 plies.
    last = games[-1]
    assert (last["id"], last["color"], last["opponent"], last["opponent_rating"]) == (
        "8x83EMvs",
        "white",
        "STKA1969",
        2360,
    )
    assert (last["score"], last["status"], last["lichess"]["rating"], last["lichess"]["diff"]) == (
        0.0,
        "resign",
        2407,
        -7,
    )
    assert last["replay"]["plies"] == 62
    assert _cache_rows(tmp_path) == 221
    # 3MfNjuxy: OnBoard247 (white) lost on time to Nika95. The moves end with white Kb4 +
    # Re5 against black Kb7 + pawn b5 (final FEN 8/1k6/8/1p2R3/1K6/8/8/8): 5 - 1 = +4 >= 3,
    # so "lost on time while ahead".
    flagged = next(g for g in games if g["id"] == "3MfNjuxy")
    assert flagged["replay"]["final_fen"].startswith("8/1k6/8/1p2R3/1K6/8/8/8 w")
    assert (flagged["status"], flagged["score"], flagged["replay"]["material"]) == (
        "outoftime",
        0.0,
        4,
    )
    assert flagged["ended"] == ["lost_on_time_ahead"]


def test_filters_perf_rated_since_until(tmp_path: Path) -> None:
    base = ("OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(tmp_path))
    chess960 = _json(*base, "--perf", "chess960")["games"]
    assert len(chess960) == 5 and all(g["replay"]["valid"] for g in chess960)
    two = _json(*base, "--perf", "rapid", "--perf", "classical")["games"]
    assert Counter(g["perf"] for g in two) == {"rapid": 15, "classical": 8}
    assert _json(*base, "--casual")["games"] == []  # every OnBoard247 game is rated
    february = _json(*base, "--since", "2023-02")["games"]
    assert february and all(g["played_at"] >= "2023-02-01" for g in february)
    january = _json(*base, "--until", "2023-02")["games"]
    assert len(january) + len(february) == 221


def test_table_marks_invalid_games(
    fake_lichess: FakeLichess, onboard_games: list[dict[str, Any]], tmp_path: Path
) -> None:
    games = [json.loads(json.dumps(g)) for g in onboard_games]
    # Damage the newest game: its 3rd ply "c4" becomes "c5", which no white pawn can reach.
    assert games[0]["id"] == "8x83EMvs" and games[0]["moves"].startswith("d4 Nf6 c4 ")
    games[0]["moves"] = games[0]["moves"].replace("d4 Nf6 c4 ", "d4 Nf6 c5 ", 1)
    fake_lichess.add_user("OnBoard247", ONBOARD_CREATED, games)
    result = _run(
        "OnBoard247",
        "--api-url",
        fake_lichess.url,
        "--cache-dir",
        str(tmp_path),
        "--until",
        "2023-03",
    )
    assert result.exit_code == 0, result.output
    assert "INVALID: illegal move 'c5' at ply 3" in result.stdout
    assert "221 games, 1 invalid" in result.stdout
    # JSON says the same; the damaged game is listed, not dropped.
    doc = _json(
        "OnBoard247",
        "--api-url",
        fake_lichess.url,
        "--cache-dir",
        str(tmp_path),
        "--until",
        "2023-03",
    )
    bad = [g for g in doc["games"] if not g["replay"]["valid"]]
    assert [g["id"] for g in bad] == ["8x83EMvs"]
    assert bad[0]["replay"]["plies"] == 2


def test_pgn_file_csv(tmp_path: Path) -> None:
    result = _run(
        "Lance5500",
        "--pgn",
        str(DATA / "game-export-q7ZvsdUF.pgn"),
        "--cache-dir",
        str(tmp_path),
        "--format",
        "csv",
    )
    assert result.exit_code == 0, result.output
    header, row = result.stdout.splitlines()
    assert header.startswith("id,played_at,perf,rated,color,opponent,opponent_rating,score")
    # The PGN: Lance5500 (white, 2389, +4) drew TryingHard87 (2498) in 125 plies.
    assert row.startswith(
        "q7ZvsdUF,2017-12-28T23:52:30Z,blitz,true,white,TryingHard87,2498,0.5,draw,2389,4,"
    )
    assert ",true,125," in row  # booleans as in the JSON, in every command


def test_unknown_perf_is_a_usage_error_listing_valid_ones(tmp_path: Path) -> None:
    result = _run("OnBoard247", "--replay", str(CASSETTE), "--perf", "blits")
    assert result.exit_code == 2
    assert "unknown perf 'blits'" in result.stderr
    assert "blitz" in result.stderr and "threeCheck" in result.stderr
    assert "Traceback" not in result.output


def test_missing_pgn_file_is_one_line(tmp_path: Path) -> None:
    result = _run("someone", "--pgn", str(tmp_path / "nope.pgn"))
    assert result.exit_code == 2
    assert result.stderr.startswith("lichess-elo: error: cannot read --pgn")
    assert len(result.stderr.splitlines()) == 1


def test_pgn_with_replay_is_refused_but_offline_is_fine(tmp_path: Path) -> None:
    pgn_file = str(DATA / "game-export-q7ZvsdUF.pgn")
    with_replay = _run("Lance5500", "--pgn", pgn_file, "--replay", str(CASSETTE))
    assert with_replay.exit_code == 2
    assert (
        with_replay.stderr
        == "lichess-elo: error: --pgn does not apply with --replay (the games come from the file)\n"
    )
    # --offline sends nothing and neither does --pgn: a user with LICHESS_ELO_OFFLINE=1 set
    # for good can still list a PGN file. The PGN holds one game, q7ZvsdUF.
    offline = _run(
        "Lance5500",
        "--pgn",
        pgn_file,
        "--offline",
        "--cache-dir",
        str(tmp_path),
        "--format",
        "csv",
    )
    assert offline.exit_code == 0, offline.output
    assert offline.stdout.splitlines()[1].startswith("q7ZvsdUF,")


def test_pgn_username_is_validated_like_any_other(tmp_path: Path) -> None:
    pgn_file = str(DATA / "game-export-q7ZvsdUF.pgn")
    result = _run("Lance 5500", "--pgn", pgn_file, "--cache-dir", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "lichess-elo: error: USERNAME 'Lance 5500' is not a Lichess username"
    )
    assert len(result.stderr.splitlines()) == 1


def test_replay_cache_in_the_way_is_warned_but_the_listing_is_right(tmp_path: Path) -> None:
    a_file = tmp_path / "cache"
    a_file.write_text("not a folder\n", encoding="utf-8")
    args = ["OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(a_file)]
    result = _run(*args, "--perf", "chess960", "--format", "json")
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"lichess-elo: warning: the replay cache cannot be used ({a_file} is a file, "
        "not a folder); replay results are not kept\n"
    )
    games = json.loads(result.stdout)["games"]
    assert len(games) == 5 and all(g["replay"]["valid"] for g in games)  # 5 chess960 games
    assert a_file.read_text(encoding="utf-8") == "not a folder\n"


def test_pgn_with_damaged_games_keeps_them_flagged_invalid(tmp_path: Path) -> None:
    # Was test_pgn_with_an_illegal_move_and_a_stray_parenthesis_skips_that_game: the
    # damaged game was skipped with a warning; now it is listed, flagged, and counts.
    real = (DATA / "game-export-q7ZvsdUF.pgn").read_text(encoding="utf-8")
    # bad00001: 2. c4 -> Ke3, white's 2nd move = ply 2 x 2 - 1 = 3 (1. d4 d5 are plies 1
    # and 2), followed by a stray ')': python-chess once popped the main line there and
    # crashed on the next move (IndexError).
    assert real.count("2. c4 {") == 1
    illegal = real.replace("q7ZvsdUF", "bad00001").replace("2. c4 {", "2. Ke3 ) {")
    # bad00002: a broken FEN ('z' is no piece) with SetUp "1": nothing can be replayed.
    broken = "rnbqkbnr/ppppzppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    bad_fen = real.replace("q7ZvsdUF", "bad00002").replace(
        '[Variant "Standard"]', f'[Variant "Standard"]\n[SetUp "1"]\n[FEN "{broken}"]'
    )
    pgn_file = tmp_path / "lichess_me.pgn"
    pgn_file.write_text("\n\n".join((illegal, real, bad_fen)), encoding="utf-8")
    args = ["Lance5500", "--pgn", str(pgn_file), "--cache-dir", str(tmp_path / "c")]
    result = _run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # nothing skipped
    games = {g["id"]: g for g in json.loads(result.stdout)["games"]}
    assert sorted(games) == ["bad00001", "bad00002", "q7ZvsdUF"]
    assert [gid for gid, g in sorted(games.items()) if not g["replay"]["valid"]] == [
        "bad00001",
        "bad00002",
    ]
    assert games["q7ZvsdUF"]["replay"]["plies"] == 125
    first = games["bad00001"]["replay"]
    assert (first["plies"], first["error"]) == (2, "illegal move 'Ke3' at ply 3")
    second = games["bad00002"]["replay"]
    assert second["plies"] == 0 and second["error"].startswith(f"broken FEN {broken!r}")
    # They still count: the same draw, score and rating change as the undamaged game.
    for game in games.values():
        assert (game["rated"], game["score"], game["status"]) == (True, 0.5, "draw")
        assert game["lichess"] == games["q7ZvsdUF"]["lichess"]
