"""``lichess-elo calc --peak / --rules / --rules-as-of`` through typer's CliRunner.

Each number is derived beside it from table 8.1.2 and the K of the edition named.
"""

from __future__ import annotations

import json

import pytest

from tests.runners import Cli, invoke


def _calc(*args: str) -> dict[str, object]:
    result = invoke(["calc", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads(result.stdout)
    return doc


def test_junior_with_a_peak_of_2350() -> None:
    # calc 2250 2250:1 --born 2010 --games 40: a junior below 2300 -> K 40: +20 -> 2270;
    # --peak 2350: once rated 2300, no K 40 -> K 20: +10 -> 2260.
    base = ("2250", "2250:1", "--born", "2010", "--games", "40", "--rules-as-of", "2026-06-01")
    assert _calc(*base)["new_rating"] == 2270
    doc = _calc(*base, "--peak", "2350")
    assert (doc["k"], doc["k_rule"], doc["new_rating"]) == (20, "standard", 2260)


def test_2013_and_2023_rules() -> None:
    # 2013: K 15 for an established player: 2000 beats 2100, 15 x .64 = 9.6 -> +10
    doc = _calc("2000", "2100:1", "--games", "30", "--rules-as-of", "2013-05-01")
    assert (doc["k"], doc["new_rating"]) == (15, 2010)
    rules = doc["rules"]
    assert isinstance(rules, dict) and rules["regulations_key"] == "standard-2012-07"
    # 2023, once per event: 2000 beats 1063 and 1299 (K 20): only the greatest difference
    # is capped: .08 (D 400) + .01 (D 701, .99) = .09 x 20 = +1.8 -> +2
    doc = _calc("2000", "1063:1", "1299:1", "--games", "30", "--rules-as-of", "2023-01-01")
    games = doc["games"]
    assert isinstance(games, list) and [g["capped"] for g in games] == [True, False]
    assert doc["new_rating"] == 2002


def test_600_2600_in_the_table(cli: Cli) -> None:
    # rapid-blitz today: 2650 v 2050 is not rated; the draw v 2600 (.57) -> 10 x -.07 -> -1
    result = cli(["calc", "2650", "2050:1", "2600:0.5", "--rules", "rapid-blitz", "--games", "100"])
    assert result.exit_code == 0, result.output
    assert "not rated" in result.stdout and "new rating: 2649" in result.stdout
    assert "rules: FIDE Rapid & Blitz Regulations, 1 Mar 2024 as amended 1 Dec 2024" in (
        result.stdout
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--rules", "blitz"],
            "--rules: unknown rules 'blitz' (did you mean 'rapid-blitz'?); "
            "valid: auto, standard, rapid",
        ),
        (["--rules-as-of", "2023-13-01"], "--rules-as-of '2023-13-01' is not a rules date"),
        (["--rules-as-of", "yesterday"], "expected game, today or a day such as 2023-06-01"),
        (["--peak", "1400"], "--peak 1400 is below the rating 1500"),
        (["--peak", "x"], "--peak 'x': expected a whole number"),
        (["--peak", "1600", "--k", "20"], "--peak does not apply with --k"),
    ],
)
def test_bad_rules_options_are_one_line_exit_2(cli: Cli, args: list[str], message: str) -> None:
    result = cli(["calc", "1500", "1400:1", *args])
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_unrated_follows_the_rules_date(cli: Cli) -> None:
    # FIDE's published first rating 1922 under the 2024 rule (two draws against 1800:
    # Ra 13107 / 7 = 1872.43, p 4/7 -> .57 -> dp 50 -> 1922); the same games under the
    # 2022 rule (H22 8.2.3): Ra 9507 / 5 = 1901.4, 3 of 5 = 1 half point over 50 % -> +20
    # -> 1921.4 -> 1921.
    games = ("1902:0.5", "1877:0.5", "1884:1", "2012:0", "1832:1")
    now = _calc("--unrated", *games)
    assert (now["new_rating"], now["initial_method"]) == (1922, "draws")
    then = _calc("--unrated", *games, "--rules-as-of", "2023-06-01")
    assert (then["new_rating"], then["initial_method"], then["per_half_point"]) == (
        1921,
        "half-points",
        20.0,
    )
    rules = then["rules"]
    assert isinstance(rules, dict) and rules["regulations_key"] == "standard-2022-01"
    text = cli(["calc", "--unrated", *games, "--rules-as-of", "2023-06-01"])
    assert "1 half point over 50 % x 20 = +20.0; Ru = 1921.40 -> 1921" in text.stdout


def test_a_rules_date_before_the_editions_is_one_line_naming_the_range(cli: Cli) -> None:
    result = cli(["calc", "1500", "1400:1", "--rules-as-of", "2005-01-01"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "lichess-elo: error: --rules-as-of 2005-01-01 is before the first FIDE edition this "
        "tool has (standard from 2009-07-01, to today)"
    ]
