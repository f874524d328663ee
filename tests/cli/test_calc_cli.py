"""The ``lichess-elo calc`` command, through typer's CliRunner and one real subprocess.

Expected numbers come from FIDE table 8.1.2 / 8.1.1 (notes/fide-rules.md), derivations
beside them.
"""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from tests.runners import Cli, run_cli

SEED_A = ["calc", "1500", "1400:1", "1600:0.5", "1550:0", "--k", "20"]
F_N01 = ["1902:0.5", "1877:0.5", "1884:1", "2012:0", "1832:1"]


def _numbers(text: str) -> list[str]:
    return re.findall(r"[+-]\d+\.\d+", text)


def test_seed_example_table(cli: Cli) -> None:
    # 20 x (1-.64) = +7.2, 20 x (.5-.36) = +2.8, 20 x (0-.43) = -8.6; total +1.4 -> 1501
    result = cli(SEED_A)
    assert result.exit_code == 0, result.output
    assert _numbers(result.stdout) == ["+7.2", "+2.8", "-8.6", "+1.4", "+1.4"]
    assert "new rating: 1501" in result.stdout
    assert "K 20: given with --k" in result.stdout
    # Rp = (1400+1600+1550)/3 = 1516.67 + dp(.50) 0 -> 1517
    assert "performance rating: 1517" in result.stdout


