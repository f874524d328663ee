"""The FIDE endpoints of the fake Lichess server (``fake_lichess.FakeLichess``).

``GET /api/fide/player/{id}`` answers a player (``id``, ``name``, ``federation``, ``year``,
``title``, ``standard``/``rapid``/``blitz``) and ``GET /api/fide/player/{id}/ratings`` the
monthly history, ``{"standard": [...], "rapid": [...], "blitz": [...]}`` with each point
``YYYYMMRRRR`` and a run of unchanged months given by its first and last month only. Both
follow the API documentation (``tests/data/lichess/fide-player-*.json``). An unknown id
gets 404 ``{"error": "Not found"}``, as lila's other player routes do.
"""

from __future__ import annotations

from typing import Any

_PREFIX = "/api/fide/player/"


def fide_answer(
    players: dict[int, dict[str, Any]],
    ratings: dict[int, dict[str, list[int]]],
    path: str,
    faults: list[int],
) -> tuple[int, Any] | None:
    """The (status, JSON body) for a FIDE path, or ``None`` when ``path`` is not one.

    ``faults``: HTTP statuses (429, 500...) served, first to last, before the real answers.
    """
    if not path.startswith(_PREFIX):
        return None
    if faults:
        status = faults.pop(0)
        if status == 429:
            return status, {"error": "Please only run 1 request(s) at a time"}
        return status, {"error": f"HTTP {status}"}
    rest = path.removeprefix(_PREFIX)
    wants_history = rest.endswith("/ratings")
    key = rest.removesuffix("/ratings")
    player_id = int(key) if key.isdigit() else None
    if player_id is None or player_id not in players:
        return 404, {"error": "Not found"}
    if wants_history:
        history = ratings.get(player_id, {})
        return 200, {
            list_: list(history.get(list_, [])) for list_ in ("standard", "rapid", "blitz")
        }
    return 200, players[player_id]


def encode_history(points: list[tuple[int, int, int]]) -> list[int]:
    """``[(year, month, rating), ...]`` (every month) as the API sends it: ``YYYYMMRRRR``,
    a run of equal ratings kept only as its first and last month."""
    out: list[int] = []
    run: list[tuple[int, int, int]] = []
    for point in [*points, (0, 0, -1)]:
        if run and point[2] != run[0][2]:
            for year, month, rating in dict.fromkeys([run[0], run[-1]]):
                out.append(year * 1_000_000 + month * 10_000 + rating)
            run = []
        run.append(point)
    return out
