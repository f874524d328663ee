"""A PGN file of either site: Lichess's games read by ``sources.pgn``, Chess.com's as the
API import reads them (``docs/chesscom.md``, "A Chess.com PGN file").

Each game's site is found from its own tags (``core.chesscom.pgn.is_chesscom``:
``[Site "Chess.com"]`` or a ``Link`` to chess.com), so a file may mix the two. A Chess.com
game becomes a ``ChessComGame`` record (``parse_pgn_game``), the player's games get their
observed change and their rated flag from the ratings (``pgn_changes``), and each becomes
the tool's ``Game`` as an imported one does (``sources.chesscom.games.to_game``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import chess.pgn

from lichess_elo.core.chesscom import ChessComGame, GameFault, ObservedChange
from lichess_elo.core.chesscom.pgn import is_chesscom, parse_pgn_game, pgn_changes
from lichess_elo.core.games import Game
from lichess_elo.sources import pgn
from lichess_elo.sources.chesscom.games import to_game, to_games


def read_pgn(
    text: str,
    *,
    player: str | None = None,
    on_warning: Callable[[str], None] | None = None,
    on_read: Callable[[int, int], None] | None = None,
) -> list[Game]:
    """Every game of a PGN file of Lichess's, Chess.com's or both (Lichess's first, as
    ``sources.pgn.read_pgn`` reads them, then Chess.com's by end time).

    Args:
        text: The PGN text.
        player: Whose Chess.com games get an observed change (``pgn_changes``); ``None``:
            the one name every Chess.com game of the file has, if there is one.
        on_warning: Called with one line for each game left out (naming it), and one line
            saying how many Chess.com games are taken as unrated and why.
        on_read: As for ``sources.pgn.read_pgn``.
    """
    records: list[ChessComGame] = []

    def take(headers: chess.pgn.Headers, chunk: str) -> bool:
        if not is_chesscom(headers):
            return False
        try:
            records.append(parse_pgn_game(headers, chunk))
        except GameFault as fault:
            if on_warning is not None:
                on_warning(f"Chess.com game {fault}")
        return True

    games = pgn.read_pgn(text, on_warning=on_warning, on_read=on_read, other=take)
    if records:
        games.extend(_chesscom_games(records, player, on_warning))
    return games


def _player_of(records: list[ChessComGame]) -> str | None:
    """The one name (case-insensitive) every game has, else ``None``."""
    names = {records[0].white.username.casefold(), records[0].black.username.casefold()}
    for record in records[1:]:
        names &= {record.white.username.casefold(), record.black.username.casefold()}
    return names.pop() if len(names) == 1 else None


def _chesscom_games(
    records: list[ChessComGame], player: str | None, on_warning: Callable[[str], None] | None
) -> list[Game]:
    """The ``Game`` of each record: the player's with their observed change, the others'
    (a game the player did not play) with none, as unrated games."""
    player = player or _player_of(records)
    changes = [] if player is None else pgn_changes(records, player)
    unrated = sum(1 for c in changes if not c.game.rated)
    if on_warning is not None and unrated:
        on_warning(
            f"{unrated} of {len(changes)} Chess.com games taken as unrated: a Chess.com "
            "PGN does not say which games were rated, and their ratings did not show it "
            "(no change, or the first of its pool in the file); import chess.com:NAME to "
            "have Chess.com's word"
        )
    games = to_games(changes, player or "", on_warning)
    mine = {c.game.url for c in changes}
    for record in records:
        if record.url in mine:
            continue
        change = ObservedChange(
            record, "", record.white.rating_after, None, None, record.black.rating_after, None,
            False,
        )  # fmt: skip
        try:
            games.append(to_game(replace(record, rated=False), change, "white"))
        except (ValueError, KeyError) as exc:
            if on_warning is not None:
                on_warning(f"Chess.com game {record.url}: left out ({exc})")
    return games
