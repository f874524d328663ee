"""The dated rules table (``fide_rules``): each rule pinned to its regulation text.

Sources are the citation keys of ``docs/rules.md``. PD values are read from table 8.1.2
(``tests/data/fide``; the rows are quoted beside each use).
"""

from __future__ import annotations

from datetime import date

import pytest

from lichess_elo.core import fide
from lichess_elo.core.fide import editions as rules
from lichess_elo.core.fide.editions import EDITIONS, chapter_of_speed, in_force
from lichess_elo.errors import BadInput

STANDARD = "standard"
RAPID_BLITZ = "rapid-blitz"


def _ed(chapter: rules.Chapter, day: date) -> rules.Edition:
    return in_force(chapter, day)


# --- the table itself ------------------------------------------------------------------


def test_editions_are_ordered_and_keys_unique() -> None:
    keys = [e.key for e in EDITIONS]
    assert len(keys) == len(set(keys))
    for chapter in rules.CHAPTERS:
        days = [e.effective_from for e in EDITIONS if e.chapter == chapter]
        assert days == sorted(days) and len(days) == len(set(days))


@pytest.mark.parametrize(
    ("chapter", "day", "key"),
    [
        # the day an edition starts is inside it, the day before is not
        (STANDARD, date(2014, 6, 30), "standard-2012-07"),
        (STANDARD, date(2014, 7, 1), "standard-2014-07"),
        (STANDARD, date(2021, 12, 31), "standard-2014-07"),
        (STANDARD, date(2022, 1, 1), "standard-2022-01"),
        (STANDARD, date(2024, 2, 29), "standard-2022-01"),
        (STANDARD, date(2024, 3, 1), "standard-2024-03"),
        (STANDARD, date(2025, 9, 30), "standard-2024-03"),
        (STANDARD, date(2025, 10, 1), "standard-2025-10"),
        (STANDARD, date(2026, 12, 1), "standard-2025-10"),
        (RAPID_BLITZ, date(2012, 6, 30), "rapid-blitz-2012-01"),
        (RAPID_BLITZ, date(2022, 9, 30), "rapid-blitz-2022-01"),
        (RAPID_BLITZ, date(2022, 10, 1), "rapid-blitz-2022-10"),
        (RAPID_BLITZ, date(2024, 2, 29), "rapid-blitz-2022-10"),
        (STANDARD, date(2011, 6, 30), "standard-2009-07"),
        (STANDARD, date(2011, 7, 1), "standard-2011-07"),
        (RAPID_BLITZ, date(2024, 3, 1), "rapid-blitz-2024-03"),
        (RAPID_BLITZ, date(2024, 11, 30), "rapid-blitz-2024-03"),
        (RAPID_BLITZ, date(2024, 12, 1), "rapid-blitz-2024-12"),
    ],
)
def test_edition_in_force_on_a_day(chapter: rules.Chapter, day: date, key: str) -> None:
    edition = _ed(chapter, day)
    assert edition.key == key and not edition.before_first


def test_a_day_before_the_first_edition_gets_it_marked() -> None:
    # Lichess opened in 2010; FIDE's first rapid/blitz events were rated from 1 Jan 2012
    # [FIDE2011]: a 2011 blitz game gets the first rapid-blitz edition, flagged.
    edition = _ed(RAPID_BLITZ, date(2011, 5, 1))
    assert edition.key == "rapid-blitz-2012-01" and edition.before_first


@pytest.mark.parametrize(
    ("speed", "choice", "chapter"),
    [
        ("bullet", "auto", RAPID_BLITZ),
        ("blitz", "auto", RAPID_BLITZ),
        ("rapid", "auto", RAPID_BLITZ),
        ("ultraBullet", "auto", RAPID_BLITZ),
        ("classical", "auto", STANDARD),
        ("correspondence", "auto", STANDARD),
        ("blitz", "standard", STANDARD),
        ("classical", "rapid-blitz", RAPID_BLITZ),
    ],
)
def test_chapter_of_speed(speed: str, choice: rules.ChapterChoice, chapter: str) -> None:
    assert chapter_of_speed(speed, choice) == chapter


# --- floors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chapter", "day", "floor"),
    [
        # "after 1.7.2009 the floor will be 1200" [GSU2008]
        (STANDARD, date(2010, 6, 1), 1200),
        # lowered to 1000 from 1 July 2012 [CV2011]; ECF: "1200 (from 1 July ... 1000)"
        (STANDARD, date(2012, 7, 1), 1000),
        (RAPID_BLITZ, date(2012, 3, 1), 1200),
        (RAPID_BLITZ, date(2013, 3, 1), 1000),
        # "the new rating floor will be set at 1400" from 1 March 2024 [QC24]
        (STANDARD, date(2024, 3, 1), 1400),
        (RAPID_BLITZ, date(2024, 3, 1), 1400),
    ],
)
def test_floor_by_era(chapter: rules.Chapter, day: date, floor: int) -> None:
    assert _ed(chapter, day).floor == floor


