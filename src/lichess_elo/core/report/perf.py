"""One perf's report, in named steps: the plan, each period's K and rating, the rows.

Pure code, no I/O (``build.build_report`` calls ``perf_report`` once per perf; the rules
are described in ``build``'s docstring). ``perf_report`` plans the perf (``_plan``: the
games in range grouped by period, the chapter, the K warning, the start rating), then
walks the periods in order: the adjustment between lists (``_adjust``), K (``_period_k``),
FIDE's rating of the period (``fide.rate_period``), one ``GameRow`` a game
(``rows.game_row``) and the ``PeriodRow`` (``_period_row``); the summary and the FIDE
comparison close it (``_finish``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from lichess_elo.core import fide
from lichess_elo.core.fide.kinds import Chapter
from lichess_elo.core.fide_record import FidePlayer, list_for_speed
from lichess_elo.core.games import Color, Game, Side
from lichess_elo.core.replay_facts import ReplayFacts
from lichess_elo.core.report.editions import (
    KWarning,
    game_chapter,
    game_event,
    k_warning,
    main_chapter,
    perf_chapter,
    period_edition,
)
from lichess_elo.core.report.fide_compare import compare, fide_rating, month_of
from lichess_elo.core.report.model import ChapterPart, GameRow, Gap, PerfReport, PeriodRow
from lichess_elo.core.report.rows import (
    MIN_PERFORMANCE_GAMES,
    game_row,
    period_label,
    site_start,
)
from lichess_elo.core.report.selection import in_range
from lichess_elo.core.report.settings import ReportSettings
from lichess_elo.core.report.summary import LONG_BREAK_DAYS, summarize

#: A game in range: its index among the perf's held games, the game, the player's colour.
Item = tuple[int, Game, Color]


@dataclass(frozen=True)
class _Plan:
    """What a perf's periods share: decided once, before the first period."""

    missing: int
    groups: dict[str, list[Item]]
    ends: list[datetime]
    chapter: Chapter
    speed: str
    born: int | None
    record: FidePlayer | None
    warning: KWarning | None
    start: int | None
    #: The player in the perf's held game before the first one in range (the site's rating
    #: chain of the first reported game starts from it), or ``None``.
    lead_in: Side | None = None


@dataclass
class _Track:
    """The FIDE track's state from one period to the next."""

    rating: int
    peak: int
    previous: tuple[Game, Color] | None = None
    unrated_before: int = 0  # held games before the period the 600/2600 rule left unrated
    warned: bool = False  # the warning is given only where the 30-game rule decided a K


def _plan(
    perf: str,
    held: Sequence[tuple[Game, Color]],
    settings: ReportSettings,
    fide_player: FidePlayer | None,
    provisional_known: bool,
) -> _Plan:
    """The perf's games in range by period, its chapter, K's inputs and the start rating."""
    # rated games of the perf before the first held one: ``games_before`` when given, else
    # 0 (the games held before ``since``, fetched for this count, count where they stand)
    missing = settings.games_before if settings.games_before is not None else 0
    since, until = settings.start, settings.stop  # made once, not once a game
    chosen = [(i, g, c) for i, (g, c) in enumerate(held) if in_range(g, since, until)]
    groups: dict[str, list[Item]] = {}
    kind = settings.period
    for item in chosen:
        groups.setdefault(period_label(item[1], kind), []).append(item)
    first = chosen[0] if chosen else None
    chapter = perf_chapter([g for g, _ in held], settings.rules)
    warning = k_warning(
        (first[1], first[2]) if first is not None else None,
        missing + (first[0] if first is not None else 0),
        count_given=settings.games_before is not None,
        k_given=settings.k is not None,
        # the 30 of the 30-game rule, of the edition that rates the first period
        new_player_games=(
            period_edition(chapter, first[1], settings.rules_as_of).new_player_games
            if first is not None
            else 0
        ),
        provisional_known=provisional_known,
    )
    start: int | None = None
    lead_in = None
    if first is not None:
        if first[0]:
            before, color = held[first[0] - 1]
            lead_in = before.side(color)
        own = site_start(lead_in, first[1].side(first[2]))
        start = settings.start_rating if settings.start_rating is not None else own
    born = settings.born
    if fide_player is not None and born is None:  # the real record's, unless given
        born = fide_player.birth_year
    return _Plan(
        missing=missing,
        groups=groups,
        ends=sorted(g.last_move_at for g, _ in held if g.last_move_at is not None),
        chapter=chapter,
        speed=held[0][0].speed if held else perf,
        born=born,
        # the real record's published ratings decide K period by period (8.3.3: only
        # ratings published by the period count), unless the user gave the peak or K
        record=fide_player if settings.peak is None and settings.k is None else None,
        warning=warning,
        start=start,
        lead_in=lead_in,
    )


