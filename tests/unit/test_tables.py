"""The width-aware table layer: never a cut cell, never a line wider than asked."""

from __future__ import annotations

import pytest

from lichess_elo.output.tables import Column, Table, render_table, wrap_words

ROWS = [
    ["2023-01", "130", "61.5", "2450→2387 (-63)", "2450→2419 (-31)", "-32", "18 (+8) · -9 before"],
    ["2023-02", "91", "40.0", "2387→2400 (+13)", "2410→2400 (-10)", "0", ""],
]
COLUMNS = [
    Column("Month", "left"),
    Column("Games"),
    Column("Score"),
    Column("FIDE rules", short="FIDE"),
    Column("Lichess"),
    Column("FIDE − Lichess", short="Diff"),
    Column("Gaps in Lichess", "left", short="Gaps", fold=1),
]
TABLE = Table(COLUMNS, ROWS, title="blitz by month")


def _cells_whole(lines: list[str]) -> None:
    text = "\n".join(lines)
    for row in ROWS:
        for cell in row:
            assert cell in text, f"{cell!r} cut or missing"


@pytest.mark.parametrize("width", [40, 60, 80, 100, 200, None])
def test_no_line_wider_than_asked_and_no_cell_cut(width: int | None) -> None:
    lines = render_table(TABLE, width)
    _cells_whole(lines)
    for line in lines:
        assert line == line.rstrip()
        if width is not None:
            assert len(line) <= width, line


def test_wide_terminal_keeps_full_headers_on_one_line() -> None:
    lines = render_table(TABLE, 200)
    assert "FIDE − Lichess" in lines[1] and "Gaps in Lichess" in lines[1]
    assert len(lines) == 2 + 1 + len(ROWS)  # title, header, rule, rows


def test_compact_headers_before_folding() -> None:
    # Full headers: widest cells 7+5+5+15+15+14+19 = 80 plus 6 gaps of 2 = 92 > 90.
    # Compact: "Diff" (4) < "-32" (3)? no: the column is max(4, 3) = 4, so 80 - 14 + 4 = 70,
    # "Gaps" 4 < 19 keeps 19: 70 + 12 = 82 <= 90.
    lines = render_table(TABLE, 90)
    assert lines[1].split() == ["Month", "Games", "Score", "FIDE", "Lichess", "Diff", "Gaps"]


def test_narrow_terminal_folds_the_ranked_column_to_a_second_line() -> None:
    # Without the gaps: 7+5+5+15+15+4 + 5 gaps of 2 = 61 <= 64.
    lines = render_table(TABLE, 64)
    assert "Gaps" not in lines[1]
    assert "(second line of each row: Gaps in Lichess)" in lines
    assert "    Gaps in Lichess 18 (+8) · -9 before" in lines
    # The empty gap cell of the second row adds no second line.
    assert lines[-1].startswith("2023-02")


def test_too_narrow_even_for_kept_columns_folds_from_the_right() -> None:
    # Month, Games, Score = 7+5+5 + 4 = 21 <= 30; adding FIDE (15) would make 38.
    lines = render_table(TABLE, 30)
    assert lines[1].split() == ["Month", "Games", "Score"]
    assert any(line.startswith("    FIDE rules 2450→2387 (-63)") for line in lines)


def test_wrap_words_never_splits_a_word() -> None:
    text = "Under FIDE rules your 130 blitz games would have cost 50 points"
    lines = wrap_words(text, 20, "  ")
    assert all(len(line) <= 20 for line in lines)
    assert " ".join(line.strip() for line in lines) == text


def test_a_folded_value_wider_than_the_line_wraps_between_words() -> None:
    rule = "count.time_controls (rapid, classical) leaves out the time control 3+2 (blitz)"
    table = Table([Column("Date", "left"), Column("Rule", "left", fold=1)], [["2026-04-18", rule]])
    lines = render_table(table, 40)
    assert all(len(line) <= 40 for line in lines)
    folded = [line.strip() for line in lines[4:]]
    assert " ".join(folded) == f"Rule {rule}"
