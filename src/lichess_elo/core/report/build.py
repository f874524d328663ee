"""The report model: a player's Lichess games under FIDE Elo rules, next to Glicko-2.

Pure code, no I/O. ``build_report`` takes the games (any perfs, oldest first or not),
the replay facts and the settings and returns one ``PerfReport`` per selected perf:

- **Selection.** A game counts when it is rated, finished, has a ``ratingDiff`` for the
  player and the opponent has a rating. Every other game of the player is counted under one
  exclusion reason (``selection.EXCLUSION_REASONS``; the selection lives in ``selection.py``,
  the records in ``model.py``).
- **Periods.** ``month`` (``2023-01``), ISO ``week`` (``2023-W05``), ``day``
  (``2023-01-31``) or ``game`` (the game id), all on the UTC ``created_at``.
- **The Elo track** (the FIDE edition in force for each period, ``core.fide.editions``):
  the player's rating is frozen at the period start; each opponent's rating is their
  Lichess rating in that game; the period change is rounded once, half away from zero.
  ``shadow`` starts once from the first Lichess rating (or ``start_rating``);
  ``lichess`` restarts every period from the Lichess rating before its first game.
- **The Glicko track**: Lichess's own pre-game ratings and ``ratingDiff`` values, with a
  chain check: a game whose rating is not the previous game's rating + diff has a *gap*
  of the difference before it, caused by overlapping games (Lichess shows the rating at a
  game's creation) or else by missing games or a Lichess adjustment (``gap_cause``).

The summary (totals, correlation, disagreements, endings) is in ``summary.py``; one perf's
report, step by step, in ``perf.py``; a game's period, gap cause and row in ``rows.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.fide_record import FidePlayer
from lichess_elo.core.games import LICHESS, Game
from lichess_elo.core.replay_facts import ReplayFacts
from lichess_elo.core.report.model import PerfReport
from lichess_elo.core.report.perf import perf_report
from lichess_elo.core.report.rows import MIN_PERFORMANCE_GAMES, gap_cause, period_label
from lichess_elo.core.report.selection import (
    EXCLUSION_REASONS,
    SHOWN_WHEN_ANY,
    classify,
    counted_in_range,
    select_perfs,
)
from lichess_elo.core.report.settings import ReportSettings
from lichess_elo.core.words import plural

if TYPE_CHECKING:
    from collections.abc import Mapping

    from lichess_elo.core.games import UserInfo

__all__ = ["MIN_PERFORMANCE_GAMES", "build_report", "gap_cause", "period_label"]


@keywords_checked
def build_report(
    user: str,
    games: Sequence[Game],
    facts: Mapping[str, ReplayFacts],
    *,
    settings: ReportSettings,
    user_info: UserInfo | None = None,
    fide_player: FidePlayer | None = None,
    provisional_known: bool = True,
) -> list[PerfReport]:
    """Build the report, one ``PerfReport`` per selected perf.

    Args:
        user: The player's Lichess name (any case).
        games: The games held (any perfs, any order); games before ``settings.since``
            still count toward "rated games before the period" for K. With ``since`` and
            ``user_info``, the games after ``settings.until`` must be held too: the games
            before ``since`` are the public count minus every game held from then on.
        facts: Replay facts by game id (``replay_cache.replay_all``); missing ones are allowed.
        settings: The options.
        user_info: The user's public data, for the default perf and the games played
            before ``since``.
        fide_player: The player's real FIDE record, shown beside the track (its birth
            year and peak feed the K rules unless the settings give them).
        provisional_known: The games carry Lichess's provisional flag (false for a PGN,
            which never writes it: see ``rules.k_warning``).

    Raises:
        BadInput: an unknown perf.
    """
    plies = {game_id: f.plies for game_id, f in facts.items()}
    counted, excluded, held_in_range = classify(user, games, settings.start, settings.stop, plies)
    perfs = select_perfs(settings.perfs, counted, user_info)
    total = sum(held_in_range.values())
    reports = []
    for perf in perfs:
        reasons = {
            r: excluded[perf, r]
            for r in EXCLUSION_REASONS
            if r not in SHOWN_WHEN_ANY or excluded[perf, r]
        }
        reasons["other_perf"] = total - held_in_range[perf]
        held = counted.get(perf, [])
        reports.append(
            perf_report(user, perf, held, facts, settings, reasons, fide_player, provisional_known)
        )
    if all(not r.games for r in reports):
        general = _empty_message(user, games, settings, total)
        if general is not None:
            reports = [replace(r, message=general) for r in reports]
    in_range_counts = counted_in_range(counted, settings.start, settings.stop)
    site = games[0].site if games else LICHESS  # a report reads one site's games
    return [replace(r, perf_counts=in_range_counts, site=site) for r in reports]


def _empty_message(
    user: str, games: Sequence[Game], settings: ReportSettings, mine_in_range: int
) -> str | None:
    """Why nothing at all counts, when that is truer than "no counted <perf> games"."""
    in_range = " in the selected range" if settings.since or settings.until else ""
    if not games:
        return f"{user} has no games{in_range}"
    if mine_in_range == 0:
        if not any(g.color_of(user) for g in games):
            return f"{user} plays in none of the {plural(len(games), 'game')} read"
        return f"{user} has no games in the selected range"
    if "all" in settings.perfs:
        return f"{user} has no counted games (rated, finished, with a rating change){in_range}"
    return None
