"""``lichess-elo calc --time-control``: FIDE's chapter from the clock (issue #41).

The chapter is the Laws of Chess, Appendix A (base + 60 x increment: 60 minutes or more is
standard, less is Rapid & Blitz); the K of each chapter in March 2021 is worked out beside
each case: a 2450 player (reached 2400) has K 10 under the standard rules of July 2014
(8.3.3) and K 20 under the Rapid & Blitz rules then (K 20 for everyone). Beating a 2450
(D 0, table 8.1.2: PD .50) is +0.50 x K.
"""

from __future__ import annotations

import json

import pytest

from tests.runners import invoke

BASE = ("2450", "2450:1", "--games", "30", "--rules-as-of", "2021-03-01")


def _calc(*args: str) -> dict[str, object]:
    result = invoke(["calc", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads(result.stdout)
    return doc


@pytest.mark.parametrize(
    ("tc", "chapter", "k", "new"),
    [
        ("10+0", "rapid-blitz", 20, 2460),  # 10 min: blitz -> K 20: +10
        ("10+1", "rapid-blitz", 20, 2460),  # 10 + 1 = 11 min: rapid -> +10
        ("59+1", "standard", 10, 2455),  # 59 + 1 = 60 min: standard -> K 10: +5
        ("60+0", "standard", 10, 2455),  # 60 min: standard
        ("45+15", "standard", 10, 2455),  # 45 + 15 = 60 min: standard
        ("25+0", "rapid-blitz", 20, 2460),  # 25 min: rapid (Lichess: classical)
        ("1800+0", "rapid-blitz", 20, 2460),  # 1800 s = 30 min: rapid
        ("3600+0", "standard", 10, 2455),  # 3600 s = 60 min: standard
    ],
)
def test_the_time_control_picks_the_chapter(tc: str, chapter: str, k: int, new: int) -> None:
    doc = _calc(*BASE, "--time-control", tc)
    rules = doc["rules"]
    assert isinstance(rules, dict) and rules["chapter"] == chapter
    assert (doc["k"], doc["new_rating"]) == (k, new)


def test_rules_still_force_one_chapter() -> None:
    # --rules standard beats the 30+0 clock: K 10, +5
    doc = _calc(*BASE, "--time-control", "30+0", "--rules", "standard")
    assert (doc["k"], doc["new_rating"]) == (10, 2455)


def test_without_a_time_control_auto_is_standard() -> None:
    assert _calc(*BASE)["new_rating"] == 2455


def test_a_bad_time_control_is_one_line_and_exit_2() -> None:
    result = invoke(["calc", *BASE, "--time-control", "thirty"])
    assert result.exit_code == 2
    assert "--time-control 'thirty'" in result.stderr and "30+0" in result.stderr
    assert "Traceback" not in result.output
