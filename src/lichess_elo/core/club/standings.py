"""The club's awards: the events held, the month's best progress and the most games (pure)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal

from lichess_elo.core import fide
from lichess_elo.core.club.model import (
    ClubGame,
    EventSummary,
    GamesAward,
    ProgressAward,
    Standing,
    name_key,
)


def events(games: Sequence[ClubGame]) -> tuple[EventSummary, ...]:
    """Every event (or date) with its first day and the games that counted, by day."""
    found: dict[str, list[ClubGame]] = defaultdict(list)
    for g in games:
        found[g.event_name.casefold()].append(g)
    out = [EventSummary(v[0].event_name, min(g.day for g in v), len(v)) for v in found.values()]
    return tuple(sorted(out, key=lambda e: (e.day, e.name.casefold())))


def progress(standings: Sequence[Standing]) -> tuple[ProgressAward, ...]:
    """Per calendar month, the player(s) with the biggest gain (shown points, > 0)."""
    gains: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for s in standings:
        for e in s.history:
            if e.rating_before is not None:
                gains[e.day.strftime("%Y-%m")][s.name] += e.change
    out: list[ProgressAward] = []
    for month in sorted(gains):
        rounded = {n: fide.round_half_away(c) for n, c in gains[month].items()}
        best = max(rounded.values())
        if best > 0:
            out.extend(
                ProgressAward(month, n, best)
                for n in sorted(rounded, key=name_key)
                if rounded[n] == best
            )
    return tuple(out)


def most_games(standings: Sequence[Standing], top: int = 3) -> tuple[GamesAward, ...]:
    """The ``top`` players by games played, with everyone tied with the last of them."""
    ranked = sorted((s for s in standings if s.games), key=lambda s: (-s.games, name_key(s.name)))
    if not ranked:
        return ()
    cut = ranked[min(top, len(ranked)) - 1].games
    return tuple(GamesAward(s.name, s.games) for s in ranked if s.games >= cut)
