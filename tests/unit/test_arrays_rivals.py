"""``population/arrays_rivals``: the Glicko-1 and Stephenson monthly step over numpy arrays
against the SQL step (``rivals_sql``, run in DuckDB over small tables), the reference
(``core/report/rivals.py``: ``inflate``, ``period_update`` and ``track``) and hand
derivations.

q = ln 10 / 400 = 0.00575646, q² = 3.313686e-5; every opponent has RD 60, so
k(60²) = 1/sqrt(1 + 1.007240e-5 x 3600) = 1/sqrt(1.036261) = 0.982348, k² = 0.964997.
"""

from __future__ import annotations

import math
import random

import duckdb
import numpy as np
import pytest

from lichess_elo.core.population.arrays_rivals import RivalState, rivals_month
from lichess_elo.core.population.dialect import DUCKDB
from lichess_elo.core.population.rivals_sql import (
    LICHESS_RD,
    rival_columns,
    rivals_advance_sql,
    rivals_initial_sql,
    rivals_step_sql,
    tracks,
)
from lichess_elo.core.population.schema import PERFS
from lichess_elo.core.report import rivals
from lichess_elo.core.report.rivals import RivalRules

TOLERANCE = 1e-9
#: A perf for every game here, and its place in ``PERFS`` (the pid is id x 6 + place).
PERF = "blitz"
SLOT = PERFS.index(PERF)
#: Made-up constants: none of them a contender's, the RD ceiling low enough to bind.
MADE_UP = RivalRules(
    "madeup", c=50.0, h=20.0, bonus=0.05, neighbourhood=0.1, white_advantage=12.0, rd_max=75.0
)

Game = tuple[int, str, str, int, int, int]  # month, white, black, white_elo, black_elo, score


def _games(seed: int) -> tuple[dict[str, int], list[Game]]:
    """Six players' seeds and a few dozen games over five months across a year's end, one
    player (``f``) away from December to March and one (``e``) first seen in January."""
    rnd = random.Random(seed)
    seeds = {name: rnd.randrange(1200, 2300) for name in "abcdef"}
    games: list[Game] = []
    for month in (202311, 202312, 202401, 202403, 202404):
        present = [p for p in "abcdef" if not (p == "f" and 202312 <= month <= 202403)]
        present = [p for p in present if not (p == "e" and month < 202401)]
        for _ in range(rnd.randrange(5, 12)):
            white, black = rnd.sample(present, 2)
            elo = (rnd.randrange(1100, 2400), rnd.randrange(1100, 2400))
            games.append((month, white, black, *elo, rnd.choice((0, 50, 100))))
    return seeds, games


def _pid(name: str) -> int:
    return ("abcdef".index(name) + 1) * len(PERFS) + SLOT


def _sides(games: list[Game], month: int) -> tuple[list[int], list[int], list[float]]:
    """The month's sides as ``rivals_month`` takes them: White's sides, then Black's."""
    this = [g for g in games if g[0] == month]
    pid = [_pid(g[1]) for g in this] + [_pid(g[2]) for g in this]
    opp = [g[4] for g in this] + [g[3] for g in this]
    score = [g[5] / 100 for g in this] + [(100 - g[5]) / 100 for g in this]
    return pid, opp, score


def _by_arrays(
    seeds: dict[str, int], games: list[Game], rules: tuple[RivalRules, ...]
) -> dict[tuple[int, int], tuple[float, ...]]:
    state = RivalState.empty(3, rules)
    state.grow(_pid("f") + 1)
    state.enter(np.array([_pid(p) for p in seeds]), np.array(list(seeds.values())))
    out: dict[tuple[int, int], tuple[float, ...]] = {}
    for month in sorted({g[0] for g in games}):
        rows = rivals_month(state, month, *map(np.array, _sides(games, month)))
        cols = [c for r in rules for c in rival_columns(r)]
        for i, pid in enumerate(rows["pid"].tolist()):
            out[(pid, month)] = (rows["games"][i], *(rows[c][i] for c in cols))
    return out


