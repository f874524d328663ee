"""Which club games are rated: the forfeit rule and the club's count/exclude rules.

Pure: each game either counts or gets the rule that left it out, in words, so the
organiser can see every excluded game and why (``--view excluded``, the JSON).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from lichess_elo.core.club.model import ClubGame, Rules
from lichess_elo.core.games import Clock
from lichess_elo.core.games import speed_of as game_speed


def matches(value: str | None, patterns: Sequence[str]) -> bool:
    """True when ``value`` matches one of the glob ``patterns`` (case-insensitive)."""
    if value is None:
        return False
    low = value.lower()
    return any(fnmatch.fnmatchcase(low, p.lower()) for p in patterns)


def speed_of(time_control: str | None) -> str | None:
    """Lichess's speed class (``core.games.speed_of``) of a club's ``minutes+increment``.

    ``None`` when ``time_control`` is not ``BASE+INCREMENT``.
    """
    if not time_control or "+" not in time_control:
        return None
    base, _, inc = time_control.partition("+")
    try:
        clock = Clock(initial=round(float(base) * 60), increment=int(inc))
    except ValueError:
        return None
    return game_speed(clock)


#: The rule that leaves out a forfeit (FIDE rating regulations 4.1: a game won by forfeit is
#: not rated; the result still stands in the event).
FORFEIT_RULE = "forfeit: recorded, never rated"


def exclusion_rule(game: ClubGame, rules: Rules) -> str | None:
    """The rule that leaves ``game`` unrated, in words, or ``None`` when it counts."""
    if game.forfeit:
        return FORFEIT_RULE
    patterns = ", ".join
    if rules.exclude_events and matches(game.event_name, rules.exclude_events):
        return f"exclude.events ({patterns(rules.exclude_events)}) matches the event"
    if rules.count_events and not matches(game.event_name, rules.count_events):
        return f"count.events ({patterns(rules.count_events)}) does not match the event"
    if rules.count_time_controls:
        tc = game.time_control
        if not (
            matches(tc, rules.count_time_controls)
            or matches(speed_of(tc), rules.count_time_controls)
        ):
            shown = f"{tc} ({speed_of(tc)})" if speed_of(tc) else (tc or "none given")
            return (
                f"count.time_controls ({patterns(rules.count_time_controls)}) "
                f"leaves out the time control {shown}"
            )
    return None


def counts(game: ClubGame, rules: Rules) -> bool:
    """Whether ``game`` counts under the forfeit, ``count`` and ``exclude`` rules."""
    return exclusion_rule(game, rules) is None
