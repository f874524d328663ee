"""The club's games from any ``GameSource`` (an edge): the games its members played each
other, read through each member's Lichess account (or name, when it can be one).

A game counts once however many members' histories hold it; only games whose two players
are both members are kept. Games of one arena or swiss form one event, named by its id;
the others form one event a month per perf (``<source> blitz 2025-05``), as a PGN's
generic Lichess games do.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from lichess_elo.core.club.model import ClubGame, ClubPlayer
from lichess_elo.core.games import Game
from lichess_elo.errors import BadInput
from lichess_elo.sources.base import GameQuery, GameSource
from lichess_elo.sources.lichess.checks import validate_username
from lichess_elo.sources.lichess.tournaments import games_from_lichess


def _account(player: ClubPlayer) -> str | None:
    """The member's account: their ``lichess`` column, else their name if it can be one."""
    for name in (player.lichess, player.name):
        if name:
            try:
                return validate_username(name.strip())
            except BadInput:
                continue
    return None


def _event(game: Game, source: GameSource) -> str:
    if game.tournament_id:
        return f"arena {game.tournament_id}"
    if game.swiss_id:
        return f"swiss {game.swiss_id}"
    return f"{source.name} {game.perf} {game.created_at:%Y-%m}"


def club_games(
    sources: Sequence[GameSource], players: Sequence[ClubPlayer], seq_start: int = 0
) -> tuple[list[ClubGame], list[str]]:
    """The games among ``players`` in every source, and notes on what was left out.

    Raises:
        BadInput: no member has an account to read (a players file is needed); the
            sources' own errors pass through.
    """
    accounts = sorted({a for a in map(_account, players) if a is not None}, key=str.lower)
    if not accounts:
        raise BadInput(
            "a game source needs the club's players, with their Lichess accounts",
            field="games_from",
        )
    members = {a.lower() for a in accounts}
    out: list[ClubGame] = []
    seen: set[str] = set()
    for source in sources:
        by_event: dict[str, list[Game]] = defaultdict(list)
        for account in accounts:
            for game in source.load(GameQuery(account)).games:
                names = [(s.name or s.user_id or "").lower() for s in (game.white, game.black)]
                if game.id in seen or not all(n in members for n in names):
                    continue
                seen.add(game.id)
                by_event[_event(game, source)].append(game)
        for event in sorted(by_event):
            made = list(
                games_from_lichess(
                    by_event[event], name=event, where=source.name, seq_start=seq_start + len(out)
                )
            )
            out.extend(made)
    unread = len(players) - len(accounts)
    notes = [f"{unread} players have no account a game source can read"] if unread else []
    return out, notes