def _adjust(
    plan: _Plan, settings: ReportSettings, track: _Track, head: Game, last: PeriodRow | None
) -> tuple[fide.Adjustment | None, int | None]:
    """The rating adjustment FIDE made between the last period and this one (the shadow
    track's rating is adjusted in ``track``), and the rating it was made from."""
    if last is None or not settings.adjustments or settings.rules_as_of is not None:
        return None, None
    day = head.created_at.date()
    adjustment = fide.adjustment_between(plan.chapter, last.first_day or day, day)
    if adjustment is None or settings.track != "shadow":
        return None, None
    adjusted_from, track.rating = track.rating, fide.adjusted(adjustment, track.rating)
    return adjustment, adjusted_from


def _period_k(
    plan: _Plan,
    settings: ReportSettings,
    track: _Track,
    head: Game,
    games_before: int,
    edition: fide.Edition,
) -> tuple[int, fide.KReason, int]:
    """K for the period, why, and the rated games before it (raised when the 30-game
    count is contradicted: K as for an established player)."""
    if settings.k is not None:
        return settings.k, "given", games_before
    for attempt in range(2):
        k_wanted, reason = fide.k_factor(
            track.rating,
            games_before=games_before,
            birth_year=plan.born,
            year=head.created_at.year,
            peak=track.peak,
            edition=edition,
        )
        if attempt or reason != "new" or plan.warning is None:
            break
        track.warned = True
        games_before += plan.warning.assumed_before - plan.warning.counted_before
    return k_wanted, reason, games_before


def _period_row(
    label: str,
    items: Sequence[Item],
    rows: Sequence[GameRow],
    result: fide.PeriodResult,
    reason: fide.KReason,
    games_before: int,
    elo_start: int,
    lichess_start: int,
    track: _Track,
    edition: fide.Edition,
    adjusted: tuple[fide.Adjustment | None, int | None],
    fide_player: FidePlayer | None,
) -> PeriodRow:
    """The period on both tracks, from its game rows and FIDE's rating of it."""
    head_game = items[0][1]
    head_days = rows[0].days_since_previous
    return PeriodRow(
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
        elo_start=elo_start,
        elo_change_exact=result.change,
        elo_change=result.rounded_change,
        elo_end=result.new_rating,
        lichess_start=lichess_start,
        lichess_change=sum(r.lichess_diff for r in rows if r.lichess_diff is not None),
        lichess_end=rows[-1].lichess_after,
        gaps=tuple(
            Gap(r.id, r.gap_before, r.gap_cause or "missing")
            for r in rows
            if r.gap_before is not None
        ),
        long_break=head_days is not None and head_days >= LONG_BREAK_DAYS,
        gap_before_start=rows[0].gap_before,
        edition=edition,
        peak_before=track.peak,
        fide_rating=fide_rating(fide_player, head_game.speed, head_game.created_at),
        first_day=head_game.created_at.date(),
        adjustment=adjusted[0],
        adjusted_from=adjusted[1],
    )


