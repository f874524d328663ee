"""``report``, ``games`` and ``fetch`` of one Chess.com account (``chess.com:NAME``), over
real HTTP against the fake Chess.com server (tests/fake_chesscom.py) serving the recorded
month of FabianoCaruana (2020-05) with its recorded headers, and months written in its
shape: the observed changes, the opponent's estimate marked, unrated games off the FIDE
track, the FIDE track worked out by hand, a daily game as correspondence, the page, the
cassette offline, wrong prefixes, 404/410, a 429 in the middle of an import, Ctrl-C and a
rerun."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from lichess_elo.core.fide.editions import chapter_of_speed
from lichess_elo.core.games import Game, Side
from tests.fake_chesscom import (
    RECORDED_MONTH,
    FakeChessCom,
    json_answer,
    recorded,
    recorded_games,
    written_game,
)
from tests.helpers import REPO
from tests.runners import Cli, PtyCli

NAME = "fabianocaruana"
MAY = f"/pub/player/{NAME}/games/2020/05"
JUNE = f"/pub/player/{NAME}/games/2020/06"
ARCHIVES = f"/pub/player/{NAME}/games/archives"
CASSETTE = REPO / "cassettes" / "chesscom-fabianocaruana-2020-05.yaml"


@pytest.fixture
def server() -> Iterator[FakeChessCom]:
    """The fake server with the recorded month and its archives list."""
    fake = FakeChessCom().start()
    path, answer = recorded(RECORDED_MONTH)
    fake.answers[path] = answer
    fake.archives(NAME, [(2020, 5)])
    yield fake
    fake.stop()


def _args(server: FakeChessCom, tmp_path: Path, *more: str) -> list[str]:
    return [
        "report",
        "chess.com:FabianoCaruana",
        "--chesscom-url",
        server.url,
        "--cache-dir",
        str(tmp_path / "cache"),
        "-q",
        *more,
    ]


def _json(cli: Cli, args: list[str]) -> dict[str, Any]:
    result = cli(args)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _perf(document: dict[str, Any], perf: str) -> dict[str, Any]:
    [report] = [r for r in document["reports"] if r["perf"] == perf]
    return report


def test_the_recorded_month_as_json(cli: Cli, server: FakeChessCom, tmp_path: Path) -> None:
    document = _json(cli, _args(server, tmp_path, "--format", "json"))
    assert document["user"] == "FabianoCaruana"
    blitz = _perf(document, "blitz")
    games = blitz["games"]
    # The 8 rated blitz games' post-game ratings, as published: 3047, 3030, 3033, 3052,
    # 3062, 3040, 3027, 3016. The observed change is each minus the one before in the pool
    # chess_blitz; the first has none (worked out in tests/unit/test_chesscom_records.py).
    assert [g["chesscom"]["after"] for g in games] == [
        3047, 3030, 3033, 3052, 3062, 3040, 3027, 3016
    ]  # fmt: skip
    assert [g["chesscom"]["diff"] for g in games] == [None, -17, 3, 19, 10, -22, -13, -11]
    # before the game: the previous after in the pool; unknown for the first
    assert [g["chesscom"]["rating"] for g in games] == [
        None, 3047, 3030, 3033, 3052, 3062, 3040, 3027
    ]  # fmt: skip
    # the block is named for the site: no "lichess" block on a Chess.com game
    assert all("lichess" not in g for g in games)
    assert games[1]["id"] == "live/4860674282"
    assert games[1]["url"] == "https://www.chess.com/game/live/4860674282"
    assert games[0]["played_at"] == "2020-05-15T18:39:44Z"  # end_time 1589568584... by hand:
    # 1589567984 s is 2020-05-15 18:39:44 UTC (18393 days + 67184 s; 67184 s = 18:39:44)
    # The opponent's rating before the game is estimated as their published rating after
    # it plus the player's observed change (docs/chesscom.md), and marked estimated:
    # game 2: lachesisQ after 3091, change -17 -> 3074; game 5: LyonBeast 2905 + 10 = 2915.
    # Game 1 has no change, so no estimate: the published after (3084), not marked.
    assert [g["opponent_rating"] for g in games] == [
        3084, 3074, 3093, 3100, 2915, 2896, 3085, 3093
    ]  # fmt: skip
    assert [g["chesscom"]["opponent_estimated"] for g in games] == [False] + [True] * 7
    # the periods and the summary name the site's track for it too
    [period] = blitz["periods"]
    assert period["chesscom"] == {"start": 3047, "change": -31, "end": 3016}
    assert "lichess" not in period
    assert blitz["summary"]["chesscom_change"] == -31
    assert not any(key.startswith("lichess") for key in blitz["summary"])
    # the 9 unrated rapid (1500+10: classical by the clock) games are off the FIDE track
    assert [r["perf"] for r in document["reports"]] == ["blitz"]
    assert blitz["summary"]["excluded"]["other_perf"] == 9


def test_the_fide_track_of_the_blitz_games(cli: Cli, server: FakeChessCom, tmp_path: Path) -> None:
    """The FIDE track of the 8 rated blitz games, worked out by hand.

    The chapter is FIDE's rapid and blitz (180+2 and 180: blitz by the clock), K 20 for
    every player (rapid and blitz lists, in force until 30 Sep 2022). The track starts at
    3047, the first rating Chess.com published (the first game's before is unknown), and
    the month is one rating period, so every game is rated at 3047.
    Table 8.1.2 with D = 3047 - opponent (the opponent as in the JSON above):
        3084: D -37 (33-39)  -> 0.45     3074: D -27 (26-32)  -> 0.46
        3093: D -46 (40-46)  -> 0.44     3100: D -53 (47-53)  -> 0.43
        2915: D 132 (130-137) -> 0.68    2896: D 151 (146-153) -> 0.70
        3085: D -38 (33-39)  -> 0.45     3093: D -46 (40-46)  -> 0.44
    E = 4.05 in all; the score 0 + 0 + ½ + 1 + 1 + 0 + 0 + 0 = 2.5;
    change = 20 × (2.5 − 4.05) = −31, so the track ends at 3016.
    Game by game, 20 × (score − E): −9, −9.2, +1.2, +11.4, +6.4, −14, −9, −8.8.
    """
    blitz = _perf(_json(cli, _args(server, tmp_path, "--format", "json")), "blitz")
    games = blitz["games"]
    assert {g["chapter"] for g in games} == {"rapid-blitz"}
    assert {g["elo"]["k"] for g in games} == {20}
    assert {g["elo"]["rating"] for g in games} == {3047}
    assert [g["elo"]["expected"] for g in games] == [
        0.45, 0.46, 0.44, 0.43, 0.68, 0.7, 0.45, 0.44
    ]  # fmt: skip
    assert [g["elo"]["change"] for g in games] == [-9, -9.2, 1.2, 11.4, 6.4, -14, -9, -8.8]
    [period] = blitz["periods"]
    assert (period["score"], period["expected"]) == (2.5, 4.05)
    assert period["elo"] == {"start": 3047, "change": -31, "change_exact": -31, "end": 3016}


def test_the_table_marks_the_estimate_and_names_the_site(
    cli: Cli, server: FakeChessCom, tmp_path: Path
) -> None:
    result = cli(_args(server, tmp_path, "--view", "games", "--no-pager"))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "~3074" in text and "~2915" in text  # estimated, marked
    assert " 3084 " in text and "~3084" not in text  # the published after, unmarked
    assert "Chess.com ± (observed)" in text
    assert "~ = estimated" in text  # the legend says what the mark means
    assert "Chess.com's Glicko constants are not published" in text
    assert "Lichess" not in text  # nothing of Chess.com's is called Lichess's
    assert "Glicko-2" not in text


def test_an_unknown_change_is_never_summed_as_zero(
    cli: Cli, server: FakeChessCom, tmp_path: Path
) -> None:
    # The first rated blitz game of the import (live/4860634174, a resignation while not
    # behind in material) has no observed change: the endings line said "(Chess.com +0)",
    # a number Chess.com never gave. The loss on time (live/4861126831) has its -22.
    result = cli(_args(server, tmp_path, "--view", "summary", "--no-pager"))
    assert result.exit_code == 0, result.output
    assert "(Chess.com: no change known)" in result.stdout
    assert "Chess.com +0" not in result.stdout
    doc = _json(cli, _args(server, tmp_path, "--format", "json"))
    endings = {e["ending"]: e["chesscom"] for e in doc["reports"][0]["summary"]["endings"]}
    assert endings == {"resigned_not_behind": None, "lost_on_time_ahead": -22}


def test_the_page_holds_the_chesscom_numbers(
    cli: Cli, server: FakeChessCom, tmp_path: Path
) -> None:
    page = tmp_path / "page.html"
    result = cli(_args(server, tmp_path, "--html", str(page)))
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "FIDE rules next to Chess.com" in html
    # the chart's line: Chess.com's published ratings after each game, and before each
    # the previous one (the first game's before unknown: drawn from its after)
    assert '"after":[3047,3030,3033,3052,3062,3040,3027,3016]' in html
    assert '"before":[3047,3047,3030,3033,3052,3062,3040,3027]' in html
    # the games table's second game: before 3047, the observed change -17
    assert '"live/4860674282","black","lachesisQ","~3074","0","resign","","3047","-17"' in html
    assert "https://www.chess.com/game/" in html
    assert "~3074" in html
    assert "Lichess&#x27;s Glicko-2" not in html and "Lichess's Glicko-2" not in html


def test_the_cassette_offline(cli: Cli, tmp_path: Path) -> None:
    args = ["report", f"chess.com:{NAME}", "--replay", str(CASSETTE), "--format", "json"]
    document = _json(cli, [*args, "--cache-dir", str(tmp_path), "-q"])
    blitz = _perf(document, "blitz")
    assert [g["chesscom"]["diff"] for g in blitz["games"]] == [None, -17, 3, 19, 10, -22, -13, -11]


def test_games_and_fetch(cli: Cli, server: FakeChessCom, tmp_path: Path) -> None:
    cache = ["--chesscom-url", server.url, "--cache-dir", str(tmp_path / "cache"), "-q"]
    fetched = cli(["fetch", "chess.com:FabianoCaruana", *cache, "--format", "json"])
    assert fetched.exit_code == 0, fetched.output
    summary = json.loads(fetched.stdout)
    # 9 unrated 1500+10 games (classical by the clock) and 8 rated blitz games
    assert summary["split"] == {
        "classical": {"rated": 0, "casual": 9},
        "blitz": {"rated": 8, "casual": 0},
    }
    listed = cli(["games", "chess.com:FabianoCaruana", *cache, "--offline", "--format", "json"])
    assert listed.exit_code == 0, listed.output
    games = json.loads(listed.stdout)["games"]
    assert len(games) == 17
    first = games[0]
    assert first["chesscom"] == {
        "rating": None, "after": 2773, "diff": None, "opponent_estimated": False
    }  # fmt: skip
    # the moves replayed from the PGN (clock comments left out) end where Chess.com says:
    # its "fen" of this game is "7k/5BB1/6K1/8/8/8/8/8 b - -"
    assert first["replay"]["valid"] is True
    assert first["replay"]["final_fen"].startswith("7k/5BB1/6K1/8/8/8/8/8 b - -")
    assert first["status"] == "mate"  # "checkmated"
    assert len(server.asked(MAY)) == 1  # games read it from the cache, offline


def test_a_daily_game_is_correspondence(cli: Cli, server: FakeChessCom, tmp_path: Path) -> None:
    base = recorded_games()[9]  # a rated blitz game of the player's, as the archive has it
    ended = int(datetime(2020, 6, 2, 12, tzinfo=UTC).timestamp())
    daily = written_game(
        base,
        url="https://www.chess.com/game/daily/123456789",
        time_class="daily",
        time_control="1/259200",
        start_time=int(datetime(2020, 5, 20, tzinfo=UTC).timestamp()),
        end_time=ended,
    )
    server.month(NAME, 2020, 6, json_answer({"games": [daily]}))
    server.archives(NAME, [(2020, 5), (2020, 6)])
    document = _json(cli, _args(server, tmp_path, "--format", "json", "--perf", "all"))
    corr = _perf(document, "correspondence")
    [game] = corr["games"]
    assert game["id"] == "daily/123456789"
    assert game["period"] == "2020-06"  # by its end: started in May, ended in June
    assert game["chesscom"]["diff"] is None  # the first game of the pool chess_daily
    # handled as a Lichess correspondence game: the same chapter for the same speed
    lichess_game = Game(
        id="abcdefgh", rated=True, variant="standard", speed="correspondence",
        perf="correspondence", created_at=datetime(2020, 6, 2, tzinfo=UTC), status="resign",
        white=Side(user_id="a", name="a", rating=1500, rating_diff=5),
        black=Side(user_id="b", name="b", rating=1500, rating_diff=-5), winner="white",
    )  # fmt: skip
    assert game["chapter"] == chapter_of_speed(lichess_game.speed, "auto")


@pytest.mark.parametrize(
    ("given", "right"),
    [
        ("chesscom:magnus", "write chess.com:magnus"),
        ("chess-com:magnus", "write chess.com:magnus"),
        ("chesscom.com:magnus", "write chess.com:magnus"),
        ("Chess.com/magnus", "write chess.com:magnus"),
        ("lichess.org:magnus", "write lichess:magnus"),
        ("fics:magnus", "write chess.com:magnus or lichess:magnus"),
        ("chess.com:", "write chess.com:NAME"),
    ],
)
def test_a_wrong_prefix_is_one_line(cli: Cli, given: str, right: str, tmp_path: Path) -> None:
    for command in ("report", "games", "fetch"):
        result = cli([command, given, "--cache-dir", str(tmp_path)])
        assert result.exit_code == 2, result.output
        [line] = result.stderr.strip().splitlines()
        assert line.startswith("lichess-elo: error: ") and line.endswith(right), line


def test_404_and_410_are_one_line(cli: Cli, server: FakeChessCom, tmp_path: Path) -> None:
    server.closed.add("gone")
    cache = ["--chesscom-url", server.url, "--cache-dir", str(tmp_path), "-q"]
    unknown = cli(["report", "chess.com:nobody", *cache])
    closed = cli(["report", "chess.com:gone", *cache])
    # exit 1, as for an unknown Lichess user (docs/errors.md)
    assert (unknown.exit_code, closed.exit_code) == (1, 1)
    assert unknown.stderr.strip() == (
        "lichess-elo: error: Chess.com has no account 'nobody' (HTTP 404: unknown or closed)"
    )
    assert closed.stderr.strip() == (
        "lichess-elo: error: the Chess.com account 'gone' is closed (HTTP 410)"
    )


def test_a_429_in_the_middle_of_an_import(cli: Cli, server: FakeChessCom, tmp_path: Path) -> None:
    base = recorded_games()[9]
    june = written_game(base, url="https://www.chess.com/game/live/1", end_time=int(
        datetime(2020, 6, 3, tzinfo=UTC).timestamp()), white={"rating": 3060})  # fmt: skip
    server.month(NAME, 2020, 6, json_answer({"games": [june]}))
    server.archives(NAME, [(2020, 5), (2020, 6)])
    limited = json_answer({"code": 0, "message": "Too many requests"}, status=429)
    limited.headers.append(("Retry-After", "0"))
    server.queue(JUNE, limited)  # May answered, then June refused once
    result = cli(_args(server, tmp_path, "--format", "json"))
    assert result.exit_code == 0, result.output
    assert "HTTP 429" in result.stderr
    games = _perf(json.loads(result.stdout), "blitz")["games"]
    # June's game follows May's last (3016) in the same pool: 3060 - 3016 = +44
    assert games[-1]["chesscom"] == {
        "rating": 3016, "after": 3060, "diff": 44, "opponent_estimated": True
    }  # fmt: skip
    assert len(server.asked(JUNE)) == 2


def test_ctrl_c_while_months_are_fetched_and_a_rerun(
    pty_cli: PtyCli, server: FakeChessCom, tmp_path: Path
) -> None:
    base = recorded_games()[9]
    june = written_game(base, url="https://www.chess.com/game/live/2", end_time=int(
        datetime(2020, 6, 3, tzinfo=UTC).timestamp()))  # fmt: skip
    server.month(NAME, 2020, 6, json_answer({"games": [june]}))
    server.archives(NAME, [(2020, 5), (2020, 6)])
    server.slow[JUNE] = 30.0  # June hangs: Ctrl-C comes while it is fetched
    env = {"LICHESS_ELO_CACHE_DIR": str(tmp_path)}
    args = ["report", "chess.com:FabianoCaruana", "--chesscom-url", server.url, "--no-pager"]
    run = pty_cli.start(args, width=100, env=env)
    assert run.wait_for(lambda _t: len(server.asked(JUNE)) == 1, timeout=60), run.text
    run.interrupt()
    code = run.finish(timeout=60)
    text = run.text
    assert code == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert text.count("lichess-elo: interrupted") == 1, text
    # the rerun: May, finished and kept, is not asked again; June is
    del server.slow[JUNE]
    code, text = pty_cli([*args, "-q"], width=100, env=env, timeout=120)
    assert code == 0, text
    assert len(server.asked(MAY)) == 1
    assert len(server.asked(JUNE)) == 2
