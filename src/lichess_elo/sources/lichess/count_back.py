"""How far back a report fetches before ``since``: until K's 30-game count is known.

FIDE gives K 40 to a player with fewer than 30 rated games (rating regulations 8.3.3), so a
report starting at ``since`` needs the number of counted games before it, but only up to
30. ``fetch_games`` reads the months before ``since``, newest first, until every reported
perf has that many, the account's first month is reached, or ``COUNT_BACK_MONTHS`` months
were read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta

from lichess_elo.core.games import Game, UserInfo
from lichess_elo.sources.lichess.months import month_start

#: FIDE's K rule looks at 30 rated games (K 40 before them): counting back stops there.
COUNT_BACK_GAMES = 30
#: At most this many months are fetched before ``since`` to count those games.
COUNT_BACK_MONTHS = 12


def short_perfs(
    name: str, games: Sequence[Game], perfs: set[str], before: datetime
) -> tuple[str, ...]:
    """The perfs in ``perfs`` with fewer than ``COUNT_BACK_GAMES`` counted games (the
    report's own rule, ``exclusion_reason``) played before ``before``."""
    from lichess_elo.core.report.selection import exclusion_reason  # a report's, on use

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


def count_back_months(
    name: str,
    user: UserInfo,
    found: Mapping[str, Game],
    since: tuple[date, datetime],
    perfs: Sequence[str],
    read_month: Callable[[date], tuple[list[Game], bool] | None],
    keep: Callable[[Game], bool],
) -> tuple[list[date], tuple[str, ...]]:
    """Read the months before ``since`` (the day and its midnight, UTC), newest first, until
    each perf of ``perfs`` (a report's, see ``select_perfs``) has ``COUNT_BACK_GAMES``
    counted games before it, the account's first month is reached, or
    ``COUNT_BACK_MONTHS`` months were read.

    ``found`` holds the games kept so far (it grows as ``keep`` keeps the games read back,
    those before ``since``); ``read_month`` gives a month's games (``None``: damaged, not
    counted). Returns the months read and the perfs still short (none once the whole
    history before ``since`` is held: the count is then exact).
    """
    # the report's rules, imported here: a fetch that does not count back never loads them
    from lichess_elo.core.report.selection import classify, select_perfs

    day, low = since
    first_month = month_start(user.created_at.astimezone(UTC).date())
    window_games = [g for g in found.values() if g.created_at >= low]
    counted, _, _ = classify(name, window_games, None, None)
    need = set(select_perfs(perfs, counted, user))
    month = month_start(day)
    back: list[date] = []
    while True:
        short = short_perfs(name, list(found.values()), need, low)
        if not short or month <= first_month or len(back) == COUNT_BACK_MONTHS:
            break
        month = month_start(month - timedelta(days=1))
        back.append(month)
        read = read_month(month)
        if read is None:
            continue
        for game in read[0]:
            if game.created_at < low:
                keep(game)
    if month <= first_month:
        short = ()  # the whole history before ``since`` is held: the count is exact
    return back, short
