"""Names as people type them: case, accents and spacing folded, and the
closest names for a "did you mean"."""

from __future__ import annotations

import pytest

from lichess_elo.core.words import closest, did_you_mean, fold, match_folded


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Hania Zielińska", "hania zielinska"),  # ń = n + U+0301 under NFKD
        ("ŁUKASZ  Wróbel", "lukasz wrobel"),  # Ł has no NFKD form: folded by hand
        ("Søren Østergård", "soren ostergard"),
        ("Đorđe", "dorde"),
        ("Straße", "strasse"),  # casefold gives ss
        ("blitz", "blitz"),
    ],
)
def test_fold(text: str, folded: str) -> None:
    assert fold(text) == folded


def test_match_exact_then_folded() -> None:
    names = ["Hania Zielińska", "Hania Zielinska", "Jan Kowalski"]
    # An exact spelling wins; a folded one that two names share is ambiguous.
    assert match_folded("Hania Zielinska", names) == ["Hania Zielinska"]
    assert match_folded("hania zielinska", names) == ["Hania Zielińska", "Hania Zielinska"]
    assert match_folded("JAN KOWALSKI", names) == ["Jan Kowalski"]
    assert match_folded("Jan Nowak", names) == []


def test_closest_names() -> None:
    perfs = ["bullet", "blitz", "rapid", "classical"]
    # difflib ratio of "blits" and "blitz": 2 x 4 matching / 10 = 0.8, over the 0.6 cut.
    assert closest("blits", perfs) == ["blitz"]
    assert closest("xyz", perfs) == []
    assert did_you_mean("Blits", perfs) == "did you mean 'blitz'?"
    # "ana nowak" against "ania nowak" and "anna nowak": 9 of 9 + 10 letters match, ratio
    # 18 / 19 = 0.947 for both; difflib breaks the tie by the name, the later one first.
    assert did_you_mean("Ana Nowak", ["Ania Nowak", "Anna Nowak", "Bartek Lis"]) == (
        "did you mean 'Anna Nowak' or 'Ania Nowak'?"
    )
    assert did_you_mean("qqq", perfs) == ""
