"""``report NAME chess.com:OTHER``: two accounts of one person side by side, over real HTTP
against the fake Lichess server (OnBoard247's 221 games) and the fake Chess.com server (the
recorded month of FabianoCaruana, 2020-05) at once: the JSON's ``sites``, the table at 80
columns in a pseudo-terminal, the CSV's ``site`` column, the page, and the refusals.

The numbers are pinned by hand (the derivations are repeated below); each site's part is
also compared with its one-site report, as a consistency check only."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_chesscom import RECORDED_MONTH, FakeChessCom, recorded
from tests.fake_lichess import FakeLichess
from tests.helpers import REPO
from tests.runners import Cli, PtyCli

NAME = "fabianocaruana"


@pytest.fixture
def chesscom() -> Iterator[FakeChessCom]:
    """The fake Chess.com server with the recorded month and its archives list."""
    fake = FakeChessCom().start()
    path, answer = recorded(RECORDED_MONTH)
    fake.answers[path] = answer
    fake.archives(NAME, [(2020, 5)])
    yield fake
    fake.stop()


def _servers(lichess: FakeLichess, chesscom: FakeChessCom, tmp_path: Path) -> list[str]:
    return [
        "--api-url", lichess.url, "--chesscom-url", chesscom.url,
        "--cache-dir", str(tmp_path / "cache"), "--until", "2023-03", "--perf", "blitz", "-q",
    ]  # fmt: skip


def _both(lichess: FakeLichess, chesscom: FakeChessCom, tmp_path: Path) -> list[str]:
    return [
        "report", "OnBoard247", "chess.com:FabianoCaruana",
        *_servers(lichess, chesscom, tmp_path),
    ]  # fmt: skip


def _ok(cli: Cli, args: list[str]) -> str:
    result = cli(args)
    assert result.exit_code == 0, result.output
    text: str = result.stdout
    return text


def test_the_json_holds_each_site_apart(
    cli: Cli, onboard_server: FakeLichess, chesscom: FakeChessCom, tmp_path: Path
) -> None:
    doc = json.loads(_ok(cli, [*_both(onboard_server, chesscom, tmp_path), "--format", "json"]))
    assert list(doc) == ["sites"]
    assert list(doc["sites"]) == ["lichess", "chesscom"]  # the accounts' order
    lichess, chesscom_doc = doc["sites"]["lichess"], doc["sites"]["chesscom"]
    assert (lichess["user"], chesscom_doc["user"]) == ("OnBoard247", "FabianoCaruana")
    [lblitz] = lichess["reports"]
    [cblitz] = chesscom_doc["reports"]
    # Lichess, January 2023 blitz, by hand (the derivation of test_report_onboard's
    # default-rules January): 62 games, 31 points; table 8.1.2 gives 37.33, and the 2022
    # edition's 400-point rule once per arena moves three games (.92 capped once, .97, .99
    # in place of .92 each): 37.33 - 2 x .92 + .97 + .99 = 37.45. The track starts at the
    # first Lichess rating, 2450 (reached 2400: K 10; 62 x 10 <= 700, no cut).
    # 10 x (31 - 37.45) = -64.5 -> -65 (half away from zero) -> 2385.
    jan = lblitz["periods"][0]
    assert jan["period"] == "2023-01"
    assert (jan["games"], jan["score"], jan["expected"], jan["k"]) == (62, 31, 37.45, 10)
    assert jan["elo"] == {"start": 2450, "change": -65, "change_exact": -64.5, "end": 2385}
    assert "lichess" in jan and "chesscom" not in jan
    # Chess.com: the 8 rated blitz games' published ratings after each game, 3047, 3030,
    # 3033, 3052, 3062, 3040, 3027, 3016; the observed change is each minus the one before
    # in the pool chess_blitz, none for the first.
    games = cblitz["games"]
    assert [g["chesscom"]["after"] for g in games] == [
        3047, 3030, 3033, 3052, 3062, 3040, 3027, 3016
    ]  # fmt: skip
    assert [g["chesscom"]["diff"] for g in games] == [None, -17, 3, 19, 10, -22, -13, -11]
    # Its FIDE track: K 20 for all (rapid and blitz lists before Oct 2022), one month at
    # 3047, E = 4.05 (table 8.1.2), 2.5 points: 20 x (2.5 - 4.05) = -31 -> 3016.
    [may] = cblitz["periods"]
    assert may["elo"] == {"start": 3047, "change": -31, "change_exact": -31, "end": 3016}
    assert may["chesscom"] == {"start": 3047, "change": -31, "end": 3016}
    assert "lichess" not in may
    # Each site's Diff is its own FIDE track minus its own rating: Lichess February ends
    # 2399 vs 2400 (-1), Chess.com May 3016 vs 3016 (0); nothing across the sites.
    assert [p["difference"] for p in lblitz["periods"]] == [-34, -1]
    assert may["difference"] == 0
    # The scorecard scores Lichess's own games; Chess.com has none.
    assert lblitz["accuracy"] is not None
    assert cblitz["accuracy"] is None
    # consistency: each part is the site's one-site document
    alone = _servers(onboard_server, chesscom, tmp_path)
    one_lichess = _ok(cli, ["report", "OnBoard247", *alone, "--format", "json", "--offline"])
    one_chesscom = _ok(cli, ["report", "chess.com:FabianoCaruana", *alone, "--format", "json"])
    assert json.loads(one_lichess) == lichess
    assert json.loads(one_chesscom) == chesscom_doc


def test_the_order_given_is_kept(
    cli: Cli, onboard_server: FakeLichess, chesscom: FakeChessCom, tmp_path: Path
) -> None:
    args = ["report", "chess.com:FabianoCaruana", "lichess:OnBoard247"]
    doc = json.loads(_ok(cli, [*args, *_servers(onboard_server, chesscom, tmp_path), "-f", "json"]))
    assert list(doc["sites"]) == ["chesscom", "lichess"]


def test_the_csv_has_a_site_column(
    cli: Cli, onboard_server: FakeLichess, chesscom: FakeChessCom, tmp_path: Path
) -> None:
    text = _ok(cli, [*_both(onboard_server, chesscom, tmp_path), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0])[:3] == ["site", "user", "perf"]
    # Lichess's two blitz months, then Chess.com's one (the numbers derived above)
    assert [(r["site"], r["user"], r["period"]) for r in rows] == [
        ("lichess", "OnBoard247", "2023-01"),
        ("lichess", "OnBoard247", "2023-02"),
        ("chesscom", "FabianoCaruana", "2020-05"),
    ]
    assert [r["elo_change"] for r in rows] == ["-65", "14", "-31"]
    # each row's site rating is its own site's: Chess.com 3047 -> 3016
    assert (rows[2]["lichess_start"], rows[2]["lichess_end"]) == ("3047", "3016")
    games = _ok(cli, [*_both(onboard_server, chesscom, tmp_path), "-f", "csv", "--view", "games"])
    sites = [r["site"] for r in csv.DictReader(io.StringIO(games))]
    assert sites == ["lichess"] * 130 + ["chesscom"] * 8  # 130 Lichess blitz games, 8 Chess.com


def test_the_table_fits_80_columns(
    pty_cli: PtyCli, onboard_server: FakeLichess, chesscom: FakeChessCom, tmp_path: Path
) -> None:
    code, screen = pty_cli(
        [*_both(onboard_server, chesscom, tmp_path), "--no-pager"],
        width=80,
        env={"LICHESS_ELO_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert code == 0, screen
    assert "…" not in screen, "a cell was cut"
    for line in screen.splitlines():
        assert len(line) <= 80, f"{len(line)} > 80: {line!r}"
    assert "Lichess: OnBoard247" in screen and "Chess.com: FabianoCaruana" in screen
    assert screen.index("Lichess: OnBoard247") < screen.index("Chess.com: FabianoCaruana")
    # every FIDE and site move of every period, whole (the numbers derived above)
    for moved in (
        "2450→2385 (-65)", "2450→2419 (-67)", "2385→2399 (+14)", "2410→2400 (-18)",
        "3047→3016 (-31)",
    ):  # fmt: skip
        assert moved in screen, moved
    chesscom_part = screen[screen.index("Chess.com: FabianoCaruana") :]
    assert "Lichess" not in chesscom_part  # nothing of Chess.com's is called Lichess's


def test_the_page_names_both_sites(
    cli: Cli, onboard_server: FakeLichess, chesscom: FakeChessCom, tmp_path: Path
) -> None:
    page = tmp_path / "both.html"
    _ok(cli, [*_both(onboard_server, chesscom, tmp_path), "--html", str(page)])
    html = page.read_text(encoding="utf-8")
    assert "OnBoard247 (Lichess) and FabianoCaruana (Chess.com)" in html
    assert 'id="site-lichess"' in html and 'id="site-chesscom"' in html
    assert 'id="lichess-perf-blitz"' in html and 'id="chesscom-perf-blitz"' in html
    ids = re.findall(r'id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "an id twice"
    chesscom_part = html[html.index('id="site-chesscom"') :]
    assert "No scorecard for Chess.com" in chesscom_part
    assert '"after":[3047,3030,3033,3052,3062,3040,3027,3016]' in chesscom_part
    lichess_part = html[: html.index('id="site-chesscom"')]
    assert "Scorecard: which rating predicted the games better" in lichess_part


@pytest.mark.parametrize(
    ("more", "said"),
    [
        (["chess.com:Other"], "3 accounts given"),
        (["--replay", "a.yaml", "--replay", "b.yaml", "--replay", "c.yaml"], "--replay given 3"),
        (["--view", "accuracy"], "--view accuracy takes one account"),
        (["--pgn", "games.pgn"], "--pgn takes one account"),
    ],
)
def test_what_two_accounts_refuse(cli: Cli, tmp_path: Path, more: list[str], said: str) -> None:
    (tmp_path / "games.pgn").write_text("", encoding="utf-8")
    args = ["report", "OnBoard247", "chess.com:FabianoCaruana", "--offline"]
    result = cli([*args, "--cache-dir", str(tmp_path), *more], cwd=tmp_path)
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_two_accounts_of_one_site_are_refused(cli: Cli, tmp_path: Path) -> None:
    result = cli(
        ["report", "OnBoard247", "lichess:Other", "--offline", "--cache-dir", str(tmp_path)]
    )
    assert result.exit_code == 2, result.output
    assert "two Lichess accounts: a report takes one account per site" in result.output


def test_the_two_cassettes_offline(cli: Cli, tmp_path: Path) -> None:
    cassettes = [
        "--replay", str(REPO / "cassettes" / "onboard247.yaml"),
        "--replay", str(REPO / "cassettes" / "chesscom-fabianocaruana-2020-05.yaml"),
    ]  # fmt: skip
    args = ["report", "OnBoard247", "chess.com:FabianoCaruana", *cassettes, "--perf", "blitz"]
    doc = json.loads(_ok(cli, [*args, "--cache-dir", str(tmp_path), "-q", "-f", "json"]))
    jan = doc["sites"]["lichess"]["reports"][0]["periods"][0]
    assert jan["elo"]["end"] == 2385  # as derived above
    games = doc["sites"]["chesscom"]["reports"][0]["games"]
    assert [g["chesscom"]["diff"] for g in games] == [None, -17, 3, 19, 10, -22, -13, -11]
