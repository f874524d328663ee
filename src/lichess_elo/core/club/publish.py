"""The published table: the ``[publish]`` rules leave out players not yet settled (pure).

``min_games`` leaves out the players with fewer games; ``hide_provisional`` the ratings
marked provisional. The ranks, the awards and the chart then follow the players shown,
and the players not rated yet are not named. ``Hidden`` says how many were left out.
"""

from __future__ import annotations

from dataclasses import replace

from lichess_elo.core.club.model import ClubResult, Hidden
from lichess_elo.core.club.standings import most_games, progress


def published(result: ClubResult) -> ClubResult:
    """``result`` as the rules publish it; unchanged when no ``[publish]`` rule is set."""
    rules = result.rules
    if rules.min_games <= 0 and not rules.hide_provisional:
        return result
    shown = tuple(
        s
        for s in result.standings
        if s.games >= rules.min_games and not (rules.hide_provisional and s.provisional)
    )
    hidden = Hidden(
        players=len(result.standings) - len(shown),
        unrated=len(result.unrated),
        min_games=rules.min_games,
        provisional=rules.hide_provisional,
    )
    return replace(
        result,
        standings=shown,
        unrated=(),
        progress=progress(shown, rules.calibration_games),
        most_games=most_games(shown),
        hidden=hidden,
    )
