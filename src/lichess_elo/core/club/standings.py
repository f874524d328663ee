"""The club's awards (events held, best progress, most games), the K values used and the
members' Lichess accounts (pure)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence, Set
from decimal import Decimal

from lichess_elo.core import fide
from lichess_elo.core.club.model import (
    ClubGame,
    ClubPlayer,
    EventSummary,
    GamesAward,
    PeriodEntry,
    ProgressAward,
    Rules,
    Standing,
    name_key,
)
from lichess_elo.errors import BadInput


def events(games: Sequence[ClubGame]) -> tuple[EventSummary, ...]:
    """Every event (or date) with its first day and the games that counted, by day."""
    found: dict[str, list[ClubGame]] = defaultdict(list)
    for g in games:
        found[g.event_name.casefold()].append(g)
    out = [EventSummary(v[0].event_name, min(g.day for g in v), len(v)) for v in found.values()]
    return tuple(sorted(out, key=lambda e: (e.day, e.name.casefold())))


def progress(standings: Sequence[Standing], calibration: int = 0) -> tuple[ProgressAward, ...]:
    """Per calendar month, the player(s) with the biggest gain (shown points, > 0).

    A newcomer's first ``calibration`` games (``Rules.calibration_games``) calibrate her
    rating and are no progress: a period counts for her only when she had played at least
    ``calibration`` rated games before it (an established player's periods all count).
    """
    gains: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for s in standings:
        before = 0
        for e in s.history:
            calibrated = not s.newcomer or before >= calibration
            before += e.games
            if e.rating_before is not None and calibrated:
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


def member_accounts(players: Sequence[ClubPlayer], members: Set[str]) -> dict[str, str]:
    """Lichess account (its key) -> the member's name, from the players file's ``lichess``
    column (``members``: the members' name keys). An account that is also another member's
    name is refused (ambiguous).

    Raises:
        BadInput: naming the players file's line and the ``lichess`` field.
    """
    accounts: dict[str, str] = {}
    for p in players:
        if not p.lichess:
            continue
        key = name_key(p.lichess)
        if key in members and key != name_key(p.name):
            raise BadInput(
                f"{p.where}: field lichess: {p.lichess!r} is also the name of another member"
            )
        if key in accounts and accounts[key] != p.name:
            raise BadInput(
                f"{p.where}: field lichess: {p.lichess!r} is already {accounts[key]}'s account"
            )
        accounts[key] = p.name
    return accounts


def k_used(
    players: Iterable[tuple[str, str | None, Sequence[PeriodEntry]]], rules: Rules
) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The K values the rated periods used (``players``: name, group, history), per player
    with their own K, per group with a K of its own, and for everyone else (``others``)."""
    found: dict[str, set[int]] = defaultdict(set)
    for name, group_name, history in players:
        if not history:
            continue
        group = (group_name or "").lower()
        if name_key(name) in rules.k_players:
            label = name
        elif group in rules.k_groups:
            label = group
        else:
            label = "others"
        found[label].update(e.k for e in history)
    order = sorted(found, key=lambda label: (label == "others", label.casefold()))
    return tuple((label, tuple(sorted(found[label]))) for label in order)
