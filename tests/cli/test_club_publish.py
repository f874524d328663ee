"""``club`` as the organiser's guide asks: the K column with its rule,
``--min-games``/``--hide-provisional`` (and ``[publish]``) hiding players not yet settled
from every published format, ``--junior``, one-line errors, 80 columns in a pty.

The ladder's numbers are derived in tests/cli/test_club_cli.py
(test_csv_ladder_json_follows_club_toml): Bartek 1387 (2 games, K 20), Ania 1245 (4,
K 40 children), Celina 1200 (1, K 20), Dawid 977 (3, K 40 children), Filip 909 (2, K 40
children), Ewa 795? (2, K 40 new: a newcomer's first 10 games).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import matplotlib
import pytest

from tests import helpers
from tests.runners import Cli, PtyCli, invoke

DATA = helpers.DATA / "club"
BASE = [str(DATA / "players.csv"), str(DATA / "games.csv"), "--config", str(DATA / "club.toml")]


def _run(*args: str) -> Any:
    return invoke(["club", *BASE, "-q", *args])


def _rows(text: str) -> list[list[str]]:
    """The standings' rows: a rank, two spaces, a name."""
    return [line.split() for line in text.splitlines() if re.match(r"\d+  \S", line)]


def test_k_column_names_the_rule_and_the_legend_explains_it() -> None:
    result = _run()
    assert result.exit_code == 0, result.output
    rows = {row[1]: row[6:] for row in _rows(result.stdout)}
    assert rows == {
        "Bartek": ["20"], "Ania": ["40", "children"], "Celina": ["20"],
        "Dawid": ["40", "children"], "Filip": ["40", "children"], "Ewa": ["40", "new"],
    }  # fmt: skip
    assert (
        "K: the next update's K; new = a newcomer's first 10 games; children: the group's K"
        in result.stdout
    )


def test_min_games_hides_from_the_table_and_says_how_many() -> None:
    # 3 games or more: Ania (4) and Dawid (3); Bartek, Celina, Filip and Ewa are left out.
    result = _run("--min-games", "3")
    assert result.exit_code == 0, result.output
    ranked = [row[:3] for row in _rows(result.stdout)]
    assert ranked == [["1", "Ania", "Nowak"], ["2", "Dawid", "Sowa"]]
    assert "4 players with fewer than 3 games not shown; --min-games 0 shows all" in result.stdout
    for name in ("Bartek", "Celina", "Filip", "Ewa"):
        assert name not in result.stdout
    assert "Club ladder: 2 players" in result.stdout


def test_hide_provisional_and_the_publish_table(cli: Cli, tmp_path: Path) -> None:
    shown = _run("--hide-provisional")
    assert shown.exit_code == 0, shown.output
    assert "Ewa" not in shown.stdout
    assert "1 player with a provisional rating not shown; --show-provisional shows all" in (
        shown.stdout
    )
    # [publish] in club.toml does the same, and the options win over it.
    config = tmp_path / "club.toml"
    rules = (DATA / "club.toml").read_text(encoding="utf-8")
    config.write_text(rules + "\n[publish]\nmin_games = 3\nhide_provisional = true\n", "utf-8")
    args = [str(DATA / "players.csv"), str(DATA / "games.csv"), "--config", str(config), "-q"]
    both = cli(["club", *args])
    assert both.exit_code == 0, both.output
    assert (
        "4 players with fewer than 3 games or a provisional rating not shown; "
        "--min-games 0 --show-provisional shows all"
    ) in both.stdout
    everyone = cli(["club", *args, "--min-games", "0", "--show-provisional"])
    assert len(_rows(everyone.stdout)) == 6
    assert "not shown" not in everyone.stdout


def test_min_games_hides_from_json_csv_html_and_the_chart(tmp_path: Path) -> None:
    doc = json.loads(_run("--min-games", "3", "--format", "json").stdout)
    assert [(p["name"], p["k"], p["k_rule"]) for p in doc["players"]] == [
        ("Ania Nowak", 40, "children"), ("Dawid Sowa", 40, "children"),
    ]  # fmt: skip
    assert doc["hidden"] == {"players": 4, "unrated": 0, "min_games": 3, "provisional": False}
    # the awards follow the players shown: Filip's +9 in April is not published
    assert doc["awards"]["progress"] == [
        {"period": "2026-03", "name": "Ania Nowak", "change": 40},
        {"period": "2026-04", "name": "Ania Nowak", "change": 5},
    ]
    csv = _run("--min-games", "3", "--format", "csv").stdout.splitlines()
    assert [row.split(",")[1] for row in csv[1:]] == ["Ania Nowak", "Dawid Sowa"]
    page, chart = tmp_path / "ladder.html", tmp_path / "ladder.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        made = _run("--min-games", "3", "--html", str(page), "--chart", str(chart))
    assert made.exit_code == 0, made.output
    html, svg = page.read_text(encoding="utf-8"), chart.read_text(encoding="utf-8")
    # the page says it in a sentence, without the command line's option (issue #40)
    assert "Not shown: 4 players with fewer than 3 games." in html
    for text in (html, svg):
        assert "Ania Nowak" in text and "Dawid Sowa" in text
        assert "Bartek" not in text and "Ewa Kruk" not in text
    # one player's own page still shows a player the table leaves out
    me = _run("--min-games", "3", "--player", "Ewa Kruk")
    assert me.exit_code == 0, me.output
    assert "Ewa Kruk: 795 (provisional), 2 games" in me.stdout
    assert "40 new" in me.stdout


def test_junior_option_sets_the_junior_k_apart() -> None:
    # --junior 32:12: born 2014 (Ania, Dawid 2015, Ewa 2016, Filip 2013) are 12 or under
    # in 2026 only when born 2014 or later; but the children's group K 40 comes first, so
    # only Ewa (group beginner, no group K) gets the junior K: 32 < her newcomer's 40.
    doc = json.loads(_run("--junior", "32:12", "--format", "json").stdout)
    ewa = next(p for p in doc["players"] if p["name"] == "Ewa Kruk")
    assert (ewa["k"], ewa["k_rule"]) == (40, "new")
    doc = json.loads(_run("--junior", "45:12", "--format", "json").stdout)
    ewa = next(p for p in doc["players"] if p["name"] == "Ewa Kruk")
    assert (ewa["k"], ewa["k_rule"]) == (45, "junior")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--junior", "0:18"], "--junior '0:18': expected K:AGE, e.g. 40:18 (K at least 1)"),
        (["--junior", "40"], "--junior '40': expected K:AGE, e.g. 40:18 (K at least 1)"),
        (["--min-games", "-1"], "--min-games -1: must be 0 or more"),
        (
            ["--hide-provisional", "--show-provisional"],
            "--hide-provisional and --show-provisional cannot be given together",
        ),
    ],
)
def test_bad_options_are_one_line(args: list[str], message: str) -> None:
    result = _run(*args)
    assert result.exit_code == 2
    assert result.stderr == f"lichess-elo: error: {message}\n"


def test_eighty_columns_in_a_pty(pty_cli: PtyCli) -> None:
    code, text = pty_cli(["club", *BASE, "-q", "--min-games", "3"], width=80, env={})
    assert code == 0, text
    lines = [line.rstrip() for line in text.splitlines()]
    assert all(len(line) <= 80 for line in lines), text
    joined = " ".join(line.strip() for line in lines)
    assert "4 players with fewer than 3 games not shown; --min-games 0 shows all" in joined
    assert "new = a newcomer's first 10 games" in joined or "children: the group's K" in joined