def _parts(items: Sequence[Item], choice: fide.ChapterChoice) -> dict[Chapter, list[int]]:
    """The period's games by chapter (their places in ``items``), the main chapter first."""
    chapters = [game_chapter(g, choice) for _, g, _ in items]
    main = main_chapter(chapters)
    parts: dict[Chapter, list[int]] = {main: []}
    for place, chapter in enumerate(chapters):
        parts.setdefault(chapter, []).append(place)
    return parts


def _joined(
    rating: int, results: Sequence[fide.PeriodResult], places: Sequence[list[int]]
) -> fide.PeriodResult:
    """One period's result from its chapter parts' (``places``: each part's games in the
    period): the games in the period's order, the sums, the main part's K and edition, and
    the change the sum of the parts' rounded changes."""
    if len(results) == 1:
        return results[0]
    games: list[fide.RatedGame | None] = [None] * sum(map(len, places))
    for result, where in zip(results, places, strict=True):
        for place, rated in zip(where, result.games, strict=True):
            games[place] = rated
    done = tuple(g for g in games if g is not None)
    main = results[0]
    points = sum((r.points for r in results), main.points * 0)
    rounded = sum(r.rounded_change for r in results)
    counted = [g.opponent for g in done if g.not_rated is None]
    return fide.PeriodResult(
        rating=rating,
        k=main.k,
        k_requested=main.k_requested,
        k_limited=any(r.k_limited for r in results),
        method=main.method,
        cap=main.cap,
        games=done,
        points=points,
        expected=sum((r.expected for r in results), main.expected * 0),
        change=sum((r.change for r in results), main.change * 0),
        rounded_change=rounded,
        new_rating=rating + rounded,
        performance=fide.performance_rating(counted, points),
        edition=main.edition,
    )


def _period(
    label: str,
    items: Sequence[Item],
    plan: _Plan,
    settings: ReportSettings,
    track: _Track,
    last: PeriodRow | None,
    facts: Mapping[str, ReplayFacts],
    fide_player: FidePlayer | None,
) -> tuple[PeriodRow, list[GameRow]]:
    """Rate one period and make its rows; ``track`` moves on to the next period. Its games
    are rated in parts, one a chapter (``_parts``), each under its own edition and K from
    the rating at the period's start."""
    head_game, head_color = items[0][1], items[0][2]
    previous, lead_in = track.previous, None
    if previous is None:
        lead_in = plan.lead_in
        prev_side = lead_in
    else:
        prev_side = previous[0].side(previous[1])
    lichess_start = site_start(prev_side, head_game.side(head_color))
    if settings.track == "lichess":
        track.rating = lichess_start
    adjusted = _adjust(plan, settings, track, head_game, last)
    # rated games before: a game the edition left unrated (600/2600) is not one
    games_before = plan.missing + items[0][0] - track.unrated_before
    if plan.record is not None:
        wanted = list_for_speed(plan.speed)
        published = plan.record.peak(wanted, before=month_of(head_game.created_at))
        track.peak = max(track.peak, published or 0)
    track.peak = max(track.peak, track.rating)
    rating = track.rating
    parts = _parts(items, settings.rules)
    results: list[fide.PeriodResult] = []
    reasons: list[fide.KReason] = []
    befores: list[int] = []
    game_chapters: list[Chapter] = [plan.chapter] * len(items)
    floors = [0] * len(items)  # each game's floor: its chapter's edition's (7.2.1)
    for chapter, places in parts.items():
        edition = period_edition(chapter, head_game, settings.rules_as_of)
        k_wanted, reason, before = _period_k(
            plan, settings, track, head_game, games_before, edition
        )
        games = [
            # positional (opponent, score, event): keywords cost about twice as much a game
            fide.GameResult(g.opponent(c).rating_shown or 0, g.points(c), game_event(g))
            for _, g, c in (items[p] for p in places)
        ]
        result = fide.rate_period(
            rating, games, k=k_wanted, method=settings.method, cap=settings.cap, edition=edition
        )
        results.append(result)
        reasons.append(reason)
        befores.append(before)
        for place in places:
            game_chapters[place] = chapter
            floors[place] = edition.floor
    joined = _joined(rating, results, list(parts.values()))
    ks = [0] * len(items)
    for part, places in zip(results, parts.values(), strict=True):
        for place in places:
            ks[place] = part.k
    rows = []
    ends = plan.ends
    for (_, game, color), rated, k, chapter, floor in zip(
        items, joined.games, ks, game_chapters, floors, strict=True
    ):
        row = game_row(
            game, color, label, previous, facts.get(game.id), rated, rating, k, ends, chapter,
            floor, lead_in,
        )  # fmt: skip
        rows.append(row)
        previous, lead_in = (game, color), None
    track.previous = previous
    period = _period_row(
        label, items, rows, joined, reasons[0], befores[0], rating, lichess_start, track,
        joined.edition, adjusted, fide_player,
    )  # fmt: skip
    period = replace(
        period,
        parts=tuple(
            ChapterPart(chapter, len(places), r.k, why, r.edition, r.rounded_change)
            for (chapter, places), r, why in zip(parts.items(), results, reasons, strict=True)
        ),
    )
    track.rating = joined.new_rating
    track.peak = max(track.peak, track.rating)
    track.unrated_before += sum(g.not_rated is not None for g in joined.games)
    return period, rows