def _by_sql(
    seeds: dict[str, int], games: list[Game], rules: tuple[RivalRules, ...]
) -> dict[tuple[int, int], tuple[float, ...]]:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE games (perf VARCHAR, month INTEGER, white VARCHAR, black VARCHAR, "
        "white_elo INTEGER, black_elo INTEGER, score INTEGER)"
    )
    con.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", [(PERF, *g) for g in games])
    con.execute("CREATE TABLE names (name VARCHAR, id INTEGER)")
    con.executemany("INSERT INTO names VALUES (?, ?)", [(p, "abcdef".index(p) + 1) for p in seeds])
    con.execute("CREATE TABLE players (pid INTEGER, perf VARCHAR, seed INTEGER)")
    con.executemany(
        "INSERT INTO players VALUES (?, ?, ?)", [(_pid(p), PERF, s) for p, s in seeds.items()]
    )
    con.execute(f"CREATE TABLE rcur AS {rivals_initial_sql(rules)}")
    cols = ", ".join(c for r in rules for c in rival_columns(r))
    out: dict[tuple[int, int], tuple[float, ...]] = {}
    for month in sorted({g[0] for g in games}):
        con.execute(
            f"CREATE OR REPLACE TABLE rstep AS {rivals_step_sql(DUCKDB, month, rules=rules)}"
        )
        for pid, *rest in con.execute(f"SELECT pid, games, {cols} FROM rstep").fetchall():
            out[(pid, month)] = tuple(rest)
        con.execute(f"CREATE OR REPLACE TABLE rcur AS {rivals_advance_sql(rules)}")
    return out


