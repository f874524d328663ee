"""How far back a report fetches before ``since``: until K's 30-game count is known.

FIDE gives K 40 to a player with fewer than 30 rated games (rating regulations 8.3.3), so a
report starting at ``since`` needs the number of counted games before it, but only up to
30. ``fetch_games`` reads the months before ``since``, newest first, until every reported
perf has that many, the account's first month is reached, or ``COUNT_BACK_MONTHS`` months
were read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from lichess_elo.core.games import Game
from lichess_elo.core.report.selection import exclusion_reason

#: FIDE's K rule looks at 30 rated games (K 40 before them): counting back stops there.
COUNT_BACK_GAMES = 30
#: At most this many months are fetched before ``since`` to count those games.
COUNT_BACK_MONTHS = 12


def short_perfs(
    name: str, games: Sequence[Game], perfs: set[str], before: datetime
) -> tuple[str, ...]:
    """The perfs in ``perfs`` with fewer than ``COUNT_BACK_GAMES`` counted games (the
    report's own rule, ``exclusion_reason``) played before ``before``."""
    found: dict[str, int] = dict.fromkeys(perfs, 0)
    wanted = name.lower()
    for game in games:
        color = game.color_of(wanted)
        if (
            game.created_at < before
            and game.perf in found
            and color is not None
            and exclusion_reason(game, color, game.perf) is None
        ):
            found[game.perf] += 1
    return tuple(sorted(p for p, n in found.items() if n < COUNT_BACK_GAMES))
