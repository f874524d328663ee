"""A whole population rated month by month in plain Python on the FIDE engine: the reference
that ``db rate``'s generated SQL (DuckDB and Spark) must agree with, player by player and
month by month.

Pure code, no I/O. The semantics are ``db``'s (``population/stages.py``): a player enters a
perf's list at the Lichess rating of their first game there (the earliest month, then the
smallest ``ord``); each month every player's list rating is fixed at its start, each side of
a game is rated separately by ``fide.rate_period`` in parts, one a chapter its games take
(each game's own chapter, FIDE's of its clock by the Laws of Chess, Appendix A, else its
perf's), under that chapter's edition in force on the month's first day (or on
``rules_as_of``), with K from ``fide.k_factor`` (no birth years: no junior K); the month's
change is the parts' rounded changes summed, its K and edition the main part's (most rated
games, then the earliest); the opponent's rating is their list rating or their Lichess
rating in the game. With ``adjustments`` (and no ``rules_as_of``), FIDE's one-time
compression (``fide.COMPRESSION_2024``; ``fide.adjustment_between``, ``fide.adjusted``)
raises every listed player at the start of the month that carries it. A side whose every
game is unrated (600/2600) has no row that month.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Literal

from lichess_elo.core import fide
from lichess_elo.core.fide.editions import chapter_of_speed
from lichess_elo.core.months import yyyymm_range

#: Where an opponent's rating comes from (as ``db rate --opponents``).
Opponents = Literal["list", "lichess"]
_SCORES = {100: Decimal(1), 50: Decimal("0.5"), 0: Decimal(0)}


@dataclass(frozen=True)
class PopulationGame:
    """One game as ``db`` stores it: White's score in hundredths (100, 50, 0), ``ord`` the
    order of the game (time, then place in the dump), ``event`` its arena or swiss."""

    month: int
    perf: str
    white: str
    black: str
    white_elo: int
    black_elo: int
    score: int
    ord: int
    event: str | None = None
    #: FIDE's chapter of the game's clock; ``None``: the perf's (``chapter_of_speed``).
    chapter: str | None = None

    @property
    def rated_chapter(self) -> str:
        """The chapter that rates the game."""
        return self.chapter or chapter_of_speed(self.perf)


@dataclass(frozen=True)
class ReferenceRow:
    """A player's month with rated games: the list entry at its start and the result."""

    perf: str
    name: str
    month: int
    rating: int
    games_before: int
    k: int
    games: int
    k_used: int
    change: int
    next_rating: int
    edition: str


@dataclass
class _Entry:
    rating: int
    games_before: int
    peak: int


def _months(first: int, last: int) -> list[int]:
    return yyyymm_range(first, last)


def _day(month: int) -> date:
    return date(month // 100, month % 100, 1)


def rate_population(
    games: Iterable[PopulationGame],
    *,
    rules_as_of: date | None = None,
    opponents: Opponents = "list",
    adjustments: bool = True,
) -> list[ReferenceRow]:
    """Every player's monthly rows (see the module docstring), by perf, month and name."""
    by_month: dict[int, list[PopulationGame]] = {}
    for g in games:
        by_month.setdefault(g.month, []).append(g)
    if not by_month:
        return []
    seeds: dict[tuple[str, str], tuple[tuple[int, int], int]] = {}
    for g in (g for month in by_month.values() for g in month):
        for name, elo in ((g.white, g.white_elo), (g.black, g.black_elo)):
            key, when = (g.perf, name), (g.month, g.ord)
            if key not in seeds or when < seeds[key][0]:
                seeds[key] = (when, elo)
    listed: dict[tuple[str, str], _Entry] = {}
    rows: list[ReferenceRow] = []
    months = _months(min(by_month), max(by_month))
    for index, month in enumerate(months):
        day = rules_as_of or _day(month)
        if adjustments and rules_as_of is None and index > 0:
            for (perf, _), entry in listed.items():
                adj = fide.adjustment_between(chapter_of_speed(perf), _day(months[index - 1]), day)
                if adj is not None and entry.games_before > 0:
                    entry.rating = fide.adjusted(adj, entry.rating)
                    entry.peak = max(entry.peak, entry.rating)
        played = sorted(by_month.get(month, []), key=lambda g: g.ord)
        for g in played:
            for name in (g.white, g.black):
                if (g.perf, name) not in listed:
                    seed = seeds[g.perf, name][1]
                    listed[g.perf, name] = _Entry(seed, 0, seed)
        start = {key: entry.rating for key, entry in listed.items()}
        sides: dict[tuple[str, str], dict[str, list[tuple[int, fide.GameResult]]]] = {}
        for g in played:
            for name, other, own_score, other_elo in (
                (g.white, g.black, g.score, g.black_elo),
                (g.black, g.white, 100 - g.score, g.white_elo),
            ):
                opponent = start[g.perf, other] if opponents == "list" else other_elo
                parts = sides.setdefault((g.perf, name), {})
                parts.setdefault(g.rated_chapter, []).append(
                    (g.ord, fide.GameResult(opponent, _SCORES[own_score], g.event))
                )
        for (perf, name), parts in sorted(sides.items()):
            entry = listed[perf, name]
            done: list[
                tuple[int, int, int, fide.PeriodResult]
            ] = []  # (rated games, -first rated ord, k, result) a part with rated games
            for chapter, held in parts.items():
                edition = fide.in_force("standard" if chapter == "standard" else "rapid-blitz", day)
                k, _ = fide.k_factor(
                    entry.rating, games_before=entry.games_before, peak=entry.peak, edition=edition
                )
                result = fide.rate_period(entry.rating, [r for _, r in held], k=k, edition=edition)
                if result.rated_games == 0:
                    continue
                first = min(
                    place
                    for (place, _), rated in zip(held, result.games, strict=True)
                    if rated.not_rated is None
                )
                done.append((result.rated_games, -first, k, result))
            if not done:
                continue
            _, _, k, main = max(done, key=lambda part: (part[0], part[1]))
            change = sum(part[3].rounded_change for part in done)
            rated_games = sum(part[0] for part in done)
            rows.append(
                ReferenceRow(
                    perf, name, month, entry.rating, entry.games_before, k,
                    rated_games, main.k, change, entry.rating + change, main.edition.key,
                )
            )  # fmt: skip
            entry.rating += change
            entry.games_before += rated_games
            entry.peak = max(entry.peak, entry.rating)
    return sorted(rows, key=lambda r: (r.perf, r.month, r.name))
