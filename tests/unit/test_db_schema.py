"""Pure parts of ``lichess_elo.population``: months, perfs, table 8.1.2 for SQL, dialects."""

from __future__ import annotations

import pytest

from lichess_elo.errors import BadInput
from lichess_elo.population import stages
from lichess_elo.population.dialect import DUCKDB, SPARK
from lichess_elo.population.schema import (
    check_perf,
    month_label,
    month_range,
    next_month,
    parse_month,
)


def test_months() -> None:
    assert parse_month("2024-02") == 202402
    assert parse_month(" 1999-12 ") == 199912
    assert month_label(202402) == "2024-02"
    assert next_month(202412) == 202501
    assert month_range(202411, 202502) == [202411, 202412, 202501, 202502]


@pytest.mark.parametrize("text", ["2024-13", "2024-00", "2024-2", "24-02", "2024/02", ""])
def test_bad_months(text: str) -> None:
    with pytest.raises(BadInput, match="is not YYYY-MM"):
        parse_month(text)


def test_perfs() -> None:
    assert check_perf("classical") == "classical"
    with pytest.raises(BadInput, match="use one of bullet, blitz, rapid, classical"):
        check_perf("ultraBullet")


def test_pd_rows_are_table_8_1_2_in_hundredths() -> None:
    rows = {d: (high, low) for d, high, low in stages.pd_rows()}
    # Rows of table 8.1.2: 0-3 .50/.50, 99-106 .64/.36, 392-411 .92/.08, 620-735 .99/.01,
    # > 735 1.00/.00 (row 736 stands for every larger |D|).
    assert rows[0] == rows[3] == (50, 50)
    assert rows[4] == (51, 49)
    assert rows[100] == (64, 36)
    assert rows[400] == (92, 8)
    assert rows[735] == (99, 1)
    assert rows[736] == (100, 0)
    assert sorted(rows) == list(range(737))


def test_dialects_differ_only_in_integer_division() -> None:
    assert DUCKDB.idiv("700", "n") == "((700) // (n))"
    assert SPARK.idiv("700", "n") == "((700) div (n))"


def test_capped_d_follows_the_chapters() -> None:
    sql = stages.capped_d("own", "own - opp", "perf")
    # Only the standard chapter (classical) exempts 2650+ players from the cap.
    assert "perf IN ('classical') AND own >= 2650 THEN own - opp" in sql
    assert "WHEN own - opp > 400 THEN 400" in sql


def test_the_600_rule_is_the_rapid_and_blitz_chapters() -> None:
    # RB24 as amended from 1 December 2024: 600 or more apart, one player above 2600.
    assert stages.not_rated_sql("w", "b", "perf") == (
        "(perf IN ('bullet', 'blitz', 'rapid') AND ABS(w - b) >= 600 AND GREATEST(w, b) > 2600)"
    )


@pytest.mark.parametrize("perf", ["bullet", "blitz", "rapid", "classical"])
@pytest.mark.parametrize(
    ("own", "opponent"),
    [(2601, 2001), (2601, 2002), (2600, 2000), (2602, 2001), (2000, 2601), (1900, 1200)],
)
def test_the_600_rule_in_sql_agrees_with_the_edition(perf: str, own: int, opponent: int) -> None:
    # Edges of RB24 as amended 1 Dec 2024: exactly 600 apart counts ("600 points or more"),
    # 599 does not; 2600 itself is not "above 2600". Classical (the standard chapter) never.
    import duckdb

    from lichess_elo.core.fide import EDITIONS_BY_KEY, not_rated

    sql = stages.not_rated_sql("w", "b", "p")
    query = f"SELECT {sql} FROM (SELECT {own} AS w, {opponent} AS b, '{perf}' AS p)"
    found = duckdb.connect().execute(query).fetchone()
    assert found is not None
    edition = EDITIONS_BY_KEY["rapid-blitz-2024-12"]
    expected = perf != "classical" and not_rated(own, opponent, edition=edition)
    assert found[0] is expected
    by_hand = {(2601, 2001): True, (2601, 2002): False, (2600, 2000): False,
               (2602, 2001): True, (2000, 2601): True, (1900, 1200): False}  # fmt: skip
    assert expected is (perf != "classical" and by_hand[own, opponent])
