"""A game of a Chess.com PGN export read into a ``ChessComGame`` record (pure).

A Chess.com PGN (the ``/pgn`` archive, or a download from the site) writes the tags of
the archive's JSON in its own way (``docs/chesscom.md``, "A Chess.com PGN file"):

- ``[Link "https://www.chess.com/game/live/4861239226"]``: the game's page (its identity);
  ``[Site "Chess.com"]``;
- ``[EndDate "2020.05.15"]`` and ``[EndTime "21:05:14"]``: the end, in UTC (the export's
  ``[Timezone "UTC"]``; ``UTCDate``/``UTCTime`` are the start);
- ``[WhiteElo]``/``[BlackElo]``: each side's rating **after** the game, as the JSON's
  ``white.rating``/``black.rating`` (all 34 of the recorded month's agree);
- ``[TimeControl "180+2"]``, ``"180"``, or ``"1/259200"`` for a daily game;
- ``[Result]`` and ``[Termination "Grischuk won by resignation"]``: who won, and how;
- ``[Variant "Chess960"]`` for a variant (absent for ``chess``).

What the export does not say: whether the game was **rated** (``[Event "Live Chess"]``
for rated and unrated games alike) and Chess.com's ``time_class``. The time class follows
Chess.com's own classes of the clock (``time_class_of``); which games were rated is worked
out from the ratings, by ``pgn_changes``, and only where they show it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime

from lichess_elo.core.chesscom.changes import ObservedChange, observed_changes
from lichess_elo.core.chesscom.records import ChessComGame, ChessComSide, GameFault

#: The ``Site`` tag of a Chess.com export.
SITE = "chess.com"
_PAGE = re.compile(r"^https?://(?:www\.)?chess\.com/game/", re.IGNORECASE)
#: ``Variant`` tag (lower case) -> Chess.com's ``rules``; no tag is ``chess``.
RULES_OF_VARIANT = {
    "chess960": "chess960",
    "crazyhouse": "crazyhouse",
    "king of the hill": "kingofthehill",
    "3-check": "threecheck",
    "three-check": "threecheck",
    "threecheck": "threecheck",
    "bughouse": "bughouse",
}
#: A decisive ``Termination`` (``NAME won by resignation``) -> the loser's result code.
LOSS_PHRASES = {
    "won by resignation": "resigned",
    "won by checkmate": "checkmated",
    "won on time": "timeout",
    "won - game abandoned": "abandoned",
    "won by abandonment": "abandoned",
}
#: A drawn ``Termination`` (``Game drawn by agreement``) -> both sides' result code.
DRAW_PHRASES = {
    "game drawn by agreement": "agreed",
    "game drawn by repetition": "repetition",
    "game drawn by stalemate": "stalemate",
    "game drawn by insufficient material": "insufficient",
    "game drawn by 50-move rule": "50move",
    "game drawn by timeout vs insufficient material": "timevsinsufficient",
}


def is_chesscom(headers: Mapping[str, str]) -> bool:
    """Whether a PGN game's tags are Chess.com's: ``[Site "Chess.com"]`` or a ``Link`` to a
    game page on chess.com.

    >>> is_chesscom({"Site": "Chess.com"}), is_chesscom({"Site": "https://lichess.org/x"})
    (True, False)
    """
    site = headers.get("Site", "").strip().casefold()
    return site == SITE or bool(_PAGE.match(headers.get("Link", "").strip()))


#: The Event Chess.com writes on a game outside any event: a live game, a daily game.
GENERIC_EVENTS = frozenset({"Live Chess", "Let's Play!"})


def is_generic_event(headers: Mapping[str, str]) -> bool:
    """Whether a Chess.com game's Event is the site's word for "no event" (a live or a
    daily game outside a tournament), as Lichess's ``rated blitz game`` is."""
    return is_chesscom(headers) and headers.get("Event", "").strip() in GENERIC_EVENTS


def time_class_of(time_control: str) -> str:
    """Chess.com's time class of a ``TimeControl``: ``daily`` for ``moves/seconds``, else by
    its estimated time, initial + 40 × increment: under 180 s ``bullet``, under 600 s
    ``blitz``, else ``rapid`` (Chess.com's classes; the export does not write the class).

    >>> time_class_of("180+2"), time_class_of("60"), time_class_of("1500+10")
    ('blitz', 'bullet', 'rapid')
    >>> time_class_of("1/259200")
    'daily'

    Raises:
        ValueError: not ``seconds[+increment]`` nor ``moves/seconds``.
    """
    if "/" in time_control:
        return "daily"
    initial, _, increment = time_control.strip().partition("+")
    try:
        estimate = int(initial) + 40 * int(increment or 0)
    except ValueError:
        raise ValueError(f"bad TimeControl {time_control!r}") from None
    return "bullet" if estimate < 180 else "blitz" if estimate < 600 else "rapid"


