"""``lichess-elo calc`` across every edition x K reason: the dates it prints are the rules'.

Every expected date below is written by hand from the regulations' start dates (the
editions of docs/rules.md and ../shared/reference/notes/fide-rules.md), never from the code
that words them. A rule's last day is the day before the next start that changed it:

Standard chapter, editions in force from [F2009][PR2011][CV2011][CE2014][H22][H24][H24A]:
1 Jul 2009, 1 Jul 2011, 1 Jul 2012, 1 Jul 2014, 1 Jan 2022, 1 Mar 2024, 1 Oct 2025.
Rapid & Blitz chapter [FIDE2011][CV2011][H22][RB22][RB24][RB24D]:
1 Jan 2012, 1 Jul 2012, 1 Jan 2022, 1 Oct 2022, 1 Mar 2024, 1 Dec 2024.

K rules (8.3.3), each with the dates of its run of editions:
* standard, new player (fewer than 30 games): K 25 from 1 Jul 2009 (F2009: "stay as they
  are") to 30 Jun 2011 (the day before 1 Jul 2011, when 30 began); K 30 from 1 Jul 2011 to
  30 Jun 2014 (the day before 1 Jul 2014); K 40 since 1 Jul 2014 [CE2014].
* standard, established: K 15 from 1 Jul 2009 to 30 Jun 2014; K 20 since 1 Jul 2014.
* standard, 2400: K 10 after 30 games in the 2009 text, from 1 Jul 2009 to 30 Jun 2011;
  K 10 with no game count since 1 Jul 2011.
* standard, junior (K 40 below 2300): until the 18th birthday from 1 Jul 2014 to
  31 Dec 2021 (the day before 1 Jan 2022); through the year of it since 1 Jan 2022 [H22].
* Rapid & Blitz, K 20 for everyone: from 1 Jan 2012 to 30 Sep 2022 (the notes: "Until
  30 Sep 2022: K = 20 for all players"); every K rule of the standard chapter since
  1 Oct 2022 [RB22].
The ``rules:`` line adds an edition's last day (the day before the next edition of its
chapter) unless it is the newest.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from tests.runners import invoke

STANDARD, RB = "standard", "rapid-blitz"

#: (chapter, first day, last day or None) of each edition, by hand (see above).
EDITIONS = [
    (STANDARD, "2009-07-01", "30 Jun 2011"),
    (STANDARD, "2011-07-01", "30 Jun 2012"),
    (STANDARD, "2012-07-01", "30 Jun 2014"),
    (STANDARD, "2014-07-01", "31 Dec 2021"),
    (STANDARD, "2022-01-01", "29 Feb 2024"),
    (STANDARD, "2024-03-01", "30 Sep 2025"),
    (STANDARD, "2025-10-01", None),
    (RB, "2012-01-01", "30 Jun 2012"),
    (RB, "2012-07-01", "31 Dec 2021"),
    (RB, "2022-01-01", "30 Sep 2022"),
    (RB, "2022-10-01", "29 Feb 2024"),
    (RB, "2024-03-01", "30 Nov 2024"),
    (RB, "2024-12-01", None),
]

_SINCE_2014 = ("1 Jul 2014", None)
_RB_2022 = ("1 Oct 2022", None)
_FLAT = ("1 Jan 2012", "30 Sep 2022")

#: (chapter, first day of the edition) -> K reason -> (K, first day, last day or None) of
#: that K rule, by hand (see above).
K_RULES: dict[tuple[str, str], dict[str, tuple[int, str, str | None]]] = {
    (STANDARD, "2009-07-01"): {
        "2400": (10, "1 Jul 2009", "30 Jun 2011"),
        "new": (25, "1 Jul 2009", "30 Jun 2011"),
        "standard": (15, "1 Jul 2009", "30 Jun 2014"),
    },
    (STANDARD, "2011-07-01"): {
        "2400": (10, "1 Jul 2011", None),
        "new": (30, "1 Jul 2011", "30 Jun 2014"),
        "standard": (15, "1 Jul 2009", "30 Jun 2014"),
    },
    (STANDARD, "2012-07-01"): {
        "2400": (10, "1 Jul 2011", None),
        "new": (30, "1 Jul 2011", "30 Jun 2014"),
        "standard": (15, "1 Jul 2009", "30 Jun 2014"),
    },
    **{
        (STANDARD, day): {
            "2400": (10, "1 Jul 2011", None),
            "junior": (40, *junior),
            "new": (40, *_SINCE_2014),
            "standard": (20, *_SINCE_2014),
        }
        for day, junior in (
            ("2014-07-01", ("1 Jul 2014", "31 Dec 2021")),
            ("2022-01-01", ("1 Jan 2022", None)),
            ("2024-03-01", ("1 Jan 2022", None)),
            ("2025-10-01", ("1 Jan 2022", None)),
        )
    },
    **{(RB, day): {"flat": (20, *_FLAT)} for day in ("2012-01-01", "2012-07-01", "2022-01-01")},
    **{
        (RB, day): {
            "2400": (10, *_RB_2022),
            "junior": (40, *_RB_2022),
            "new": (40, *_RB_2022),
            "standard": (20, *_RB_2022),
        }
        for day in ("2022-10-01", "2024-03-01", "2024-12-01")
    },
}

#: The calc arguments that give each K reason (rating, one game, the K inputs).
_BORN = str(date.today().year - 10)  # a 10-year-old: a junior on this year's list
ARGS = {
    "flat": ["1500", "1400:1", "--games", "40"],
    "2400": ["2450", "2300:1", "--games", "40"],
    "junior": ["2000", "2000:1", "--games", "40", "--born", _BORN],
    "new": ["1500", "1400:1", "--games", "5"],
    "standard": ["1500", "1400:1", "--games", "40"],
    "given": ["1500", "1400:1", "--k", "20"],
}

_DAY = re.compile(r"\b\d{1,2} [A-Z][a-z]{2} \d{4}\b")


def _lines(*args: str) -> dict[str, str]:
    """calc's table output, wrapped lines joined, by first word (``K``, ``rules:``)."""
    result = invoke(["calc", *args])
    assert result.exit_code == 0, result.output
    text = result.stdout.replace("\n  ", " ")
    return {line.split(" ", 1)[0]: line for line in text.splitlines() if line}


