"""Every public call refuses a bad argument with the library's own error.

A seeded fuzz over a fixed number of cases: each case takes a call with good arguments
and puts one or two wrong values in (wrong types, NaN, infinities, a 0.7 score, a str
where a number goes...). The call may succeed (a value of the right type slipped in) or
raise; what it raises must be a ``LichessEloError``, never a raw ``TypeError`` from deep
inside. Then the refusals that must happen are checked one by one with their fields."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from lichess_elo import ClubOptions, ReportSettings, fide, glicko
from lichess_elo.errors import BadArgument, LichessEloError, OutOfRange, WrongType

#: Values that are wrong almost everywhere, and a few that are right somewhere.
ODD: list[Any] = [
    None, True, False, "x", "1500", "", 1.5, math.nan, math.inf, -math.inf, -1, 0, 1,
    10**12, Decimal("0.7"), Decimal("NaN"), Decimal("sNaN"), Decimal("Infinity"),
    Fraction(1, 3), Fraction(1, 2), 0.5, "0.5", "1/2", [], (), {}, {"a": 1}, object(),
    b"1", [1, 2], (40, 12), date(2024, 1, 1), datetime(2024, 1, 1), "table", "white",
    fide.GameResult(1500, Decimal(1)), glicko.DEFAULT, ("kids", 40),
]  # fmt: skip

R = glicko.Rating(1500.0, 80.0, 0.06)
G = fide.GameResult(1600, Decimal("0.5"))

#: Each public call with good keyword arguments (the fuzz replaces some of them).
CALLS: dict[str, tuple[Callable[..., object], dict[str, Any]]] = {
    "rate_period": (
        lambda rating, games, k, method, cap: fide.rate_period(
            rating, games, k=k, method=method, cap=cap
        ),
        {"rating": 1500, "games": [G], "k": 20, "method": "table", "cap": True},
    ),
    "calculate": (
        lambda rating, games, k, games_before, birth_year, year, method, cap, unrated, peak,
        rules, as_of: fide.calculate(
            rating, games, k=k, games_before=games_before, birth_year=birth_year, year=year,
            method=method, cap=cap, unrated=unrated, peak=peak, rules=rules, as_of=as_of,
        ),
        {
            "rating": 1500, "games": [G], "k": None, "games_before": 40, "birth_year": None,
            "year": 2024, "method": "table", "cap": True, "unrated": False, "peak": None,
            "rules": "auto", "as_of": None,
        },
    ),
    "fide.expected_score": (
        lambda own, opponent, method, cap: fide.expected_score(
            own, opponent, method=method, cap=cap
        ),
        {"own": 1500, "opponent": 1600, "method": "table", "cap": True},
    ),
    "glicko.update": (
        lambda white, black, score, advantage, tau: glicko.update(
            white, black, score, advantage=advantage, tau=tau
        ),
        {"white": R, "black": glicko.DEFAULT, "score": 1.0, "advantage": 0.0, "tau": 0.75},
    ),
    "glicko.expected_score": (
        lambda rating, opponent, rd, color, advantage: glicko.expected_score(
            rating, opponent, rd, color=color, advantage=advantage
        ),
        {"rating": 1500.0, "opponent": 1600, "rd": 60.0, "color": "white", "advantage": 0.0},
    ),
    "glicko.glickman_period": (
        lambda player, opponents, tau, periods: glicko.glickman_period(
            player, opponents, tau=tau, periods=periods
        ),
        {"player": R, "opponents": [(glicko.DEFAULT, 1.0)], "tau": 0.5, "periods": 1},
    ),
    "glicko.live_deviation": (glicko.live_deviation, {"player": R, "days": 3.0}),
    "glicko.lichess_game": (
        lambda white, black, score, perf, days_white, bot: glicko.lichess_game(
            white, black, score, perf=perf, days_white=days_white, bot=bot
        ),
        {"white": R, "black": R, "score": 0.5, "perf": "blitz", "days_white": 1, "bot": None},
    ),
    "glicko.advantage_for": (glicko.advantage_for, {"variant": "standard", "played_at": None}),
    "ClubOptions": (
        lambda **kw: ClubOptions(**kw).check(),
        {"k": 20, "start": 1200, "update": "event", "cap": True, "provisional": (40, 12),
         "return_k": None, "count_events": ("Club*",)},
    ),
    "ReportSettings.check": (
        lambda **kw: ReportSettings(**kw).check(2026),
        {"perfs": ("blitz",), "track": "shadow", "period": "month", "start_rating": None,
         "k": None, "games_before": None, "born": None, "cap": True,
         "since": date(2024, 1, 1), "until": None, "rules_as_of": None, "peak": None},
    ),
}  # fmt: skip

CASES = 3000


def _mutate(rng: random.Random, good: dict[str, Any]) -> dict[str, Any]:
    """``good`` with one or two arguments replaced by odd values (sometimes inside a list:
    a game whose score or opponent is odd, a pair of odd values)."""
    kwargs = dict(good)
    for name in rng.sample(sorted(kwargs), k=min(len(kwargs), rng.choice((1, 1, 2)))):
        odd = rng.choice(ODD)
        if name == "games" and rng.random() < 0.5:
            odd = [G, fide.GameResult(rng.choice(ODD), rng.choice(ODD))]
        elif name == "opponents" and rng.random() < 0.5:
            odd = [(rng.choice(ODD), rng.choice(ODD))]
        kwargs[name] = odd
    return kwargs


def test_only_library_errors_come_out_of_the_public_calls() -> None:
    rng = random.Random(21)
    names = sorted(CALLS)
    refused = {name: 0 for name in names}
    for _ in range(CASES):
        name = rng.choice(names)
        call, good = CALLS[name]
        kwargs = _mutate(rng, good)
        try:
            call(**kwargs)
        except LichessEloError as exc:
            refused[name] += 1
            assert str(exc) and "\n" not in str(exc)
        except Exception as exc:  # the failure the test looks for
            pytest.fail(f"{name}({kwargs!r}) raised {type(exc).__name__}: {exc}")
    # the fuzz reached every call, and most odd values are refused
    assert all(count > CASES // len(names) // 3 for count in refused.values()), refused


def test_the_good_arguments_work() -> None:
    for name, (call, good) in CALLS.items():
        call(**good)  # none raises
        assert name


@pytest.mark.parametrize(
    ("call", "error", "field"),
    [
        (lambda: fide.rate_period(1500, [fide.GameResult(1500, 0.7)], k=20), BadArgument, "score"),
        (lambda: fide.rate_period(1500, [fide.GameResult(1500, Decimal("0.7"))], k=20),
         BadArgument, "score"),
        (lambda: fide.rate_period(1500, [1600], k=20), WrongType, "games"),
        (lambda: fide.rate_period(1500, [G], k=0), OutOfRange, "k"),
        (lambda: fide.rate_period("1500", [G], k=20), WrongType, "rating"),
        (lambda: fide.calculate(1500, [G], k=20.0), WrongType, "k"),
        (lambda: fide.calculate(1500, [G], as_of="2024-01-01"), WrongType, "as_of"),
        (lambda: fide.expected_score(1500, None), WrongType, "opponent"),  # type: ignore[arg-type]
        (lambda: glicko.expected_score(1500, math.nan, 60), BadArgument, "opponent"),
        (lambda: glicko.update(R, R, "1"), WrongType, "white_score"),  # type: ignore[arg-type]
        (lambda: glicko.update(R, glicko.Rating(1500, -1), 1.0), BadArgument, "black deviation"),
        (lambda: ClubOptions(k=40.5), WrongType, "k"),  # type: ignore[arg-type]
        (lambda: ClubOptions(provisional=5), WrongType, "provisional"),  # type: ignore[arg-type]
        (lambda: ReportSettings(k="40").check(2026), WrongType, "k"),  # type: ignore[arg-type]
    ],
)  # fmt: skip
def test_each_refusal_names_the_argument(
    call: Callable[[], object], error: type[Exception], field: str
) -> None:
    with pytest.raises(error) as caught:
        call()
    assert isinstance(caught.value, LichessEloError)
    assert caught.value.field == field  # type: ignore[attr-defined]
    assert isinstance(caught.value, TypeError if error is WrongType else Exception)


def test_a_score_equal_to_0_half_or_1_is_taken_in_any_numeric_spelling() -> None:
    # 1500 against 1400 (D = 100, table 8.1.2: PD 0.64): a win is K x 0.36 = +7.2 at K 20,
    # a draw 20 x (0.5 - 0.64) = -2.8, so each spelling of the same three results gives
    # 7.2 - 2.8 + (0 - 0.64) x 20 = -8.4, rounded -8: 1492.
    spellings = [(1, 0.5, 0), (Fraction(1), Fraction(1, 2), 0.0), ("1", "1/2", "0"),
                 (Decimal("1.0"), Decimal("0.50"), Decimal(0))]  # fmt: skip
    for scores in spellings:
        games = [fide.GameResult(1400, s) for s in scores]  # type: ignore[arg-type]
        result = fide.rate_period(1500, games, k=20)
        assert result.new_rating == 1492, scores
        assert [g.score for g in result.games] == [Decimal(1), Decimal("0.5"), Decimal(0)]
    assert fide.calculate(1500, [fide.GameResult(1400, 0.5)], k=20).new_rating == 1497
