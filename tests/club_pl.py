"""A small Polish club's files, as a new organiser writes them (issue #40), shared by the
CLI tests (tests/cli/test_club_polish.py, where every number is derived by hand) and the
page tests (tests/browser/test_club_page.py)."""

from __future__ import annotations

from pathlib import Path

PLAYERS = """\
nazwisko;grupa;rocznik;ranking
Hania Kowalska;dzieci;2015;1000
Piotr Mazur;dzieci;2014;1000
Zosia Wiśniewska;dzieci;2016;1000
Kuba Nowak;dorośli;1988;1200
Marta Zielińska;dorośli;1985;
Łukasz Dąbrowski;dorośli;1980;1200
"""

GAMES = """\
data;białe;czarne;wynik;turniej;tempo
2026-01-10;Hania Kowalska;Piotr Mazur;1-0;Turniej Noworoczny;15+10
2026-01-10;Zosia Wiśniewska;Hania Kowalska;½-½;Turniej Noworoczny;15+10
2026-01-10;Marta Zielińska;Kuba Nowak;1-0;Turniej Noworoczny;15+10
2026-01-10;Łukasz Dąbrowski;Marta Zielińska;0-1;Turniej Noworoczny;15+10
2026-02-14;Kuba Nowak;Łukasz Dąbrowski;1-0;Turniej Walentynkowy;15+10
2026-02-14;Marta Zielińska;Łukasz Dąbrowski;½-½;Turniej Walentynkowy;15+10
2026-02-14;Zosia Wiśniewska;Piotr Mazur;1-0;Turniej Walentynkowy;15+10
2026-03-14;Hania Kowalska;Zosia Wiśniewska;½-½;Turniej Wiosenny;15+10
"""

RULES = """\
[page]
name = "UKS Skoczek"
language = "pl"

[start]
groups = { "dorośli" = 1200 }

[k]
default = 20
groups = { dzieci = 40 }

[target]
step = 50
term_end = 2026-06-26
"""


def write_club(
    folder: Path, games: str = GAMES, rules: str = RULES, players: str = PLAYERS
) -> list[str]:
    """Write the three files into ``folder``; the ``club`` arguments that read them."""
    for name, text in (("zawodnicy.csv", players), ("partie.csv", games), ("club.toml", rules)):
        (folder / name).write_text(text, encoding="utf-8")
    return [str(folder / "zawodnicy.csv"), str(folder / "partie.csv"),
            "--config", str(folder / "club.toml")]  # fmt: skip