def _reason_cases() -> list[tuple[str, str, str, str | None]]:
    return [(ch, day, reason, end) for ch, day, end in EDITIONS for reason in K_RULES[ch, day]]


def test_every_edition_has_its_k_rules() -> None:
    # the hand tables above cover the 13 editions, each with its own K reasons
    assert sorted(K_RULES) == sorted((ch, day) for ch, day, _ in EDITIONS)
    assert len(_reason_cases()) == 3 + 3 + 3 + 4 * 4 + 3 + 4 * 3


@pytest.mark.parametrize(("chapter", "day", "reason", "end"), _reason_cases())
def test_the_k_line_dates_its_rule(chapter: str, day: str, reason: str, end: str | None) -> None:
    lines = _lines(*ARGS[reason], "--rules", chapter, "--rules-as-of", day)
    k, first, last = K_RULES[chapter, day][reason]
    k_line = lines["K"]
    assert k_line.startswith(f"K {k}: "), k_line
    expected = [first] if last is None else [first, last]
    assert _DAY.findall(k_line) == expected, k_line
    assert ("since " in k_line) == (last is None), k_line
    if reason == "flat":
        assert "Rapid & Blitz" in k_line and "everyone" in k_line
    # the rules line: the edition's title (its first day) and, once replaced, its last day
    rules = lines["rules:"]
    start = date.fromisoformat(day)
    assert f"{start.day} {start:%b %Y}" in rules, rules
    if end is None:
        assert "in force to" not in rules, rules
    else:
        assert rules.endswith(f", in force to {end}"), rules


@pytest.mark.parametrize(("chapter", "day", "end"), [(c, d, e) for c, d, e in EDITIONS])
def test_a_given_k_prints_no_rule_date(chapter: str, day: str, end: str | None) -> None:
    k_line = _lines(*ARGS["given"], "--rules", chapter, "--rules-as-of", day)["K"]
    assert k_line == "K 20: given with --k"


#: The initial-rating rule (8.2) by the standard edition of the day, by hand: Ra + 12.5 a
#: half point from 1 Jul 2009 to 30 Jun 2011 [F2009], + 15 from 1 Jul 2011 to 30 Jun 2014,
#: + 20 from 1 Jul 2014 to 29 Feb 2024 [H22], two draws against 1800 since 1 Mar 2024 [H24].
INITIAL = [
    ("2009-07-01", "from 1 Jul 2009 to 30 Jun 2011"),
    ("2011-07-01", "from 1 Jul 2011 to 30 Jun 2014"),
    ("2012-07-01", "from 1 Jul 2011 to 30 Jun 2014"),
    ("2014-07-01", "from 1 Jul 2014 to 29 Feb 2024"),
    ("2022-01-01", "from 1 Jul 2014 to 29 Feb 2024"),
    ("2024-03-01", "since 1 Mar 2024"),
    ("2025-10-01", "since 1 Mar 2024"),
]


@pytest.mark.parametrize(("day", "span"), INITIAL)
def test_the_initial_rating_names_its_rule_by_date(day: str, span: str) -> None:
    games = ["1902:0.5", "1877:0.5", "1884:1", "2012:0", "1832:1", "1900:1", "1850:0"]
    games += ["1800:1", "1950:0.5"]  # nine games: the 2009-2014 editions asked for nine
    result = invoke(["calc", "--unrated", *games, "--rules-as-of", day])
    assert result.exit_code == 0, result.output
    first = result.stdout.replace("\n  ", " ").splitlines()[0]
    assert first.startswith(f"FIDE initial rating (8.2, rule {span}) from 9 games"), first


def test_the_600_2600_rule_names_its_day() -> None:
    # Rapid & Blitz since 1 Dec 2024 [RB24D]: 2650 v 2050 (600 apart, one above 2600)
    out = invoke(["calc", "2650", "2050:1", "--rules", "rapid-blitz", "--games", "100"])
    assert out.exit_code == 0, out.output
    line = next(x for x in out.stdout.splitlines() if x.startswith("not rated:"))
    assert line == (
        "not rated: 600+ points apart with a player above 2600 (Rapid & Blitz, since 1 Dec 2024)"
    )