def _by_reference(
    seeds: dict[str, int], games: list[Game], rules: tuple[RivalRules, ...]
) -> dict[tuple[int, int], tuple[float, ...]]:
    """Each player's months by ``rivals.inflate`` and ``rivals.period_update`` alone."""
    months = sorted({g[0] for g in games})
    out: dict[tuple[int, int], tuple[float, ...]] = {}
    for p, seed in seeds.items():
        state = {r.key: (float(seed), float(LICHESS_RD)) for r in rules}
        last: int | None = None
        for month in months:
            batch = [
                rivals.Opponent(g[4] if g[1] == p else g[3], LICHESS_RD, score)
                for g in games
                if g[0] == month and p in g[1:3]
                for score in [g[5] / 100 if g[1] == p else (100 - g[5]) / 100]
            ]
            if not batch:
                continue
            now = rivals.month_index(month // 100, month % 100)
            row: list[float] = [len(batch)]
            for r in rules:
                rating, rd = state[r.key]
                rd = rivals.inflate(rd, 1 if last is None else now - last, r)
                state[r.key] = rivals.period_update(rating, rd, batch, r)
                row += [rating, rd, *state[r.key]]
            out[(_pid(p), month)] = tuple(row)
            last = now
    return out


def _differences(
    a: dict[tuple[int, int], tuple[float, ...]], b: dict[tuple[int, int], tuple[float, ...]]
) -> list[str]:
    bad = [f"{k}: only one side" for k in a.keys() ^ b.keys()]
    for k in sorted(a.keys() & b.keys()):
        x, y = a[k], b[k]
        if x[0] != y[0] or any(abs(u - v) > TOLERANCE for u, v in zip(x[1:], y[1:], strict=True)):
            bad.append(f"{k}: {x} != {y}")
    return bad


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rules", [tracks(), (MADE_UP,)], ids=["contenders", "made-up"])
def test_arrays_agree_with_sql_and_the_reference(seed: int, rules: tuple[RivalRules, ...]) -> None:
    seeds, games = _games(seed)
    ours = _by_arrays(seeds, games, rules)
    reference = _by_reference(seeds, games, rules)
    # every player has games in most of the five months: a few dozen rows, 4 numbers a track
    assert len(reference) > 20
    assert _differences(ours, reference) == []
    assert _differences(_by_sql(seeds, games, rules), reference) == []


def test_arrays_predict_as_rivals_track() -> None:
    # The rating and RD a month's games are predicted from, put in ``rivals.expected``,
    # give ``rivals.track``'s prediction of every game of the player.
    seeds, games = _games(4)
    rules = (*tracks(), MADE_UP)
    ours = _by_arrays(seeds, games, rules)
    for p, seed in seeds.items():
        mine = [g for g in games if p in g[1:3]]
        track_games = [
            rivals.TrackGame(
                rivals.month_index(g[0] // 100, g[0] % 100),
                rivals.Opponent(
                    g[4] if g[1] == p else g[3],
                    LICHESS_RD,
                    g[5] / 100 if g[1] == p else (100 - g[5]) / 100,
                    1 if g[1] == p else -1,
                ),
                True,
            )
            for g in mine
        ]
        for i, r in enumerate(rules):
            want = rivals.track(track_games, seed, LICHESS_RD, r)
            for g, tg, e in zip(mine, track_games, want, strict=True):
                row = ours[(_pid(p), g[0])]
                rating, rd = row[1 + 4 * i], row[2 + 4 * i]
                advantage = r.white_advantage * tg.opponent.colour
                got = rivals.expected(rating, rd, tg.opponent.rating, LICHESS_RD, advantage)
                assert got == pytest.approx(e, abs=TOLERANCE)


def _one_player_months(
    months: list[int], rules: tuple[RivalRules, ...]
) -> dict[int, dict[str, float]]:
    """A player seeded 1500 drawing once with a 1500 opponent in each of ``months``."""
    state = RivalState.empty(2, rules)
    state.enter(np.array([1]), np.array([1500]))
    out = {}
    for month in months:
        rows = rivals_month(state, month, np.array([1]), np.array([1500]), np.array([0.5]))
        out[month] = {k: float(v[0]) for k, v in rows.items()}
    return out


def test_an_absent_player_s_rd_grows_by_the_months_away() -> None:
    glicko = next(r for r in tracks() if r.key == rivals.GLICKO1.key)
    rows = _one_player_months([202311, 202402], (glicko,))
    nov, feb = rows[202311], rows[202402]
    # November, the first month: one period, RD = sqrt(60² + 1200) = sqrt(4800) = 69.282032.
    # A draw at e = 0.5 leaves the rating at 1500; d = q² k² x 0.25 = 7.994336e-6,
    # v* = 1/(1/4800 + 7.994336e-6) = 4622.6172, RD = 67.989831.
    assert nov["glicko1_rd"] == pytest.approx(math.sqrt(4800), abs=1e-6)
    assert nov["glicko1_next_rating"] == pytest.approx(1500, abs=1e-9)
    assert nov["glicko1_next_rd"] == pytest.approx(67.989831, abs=1e-6)
    # February, three months later across the year's end (Dec, Jan, Feb):
    # RD = sqrt(4622.6172 + 1200 x 3) = sqrt(8222.6172) = 90.678648; after the draw
    # v* = 1/(1/8222.6172 + 7.994336e-6) = 7715.4271, RD = 87.837618.
    assert feb["glicko1_rating"] == pytest.approx(1500, abs=1e-9)
    assert feb["glicko1_rd"] == pytest.approx(90.678648, abs=1e-6)
    assert feb["glicko1_next_rd"] == pytest.approx(87.837618, abs=1e-6)


def test_made_up_rules_by_hand() -> None:
    # One win over an opponent rated 1600, from the seed 1500, under, c 50, h 20, b 0.05,
    # lambda 0.1, RD at most 75. Step 1: sqrt(60² + 50²) = sqrt(6100) = 78.10 > 75: RD 75.
    # e = 1/(1 + 10^(0.982348 x 100/400)) = 1/(1 + 10^0.245587) = 1/2.760298 = 0.362279;
    # d = q² k² e (1 - e) = 3.313686e-5 x 0.964997 x 0.231032 = 7.387574e-6;
    # v* = 1/(1/(75² + 20² x 1) + d) = 1/(1/6025 + 7.387574e-6) = 5768.2460, RD 75.948970;
    # r* = 1500 + q v* k (1 - e + 0.05) + 0.1 (1600 - 1500)
    #    = 1500 + 0.00575646 x 5768.2460 x 0.982348 x 0.687721 + 10 = 1532.43247.
    state = RivalState.empty(1, (MADE_UP,))
    state.enter(np.array([0]), np.array([1500]))
    rows = rivals_month(state, 202405, np.array([0]), np.array([1600]), np.array([1.0]))
    assert rows["madeup_rd"][0] == 75.0
    assert rows["madeup_next_rd"][0] == pytest.approx(75.948970, abs=1e-6)
    assert rows["madeup_next_rating"][0] == pytest.approx(1532.43247, abs=1e-5)
    assert (state.r["madeup"][0], state.rd["madeup"][0]) == (
        rows["madeup_next_rating"][0],
        rows["madeup_next_rd"][0],
    )
    assert state.last[0] == 2024 * 12 + 4  # month_index(2024, 5)


def test_only_players_with_games_move() -> None:
    state = RivalState.empty(4)
    state.enter(np.arange(4), np.array([1500, 1600, 1700, 1800]))
    rows = rivals_month(
        state, 202401, np.array([2, 0, 2]), np.array([1500, 1700, 1500]), np.array([1.0, 0.0, 0.5])
    )
    assert rows["pid"].tolist() == [0, 2]
    assert rows["games"].tolist() == [1, 2]
    # players 1 and 3: as entered (seed, RD 60, no month yet)
    for key in state.r:
        assert state.r[key][[1, 3]].tolist() == [1600.0, 1800.0]
        assert state.rd[key][[1, 3]].tolist() == [60.0, 60.0]
    assert state.last.tolist() == [24288, -1, 24288, -1]


def test_a_player_never_entered_is_refused() -> None:
    state = RivalState.empty(2)
    state.enter(np.array([0]), np.array([1500]))
    with pytest.raises(ValueError, match="never entered"):
        rivals_month(state, 202401, np.array([0, 1]), np.array([1500, 1500]), np.array([1.0, 0.0]))
    with pytest.raises(ValueError, match="outside"):
        rivals_month(state, 202401, np.array([0, 2]), np.array([1500, 1500]), np.array([1.0, 0.0]))