def _end(headers: Mapping[str, str], where: str) -> datetime:
    date = headers.get("EndDate") or headers.get("UTCDate") or headers.get("Date") or ""
    time = headers.get("EndTime") or headers.get("UTCTime") or ""
    try:
        return datetime.strptime(f"{date} {time}", "%Y.%m.%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        raise GameFault(f"{where}: bad EndDate/EndTime {date!r} {time!r}") from None


def _rating(headers: Mapping[str, str], tag: str, where: str) -> int:
    value = headers.get(tag, "").strip()
    try:
        return int(value)
    except ValueError:
        raise GameFault(f"{where}: {tag} {value!r} is not a whole number") from None


def _codes(headers: Mapping[str, str], white: str, black: str, where: str) -> tuple[str, str]:
    """The white and black result codes the ``Result`` and ``Termination`` tags say."""
    result = headers.get("Result", "").strip()
    termination = headers.get("Termination", "").strip()
    said = termination.casefold()
    if result == "1/2-1/2":
        code = DRAW_PHRASES.get(said)
        if code is None:
            raise GameFault(f"{where}: unknown drawn Termination {termination!r}; left out")
        return code, code
    if result not in ("1-0", "0-1"):
        raise GameFault(f"{where}: Result {result!r} is not a finished game's")
    winner = white if result == "1-0" else black
    if not said.startswith(winner.casefold() + " "):
        raise GameFault(f"{where}: Termination {termination!r} disagrees with Result {result}")
    loss = LOSS_PHRASES.get(said[len(winner) + 1 :])
    if loss is None:
        raise GameFault(f"{where}: unknown Termination {termination!r}; left out")
    return ("win", loss) if result == "1-0" else (loss, "win")


def parse_pgn_game(headers: Mapping[str, str], pgn: str) -> ChessComGame:
    """The record of one game of a Chess.com PGN export (``headers``: its tags, ``pgn``:
    its text). ``rated`` is ``True`` until ``pgn_changes`` works it out (the export does
    not say it).

    Raises:
        GameFault: no ``Link``, a bad end, rating, ``TimeControl`` or variant, an unknown
            ``Termination`` or one that disagrees with ``Result``; the message names the
            game by its ``Link`` (else its players).
    """
    url = headers.get("Link", "").strip()
    white = headers.get("White", "").strip()
    black = headers.get("Black", "").strip()
    where = url or f"{white or '?'} - {black or '?'}"
    if not url:
        raise GameFault(f"{where}: no Link tag (a Chess.com game's page)")
    if not white or not black:
        raise GameFault(f"{where}: a player without a name")
    variant = headers.get("Variant", "").strip().casefold()
    rules = "chess" if variant in ("", "standard") else RULES_OF_VARIANT.get(variant)
    if rules is None:
        raise GameFault(f"{where}: unknown Variant {headers.get('Variant')!r}; left out")
    time_control = headers.get("TimeControl", "").strip()
    try:
        time_class = time_class_of(time_control)
    except ValueError as exc:
        raise GameFault(f"{where}: {exc}") from None
    white_code, black_code = _codes(headers, white, black, where)
    fen = headers.get("FEN") if headers.get("SetUp") == "1" else None
    return ChessComGame(
        url=url,
        end_time=_end(headers, where),
        rated=True,
        rules=rules,
        time_class=time_class,
        time_control=time_control,
        white=ChessComSide(white, _rating(headers, "WhiteElo", where), white_code),
        black=ChessComSide(black, _rating(headers, "BlackElo", where), black_code),
        pgn=pgn,
        initial_setup=fen,
    )


def pgn_changes(games: Iterable[ChessComGame], player: str) -> list[ObservedChange]:
    """``player``'s games of a Chess.com PGN file by end time, each with its observed change
    and its ``rated`` flag as the ratings show it.

    The chain runs through every game of a pool (``observed_changes`` with each game taken
    as rated): an unrated game repeats the current rating, so it never breaks the chain
    and its own change is 0. A game whose change is not 0 moved the player's rating: it was
    rated. A game whose change is 0 or unknown (the pool's first in the file) may have been
    either; it is taken as **unrated** (``rated`` false, no change), so no unrated game
    reaches the FIDE track. The file is taken as the player's whole record from its first
    game to its last (a missing game would make a false change).
    """
    found: list[ObservedChange] = []
    for seen in observed_changes((replace(g, rated=True) for g in games), player):
        if seen.change:
            found.append(seen)
            continue
        found.append(
            replace(
                seen,
                game=replace(seen.game, rated=False),
                rating_before=None,
                change=None,
                opponent_before=None,
                opponent_before_estimated=False,
            )
        )
    return found
