"""A player's real FIDE record as Lichess serves it, decoded (pure code, no I/O).

``GET /api/fide/player/{id}`` gives the player (name, federation, birth year, title, current
standard/rapid/blitz ratings); ``GET /api/fide/player/{id}/ratings`` the monthly history of
each list, each point encoded ``YYYYMMRRRR`` (``2015081568`` = August 2015: 1568). Runs of
months with an unchanged rating are given by their first and last month only, so
``2022101620, 2024021620`` means 1620 from 2022-10 through 2024-02. A month no point
covers has no rating (the player was not on that list); an empty list means no rating in
that list at all (``docs/lichess.md``; ``tests/data/lichess/fide-player-*.json``).

Reading where the format is silent: two neighbouring points with the same rating are one
run (a player off the list in between and back at the same rating cannot be told apart).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from lichess_elo.core.months import add_months
from lichess_elo.errors import BadFideData

FideList = Literal["standard", "rapid", "blitz"]
FIDE_LISTS: tuple[FideList, ...] = ("standard", "rapid", "blitz")

#: Lichess speed -> the FIDE list compared with it (bullet has no FIDE list: blitz is nearest).
SPEED_LISTS: dict[str, FideList] = {
    "ultraBullet": "blitz",
    "bullet": "blitz",
    "blitz": "blitz",
    "rapid": "rapid",
    "classical": "standard",
    "correspondence": "standard",
}

#: The largest FIDE id accepted (FIDE ids are positive whole numbers of up to 9 digits).
FIDE_ID_MAX = 999_999_999

Month = tuple[int, int]


@dataclass(frozen=True)
class FidePlayer:
    """A FIDE player: who they are, their current ratings and the monthly history.

    ``history`` maps each list to ``{(year, month): rating}`` with every month of a run
    filled in; an empty mapping means no rating in that list.
    """

    id: int
    name: str
    federation: str | None
    birth_year: int | None
    title: str | None
    current: Mapping[FideList, int | None]
    history: Mapping[FideList, Mapping[Month, int]] = field(default_factory=dict)

    def rating(self, fide_list: FideList, month: Month) -> int | None:
        """The rating on ``fide_list`` in ``month`` (``None``: not on that list then)."""
        return self.history.get(fide_list, {}).get(month)

    def peak(self, fide_list: FideList, *, before: Month | None = None) -> int | None:
        """The highest rating published on ``fide_list``: ever (history and current), or,
        with ``before``, on the lists up to and including that month's (8.3.3 counts only a
        rating already published when the period is rated: a later high is not yet known).
        """
        history = self.history.get(fide_list, {})
        if before is not None:
            known = [r for month, r in history.items() if month <= before]
            return max(known) if known else None
        values = [*history.values()]
        current = self.current.get(fide_list)
        if current is not None:
            values.append(current)
        return max(values) if values else None


def list_for_speed(speed: str) -> FideList:
    """The FIDE list that matches a Lichess speed (classical/correspondence -> standard)."""
    return SPEED_LISTS.get(speed, "standard")


def _point(value: Any) -> tuple[Month, int]:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1_000_000_000:
        raise BadFideData(f"rating point {value!r} is not YYYYMMRRRR")
    year, rest = divmod(value, 1_000_000)
    month, rating = divmod(rest, 10_000)
    if not 1 <= month <= 12:
        raise BadFideData(f"rating point {value} has month {month}")
    return (year, month), rating


def _months(start: Month, end: Month) -> list[Month]:
    out = []
    year, month = start
    while (year, month) <= end:
        out.append((year, month))
        year, month = add_months(year, month, 1)
    return out


def decode_history(points: Sequence[Any]) -> dict[Month, int]:
    """Every month of one list's history, runs filled in.

    Raises:
        BadFideData: a point that is not ``YYYYMMRRRR`` or points out of order.
    """
    decoded = [_point(p) for p in points]
    months = [m for m, _ in decoded]
    if months != sorted(months) or len(set(months)) != len(months):
        raise BadFideData("rating points are not in month order")
    history: dict[Month, int] = {}
    for index, (month, rating) in enumerate(decoded):
        history[month] = rating
        if index and decoded[index - 1][1] == rating:
            for inside in _months(decoded[index - 1][0], month):
                history[inside] = rating
    return history


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadFideData(f"{key} is not a whole number: {value!r}")
    return value


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) and value else None


def parse_player(player: Any, ratings: Any) -> FidePlayer:
    """Build a ``FidePlayer`` from the two answers (player, then ratings history).

    Raises:
        BadFideData: either answer is not in the documented format.
    """
    if not isinstance(player, Mapping) or not isinstance(ratings, Mapping):
        raise BadFideData("the FIDE answer is not a JSON object")
    player_id = _opt_int(player, "id")
    if player_id is None:
        raise BadFideData("the FIDE player has no id")
    history: dict[FideList, dict[Month, int]] = {}
    for fide_list in FIDE_LISTS:
        points = ratings.get(fide_list) or []
        if not isinstance(points, list):
            raise BadFideData(f"{fide_list} is not a list")
        history[fide_list] = decode_history(points)
    return FidePlayer(
        id=player_id,
        name=_opt_str(player, "name") or str(player_id),
        federation=_opt_str(player, "federation"),
        birth_year=_opt_int(player, "year"),
        title=_opt_str(player, "title"),
        current={fide_list: _opt_int(player, fide_list) for fide_list in FIDE_LISTS},
        history=history,
    )
