"""Property tests of the club ladder (hypothesis).

* With ``formula`` and one K for everybody, an event moves points between players and
  creates none: E(D) + E(-D) = 1 for every game, so the sum of K x (score - E) over both
  sides is K x (1 - 1) = 0 per game. Decimal's 28 digits leave at most a last-digit error.
* In ``event`` mode the ratings are frozen at the event's start, so the order of the
  games inside the event cannot change anything.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from lichess_elo.core.club.rating import ClubGame, ClubPlayer, Rules, rate_club

NAMES = [f"P{i}" for i in range(6)]
DAY = date(2026, 5, 2)

ratings = st.lists(st.integers(400, 2600), min_size=6, max_size=6)
pairings = st.lists(
    st.tuples(
        st.integers(0, 5),
        st.integers(0, 5),
        st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)]),
    ).filter(lambda t: t[0] != t[1]),
    min_size=1,
    max_size=15,
)


def _games(pairs: list[tuple[int, int, Decimal]]) -> list[ClubGame]:
    return [
        ClubGame(NAMES[a], NAMES[b], score, DAY, "Open", round=(n + 1,), seq=n)
        for n, (a, b, score) in enumerate(pairs)
    ]


@settings(max_examples=60, deadline=None)
@given(ratings=ratings, pairs=pairings, k=st.integers(1, 60))
def test_total_conserved_over_an_event(
    ratings: list[int], pairs: list[tuple[int, int, Decimal]], k: int
) -> None:
    players = [ClubPlayer(n, r) for n, r in zip(NAMES, ratings, strict=True)]
    result = rate_club(players, _games(pairs), Rules(k=k, method="formula"))
    total = sum((s.rating for s in result.standings), Decimal(0))
    assert abs(total - sum(ratings)) < Decimal("1e-20")


@settings(max_examples=60, deadline=None)
@given(ratings=ratings, pairs=pairings, k=st.integers(1, 60), data=st.data())
def test_game_order_inside_an_event_does_not_matter(
    ratings: list[int], pairs: list[tuple[int, int, Decimal]], k: int, data: st.DataObject
) -> None:
    players = [ClubPlayer(n, r) for n, r in zip(NAMES, ratings, strict=True)]
    method = data.draw(st.sampled_from(["formula", "fide-table"]))
    rules = Rules(k=k, method=method, update="event")
    shuffled = data.draw(st.permutations(pairs))
    # the same games in another order (round numbers follow the new order too)
    first = rate_club(players, _games(pairs), rules)
    second = rate_club(players, _games(list(shuffled)), rules)
    assert {s.name: s.rating for s in first.standings} == {
        s.name: s.rating for s in second.standings
    }
