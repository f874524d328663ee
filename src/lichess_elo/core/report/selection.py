"""Which of a player's games a report counts, why the others are left out, which perfs.

Pure code, no I/O (part of the report model, split from ``report.py`` for size). A game
counts when it is rated, finished, the site published the player's rating and its move by
the game (a change, Lichess's ``ratingDiff``, or a post-game rating) and a rating of the
opponent; every other game of the player gets exactly one reason from
``EXCLUSION_REASONS``, tested in that order. A game its site did not rate for want of
moves (no rating change published, at most one ply: ``core.lichess_pgn.unplayed``, the
rule every command shares) is ``unplayed``; an ``Abandoned`` game the site rated (diffs
present: Lichess's ``noStart`` in an arena) counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from itertools import pairwise
from typing import TYPE_CHECKING

from lichess_elo.core.games import PERFS, Color, Game, is_unplayed
from lichess_elo.errors import UnknownChoice

if TYPE_CHECKING:
    from lichess_elo.core.games import UserInfo

#: Exclusion reasons, in the order they are tested.
EXCLUSION_REASONS = (
    "other_perf",
    "ai_opponent",
    "casual",
    "aborted",
    "unplayed",
    "no_rating_change",
)
#: Reasons shown only when a game has them (``unplayed`` came after the report's JSON
#: layout was fixed: a report without such a game reads as it did).
SHOWN_WHEN_ANY = frozenset({"unplayed"})
#: Statuses of games that never started. ``noStart`` (a player never moved) is not one: when
#: Lichess rated it (the diffs say so) it counts, as Lichess counted it.
_NOT_STARTED = frozenset({"created", "started", "aborted"})


def exclusion_reason(game: Game, color: Color, perf: str, plies: int | None = None) -> str | None:
    """Why ``game`` does not count for the player of ``color`` in ``perf`` (``None``: it counts).

    ``plies``: the game's plies when its moves are no longer held (``is_unplayed``).
    """
    me, opponent = game.side(color), game.opponent(color)
    if game.perf != perf:
        return "other_perf"
    if opponent.is_ai:
        return "ai_opponent"
    if not game.rated:
        return "casual"
    if game.status in _NOT_STARTED or not game.finished:
        return "aborted"
    if is_unplayed(game, plies):
        return "unplayed"
    if me.rating_after is None and opponent.rating_after is None:  # Lichess: the fast test
        if me.rating is None or me.rating_diff is None or opponent.rating is None:
            return "no_rating_change"
        return None
    if me.rating_after is None and (me.rating is None or me.rating_diff is None):
        return "no_rating_change"
    if opponent.rating is None and opponent.rating_after is None:
        return "no_rating_change"
    return None


def _color(game: Game, wanted: str) -> Color | None:
    """The colour the lowercase name ``wanted`` played (``Game.color_of``, id first: faster)."""
    if game.white.user_id == wanted:
        return "white"
    if game.black.user_id == wanted:
        return "black"
    return game.color_of(wanted)


def classify(
    user: str,
    games: Sequence[Game],
    since: datetime | None,
    until: datetime | None,
    plies: Mapping[str, int] | None = None,
) -> tuple[dict[str, list[tuple[Game, Color]]], Counter[tuple[str, str]], Counter[str]]:
    """One pass over the games: the counted games by perf (oldest first, whole history),
    the (perf, reason) counts of the excluded games in range and the games in range by perf.

    ``plies``: the plies of games by id, for games whose moves are no longer held (a
    replay's count).
    """
    held = plies or {}
    wanted = user.lower()
    counted: dict[str, list[tuple[Game, Color]]] = {}
    excluded: Counter[tuple[str, str]] = Counter()
    ranged: Counter[str] = Counter()
    ordered = all(a.created_at <= b.created_at for a, b in pairwise(games))
    for game in games if ordered else sorted(games, key=lambda g: (g.created_at, g.id)):
        color = _color(game, wanted)
        if color is None:
            continue
        reason = exclusion_reason(game, color, game.perf, held.get(game.id))
        if reason is None:
            counted.setdefault(game.perf, []).append((game, color))
        if in_range(game, since, until):
            ranged[game.perf] += 1
            if reason is not None:
                excluded[game.perf, reason] += 1
    return counted, excluded, ranged


def counted_in_range(
    counted: dict[str, list[tuple[Game, Color]]], since: datetime | None, until: datetime | None
) -> dict[str, int]:
    """The counted games in range by perf (from ``classify``'s first part)."""
    return {
        perf: n
        for perf, held in counted.items()
        if (n := sum(1 for g, _ in held if in_range(g, since, until)))
    }


def check_perfs(requested: Sequence[str], *, allow_all: bool = True) -> tuple[str, ...]:
    """The perfs asked for, each checked against ``PERFS`` (and ``all`` when ``allow_all``).

    Raises:
        UnknownChoice: an unknown perf, with the list of valid ones.
    """
    valid = ("all", *PERFS) if allow_all else PERFS
    for perf in requested:
        if perf not in valid:
            raise UnknownChoice("perf", perf, valid)
    return tuple(requested)


def select_perfs(
    requested: Sequence[str],
    counted: Mapping[str, Sequence[object]],
    user_info: UserInfo | None = None,
) -> tuple[str, ...]:
    """The perfs to report.

    Raises:
        BadInput: a requested perf is not a Lichess perf (the message lists the valid ones).
    """
    check_perfs(requested)
    if "all" in requested:
        chosen = tuple(p for p in PERFS if counted.get(p))
        if chosen:
            return chosen
    elif requested:
        return tuple(dict.fromkeys(requested))
    if any(counted.values()):
        return (max(PERFS, key=lambda p: (len(counted.get(p, ())), -PERFS.index(p))),)
    if user_info is not None and user_info.perfs:
        known = [p for p in PERFS if p in user_info.perfs]
        if known:
            return (max(known, key=lambda p: (user_info.perfs[p].games, -PERFS.index(p))),)
    return ("blitz",)


def in_range(game: Game, since: datetime | None, until: datetime | None) -> bool:
    """True when ``game`` was created in [since, until) (an open end when ``None``)."""
    if since is not None and game.created_at < since:
        return False
    return until is None or game.created_at < until


def utc_midnight(day: date | None) -> datetime | None:
    """The start of ``day`` in UTC, for ``in_range`` (``None`` stays ``None``: an open end)."""
    return None if day is None else datetime(day.year, day.month, day.day, tzinfo=UTC)
