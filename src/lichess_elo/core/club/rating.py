"""A club's internal Elo ladder: the rules, the rating run and its results (pure, no I/O).

The records (``ClubPlayer``, ``ClubGame``, ``Rules``, the results) are in ``model.py``
and re-exported here; one period is applied by ``period.py``, the awards are built by
``standings.py``, one player's page by ``player.py``. The readers for CSV, PGN and
``club.toml`` are in ``sources/club/files.py`` and ``sources/club/config.py``, Lichess
tournaments in ``sources/lichess/tournaments.py``.
Expected scores, rounding and the FIDE initial rating come from ``fide.py``.

Rating periods (``Rules.update``):

* ``event``: tournament mode. Every player's rating is frozen at the event's start and
  changes once at its end by ``K x (points - sum of expected scores)``.
* ``month``: the same, with each calendar month as the period.
* ``game``: both players change after every game, in order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.club.config import (
    FORFEIT_RULE,
    counts,
    exclusion_rule,
    matches,
    time_control_speed,
)
from lichess_elo.core.club.kfactor import KChoice
from lichess_elo.core.club.model import (
    METHODS,
    RECENT_MONTHS,
    ROUNDINGS,
    UPDATE_MODES,
    ClubGame,
    ClubMethod,
    ClubPlayer,
    ClubResult,
    EventSummary,
    ExcludedGame,
    GamesAward,
    PeriodEntry,
    ProgressAward,
    Rounding,
    Rules,
    Standing,
    Start,
    Target,
    UpdateMode,
    name_key,
)
from lichess_elo.core.club.period import expected, rate_period
from lichess_elo.core.club.standings import events, k_used, member_accounts, most_games, progress
from lichess_elo.core.club.state import PlayerState, k_for, standing, start_rating
from lichess_elo.core.months import months_between
from lichess_elo.core.words import did_you_mean, plural
from lichess_elo.errors import BadInput

__all__ = [
    "FORFEIT_RULE",
    "METHODS",
    "RECENT_MONTHS",
    "ROUNDINGS",
    "UPDATE_MODES",
    "ClubGame",
    "ClubMethod",
    "ClubPlayer",
    "ClubResult",
    "EventSummary",
    "GamesAward",
    "KChoice",
    "PeriodEntry",
    "ProgressAward",
    "Rounding",
    "Rules",
    "Standing",
    "Start",
    "Target",
    "UpdateMode",
    "counts",
    "exclusion_rule",
    "expected",
    "k_for",
    "matches",
    "months_between",
    "name_key",
    "periods",
    "rate_club",
    "time_control_speed",
]


def _resolve(
    players: Sequence[ClubPlayer],
    games: Sequence[ClubGame],
    rules: Rules,
    roster: bool,
    notes: list[str],
) -> tuple[dict[str, PlayerState], list[ClubGame]]:
    """Check the input (names, duplicates, single-player events) and build the states; a
    newcomer whose name is near a listed one is noted in ``notes``."""
    states: dict[str, PlayerState] = {}
    for p in players:
        key = name_key(p.name)
        if key in states:
            raise BadInput(f"{p.where}: field name: player {p.name!r} is listed twice")
        states[key] = PlayerState(
            p.name,
            start_rating(p, p.name, rules),
            p.group,
            p.born,
            (p.rating is not None or p.start is not None) and not p.provisional,
        )
    accounts = member_accounts(players, set(states))
    listed = [p.name for p in players]
    seen: dict[tuple[object, ...], ClubGame] = {}
    out: list[ClubGame] = []
    for original in games:
        g = replace(
            original,
            white=accounts.get(name_key(original.white), original.white),
            black=accounts.get(name_key(original.black), original.black),
        )
        for fieldname, name in (("white", g.white), ("black", g.black)):
            key = name_key(name)
            if key not in states:
                near = did_you_mean(name, listed) if roster else ""
                if roster and not rules.newcomers:
                    # a near name first: a typo must not be steered to a second player
                    how = (f"{near} (a new player: add them to the players file)" if near
                           else "add them, or set newcomers = true in club.toml")  # fmt: skip
                    raise BadInput(
                        f"{g.where}: field {fieldname}: player {name!r} is not in the players "
                        f"file; {how}"
                    )
                if near:
                    notes.append(f"{g.where}: {name!r} is not in the players file and is rated "
                                 f"as a newcomer; {near}")  # fmt: skip
                states[key] = PlayerState(name, start_rating(None, name, rules))
        if name_key(g.white) == name_key(g.black):
            raise BadInput(
                f"{g.where}: field black: event {g.event_name!r} has a single player "
                f"({g.white} against themselves)"
            )
        dup: tuple[object, ...]
        if g.game_id:
            dup = ("id", g.game_id)
        else:
            pair = (name_key(g.white), name_key(g.black), g.event_name.casefold())
            dup = (g.day, *pair, g.round) if g.round else (g.day, *pair, g.score)
        if dup in seen:
            raise BadInput(
                f"{g.where}: field white: duplicated game (same as {seen[dup].where}); "
                "a rematch needs its own round"
            )
        seen[dup] = g
        out.append(g)
    return states, out


def _order(g: ClubGame) -> tuple[object, ...]:
    return (g.day, g.event_name.casefold(), g.round, g.seq)


def periods(games: Sequence[ClubGame], mode: UpdateMode) -> list[tuple[str, int, list[ClubGame]]]:
    """Split games into rating periods: ``(label, update id, games)`` in rating order.

    In ``game`` mode every game is its own period and all games of one day share an
    update id (the "last update" of the standings is the last day).
    """
    ordered = sorted(games, key=_order)
    if mode == "game":
        day_ids = {d: i for i, d in enumerate(sorted({g.day for g in ordered}))}
        return [(g.event_name, day_ids[g.day], [g]) for g in ordered]
    groups: dict[str, list[ClubGame]] = defaultdict(list)
    labels: dict[str, str] = {}
    for g in ordered:
        label = g.day.strftime("%Y-%m") if mode == "month" else g.event_name
        groups[label.casefold()].append(g)
        labels.setdefault(label.casefold(), label)
    keys = sorted(groups, key=lambda k: (groups[k][0].day, k))
    return [(labels[k], i, groups[k]) for i, k in enumerate(keys)]


@keywords_checked
def rate_club(
    players: Sequence[ClubPlayer],
    games: Sequence[ClubGame],
    rules: Rules,
    *,
    roster: bool | None = None,
    notes: Sequence[str] = (),
) -> ClubResult:
    """Rate every counted game under ``rules`` and build the standings and awards.

    Args:
        players: The players file's rows (may be empty).
        games: Every game read, from any source.
        rules: The club's rules.
        roster: True when a players file was given, so unknown names are errors unless
            ``rules.newcomers``; defaults to ``bool(players)``.
        notes: Notes from the readers, passed through to the result.

    Raises:
        BadInput: an unknown player, a duplicated game or a single-player event,
            naming the file, line and field.
    """
    out_notes = list(notes)
    on_roster = bool(players) if roster is None else roster
    states, checked = _resolve(players, games, rules, on_roster, out_notes)
    excluded = []
    counted = []
    for game in checked:
        rule = exclusion_rule(game, rules)
        if rule is None:
            counted.append(game)
        else:
            excluded.append(ExcludedGame(game, rule))
    if excluded:
        out_notes.append(
            f"{len(excluded)} of {len(checked)} games are not rated (forfeits, count/exclude rules)"
        )
    unrated_games = 0
    plan = periods(counted, rules.update)
    for label, update_id, chunk in plan:
        unrated_games += rate_period(states, label, update_id, chunk, rules)
    if unrated_games:
        out_notes.append(f"{unrated_games} games between two unrated players were not rated")
    last_id = plan[-1][1] if plan else None
    club_day = max((g.day for g in counted), default=None)
    listed = list(states.values())
    if rules.count_time_controls:
        # a time-control ladder lists only the players who played that control
        played = {name_key(n) for g in counted for n in (g.white, g.black)}
        listed = [st for st in listed if name_key(st.name) in played]
        if len(listed) < len(states):
            out_notes.append(
                f"{plural(len(states) - len(listed), 'player')} not listed (no game of the "
                f"counted time controls: {', '.join(rules.count_time_controls)})"
            )
    standings = [standing(st, rules, last_id, club_day) for st in listed if st.rating is not None]
    standings.sort(key=lambda s: (-s.rating, name_key(s.name)))
    unrated = tuple(sorted((st.name for st in listed if st.rating is None), key=name_key))
    if unrated:
        out_notes.append(
            f"{len(unrated)} players not rated yet (a FIDE initial rating needs 5 games "
            "against rated players)"
        )
    return ClubResult(
        standings=tuple(standings),
        unrated=unrated,
        events=events(counted),
        progress=progress(standings, rules.calibration_games),
        most_games=most_games(standings),
        last_period=plan[-1][0] if plan else None,
        last_day=club_day,
        notes=tuple(out_notes),
        rules=rules,
        excluded=tuple(excluded),
        k_used=k_used(((st.name, st.group, st.history) for st in listed), rules),
    )
