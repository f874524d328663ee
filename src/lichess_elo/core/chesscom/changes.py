"""Chess.com's own track of a player: the observed change of each rated game (pure).

Chess.com publishes each side's rating **after** the game and nothing else; its Glicko
constants are not published. So the only honest per-game number is the observed change:

- a rated game's change is its post-game rating minus the player's previous rated
  post-game rating **in the same pool** (``rules`` + ``time_class``), games taken by
  ``end_time``;
- the first rated game of a pool in the import has no change (``None``), nor has the
  first after a month that was not read (the player may have played in it): never
  invented;
- unrated games repeat the current rating and make no change (``None``); they do not
  move the pool's previous rating either.

The opponent's pre-game rating is not in the archive. It is estimated by mirroring the
player's change: ``opponent_before = opponent_after + change`` (Glicko moves both sides in
opposite directions; the two moves are of equal size only when the two RDs are equal, so
this is an estimate, and marked ``opponent_before_estimated``). Without a change, there is
no estimate (``None``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from lichess_elo.core.chesscom.pools import pool_key
from lichess_elo.core.chesscom.records import ChessComGame
from lichess_elo.core.months import month_index


@dataclass(frozen=True, slots=True)
class ObservedChange:
    """One game of a player on Chess.com's own track.

    Attributes:
        game: The game.
        pool: Chess.com's pool (``pool_key``), e.g. ``chess_blitz``.
        rating_after: The player's published rating after the game.
        rating_before: The player's previous rated post-game rating in the pool, where the
            import shows it (``None``: first in the pool, after a month not read, unrated).
        change: ``rating_after - rating_before`` of a rated game, else ``None``.
        opponent_after: The opponent's published rating after the game.
        opponent_before: The opponent's estimated rating before the game
            (``opponent_after + change``), ``None`` without a change.
        opponent_before_estimated: Whether ``opponent_before`` is an estimate (always, when
            it is given: the archive never says it).
    """

    game: ChessComGame
    pool: str
    rating_after: int
    rating_before: int | None
    change: int | None
    opponent_after: int
    opponent_before: int | None
    opponent_before_estimated: bool


def observed_changes(
    games: Iterable[ChessComGame],
    player: str,
    months_read: Collection[tuple[int, int]] | None = None,
) -> list[ObservedChange]:
    """``player``'s games by ``end_time``, each with its observed change.

    Args:
        games: Games of ``player`` (others are left out).
        player: The account (case-insensitive).
        months_read: The ``(year, month)`` archives read; a game's change needs every month
            from the pool's previous rated game's month to its own to be read. ``None``:
            every month from the first game's to the last game's was read.
    """
    own = sorted(
        (g for g in games if g.color_of(player) is not None), key=lambda g: (g.end_time, g.url)
    )
    if months_read is None:
        read = {month_index(*g.month) for g in own}
        if read:
            read = set(range(min(read), max(read) + 1))
    else:
        read = {month_index(year, month) for year, month in months_read}
    last: dict[str, tuple[int, int]] = {}  # pool -> (post-game rating, month index)
    found: list[ObservedChange] = []
    for game in own:
        color = game.color_of(player)
        assert color is not None
        mine = game.side(color)
        theirs = game.side("black" if color == "white" else "white")
        pool = pool_key(game.rules, game.time_class)
        here = month_index(*game.month)
        before: int | None = None
        if game.rated:
            previous = last.get(pool)
            if previous is not None and all(m in read for m in range(previous[1], here + 1)):
                before = previous[0]
            last[pool] = (mine.rating_after, here)
        change = None if before is None else mine.rating_after - before
        found.append(
            ObservedChange(
                game=game,
                pool=pool,
                rating_after=mine.rating_after,
                rating_before=before,
                change=change,
                opponent_after=theirs.rating_after,
                opponent_before=None if change is None else theirs.rating_after + change,
                opponent_before_estimated=change is not None,
            )
        )
    return found
