"""The report's per-game steps: a game's rating period, the cause of a chain gap, its row.

Pure code, no I/O (``perf.perf_report`` calls them; the rules are in ``build``'s docstring).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from datetime import datetime

from lichess_elo.core import fide
from lichess_elo.core.games import Color, Game, Side, chain_link
from lichess_elo.core.replay_facts import ReplayFacts, endings
from lichess_elo.core.report.model import GameRow, GapCause
from lichess_elo.core.report.settings import PeriodKind

#: A period's performance rating is shown from this many games on: FIDE publishes no rating
#: from fewer than 5 games (regulation 7.1.4), and one game's "performance" is only its
#: result at ±800. Shorter periods (and one-game periods) show none.
MIN_PERFORMANCE_GAMES = 5


def period_label(game: Game, kind: PeriodKind) -> str:
    """The rating period of ``game``: ``2023-01``, ``2023-W05``, ``2023-01-31`` or its id."""
    when = game.created_at
    if kind == "month":
        return f"{when.year}-{when.month:02d}"
    if kind == "week":
        year, week, _ = when.isocalendar()
        return f"{year}-W{week:02d}"
    if kind == "day":
        return f"{when.year}-{when.month:02d}-{when.day:02d}"
    return game.id


def site_start(previous: Side | None, side: Side) -> int:
    """The site's rating of the player before a game: ``chain_link``'s ``before`` (after
    ``previous``, the player's previous game of the perf), else the rating after the game,
    the first one the site published (the first game of a site that gives only post-game
    ratings: its change is unknown, so the site's track starts there); 0 when the site
    gave none (never for a counted game)."""
    before = side.rating if side.rating is not None else chain_link(previous, side)[0]
    if before is None:
        before = side.rating_end
    return before or 0


def gap_cause(previous: Game, game: Game, ends: Sequence[datetime]) -> GapCause:
    """Why the chain broke between ``previous`` and ``game`` (consecutive games of a perf).

    Lichess shows the rating at a game's creation. From ``previous``'s creation to
    ``game``'s, exactly ``previous`` must end for ``game``'s rating to be ``previous``'s
    rating + diff when no game is missing. So the gap is an ``overlap`` when ``previous``
    had not ended (``last_move_at``) when ``game`` was created, or when another held game
    of the perf ended in between (it was created earlier and overlapped ``previous``);
    else ``missing`` (``previous`` without ``last_move_at`` counts as ``missing``).

    Args:
        previous: The previous game of the perf.
        game: The game with the gap before it.
        ends: The ``last_move_at`` of every held game of the perf, sorted.
    """
    last = previous.last_move_at
    if last is None:
        return "missing"
    if last > game.created_at:
        return "overlap"
    ended = bisect_right(ends, game.created_at) - bisect_left(ends, previous.created_at)
    return "overlap" if ended > 1 else "missing"


def game_row(
    game: Game,
    color: Color,
    label: str,
    previous: tuple[Game, Color] | None,
    facts: ReplayFacts | None,
    rated: fide.RatedGame,
    rating: int,
    k: int,
    ends: Sequence[datetime],
    chapter: str,
    floor: int,
    lead_in: Side | None = None,
) -> GameRow:
    """The game's row on both tracks: FIDE's rating of it (``rated``, at the period's
    ``rating`` and ``k``) beside the site's, with the chain gap after ``previous``
    (``core.games.chain_link``: from whichever ratings the site published); ``floor`` is
    that of the edition that rated the period (7.2.1). ``lead_in`` is the player in the
    perf's game before the first one reported, where ``previous`` is ``None``: the rating
    it left gives the first game's ``before`` (a site that publishes only post-game
    ratings), and no gap is reported before the first game."""
    me, opp = (game.white, game.black) if color == "white" else (game.black, game.white)
    prev = None
    cause: GapCause | None = None
    days: float | None = None
    if previous is not None:
        prev_game, prev_color = previous
        prev = prev_game.white if prev_color == "white" else prev_game.black
        days = (game.created_at - prev_game.created_at).total_seconds() / 86400
    before, change = me.rating, me.rating_diff
    if before is not None and change is not None and me.rating_after is None:
        # the site's before and change (Lichess): chain_link's arithmetic, inline (a game)
        after: int | None = before + change
        end = None if prev is None else prev.rating_end
        gap = None if end is None or before == end else before - end
    else:
        before, change, gap = chain_link(lead_in if prev is None else prev, me)
        if previous is None:
            gap = None
        after = me.rating_end
    if gap is not None and previous is not None:
        cause = gap_cause(previous[0], game, ends)
    opp_rating = opp.rating if opp.rating is not None else opp.rating_after
    assert after is not None and opp_rating is not None  # a counted game has them
    # positional, in field order (the names beside): a fifth of the time of 28 keywords
    return GameRow(
        game.id,  # id
        game.variant,  # variant
        game.created_at,  # played_at
        label,  # period
        color,  # color
        opp.name or opp.label,  # opponent
        opp.title,  # opponent_title
        opp_rating,  # opponent_rating
        opp.provisional,  # opponent_provisional
        opp.is_bot,  # opponent_bot
        rated.score,  # score
        game.status,  # status
        tuple(endings(game, color, facts)) if facts is not None else (),  # endings
        before,  # lichess_rating
        change,  # lichess_diff
        after,  # lichess_after
        me.provisional,  # provisional
        gap,  # gap_before
        cause,  # gap_cause
        days,  # days_since_previous
        rating,  # elo_rating
        rated.expected,  # expected
        k,  # k
        rated.change,  # elo_change
        rated.capped,  # capped
        facts.valid if facts is not None else None,  # replay_valid
        facts.plies if facts is not None else None,  # plies
        floor,  # floor
        chapter,  # chapter
        rated.not_rated,  # not_rated
        game.site,  # site
        opp.rating is not None and opp.rating_estimated,  # opponent_estimated
    )
