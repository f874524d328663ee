"""``population/rulebook_sql``: the SQL of each rule, generated from the editions, evaluated
in DuckDB and checked against hand values from the regulations and against the engine."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import duckdb
import pytest

from lichess_elo.core import fide
from lichess_elo.core.fide import EDITIONS_BY_KEY, editions
from lichess_elo.core.population import rulebook_sql as rs
from lichess_elo.core.population.dialect import DUCKDB


def _eval(sql: str, **columns: object) -> object:
    values = ", ".join(
        f"'{v}' AS {k}" if isinstance(v, str) else f"{v} AS {k}" for k, v in columns.items()
    )
    row = duckdb.connect().execute(f"SELECT {sql} FROM (SELECT {values})").fetchone()
    assert row is not None
    return row[0]


def test_each_month_takes_the_editions_in_force_on_its_first_day() -> None:
    assert rs.month_rules(202109, as_of=None, adjustments=True).rapid_blitz.key == (
        "rapid-blitz-2012-07"
    )
    jan22 = rs.month_rules(202201, as_of=None, adjustments=True)
    assert (jan22.standard.key, jan22.rapid_blitz.key) == (
        "standard-2022-01",
        "rapid-blitz-2022-01",
    )
    assert rs.month_rules(202210, as_of=None, adjustments=True).rapid_blitz.key == (
        "rapid-blitz-2022-10"
    )
    march = rs.month_rules(202403, as_of=None, adjustments=True)
    assert [a.key for a in march.compressions] == ["compression-2024-03"]
    assert rs.month_rules(202403, as_of=None, adjustments=False).compressions == ()
    # A forced day: its editions every month, and never the compression.
    forced = rs.month_rules(202403, as_of=date(2025, 10, 1), adjustments=True)
    assert (forced.standard.key, forced.rapid_blitz.key, forced.compressions) == (
        "standard-2025-10",
        "rapid-blitz-2024-12",
        (),
    )


@pytest.mark.parametrize(
    ("month", "perf", "own", "opp", "d"),
    [
        # H24A (from 1 Oct 2025): a classical player rated 2650+ uses the real D.
        (202510, "classical", 2700, 2000, 700),
        (202510, "classical", 2649, 2000, 400),
        # Rapid & Blitz has no exemption.
        (202510, "blitz", 2700, 2000, 400),
        # Before October 2025 the standard chapter capped everyone.
        (202509, "classical", 2700, 2000, 400),
        (202509, "classical", 1500, 2000, -400),
        (202509, "classical", 1500, 1900, -400),
        (202509, "classical", 1500, 1899, -399),
    ],
)
def test_the_400_point_rule_by_edition(month: int, perf: str, own: int, opp: int, d: int) -> None:
    rules = rs.month_rules(month, as_of=None, adjustments=True)
    assert _eval(rs.capped_d_sql(rules, "perf", "own", "own - opp", "1"), perf=perf, own=own,
                 opp=opp) == d  # fmt: skip


def test_once_per_event_caps_only_the_first_ranked_upgrade() -> None:
    # H22 8.3.1: one upgrade per tournament, for the game with the greatest difference;
    # rank 2 (another game of the event) keeps the real D; a downgrade is capped always.
    rules = rs.month_rules(202301, as_of=None, adjustments=True)
    sql = rs.capped_d_sql(rules, "perf", "own", "own - opp", "r")
    assert _eval(sql, perf="blitz", own=2000, opp=1500, r=1) == 400
    assert _eval(sql, perf="blitz", own=2000, opp=1550, r=2) == 450
    assert _eval(sql, perf="blitz", own=1500, opp=2000, r=2) == -400


@pytest.mark.parametrize("perf", ["bullet", "blitz", "rapid", "classical"])
@pytest.mark.parametrize(
    ("own", "opponent"),
    [(2601, 2001), (2601, 2002), (2600, 2000), (2602, 2001), (2000, 2601), (1900, 1200)],
)
def test_the_600_rule_in_sql_agrees_with_the_edition(perf: str, own: int, opponent: int) -> None:
    # Edges of RB24 as amended 1 Dec 2024: exactly 600 apart counts ("600 points or more"),
    # 599 does not; 2600 itself is not "above 2600". Classical (the standard chapter) never;
    # November 2024 (before the amendment) never.
    by_hand = {(2601, 2001): True, (2601, 2002): False, (2600, 2000): False,
               (2602, 2001): True, (2000, 2601): True, (1900, 1200): False}  # fmt: skip
    edition = EDITIONS_BY_KEY["rapid-blitz-2024-12"]
    for month, rule in ((202412, True), (202411, False)):
        rules = rs.month_rules(month, as_of=None, adjustments=True)
        found = _eval(rs.not_rated_sql(rules, "p", "w", "b"), p=perf, w=own, b=opponent)
        assert found is (rule and perf != "classical" and by_hand[own, opponent])
    assert fide.not_rated(own, opponent, edition=edition) is by_hand[own, opponent]


@pytest.mark.parametrize("key", sorted(EDITIONS_BY_KEY))
def test_k_in_sql_is_the_engine_s_k_for_every_edition(key: str) -> None:
    edition = EDITIONS_BY_KEY[key]
    rules = rs.MonthRules(200001, edition, edition)
    sql = rs.k_sql(rules, "perf", "peak", "gb")
    con = duckdb.connect()
    for peak in (1500, 2399, 2400, 2600):
        for gb in (0, 29, 30, 31):
            row = con.execute(f"SELECT {sql} FROM (SELECT 'blitz' AS perf, {peak} AS peak, "
                              f"{gb} AS gb)").fetchone()  # fmt: skip
            assert row is not None
            k, _ = fide.k_factor(min(peak, 2000), games_before=gb, peak=peak, edition=edition)
            assert row[0] == k, (key, peak, gb)


def test_k_by_era_from_the_regulations() -> None:
    # (month, perf, peak, games before) -> K, from the editions' texts (docs/rules.md).
    cases = {
        (201001, "classical", 1800, 10): 25,  # 2009: K 25 for a new player
        (201001, "classical", 2450, 10): 25,  # 2009: K 10 also needs 30 games
        (201001, "classical", 2450, 30): 10,
        (201201, "classical", 1800, 10): 30,  # from July 2011: K 30 new
        (201201, "classical", 1800, 40): 15,
        (202201, "blitz", 2450, 0): 20,  # Rapid & Blitz before Oct 2022: K 20 flat
        (202210, "blitz", 2450, 0): 10,  # from Oct 2022: the standard K
        (202210, "blitz", 1800, 29): 40,
        (202210, "blitz", 1800, 30): 20,
    }
    for (month, perf, peak, gb), k in cases.items():
        rules = rs.month_rules(month, as_of=None, adjustments=True)
        assert _eval(rs.k_sql(rules, "perf", "peak", "gb"), perf=perf, peak=peak, gb=gb) == k


@pytest.mark.parametrize("k", [40, 20, 10])
def test_the_700_rule(k: int) -> None:
    rules = rs.month_rules(202501, as_of=None, adjustments=True)
    sql = rs.k_used_sql(DUCKDB, rules, "perf", "k", "n")
    # K x n > 700 -> 700 // n: 40 x 18 = 720 -> 38; 20 x 36 = 720 -> 19; 10 x 70 = 700 stays.
    n = {40: 18, 20: 36, 10: 70}[k]
    assert _eval(sql, perf="blitz", k=k, n=n) == {40: 38, 20: 19, 10: 10}[k]


@pytest.mark.parametrize(
    ("rating", "after"),
    [
        (1000, 1400),
        (1500, 1700),
        (1950, 1970),
        (1453, 1672),
        (2000, 2000),
        (2100, 2100),
        (1999, 1999),
    ],
)
def test_the_compression_in_sql(rating: int, after: int) -> None:
    # QC24: R + 0.4 x (2000 - R) below 2000, half away from zero: 1453 -> 218.8 -> 1672;
    # 1999 -> 0.4 -> 0 -> 1999.
    sql = rs.adjusted_sql(DUCKDB, (editions.COMPRESSION_2024,), "perf", "r")
    assert _eval(sql, perf="rapid", r=rating) == after
    assert editions.adjusted(editions.COMPRESSION_2024, rating) == after


def test_a_made_up_edition_reaches_the_sql(monkeypatch: pytest.MonkeyPatch) -> None:
    # A made-up Rapid & Blitz edition from 1 Jan 2026: K 32 for everyone, a 300-point cap,
    # a 500/2500 non-rating rule. Added in one place (editions.EDITIONS), it must change
    # the SQL of January 2026 and nothing before.
    latest = editions.latest("rapid-blitz")
    made_up = replace(
        latest, key="rapid-blitz-2026-01", effective_from=date(2026, 1, 1), k_new=32,
        k_standard=32, k_top=32, k_junior=None, junior_until=None, cap_difference=300,
        non_rating_gap=500, non_rating_above=2500,
    )  # fmt: skip
    monkeypatch.setattr(editions, "EDITIONS", (*editions.EDITIONS, made_up))
    jan = rs.month_rules(202601, as_of=None, adjustments=True)
    dec = rs.month_rules(202512, as_of=None, adjustments=True)
    assert (jan.rapid_blitz.key, dec.rapid_blitz.key) == ("rapid-blitz-2026-01", latest.key)
    assert _eval(rs.k_sql(jan, "perf", "peak", "gb"), perf="blitz", peak=2500, gb=100) == 32
    assert _eval(rs.capped_d_sql(jan, "perf", "own", "own - opp", "1"), perf="blitz", own=2000,
                 opp=1600) == 300  # fmt: skip
    assert _eval(rs.not_rated_sql(jan, "perf", "w", "b"), perf="blitz", w=2501, b=2001) is True
    assert _eval(rs.capped_d_sql(dec, "perf", "own", "own - opp", "1"), perf="blitz", own=2000,
                 opp=1600) == 400  # fmt: skip
