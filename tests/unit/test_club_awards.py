"""The club's awards as issue #40 asks: "Biggest progress" leaves out a newcomer's first
games (her calibration), and the number of those games has a documented default."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from lichess_elo.core.club.model import PeriodEntry, Rules, Standing
from lichess_elo.core.club.standings import progress


def _entry(day: date, games: int, change: int, before: int) -> PeriodEntry:
    return PeriodEntry("E", day, games, Decimal(games), Decimal(0), 20, Decimal(change),
                       Decimal(before), Decimal(before + change))  # fmt: skip


def _player(name: str, newcomer: bool, *entries: PeriodEntry) -> Standing:
    rating = entries[-1].rating_after
    games = sum(e.games for e in entries)
    return Standing(name, rating, 0, games, False, entries, 20, "", newcomer)


def test_calibration_games_default() -> None:
    # the club's provisional period when it has one, else 5 (FIDE's initial rating's games)
    assert Rules().calibration_games == 5
    assert Rules(provisional_games=12).calibration_games == 12
    assert Rules(provisional_games=12, progress_after=3).calibration_games == 3
    assert Rules(progress_after=0).calibration_games == 0


def test_a_newcomers_first_games_are_no_progress() -> None:
    # The adult: starts at her group's 1200, +172 in her first 5 games in March
    # (calibration), then +15 in April over 3 more games; Ola, established, +30 in March
    # and +10 in April.
    ewa = _player("Ewa", True, _entry(date(2026, 3, 7), 5, 172, 1200),
                  _entry(date(2026, 4, 4), 3, 15, 1372))  # fmt: skip
    ola = _player("Ola", False, _entry(date(2026, 3, 7), 4, 30, 1000),
                  _entry(date(2026, 4, 4), 3, 10, 1030))  # fmt: skip
    # calibration 5: Ewa's March (0 games before it) is left out, her April (5 before) is not
    got = [(a.period, a.name, a.change) for a in progress([ewa, ola], 5)]
    assert got == [("2026-03", "Ola", 30), ("2026-04", "Ewa", 15)]
    # no calibration: Ewa's +172 wins March
    got = [(a.period, a.name, a.change) for a in progress([ewa, ola], 0)]
    assert got == [("2026-03", "Ewa", 172), ("2026-04", "Ewa", 15)]
    # calibration 6: April's period starts after 5 games, still inside it: left out too
    got = [(a.period, a.name, a.change) for a in progress([ewa, ola], 6)]
    assert got == [("2026-03", "Ola", 30), ("2026-04", "Ola", 10)]