# --- K by era --------------------------------------------------------------------------


def test_k_before_july_2014_is_30_15_10() -> None:
    # "K = 30 for a player new to the rating list until he has completed events with at
    # least 30 games / K = 15 as long as a player's rating remains under 2400 / K = 10 once
    # a player's published rating has reached 2400" (8.56 before 1 July 2014) [SAMARA]
    edition = _ed(STANDARD, date(2013, 5, 1))
    assert fide.k_factor(edition=edition, rating=1800, games_before=10) == (30, "new")
    assert fide.k_factor(edition=edition, rating=2000, games_before=30) == (15, "standard")
    assert fide.k_factor(edition=edition, rating=2390, games_before=100, peak=2405) == (10, "2400")
    # no junior line before 2014: a 13-year-old established 2000 player gets 15
    assert fide.k_factor(
        edition=edition, rating=2000, games_before=40, birth_year=2000, year=2013
    ) == (15, "standard")


def test_k_from_july_2014_is_40_20_10_with_juniors() -> None:
    # "K = 40 for all players until their 18th birthday, as long as their rating remains
    # under 2300" (8.56 from 1 July 2014) [SAMARA][CE2014]
    edition = _ed(STANDARD, date(2015, 5, 1))
    assert fide.k_factor(
        edition=edition, rating=2000, games_before=40, birth_year=2000, year=2015
    ) == (40, "junior")
    assert fide.k_factor(edition=edition, rating=2000, games_before=40) == (20, "standard")
    assert fide.k_factor(edition=edition, rating=2000, games_before=29) == (40, "new")


def test_junior_by_birthday_or_end_of_year() -> None:
    # 2014 text "until their 18th birthday": born 2000, in 2018 the birthday falls on an
    # unknown day, so the established K is used; 2024 text "until the end of the year of
    # their 18th birthday" [H24]: born 2006, still a junior in 2024, not in 2025.
    old = _ed(STANDARD, date(2018, 5, 1))
    assert (
        fide.k_factor(edition=old, rating=2000, games_before=40, birth_year=2001, year=2018)[1]
        == "junior"
    )
    assert (
        fide.k_factor(edition=old, rating=2000, games_before=40, birth_year=2000, year=2018)[1]
        == "standard"
    )
    new = _ed(STANDARD, date(2024, 5, 1))
    assert (
        fide.k_factor(edition=new, rating=2000, games_before=40, birth_year=2006, year=2024)[1]
        == "junior"
    )
    assert (
        fide.k_factor(edition=new, rating=2000, games_before=40, birth_year=2006, year=2025)[1]
        == "standard"
    )


def test_junior_who_was_once_2300_keeps_k_20() -> None:
    # "K = 40 for all players until the end of the year of their 18th birthday, as long as
    # their rating remains under 2300" [H24]; FIDE's published K follows: ever 2400 -> 10;
    # junior never rated >= 2300 -> 40; under 30 games -> 40; else 20 [SPEC R-22].
    # A 2250 junior (born 2010, list 2026) who was 2350 last year: K 20, not 40.
    edition = _ed(STANDARD, date(2026, 5, 1))
    junior = {"games_before": 40, "birth_year": 2010, "year": 2026}
    assert fide.k_factor(edition=edition, rating=2250, **junior) == (40, "junior")
    assert fide.k_factor(edition=edition, rating=2250, **junior, peak=2350) == (20, "standard")
    # ... still K 40 while under 30 games, for being new, not for being a junior
    assert fide.k_factor(
        edition=edition, rating=2250, games_before=12, birth_year=2010, year=2026, peak=2350
    ) == (
        40,
        "new",
    )
    # a peak of 2400 decides the 2400 rule as well, for good
    assert fide.k_factor(edition=edition, rating=2250, **junior, peak=2400) == (10, "2400")


def test_rapid_blitz_k_is_20_for_everyone_before_october_2022() -> None:
    # "the K factor used will in all cases be 20" [FIDE2011]; "The k factor used for all
    # games and all players will be 20" [ECF2011]; until 30 Sep 2022 [RB22]
    edition = _ed(RAPID_BLITZ, date(2022, 9, 30))
    assert edition.flat_k
    assert fide.k_factor(
        edition=edition, rating=1500, games_before=0, birth_year=2012, year=2022
    ) == (20, "flat")
    assert fide.k_factor(edition=edition, rating=2600, games_before=500, peak=2700) == (20, "flat")
    # from 1 Oct 2022 the standard chapter's K text [RB22]; kept in 2024 [RB24]
    for day in (date(2022, 10, 1), date(2023, 6, 1), date(2024, 3, 1)):
        after = _ed(RAPID_BLITZ, day)
        assert fide.k_factor(edition=after, rating=1500, games_before=0) == (40, "new")
        assert fide.k_factor(edition=after, rating=2000, games_before=30) == (20, "standard")
        assert fide.k_factor(edition=after, rating=2600, games_before=500) == (10, "2400")
        # a junior: to the end of the year of the 18th birthday, under 2300 [RB22]
        assert fide.k_factor(
            edition=after, rating=2000, games_before=40, birth_year=2005, year=2023
        ) == (40, "junior")


