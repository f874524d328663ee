"""Which site's account a player argument names: ``chess.com:NAME`` is Chess.com's,
``lichess:NAME`` or a bare ``NAME`` Lichess's (pure: the one place the prefix is read).

A prefix that looks like Chess.com's but is spelt otherwise (``chesscom:``, ``chess-com:``,
``chesscom.com:``, ``www.chess.com:``, ``chess.com/NAME``, ``chess.com NAME`` without the
colon) is refused with the right spelling, never taken for a Lichess name; so is any other
``SITE:`` prefix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lichess_elo.core.games import CHESSCOM, LICHESS
from lichess_elo.errors import BadInput

#: The prefixes, as written.
CHESSCOM_PREFIX = "chess.com:"
LICHESS_PREFIX = "lichess:"

_LOOSE = re.compile(r"[^a-z0-9]")


@dataclass(frozen=True)
class Account:
    """A player's account: the site (``core.games.SITES``) and the name as given."""

    site: str
    name: str

    @property
    def spelled(self) -> str:
        """The account as the command line writes it: ``chess.com:NAME`` or ``NAME``."""
        return f"{CHESSCOM_PREFIX}{self.name}" if self.site == CHESSCOM else self.name


def _folded(text: str) -> str:
    """``text`` in lower case with everything but letters and digits left out."""
    return _LOOSE.sub("", text.lower())


def _looks_chesscom(folded: str) -> bool:
    """Whether a folded prefix means Chess.com (``chesscom``, ``wwwchesscom``...)."""
    return folded.startswith(("chesscom", "wwwchesscom")) or folded in ("chess", "cc")


def parse_account(text: str) -> Account:
    """The account ``text`` names.

    >>> parse_account("chess.com:Hikaru"), parse_account("OnBoard247")
    (Account(site='chesscom', name='Hikaru'), Account(site='lichess', name='OnBoard247'))

    Raises:
        BadInput: a misspelt or unknown site prefix (the message gives the right
            spelling), or a prefix without a name.
    """
    given = text.strip()
    head, colon, name = given.partition(":")
    if colon:
        lowered = head.lower()
        if lowered == CHESSCOM_PREFIX[:-1]:
            site = CHESSCOM
        elif lowered == LICHESS_PREFIX[:-1]:
            site = LICHESS
        else:
            folded = _folded(head)
            if _looks_chesscom(folded):
                right = f"{CHESSCOM_PREFIX}{name or 'NAME'}"
            elif folded.startswith("lichess"):
                right = f"{LICHESS_PREFIX}{name or 'NAME'}"
            else:
                right = f"{CHESSCOM_PREFIX}{name or 'NAME'} or {LICHESS_PREFIX}{name or 'NAME'}"
            raise BadInput(f"'{given}' names no site this tool reads; write {right}")
        if not name.strip():
            raise BadInput(f"'{given}' names no player; write {lowered}:NAME")
        return Account(site, name.strip())
    # no colon: a Chess.com address written another way is refused, never taken for Lichess
    for sep in ("/", " "):
        first, found, rest = given.partition(sep)
        if found and _looks_chesscom(_folded(first)) and rest.strip():
            right = f"{CHESSCOM_PREFIX}{rest.strip().split('/')[-1]}"
            raise BadInput(f"'{given}' names no player as written; write {right}")
    if "." in given and _looks_chesscom(_folded(given)):
        raise BadInput(f"'{given}' names no player; write {CHESSCOM_PREFIX}NAME")
    return Account(LICHESS, given)
