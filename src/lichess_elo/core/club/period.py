"""One rating period of a club's ladder: expected scores, the changes, newcomers seated.

Pure code, no I/O; ``rating.rate_club`` runs the periods (``rating.periods``) in order,
and re-exports ``expected``. Every player's rating is frozen at the period's start; a
rated player changes once at its end by ``K x (points - sum of expected scores)``; an
unrated player's games against rated ones wait until there are 5, then give the FIDE
initial rating.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal

from lichess_elo.core import fide
from lichess_elo.core.club.config import chapter_of
from lichess_elo.core.club.kfactor import KChoice
from lichess_elo.core.club.model import ClubGame, PeriodEntry, Rules, name_key
from lichess_elo.core.club.state import PlayerState, k_for
from lichess_elo.core.months import months_between

__all__ = ["expected", "rate_period"]


def expected(
    own: Decimal, opponent: Decimal, rules: Rules, edition: fide.Edition = fide.CURRENT_STANDARD
) -> Decimal:
    """Expected score of ``own`` against ``opponent`` under the club's method.

    ``fide-table`` looks the whole-point difference of the shown ratings up in FIDE table
    8.1.2; ``formula`` is the logistic 1/(1+10^(-D/400)) on the unrounded ratings (the
    spreadsheet's numbers). Both come from the FIDE engine, and the 400-point rule (its
    400, the 2650 exemption) is the one of ``edition``: the edition of the game's chapter
    (``config.chapter_of`` its time control: the Laws of Chess, Appendix A; standard
    without one) in force on the period's first day (``fide.in_force``).
    """
    if rules.method == "fide-table":
        return fide.expected_score(
            fide.round_half_away(own),
            fide.round_half_away(opponent),
            method="table",
            cap=rules.cap_used,
            edition=edition,
        )
    if rules.cap_used:
        return fide.logistic_expected(fide.capped_fraction(own, opponent, edition=edition))
    return fide.logistic_expected(own - opponent)


def rate_period(
    states: Mapping[str, PlayerState],
    label: str,
    update_id: int,
    games: Sequence[ClubGame],
    rules: Rules,
) -> int:
    """Apply one period; returns how many games were not rated (both players unrated)."""
    first, last = games[0].day, games[-1].day
    keys = {name_key(n) for g in games for n in (g.white, g.black)}
    _mark_returns(states, keys, first, rules)
    ks = {key: k_for(states[key], rules, first) for key in keys}
    editions = {chapter: fide.in_force(chapter, first) for chapter in fide.CHAPTERS}
    frozen = {key: states[key].rating for key in keys}
    tally = _Tally()
    unrated_games = _score_games(states, frozen, games, rules, editions, tally)
    for key in sorted(tally.played):
        before = frozen[key]
        assert before is not None
        _apply_change(states[key], key, before, ks[key], tally, label, last, update_id, rules)
    for key in sorted(keys):
        _seat_newcomer(states[key], label, last, update_id)
        st = states[key]
        st.last_day = last
        st.return_left = max(0, st.return_left - tally.played.get(key, 0))
    return unrated_games


def _mark_returns(
    states: Mapping[str, PlayerState], keys: set[str], first: date, rules: Rules
) -> None:
    """Give the return K to each player back after a break longer than the rules' months."""
    for key in keys:
        st = states[key]
        if (
            rules.return_k is not None
            and st.last_day is not None
            and months_between(st.last_day, first) > rules.return_months
        ):
            st.return_left = rules.return_games


class _Tally:
    """A period's points, expected scores and game counts by player."""

    def __init__(self) -> None:
        self.points: dict[str, Decimal] = defaultdict(Decimal)
        self.expected: dict[str, list[Decimal]] = defaultdict(list)
        self.played: dict[str, int] = defaultdict(int)


def _score_games(
    states: Mapping[str, PlayerState],
    frozen: Mapping[str, Decimal | None],
    games: Sequence[ClubGame],
    rules: Rules,
    editions: Mapping[fide.Chapter, fide.Edition],
    tally: _Tally,
) -> int:
    """Tally the games between rated players on the period's frozen ratings, set aside a
    newcomer's games against rated players; returns the games between two unrated ones."""
    unrated_games = 0
    for g in games:
        a, b = name_key(g.white), name_key(g.black)
        ra, rb = frozen[a], frozen[b]
        if ra is None and rb is None:
            unrated_games += 1
            continue
        if ra is None or rb is None:
            newcomer, opp, score = (a, rb, g.score) if ra is None else (b, ra, 1 - g.score)
            assert opp is not None
            states[newcomer].pending.append(fide.GameResult(fide.round_half_away(opp), score))
            continue
        edition = editions[chapter_of(g.time_control)]
        for own, s, r_own, r_other in ((a, g.score, ra, rb), (b, 1 - g.score, rb, ra)):
            tally.points[own] += s
            tally.expected[own].append(expected(r_own, r_other, rules, edition))
            tally.played[own] += 1
    return unrated_games


def _apply_change(
    st: PlayerState,
    key: str,
    before: Decimal,
    k: KChoice,
    tally: _Tally,
    label: str,
    last: date,
    update_id: int,
    rules: Rules,
) -> None:
    """A rated player's change for the period: K x (points - expected), in the history."""
    # summed in sorted order so the game order cannot move even the 28th digit
    total = sum(sorted(tally.expected[key]), Decimal(0))
    change = k.k * (tally.points[key] - total)
    if rules.rounding == "update":
        change = Decimal(fide.round_half_away(change))
    st.rating = before + change
    st.games += tally.played[key]
    st.history.append(
        PeriodEntry(
            label,
            last,
            tally.played[key],
            tally.points[key],
            total,
            k.k,
            change,
            before,
            st.rating,
            k.rule,
        )
    )
    st.update_ids.append(update_id)


def _seat_newcomer(st: PlayerState, label: str, last: date, update_id: int) -> None:
    """An unrated player with 5 games against rated ones gets the initial rating of them."""
    if st.rating is None and len(st.pending) >= 5:
        st.rating = Decimal(fide.initial_rating(st.pending))
        st.games += len(st.pending)
        pts = sum((r.score for r in st.pending), Decimal(0))
        st.history.append(
            PeriodEntry(
                label, last, len(st.pending), pts, Decimal(0), 0, Decimal(0), None, st.rating
            )
        )
        st.update_ids.append(update_id)
        st.pending.clear()