def test_k_for_refuses_inconsistent_input() -> None:
    edition = _ed(STANDARD, date(2026, 1, 1))
    with pytest.raises(BadInput, match="games before -1"):
        fide.k_factor(edition=edition, rating=2000, games_before=-1)
    with pytest.raises(BadInput, match="year"):
        fide.k_factor(edition=edition, rating=2000, games_before=0, birth_year=2010)


# --- the 400-point rule by era -----------------------------------------------------------


def test_2650_exemption_only_in_standard_from_october_2025() -> None:
    # 8.3.1 "Effective from 1 October 2025: ... For players rated 2650 and above, the
    # difference between ratings shall be used in all cases" [H24][CB25]
    before = _ed(STANDARD, date(2025, 9, 30))
    after = _ed(STANDARD, date(2025, 10, 1))
    blitz = _ed(RAPID_BLITZ, date(2025, 11, 1))
    assert fide.difference_used(2813, 1787, edition=before) == (400, True)
    assert fide.difference_used(2813, 1787, edition=after) == (1026, False)
    # the opponent below 2650 is still capped (FIDE's published F-P02: 2400 -> -400)
    assert fide.difference_used(2400, 2813, edition=after) == (-400, True)
    # the Rapid & Blitz chapter: "the plain 400-point cap, with no 2650 exemption"
    assert fide.difference_used(2813, 1787, edition=blitz) == (400, True)


def test_once_per_event_2022_rapid_example() -> None:
    # 2022 text: "In any tournament, a player may benefit from only one upgrade under this
    # rule, for the game in which the rating difference is greatest" [H22][CCUP].
    # The rapid event published in [CCUP]: a 2000 player, K 20, opponents below. Only the
    # game against 1063 (D = 937, the greatest) is upgraded to D 400 (PD .92); 1299
    # (D 701, row 620-735: .99), 1413 (D 587, row 560-619: .98), 1427 (D 573: .98) are not.
    edition = _ed(RAPID_BLITZ, date(2023, 3, 1))
    opponents = [1063, 1299, 1413, 1872, 1851, 1427, 1682]
    flags = fide.cap_applies(2000, opponents, ["arena"] * 7, edition=edition)
    assert flags == (True, False, False, True, True, False, True)
    used = [
        fide.difference_used(2000, o, cap=f, edition=edition)
        for o, f in zip(opponents, flags, strict=True)
    ]
    assert used == [
        (400, True),
        (701, False),
        (587, False),
        (128, False),
        (149, False),
        (573, False),
        (318, False),
    ]


def test_once_per_event_counts_each_event_and_not_the_lower_rated_side() -> None:
    edition = _ed(STANDARD, date(2023, 3, 1))
    # two events: each gets its own upgrade (the greatest difference in each)
    flags = fide.cap_applies(2000, [1500, 1400, 1550, 1450], ["a", "a", "b", "b"], edition=edition)
    assert flags == (False, True, False, True)
    # equal differences: the first of them
    assert fide.cap_applies(2000, [1500, 1500], ["a", "a"], edition=edition) == (True, False)
    # the player 500 below: the rule is no upgrade for them, it applies to every game
    assert fide.cap_applies(1500, [2000, 2100], ["a", "a"], edition=edition) == (True, True)
    # before 2022 and from March 2024: every game [QC24: "the limitation of the 400-points
    # rule to once per event has been abolished"]
    for day in (date(2021, 6, 1), date(2024, 3, 1)):
        later = _ed(STANDARD, day)
        assert fide.cap_applies(2000, [1500, 1400], ["a", "a"], edition=later) == (True, True)
    with pytest.raises(ValueError, match="event"):
        fide.cap_applies(2000, [1500], [], edition=edition)


# --- the 600/2600 rule -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "chapter", "own", "opponent", "excluded"),
    [
        # R&B from 1 December 2024: 600+ apart and one above 2600 -> not rated [RB24][ZZ]
        (date(2025, 1, 10), RAPID_BLITZ, 2650, 2050, True),
        (date(2025, 1, 10), RAPID_BLITZ, 2050, 2650, True),  # for the lower one too
        (date(2025, 1, 10), RAPID_BLITZ, 2650, 2051, False),  # 599 apart
        (date(2025, 1, 10), RAPID_BLITZ, 2600, 1900, False),  # nobody above 2600
        (date(2024, 11, 30), RAPID_BLITZ, 2650, 2000, False),  # before the amendment
        (date(2025, 1, 10), STANDARD, 2650, 2000, False),  # a standard-chapter game
    ],
)
def test_600_2600_rule(
    day: date, chapter: rules.Chapter, own: int, opponent: int, excluded: bool
) -> None:
    assert fide.not_rated(own, opponent, edition=_ed(chapter, day)) is excluded
