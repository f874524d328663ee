"""A new organiser's files as a Polish club has them (issue #40): the spreadsheet's own
headers, a typo in the games file, a child's first name, awards that mean progress, Points
written one way, and the pages in Polish with the club's name.

The club (written here, in Polish): six players, three events, update by event, K 20,
children's group (dzieci) K 40, formula 1/(1+10^(-D/400)); Marta has no rating, so she
is a newcomer who starts at her group's 1200 (dorośli).

Turniej Noworoczny, 2026-01-10, ratings frozen: children 1000, adults 1200:
  Hania-Piotr 1-0 (E .5, K 40): Hania +20, Piotr -20; Zosia-Hania ½-½: 0;
  Marta-Kuba 1-0 (E .5, K 20): +10/-10; Łukasz-Marta 0-1: +10/-10.
  -> Hania 1020 (1½ of 2, expected 1.00), Piotr 980, Zosia 1000, Marta 1220, Kuba 1190,
     Łukasz 1190.
Turniej Walentynkowy, 2026-02-14:
  Kuba-Łukasz 1-0 (1190 v 1190, E .5): Kuba +10 -> 1200, Łukasz -10;
  Marta-Łukasz ½-½ (1220 v 1190): E = 1/(1+10^(-30/400)) = 1/(1+0.841395) = 0.543066,
    Marta 20 x (0.5 - 0.543066) = -0.86133 -> 1219.14 (1219); Łukasz -10 + 0.86133
    -> 1180.86 (1181);
  Zosia-Piotr 1-0 (1000 v 980): E = 1/(1+10^(-20/400)) = 1/(1+0.891251) = 0.528751,
    Zosia 40 x (1 - 0.528751) = +18.84998 -> 1018.85 (1019); Piotr 961.15 (961).
Turniej Wiosenny, 2026-03-14:
  Hania-Zosia ½-½ (1020 v 1018.85): E = 1/(1+10^(-1.15/400)) = 0.501655, Hania
    40 x (0.5 - 0.501655) = -0.0662 -> 1019.93 (1020); Zosia 1018.92 (1019).

Awards: progress by month, a newcomer's first 5 games left out (no provisional rule here,
so the default 5): January Hania +20 (Marta's +20 is her first 2 games: calibration);
February Zosia +19 (18.85 shown as 19; Kuba +10); March the best is 0 (Hania -0.07,
Zosia +0.07): no award. Most games: Hania 3, Marta 3, Zosia 3, Łukasz 3 (Piotr and Kuba
2): four tied for the top, counted in words.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.club_pl import GAMES, PLAYERS, RULES, write_club
from tests.runners import invoke


def _club(
    folder: Path, games: str = GAMES, rules: str = RULES, players: str = PLAYERS
) -> list[str]:
    return [*write_club(folder, games, rules, players), "-q"]


def _json(folder: Path, *extra: str, **files: str) -> Any:
    result = invoke(["club", *_club(folder, **files), "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_polish_headers_are_read_as_they_stand(tmp_path: Path) -> None:
    doc = _json(tmp_path)
    ratings = [(p["name"], p["rating"], p["games"]) for p in doc["players"]]
    assert ratings == [
        ("Marta Zielińska", 1219, 3), ("Kuba Nowak", 1200, 2), ("Łukasz Dąbrowski", 1181, 3),
        ("Hania Kowalska", 1020, 3), ("Zosia Wiśniewska", 1019, 3), ("Piotr Mazur", 961, 2),
    ]  # fmt: skip
    assert [(e["name"], e["games"]) for e in doc["events"]] == [
        ("Turniej Noworoczny", 4), ("Turniej Walentynkowy", 3), ("Turniej Wiosenny", 1),
    ]  # fmt: skip


def test_progress_leaves_out_a_newcomers_calibration(tmp_path: Path) -> None:
    doc = _json(tmp_path)
    assert doc["awards"]["progress"] == [
        {"period": "2026-01", "name": "Hania Kowalska", "change": 20},
        {"period": "2026-02", "name": "Zosia Wiśniewska", "change": 19},
    ]
    # with no calibration games, Marta's first +20 ties Hania's in January
    doc = _json(tmp_path, rules=RULES + "\n[awards]\nprogress_after = 0\n")
    assert doc["awards"]["progress"][:2] == [
        {"period": "2026-01", "name": "Hania Kowalska", "change": 20},
        {"period": "2026-01", "name": "Marta Zielińska", "change": 20},
    ]


def test_a_tie_of_four_is_counted_in_words(tmp_path: Path) -> None:
    result = invoke(["club", *_club(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "  Most games: 4 players with 3 games\n" in result.stdout
    assert "2026-01 Hania Kowalska +20; 2026-02 Zosia Wiśniewska +19" in result.stdout


def test_points_are_written_one_way(tmp_path: Path) -> None:
    result = invoke(["club", *_club(tmp_path), "--player", "Hania Kowalska"])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith("2026-")]
    # date, event (2 words), games, points, expected, K and its rule, rating
    assert [(r[0], r[4], r[5], r[8]) for r in rows] == [
        ("2026-01-10", "1½", "1.00", "1020"), ("2026-03-14", "½", "0.50", "1020"),
    ]  # fmt: skip
    zosia = invoke(["club", *_club(tmp_path), "--player", "Zosia Wiśniewska"]).stdout
    assert [line.split()[4] for line in zosia.splitlines() if line.startswith("2026-")] == [
        "½", "1", "½",
    ]  # fmt: skip


def test_a_typo_in_the_games_file_is_a_did_you_mean_before_any_newcomer(tmp_path: Path) -> None:
    games = GAMES.replace("Zosia Wiśniewska;Piotr Mazur", "Zosia Wiśniewska;Piotr Mazurr")
    result = invoke(["club", *_club(tmp_path, games=games)])
    assert result.exit_code == 2
    assert "partie.csv:8: field black: player 'Piotr Mazurr' is not in the players file; " \
        "did you mean 'Piotr Mazur'?" in result.stderr  # fmt: skip
    assert "newcomers" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    # without accents: the same did-you-mean
    games = GAMES.replace("Zosia Wiśniewska;Piotr", "Zosia Wisniewska;Piotr")
    result = invoke(["club", *_club(tmp_path, games=games)])
    assert result.exit_code == 2 and "did you mean 'Zosia Wiśniewska'?" in result.stderr
    # nobody near: the newcomers hint as before
    games = GAMES.replace("Zosia Wiśniewska;Piotr", "Gość Turniejowy;Piotr")
    result = invoke(["club", *_club(tmp_path, games=games)])
    assert result.exit_code == 2 and "set newcomers = true in club.toml" in result.stderr


def test_a_unique_first_name_finds_the_child(tmp_path: Path) -> None:
    result = invoke(["club", *_club(tmp_path), "--player", "hania"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Hania Kowalska: 1020, 3 games\n")
    two = PLAYERS + "Hania Nowak;dzieci;2016;1000\n"
    result = invoke(["club", *_club(tmp_path, players=two), "--player", "Hania"])
    assert result.exit_code == 2
    assert "is the first name of several players: Hania Kowalska, Hania Nowak" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_unknown_language_names_the_ones_shipped(tmp_path: Path) -> None:
    page = tmp_path / "ladder.html"
    rules = RULES.replace('language = "pl"', 'language = "de"')
    result = invoke(["club", *_club(tmp_path, rules=rules), "--html", str(page)])
    assert result.exit_code == 2
    assert "club.toml:3: key page.language: 'de' is not a language of the pages " \
        "(shipped: en, pl)" in result.stderr  # fmt: skip
    assert len(result.stderr.strip().splitlines()) == 1
    assert not page.exists()


def test_a_header_map_names_other_headers(tmp_path: Path) -> None:
    players = PLAYERS.replace("nazwisko;grupa", "Uczeń;grupa")
    games = GAMES.replace("białe;czarne", "Gracz 1;Gracz 2")
    rules = RULES + '\n[columns]\nname = "Uczeń"\nwhite = "gracz 1"\nblack = ["Gracz 2"]\n'
    doc = _json(tmp_path, players=players, games=games, rules=rules)
    assert doc["players"][0]["name"] == "Marta Zielińska" and len(doc["players"]) == 6
    # without the map the games file is refused, saying how to name the headers
    result = invoke(["club", *_club(tmp_path, players=players, games=games)])
    assert result.exit_code == 2 and "[columns] in club.toml" in result.stderr


@pytest.mark.parametrize("player", [None, "Hania"])
def test_the_pages_are_in_polish_with_the_clubs_name(tmp_path: Path, player: str | None) -> None:
    page = tmp_path / "page.html"
    extra = ["--player", player] if player else []
    result = invoke(["club", *_club(tmp_path), "--html", str(page), *extra])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert '<html lang="pl">' in html and "UKS Skoczek" in html and "<svg" in html
    if player:
        assert "<title>UKS Skoczek: Hania Kowalska: ranking klubowy</title>" in html
        assert "Hania Kowalska: 1020, 3 partie" in html
        assert "Zmiana w ostatnich 3 miesiącach: +20" in html
        # 50 / 20 a win = 2.5: 3 wins; the target line on the chart
        assert "około 3 (K 40: +20,0 za wygraną)" in html and "cel 1070" in html
        for other in ("Piotr", "Zosia", "Kuba", "Marta", "Łukasz"):
            assert other not in html
    else:
        assert "<title>UKS Skoczek: Ranking klubowy</title>" in html
        assert "6 zawodników, 3 turnieje; ostatnia aktualizacja: Turniej Wiosenny." in html
        assert "4 zawodników po 3 partie" in html
        assert "<li>" not in html.split("</header>")[0]  # the legend is sentences
