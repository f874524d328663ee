"""Generate realistic Lichess game JSON objects for benchmarks and load tests.

``generate_games(n, seed, user)`` returns ``n`` dicts shaped like the lines of
``GET /api/games/user/{user}`` (``application/x-ndjson``), **newest first** as Lichess
streams them:

- ``moves``: legal SAN made by python-chess from the standard start, about 80 plies
  (uniform 50-110); a small fraction (about 6 %) end in checkmate and carry
  ``status: "mate"`` with the mating side as ``winner``;
- ``players``: the user and an opponent (a pool of 400 names) with ``rating`` (the
  pre-game rating) and, in rated games, ``ratingDiff``; the user's rating is chained per
  perf (``rating + ratingDiff`` = the next rated game's ``rating`` in that perf);
- ``createdAt``/``lastMoveAt`` in epoch milliseconds, spread evenly (with jitter) over the
  48 months from 2021-01-01;
- mixed perfs (mostly blitz, bullet and rapid; some classical, ultraBullet and
  correspondence), clocks matching the perf, statuses resign / outoftime / timeout /
  draw / mate, sources pool / arena / friend, about 5 % casual (unrated) games.

Speed: legal random games are costly to make (about 60 µs a ply for SAN), so each seed
first builds a pool of 400 distinct move sequences (plus 40 mating ones) once, cached per
seed, and the games reuse them. Everything else (ids, ratings, dates) is drawn per game.
20,000 games take about 4 s on one core (3 s of it the pool). The same seed always gives
the same games.

Run ``python benchmarks/gen_games.py 1000 --seed 1 --user BenchUser > games.ndjson``
to write NDJSON to stdout.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import chess

POOL_SIZE = 400
MATE_POOL_SIZE = 40
START = datetime(2021, 1, 1, tzinfo=UTC)
SPAN_MS = 4 * 365 * 24 * 3600 * 1000  # about 48 months

# perf -> (weight, clocks (initial, increment) or None for correspondence, start rating)
PERF_TABLE: dict[str, tuple[float, tuple[tuple[int, int], ...] | None, int]] = {
    "blitz": (0.42, ((180, 0), (180, 2), (300, 0), (300, 3)), 1650),
    "bullet": (0.25, ((60, 0), (120, 1)), 1600),
    "rapid": (0.20, ((600, 0), (600, 5), (900, 10)), 1700),
    "classical": (0.05, ((1800, 0), (1800, 20)), 1750),
    "ultraBullet": (0.04, ((15, 0),), 1450),
    "correspondence": (0.04, None, 1600),
}
# status -> weight among non-mate games; mate games come from the mating pool
STATUS_WEIGHTS = {"resign": 0.58, "outoftime": 0.22, "draw": 0.12, "timeout": 0.02, "mate": 0.06}


def _random_game(rng: random.Random, plies: int, want_mate: bool) -> list[str] | None:
    """One random legal game as SAN; ``None`` if a mating game did not mate in time."""
    board = chess.Board()
    sans: list[str] = []
    limit = plies if not want_mate else 160
    while len(sans) < limit:
        moves = list(board.legal_moves)
        if not moves:
            break
        move = None
        if want_mate and len(sans) >= 20:
            for candidate in moves:
                if board.gives_check(candidate):
                    board.push(candidate)
                    mated = board.is_checkmate()
                    board.pop()
                    if mated:
                        move = candidate
                        break
        if move is None:
            captures = [m for m in moves if board.is_capture(m)] if want_mate else []
            move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
        sans.append(board.san(move))
        board.push(move)
        if board.is_checkmate():
            return sans if want_mate else sans[:-1] or None
        if board.is_game_over() and not want_mate:
            # stalemate / insufficient material / repetition: keep the game short of it
            return sans[:-1] or None
    return None if want_mate else sans


@lru_cache(maxsize=4)
def move_pool(seed: int) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    """The distinct move sequences for ``seed``: (ordinary games, games ending in mate)."""
    rng = random.Random(f"moves-{seed}")
    ordinary: list[tuple[str, ...]] = []
    while len(ordinary) < POOL_SIZE:
        sans = _random_game(rng, rng.randint(50, 110), want_mate=False)
        if sans and len(sans) >= 20:
            ordinary.append(tuple(sans))
    mating: list[tuple[str, ...]] = []
    while len(mating) < MATE_POOL_SIZE:
        sans = _random_game(rng, 0, want_mate=True)
        if sans:
            mating.append(tuple(sans))
    return tuple(ordinary), tuple(mating)


def _game_id(rng: random.Random) -> str:
    return "".join(rng.choices(string.ascii_letters + string.digits, k=8))


def _diff(own: int, opponent: int, score: float, k: float) -> int:
    expected = 1 / (1 + 10 ** ((opponent - own) / 400))
    return round(k * (score - expected))


def generate_games(n: int, seed: int = 0, user: str = "BenchUser") -> list[dict[str, Any]]:
    """``n`` realistic Lichess game objects for ``user``, newest first (see the module doc).

    Args:
        n: How many games.
        seed: Same seed, same games.
        user: The player whose history this is (display name; the id is lowercased).
    """
    ordinary, mating = move_pool(seed)
    rng = random.Random(f"games-{seed}-{user}")
    opponents = [f"Opp{rng.randrange(10**6):06d}" for _ in range(400)]
    opp_strength = {name: rng.gauss(0, 150) for name in opponents}
    perfs = list(PERF_TABLE)
    weights = [PERF_TABLE[p][0] for p in perfs]
    statuses = list(STATUS_WEIGHTS)
    status_weights = list(STATUS_WEIGHTS.values())
    ratings = {p: PERF_TABLE[p][2] for p in perfs}
    played = dict.fromkeys(perfs, 0)
    used_ids: set[str] = set()
    games: list[dict[str, Any]] = []
    step = SPAN_MS / max(n, 1)
    start_ms = int(START.timestamp() * 1000)
    for i in range(n):
        perf = rng.choices(perfs, weights)[0]
        clocks = PERF_TABLE[perf][1]
        status = rng.choices(statuses, status_weights)[0]
        moves = rng.choice(mating if status == "mate" else ordinary)
        user_color = rng.choice(("white", "black"))
        opp_color = "black" if user_color == "white" else "white"
        opponent = rng.choice(opponents)
        own = ratings[perf]
        opp_rating = max(600, int(own + opp_strength[opponent] + rng.gauss(0, 60)))
        if status == "mate":
            winner: str | None = "white" if len(moves) % 2 == 1 else "black"
        elif status == "draw":
            winner = None
        else:
            p_user = 1 / (1 + 10 ** ((opp_rating - own) / 400))
            winner = user_color if rng.random() < p_user else opp_color
        rated = rng.random() >= 0.05
        score = 0.5 if winner is None else (1.0 if winner == user_color else 0.0)
        provisional = played[perf] < 12
        k = 60 if provisional else 14
        created = int(start_ms + i * step + rng.uniform(0, step * 0.8))
        game_id = _game_id(rng)
        while game_id in used_ids:
            game_id = _game_id(rng)
        used_ids.add(game_id)
        user_side: dict[str, Any] = {
            "user": {"name": user, "id": user.lower()},
            "rating": own,
        }
        opp_side: dict[str, Any] = {
            "user": {"name": opponent, "id": opponent.lower()},
            "rating": opp_rating,
        }
        if provisional:
            user_side["provisional"] = True
        if rated:
            diff = _diff(own, opp_rating, score, k)
            user_side["ratingDiff"] = diff
            opp_side["ratingDiff"] = _diff(opp_rating, own, 1 - score, 14)
            ratings[perf] = own + diff
            played[perf] += 1
        game: dict[str, Any] = {
            "id": game_id,
            "rated": rated,
            "variant": "standard",
            "speed": perf,
            "perf": perf,
            "createdAt": created,
            "lastMoveAt": created + len(moves) * rng.randint(800, 4000),
            "status": status,
            "source": rng.choice(("pool", "pool", "pool", "arena", "friend")),
            "players": {
                "white": user_side if user_color == "white" else opp_side,
                "black": opp_side if user_color == "white" else user_side,
            },
        }
        if winner is not None:
            game["winner"] = winner
        game["moves"] = " ".join(moves)
        if clocks is not None:
            initial, increment = rng.choice(clocks)
            game["clock"] = {
                "initial": initial,
                "increment": increment,
                "totalTime": initial + 40 * increment,
            }
        else:
            game["daysPerTurn"] = rng.choice((1, 2, 3, 5))
        games.append(game)
    games.reverse()
    return games


_PGN_STATUS = {
    "mate": "Normal",
    "resign": "Normal",
    "draw": "Normal",
    "outoftime": "Time forfeit",
    "timeout": "Abandoned",
}


def to_pgn(game: dict[str, Any]) -> str:
    """One generated game as Lichess's PGN export writes it (tags, numbered moves, result)."""
    created = datetime.fromtimestamp(game["createdAt"] / 1000, UTC)
    white, black = game["players"]["white"], game["players"]["black"]
    winner = game.get("winner")
    result = {"white": "1-0", "black": "0-1", None: "1/2-1/2"}[winner]
    clock = game.get("clock")
    speed = game["speed"].capitalize() if game["speed"] != "ultraBullet" else "UltraBullet"
    tags = [
        ("Event", f"{'Rated' if game['rated'] else 'Casual'} {speed} game"),
        ("Site", f"https://lichess.org/{game['id']}"),
        ("Date", created.strftime("%Y.%m.%d")),
        ("White", white["user"]["name"]),
        ("Black", black["user"]["name"]),
        ("Result", result),
        ("GameId", game["id"]),
        ("UTCDate", created.strftime("%Y.%m.%d")),
        ("UTCTime", created.strftime("%H:%M:%S")),
        ("WhiteElo", f"{white['rating']}{'?' if white.get('provisional') else ''}"),
        ("BlackElo", f"{black['rating']}{'?' if black.get('provisional') else ''}"),
    ]
    for color, side in (("White", white), ("Black", black)):
        if "ratingDiff" in side:
            tags.append((f"{color}RatingDiff", f"{side['ratingDiff']:+d}"))
    tags += [
        ("Variant", "Standard"),
        ("TimeControl", f"{clock['initial']}+{clock['increment']}" if clock else "-"),
        ("Termination", _PGN_STATUS[game["status"]]),
    ]
    words = []
    for ply, san in enumerate(game["moves"].split()):
        words.append(f"{ply // 2 + 1}. {san}" if ply % 2 == 0 else san)
    head = "".join(f'[{key} "{value}"]\n' for key, value in tags)
    return f"{head}\n{' '.join(words)} {result}\n\n\n"


def main(argv: list[str] | None = None) -> None:
    """Write ``n`` generated games as NDJSON to stdout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("n", type=int, nargs="?", default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--user", default="BenchUser")
    args = parser.parse_args(argv)
    out = sys.stdout
    for game in generate_games(args.n, args.seed, args.user):
        out.write(json.dumps(game, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
