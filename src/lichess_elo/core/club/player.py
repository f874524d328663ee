"""One player's page (the ``player`` view): standing, recent change and next target (pure)."""

from __future__ import annotations

import math
from datetime import date
from decimal import Decimal

from lichess_elo.core import fide
from lichess_elo.core.club.model import (
    RECENT_MONTHS,
    ClubResult,
    PlayerView,
    Rules,
    Standing,
    Target,
    name_key,
)
from lichess_elo.core.club.rating import expected
from lichess_elo.core.months import add_months
from lichess_elo.core.words import did_you_mean, fold, match_folded
from lichess_elo.errors import BadInput


def find_player(result: ClubResult, name: str) -> Standing:
    """The standing of ``name``: the same name with case and spaces ignored, else the one
    name equal to it with accents folded too (``Hania Zielinska`` finds Hania Zielińska),
    else the one player with that first name (``Hania`` finds Hania Zielińska when she is
    the club's only Hania).

    Raises:
        BadInput: no rated player of that name (with the closest names), or several once
            accents are folded, or several with that first name (``field`` ``player``).
    """
    for s in result.standings:
        if name_key(s.name) == name_key(name):
            return s
    if any(name_key(n) == name_key(name) for n in result.unrated):
        raise _unrated(name)
    names = [s.name for s in result.standings]
    found = match_folded(name, names)
    if len(found) == 1:
        return next(s for s in result.standings if s.name == found[0])
    if found:
        several = ", ".join(found)
        raise BadInput(f"is several players once accents are folded: {several}", field="player",
                       value=repr(name))  # fmt: skip
    if match_folded(name, result.unrated):
        raise _unrated(name)
    first = _first_name(name, names)
    if len(first) == 1:
        return next(s for s in result.standings if s.name == first[0])
    if first:
        raise BadInput(f"is the first name of several players: {', '.join(first)}",
                       field="player", value=repr(name))  # fmt: skip
    if _first_name(name, result.unrated):
        raise _unrated(name)
    near = did_you_mean(name, [*names, *result.unrated])
    near = f"; {near}" if near else ""
    raise BadInput(f"is not a player of this club{near}", field="player", value=repr(name))


def _first_name(name: str, names: list[str] | tuple[str, ...]) -> list[str]:
    """The ``names`` whose first name is ``name`` (one word; case and accents folded)."""
    key = fold(name)
    if not key or " " in key:
        return []
    return [n for n in names if fold(n).split(" ")[0] == key]


def _unrated(name: str) -> BadInput:
    return BadInput(
        "has no rating yet (fewer than 5 games against rated players)",
        field="player",
        value=repr(name),
    )


def recent_change(standing: Standing, until: date | None, months: int = RECENT_MONTHS) -> int:
    """Shown rating change over the ``months`` calendar months up to ``until``.

    ``until`` is the latest game in the data (``ClubResult.last_day``); 0 without games.
    """
    if until is None:
        return 0
    since = date(*add_months(until.year, until.month, -months), min(until.day, 28))
    before: Decimal | None = None
    for e in standing.history:
        if e.day <= since:
            before = e.rating_after
        elif before is None:
            before = e.rating_before if e.rating_before is not None else e.rating_after
    if before is None:
        return 0
    return standing.shown - fide.round_half_away(before)


def next_target(standing: Standing, rules: Rules) -> Target:
    """The next target: ``target_step`` points up, by ``term_end`` when set.

    ``wins_needed`` is how many wins against players of the same rating reach it at the
    player's next K (each worth K x (1 - 0.5)).
    """
    gain = standing.k_next * (1 - expected(standing.rating, standing.rating, rules))
    if rules.rounding == "update":
        gain = Decimal(fide.round_half_away(gain))
    wins = math.ceil(Decimal(rules.target_step) / gain) if gain > 0 else 0
    return Target(
        standing.shown + rules.target_step,
        rules.target_step,
        rules.term_end,
        standing.k_next,
        gain,
        wins,
    )


def player_view(result: ClubResult, name: str, months: int = RECENT_MONTHS) -> PlayerView:
    """The page of ``name``: standing, shown change over ``months`` months, next target.

    Raises:
        BadInput: no rated player of that name (``field`` ``player``).
    """
    standing = find_player(result, name)
    recent = recent_change(standing, result.last_day, months)
    return PlayerView(standing, recent, months, next_target(standing, result.rules))