def test_seed_example_json(cli: Cli) -> None:
    result = cli([*SEED_A, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rating"] == 1500 and data["k"] == 20 and data["method"] == "table"
    assert [g["opponent"] for g in data["games"]] == [1400, 1600, 1550]
    assert [g["score"] for g in data["games"]] == [1.0, 0.5, 0.0]
    assert [g["difference"] for g in data["games"]] == [100, -100, -50]  # D = own - opponent
    assert [g["expected"] for g in data["games"]] == [0.64, 0.36, 0.43]  # table 8.1.2
    assert [g["change"] for g in data["games"]] == [7.2, 2.8, -8.6]
    assert [g["capped"] for g in data["games"]] == [False, False, False]
    assert data["change"] == 1.4  # unrounded: 20 x 0.07
    assert (data["rounded_change"], data["new_rating"], data["performance"]) == (1, 1501, 1517)
    assert isinstance(data["change"], float) and isinstance(data["new_rating"], int)


def test_capped_game_is_marked(cli: Cli) -> None:
    # 1500 vs 1000: D 500 counted as 400 (8.3.1) -> .92 -> 20 x .08 = +1.6
    result = cli(["calc", "1500", "1000:1", "--k", "20"])
    assert result.exit_code == 0
    assert "+400*" in result.stdout and "+1.6" in result.stdout
    data = json.loads(cli(["calc", "1500", "1000:w", "--k", "20", "--format", "json"]).stdout)
    assert data["games"][0]["capped"] is True and data["games"][0]["difference"] == 400


def test_no_cap_and_formula(cli: Cli) -> None:
    # --no-cap: D 500 -> row 485-517 .96 -> 20 x .04 = +0.8
    out = cli(["calc", "1500", "1000:1", "--k", "20", "--no-cap"]).stdout
    assert "+500 " in out and "+0.8" in out and "*" not in out
    # --formula, capped: 1/(1+10^-1) = .9091 -> 20 x .0909 = +1.82
    data = json.loads(
        cli(["calc", "1500", "1000:1", "--k", "20", "--formula", "--format", "json"]).stdout
    )
    assert data["method"] == "formula"
    assert data["games"][0]["change"] == pytest.approx(20 / 11)  # 20 x (1 - 10/11)


def test_table_changes_have_one_decimal_json_stays_unrounded(cli: Cli) -> None:
    # 2092 vs 2000: D +92 -> .63 -> 15 x .37 = 5.55: the table shows +5.6 (half away from
    # zero), the rounding line the exact total +5.55 -> +6 -> 2098; JSON keeps 5.55
    out = cli(["calc", "2092", "2000:1", "--k", "15"]).stdout
    assert _numbers(out) == ["+5.6", "+5.6", "+5.55"]
    assert "(period total +5.55 rounded once" in out and "new rating: 2098" in out
    data = json.loads(cli(["calc", "2092", "2000:1", "--k", "15", "--format", "json"]).stdout)
    assert data["games"][0]["change"] == 5.55 and data["change"] == 5.55
    # 1700 vs 2002: D -302 -> L .15 -> 15 x (0 - .15) = -2.25 -> -2.3 in the table; -2 -> 1698
    out = cli(["calc", "1700", "2002:0", "--k", "15"]).stdout
    assert _numbers(out) == ["-2.3", "-2.3", "-2.25"] and "new rating: 1698" in out
    # --formula: 1/(1+10^-1) = .9091 -> 20 x .0909 = 1.818 -> +1.8 (JSON: 20/11)
    out = cli(["calc", "1500", "1000:1", "--k", "20", "--formula"]).stdout
    assert _numbers(out) == ["+1.8", "+1.8", "+1.82"]


def test_2650_player_is_not_capped(cli: Cli) -> None:
    # 2813 beats 1787: D 1026 used (own >= 2650) -> 1.00 -> 0.0
    out = cli(["calc", "2813", "1787:1", "--k", "10"]).stdout
    assert "+1026 " in out and "new rating: 2813" in out


def test_k_from_games_and_born(cli: Cli) -> None:
    # default: 30 games assumed -> K 20, and the output says so
    out = cli(["calc", "1500", "1400:1"]).stdout
    assert "K 20" in out and "30 rated games assumed" in out
    # --games 5 -> K 40: 40 x .36 = +14.4 -> 1514
    out = cli(["calc", "1500", "1400:1", "--games", "5"]).stdout
    assert "K 40: new player" in out and "new rating: 1514" in out
    # junior: born this year - 15, rating below 2300 -> K 40 even with 100 games
    born = str(date.today().year - 15)
    out = cli(["calc", "2000", "1900:1", "--games", "100", "--born", born]).stdout
    assert "K 40: junior" in out
    # 2400+ -> K 10: 2400 vs 2300 D 100 .64 -> 10 x .36 = +3.6 -> 2404
    out = cli(["calc", "2400", "2300:1", "--games", "3"]).stdout
    assert "K 10" in out and "new rating: 2404" in out


def test_700_rule_is_reported(cli: Cli) -> None:
    # 36 games x K 20 = 720 > 700 -> K 19; 36 draws vs equal -> 0
    games = ["1500:d"] * 36
    result = cli(["calc", "1500", *games, "--k", "20"])
    assert result.exit_code == 0
    assert "700 rule: 36 games x K 20 = 720 > 700, so K 19" in result.stdout
    data = json.loads(cli(["calc", "1500", *games, "--k", "20", "--format", "json"]).stdout)
    assert (data["k"], data["k_requested"], data["k_limited"]) == (19, 20, True)


def test_unrated_initial_rating(cli: Cli) -> None:
    # F-N01: Ra = 13107/7 = 1872.43, p = 4/7 -> .57 -> dp 50, Ru 1922.43 -> 1922
    result = cli(["calc", "--unrated", *F_N01])
    assert result.exit_code == 0, result.output
    assert "initial rating: 1922" in result.stdout
    data = json.loads(cli(["calc", "--unrated", *F_N01, "--format", "json"]).stdout)
    assert data["new_rating"] == 1922 and data["rating"] is None
    assert (data["p"], data["dp"], data["publishable"]) == (0.57, 50, True)


def test_unrated_below_floor_is_flagged(cli: Cli) -> None:
    # 5 games vs 1400, 0.5 points: Ra 1514.29, p .21 -> dp -230 -> 1284 < 1400
    args = ["calc", "--unrated", "1400:0.5", "1400:0", "1400:0", "1400:0", "1400:0"]
    out = cli(args).stdout
    assert "initial rating: 1284" in out and "would not publish" in out


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["1500", "1400:x"], "1400:x"),  # bad score
        (["1500", "1400:0.7"], "1400:0.7"),  # score other than 1/0.5/0
        (["1500", "1400"], "'1400'"),  # malformed OPP:SCORE
        (["1500", "abc:1"], "abc:1"),
        (["5000", "1400:1"], "RATING 5000"),  # rating outside 0..4000
        (["-5", "1400:1"], "RATING -5"),
        (["1500", "4001:1"], "4001:1"),
        ([], "RATING"),  # missing argument
        (["1500"], "OPP:SCORE"),
        (["1400:1", "1500:1"], "RATING"),
        (["1500", "1400:1", "--k", "x"], "--k"),
        (["1500", "1400:1", "--k", "0"], "--k"),
        (["1500", "1400:1", "--games", "-3"], "--games"),
        (["1500", "1400:1", "--born", "3000"], "--born"),
        (["1500", "1400:1", "--format", "csv"], "--format"),
        (["1500", "1400:1", "--kay", "3"], "--kay"),
        (["--unrated", "1400:1"], "5 games"),
        (["--unrated", "1400:1"] * 5 + ["--k", "20"], "--k"),
        (["1500", "1400:1", "--k", "20", "--games", "3"], "--games"),
    ],
)
def test_bad_input(cli: Cli, args: list[str], named: str) -> None:
    result = cli(["calc", *args])
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert "\n" not in message and message.startswith("lichess-elo: error:")
    assert named in message
    assert "Traceback" not in result.output


def test_help_explains_every_option(cli: Cli) -> None:
    result = cli(["calc", "--help"], terminal_width=200)
    assert result.exit_code == 0
    for option in ("--k", "--games", "--born", "--formula", "--no-cap", "--unrated", "--format"):
        assert option in result.stdout
    assert "lichess-elo calc 1500 1400:1 1600:0.5 1550:0 --k 20" in result.stdout


def test_real_process() -> None:
    ok = run_cli(*SEED_A, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert _numbers(ok.stdout)[:4] == ["+7.2", "+2.8", "-8.6", "+1.4"]
    assert "new rating: 1501" in ok.stdout
    bad = run_cli("calc", "1500", "1400:2", timeout=60)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert bad.stderr.strip().count("\n") == 0 and "1400:2" in bad.stderr
