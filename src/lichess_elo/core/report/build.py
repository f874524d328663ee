"""The report model: a player's Lichess games under FIDE Elo rules, next to Glicko-2.

Pure code, no I/O. ``build_report`` takes the games (any perfs, oldest first or not),
the replay facts and the settings and returns one ``PerfReport`` per selected perf:

- **Selection.** A game counts when it is rated, finished, has a ``ratingDiff`` for the
  player and the opponent has a rating. Every other game of the player is counted under one
  exclusion reason (``selection.EXCLUSION_REASONS``; the selection lives in ``selection.py``,
  the records in ``model.py``).
- **Periods.** ``month`` (``2023-01``), ISO ``week`` (``2023-W05``), ``day``
  (``2023-01-31``) or ``game`` (the game id), all on the UTC ``created_at``.
- **The Elo track** (FIDE rating regulations 2024, amended 1 Oct 2025, via ``fide.py``):
  the player's rating is frozen at the period start; each opponent's rating is their
  Lichess rating in that game; the period change is rounded once, half away from zero.
  ``shadow`` starts once from the first Lichess rating (or ``start_rating``);
  ``lichess`` restarts every period from the Lichess rating before its first game.
- **The Glicko track**: Lichess's own pre-game ratings and ``ratingDiff`` values, with a
  chain check: a game whose rating is not the previous game's rating + diff has a *gap*
  of the difference before it, caused by overlapping games (Lichess shows the rating at a
  game's creation) or else by missing games or a Lichess adjustment (``gap_cause``).

The summary (totals, correlation, disagreements, endings) is in ``summary.py``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from lichess_elo.core import fide
from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.fide_record import FidePlayer, list_for_speed
from lichess_elo.core.games import Color, Game
from lichess_elo.core.replay_facts import ReplayFacts, endings
from lichess_elo.core.report.fide_compare import compare, fide_rating, month_of
from lichess_elo.core.report.model import GameRow, Gap, GapCause, PerfReport, PeriodRow
from lichess_elo.core.report.rules import game_event, k_warning, perf_chapter, period_edition
from lichess_elo.core.report.selection import (
    EXCLUSION_REASONS,
    classify,
    counted_in_range,
    in_range,
    select_perfs,
)
from lichess_elo.core.report.settings import PeriodKind, ReportSettings
from lichess_elo.core.report.summary import LONG_BREAK_DAYS, summarize
from lichess_elo.core.words import plural

if TYPE_CHECKING:
    from lichess_elo.core.games import UserInfo

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


def _missing_games(
    perf: str, held: int, settings: ReportSettings, user_info: UserInfo | None
) -> int:
    """Rated games of ``perf`` played before the first held game: ``games_before`` when
    given, else 0 (the games held before ``since``, fetched for this count, are counted
    where they stand in the history)."""
    return settings.games_before if settings.games_before is not None else 0


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


def _game_row(
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
) -> GameRow:
    me, opp = game.side(color), game.opponent(color)
    assert me.rating is not None and me.rating_diff is not None and opp.rating is not None
    gap: int | None = None
    cause: GapCause | None = None
    days: float | None = None
    if previous is not None:
        prev_game, prev_color = previous
        prev = prev_game.side(prev_color)
        assert prev.rating is not None and prev.rating_diff is not None
        if me.rating != prev.rating + prev.rating_diff:
            gap = me.rating - (prev.rating + prev.rating_diff)
            cause = gap_cause(prev_game, game, ends)
        days = (game.created_at - prev_game.created_at).total_seconds() / 86400
    return GameRow(
        id=game.id,
        variant=game.variant,
        played_at=game.created_at,
        period=label,
        color=color,
        opponent=opp.name or opp.label,
        opponent_title=opp.title,
        opponent_rating=opp.rating,
        opponent_provisional=opp.provisional,
        opponent_bot=opp.is_bot,
        score=rated.score,
        status=game.status,
        endings=tuple(endings(game, color, facts)) if facts is not None else (),
        lichess_rating=me.rating,
        lichess_diff=me.rating_diff,
        provisional=me.provisional,
        gap_before=gap,
        gap_cause=cause,
        days_since_previous=days,
        elo_rating=rating,
        expected=rated.expected,
        k=k,
        elo_change=rated.change,
        capped=rated.capped,
        replay_valid=facts.valid if facts is not None else None,
        plies=facts.plies if facts is not None else None,
        chapter=chapter,
        not_rated=rated.not_rated,
    )


def _perf_report(
    user: str,
    perf: str,
    held: Sequence[tuple[Game, Color]],
    facts: Mapping[str, ReplayFacts],
    settings: ReportSettings,
    user_info: UserInfo | None,
    excluded: Mapping[str, int],
    fide_player: FidePlayer | None = None,
    provisional_known: bool = True,
) -> PerfReport:
    missing = _missing_games(perf, len(held), settings, user_info)
    chosen = [
        (i, g, c) for i, (g, c) in enumerate(held) if in_range(g, settings.start, settings.stop)
    ]
    ends = sorted(g.last_move_at for g, _ in held if g.last_move_at is not None)
    groups: dict[str, list[tuple[int, Game, Color]]] = {}
    for item in chosen:
        groups.setdefault(period_label(item[1], settings.period), []).append(item)
    chapter = perf_chapter([g for g, _ in held], settings.rules)
    speed = held[0][0].speed if held else perf
    born, given_peak = settings.born, settings.peak
    # the real record's published ratings decide K period by period (8.3.3: only ratings
    # published by the period count), unless the user gave the peak or K
    record = fide_player if given_peak is None and settings.k is None else None
    if fide_player is not None:  # the real record, unless the user gave them
        born = fide_player.birth_year if born is None else born

    first = chosen[0] if chosen else None
    warning = k_warning(
        (first[1], first[2]) if first is not None else None,
        missing + (first[0] if first is not None else 0),
        count_given=settings.games_before is not None,
        k_given=settings.k is not None,
        provisional_known=provisional_known,
    )
    warned = False  # the warning is given only where the 30-game rule decided a K
    start: int | None = None
    if first is not None:
        own = first[1].side(first[2]).rating
        start = settings.start_rating if settings.start_rating is not None else own
    rating = start if start is not None else 0
    # the highest rating known so far: the given peak, the start rating and the track
    peak = max(given_peak or 0, rating)
    rows: list[GameRow] = []
    periods: list[PeriodRow] = []
    previous: tuple[Game, Color] | None = None
    unrated_before = 0  # held games before the period that the 600/2600 rule left unrated
    for label, items in groups.items():
        head_game, head_color = items[0][1], items[0][2]
        lichess_start = head_game.side(head_color).rating or 0
        if settings.track == "lichess":
            rating = lichess_start
        adjustment, adjusted_from = None, None
        if periods and settings.adjustments and settings.rules_as_of is None:
            day = head_game.created_at.date()
            adjustment = fide.adjustment_between(chapter, periods[-1].first_day or day, day)
            if adjustment is not None and settings.track == "shadow":
                adjusted_from, rating = rating, fide.adjusted(adjustment, rating)
            else:
                adjustment = None
        # rated games before: a game the edition left unrated (600/2600) is not one
        games_before = missing + items[0][0] - unrated_before
        if record is not None:
            published = record.peak(list_for_speed(speed), before=month_of(head_game.created_at))
            peak = max(peak, published or 0)
        peak = max(peak, rating)
        edition = period_edition(chapter, head_game, settings.rules_as_of)
        k_wanted: int
        reason: fide.KReason
        if settings.k is not None:
            k_wanted, reason = settings.k, "given"
        else:
            for attempt in range(2):
                k_wanted, reason = fide.k_factor(
                    rating,
                    games_before=games_before,
                    birth_year=born,
                    year=head_game.created_at.year,
                    peak=peak,
                    edition=edition,
                )
                if attempt or reason != "new" or warning is None:
                    break
                # the count is contradicted: K as for an established player
                warned = True
                games_before += warning.assumed_before - warning.counted_before
        results = [
            fide.GameResult(
                opponent=g.opponent(c).rating or 0, score=g.points(c), event=game_event(g)
            )
            for _, g, c in items
        ]
        result = fide.rate_period(
            rating, results, k=k_wanted, method=settings.method, cap=settings.cap, edition=edition
        )
        period_rows = []
        for (_, game, color), rated in zip(items, result.games, strict=True):
            period_rows.append(
                _game_row(
                    game,
                    color,
                    label,
                    previous,
                    facts.get(game.id),
                    rated,
                    rating,
                    result.k,
                    ends,
                    chapter,
                )
            )
            previous = (game, color)
        rows.extend(period_rows)
        last = items[-1][1].side(items[-1][2])
        lichess_change = sum(r.lichess_diff for r in period_rows)
        gaps = tuple(
            Gap(r.id, r.gap_before, r.gap_cause or "missing")
            for r in period_rows
            if r.gap_before is not None
        )
        head_days = period_rows[0].days_since_previous
        periods.append(
            PeriodRow(
                label=label,
                games=len(items),
                score=result.points,
                expected=result.expected,
                performance=(result.performance if len(items) >= MIN_PERFORMANCE_GAMES else None),
                games_before=games_before,
                k=result.k,
                k_requested=result.k_requested,
                k_reason=reason,
                k_limited=result.k_limited,
                elo_start=rating,
                elo_change_exact=result.change,
                elo_change=result.rounded_change,
                elo_end=result.new_rating,
                lichess_start=lichess_start,
                lichess_change=lichess_change,
                lichess_end=(last.rating or 0) + (last.rating_diff or 0),
                gaps=gaps,
                long_break=head_days is not None and head_days >= LONG_BREAK_DAYS,
                gap_before_start=period_rows[0].gap_before,
                edition=edition,
                peak_before=peak,
                fide_rating=fide_rating(fide_player, head_game.speed, head_game.created_at),
                first_day=head_game.created_at.date(),
                adjustment=adjustment,
                adjusted_from=adjusted_from,
            )
        )
        rating = result.new_rating
        peak = max(peak, rating)
        unrated_before += sum(g.not_rated is not None for g in result.games)

    message = None
    if not rows:
        message = f"{user} has no counted {perf} games (rated, finished, with a rating change)" + (
            " in the selected range" if settings.since or settings.until else ""
        )
    summary = summarize(tuple(rows), tuple(periods), settings.track, start)
    fide_summary = None
    if fide_player is not None:
        heads: dict[str, GameRow] = {}
        for row in rows:
            heads.setdefault(row.period, row)
        fide_summary = compare(
            fide_player,
            speed,
            [(heads[p.label].played_at, p.elo_end, p.fide_rating) for p in periods],
            (rows[0].played_at, rows[-1].played_at) if rows else None,
        )
    return PerfReport(
        user=user,
        perf=perf,
        settings=settings,
        start_rating=start,
        games=tuple(rows),
        periods=tuple(periods),
        excluded=excluded,
        summary=summary,
        message=message,
        missing_games=missing,
        chapter=chapter,
        k_warning=warning if warned else None,
        fide=fide_summary,
    )


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
    counted, excluded, held_in_range = classify(user, games, settings.start, settings.stop)
    perfs = select_perfs(settings.perfs, counted, user_info)
    total = sum(held_in_range.values())
    reports = []
    for perf in perfs:
        reasons = {r: excluded[perf, r] for r in EXCLUSION_REASONS}
        reasons["other_perf"] = total - held_in_range[perf]
        held = counted.get(perf, [])
        reports.append(
            _perf_report(
                user,
                perf,
                held,
                facts,
                settings,
                user_info,
                reasons,
                fide_player,
                provisional_known,
            )
        )
    if all(not r.games for r in reports):
        general = _empty_message(user, games, settings, total)
        if general is not None:
            reports = [replace(r, message=general) for r in reports]
    in_range_counts = counted_in_range(counted, settings.start, settings.stop)
    return [replace(r, perf_counts=in_range_counts) for r in reports]


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