def _finish(
    user: str,
    perf: str,
    settings: ReportSettings,
    plan: _Plan,
    track: _Track,
    rows: list[GameRow],
    periods: list[PeriodRow],
    excluded: Mapping[str, int],
    fide_player: FidePlayer | None,
) -> PerfReport:
    """The perf's report: its rows, the summary, the FIDE comparison, the message."""
    message = None
    if not rows:
        message = f"{user} has no counted {perf} games (rated, finished, with a rating change)" + (
            " in the selected range" if settings.since or settings.until else ""
        )
    summary = summarize(tuple(rows), tuple(periods), settings.track, plan.start)
    fide_summary = None
    if fide_player is not None:
        heads: dict[str, GameRow] = {}
        for row in rows:
            heads.setdefault(row.period, row)
        fide_summary = compare(
            fide_player,
            plan.speed,
            [(heads[p.label].played_at, p.elo_end, p.fide_rating) for p in periods],
            (rows[0].played_at, rows[-1].played_at) if rows else None,
        )
    return PerfReport(
        user=user,
        perf=perf,
        settings=settings,
        start_rating=plan.start,
        games=tuple(rows),
        periods=tuple(periods),
        excluded=excluded,
        summary=summary,
        message=message,
        missing_games=plan.missing,
        chapter=plan.chapter,
        k_warning=plan.warning if track.warned else None,
        fide=fide_summary,
    )


def perf_report(
    user: str,
    perf: str,
    held: Sequence[tuple[Game, Color]],
    facts: Mapping[str, ReplayFacts],
    settings: ReportSettings,
    excluded: Mapping[str, int],
    fide_player: FidePlayer | None = None,
    provisional_known: bool = True,
) -> PerfReport:
    """One perf's report from its counted games (``held``, oldest first) and their facts."""
    plan = _plan(perf, held, settings, fide_player, provisional_known)
    rating = plan.start if plan.start is not None else 0
    # the highest rating known so far: the given peak, the start rating and the track
    track = _Track(rating=rating, peak=max(settings.peak or 0, rating))
    rows: list[GameRow] = []
    periods: list[PeriodRow] = []
    for label, items in plan.groups.items():
        last = periods[-1] if periods else None
        period, period_rows = _period(label, items, plan, settings, track, last, facts, fide_player)
        rows.extend(period_rows)
        periods.append(period)
    return _finish(user, perf, settings, plan, track, rows, periods, excluded, fide_player)
