"""Generate one month of the Lichess open database, with a real month's shape, at any size.

Writes ``OUT/lichess_db_standard_rated_YYYY-MM.pgn.zst`` in the dump's layout (headers in the
database's order, a blank line, the movetext on one line with ``[%clk]`` comments, a blank
line; games in the order they started: see ``gen_dump.py`` and
``shared/reference/lichess/real/``), which ``lichess-elo db ingest`` reads, plus
``FILE.json`` with the month's figures. ``gen_dump.py`` plays every game through the
project's Glicko-2 in Python, game by game (true ratings and diffs); this script draws the
whole month with numpy and writes the text with pyarrow's string kernels (vectorised, about
0.14 M games/s here, memory bounded by ``--chunk``), for the 5-92 M games of a real month.

Figures, and where each comes from:

* **Games in a real month**: about 92 M (``MONTH_GAMES``), the median of the 2023-2026
  months of ``bench_month.MONTHLY_GAMES`` (the open database's own counts, listed there with
  their source).
* **Games per player** (the shape): no published distribution of games per player *per
  month* was found. Published, for the whole of 2013-01 to 2018-09 (github.com/jcw024/
  lichess_database_ETL, ``analytics/data_analysis/basic_data_facts.txt``): 452,630,700
  games, 2,296,327 players, games per player median 27, mean 482, maximum 250,516 (german11,
  about 3,800 a month over those 66 months). A lognormal through that median and mean has
  sigma = sqrt(2 ln(482 / 27)) = 2.40 over a lifetime. A month has no spread of tenures
  (a player of five years against one of a week), so its spread is narrower: the model is a
  **discrete lognormal**, ``round(exp(N(ln 7, 1.9)))``, at least 1 and at most 6,000 (200 a
  day, above german11's monthly average; ``--median``, ``--sigma``, ``--cap``). Its mean is
  about 42 games a player, so a 92 M-game month has about 4.4 M players ("several million",
  issue 38), most with few games (median 7, 36 % with 3 or fewer, 21 % with one), about
  20,000 with over 1,000 and some 900 at the cap. The real samples place two real players in it:
  ``games-user-export-onboard247-2023-01-02.ndjson`` (a 2400 blitz regular: 221 rated games
  in 26 days, about 255 a month: the model's top 3 %) and ``real/export-thibault-2025-05-07.
  pgn`` (50 games from May to July 2025, about 20 a month: the model's top 30 %). At a
  smaller ``--games`` the month is the same shape scaled down: players in proportion.
* **Perfs**: 2013-01 to 2018-09 (jcw024, same file): bullet 31 %, blitz 47 %, classical
  15 %, rapid 8 %, correspondence 0.3 % (rapid began in 2018; before it the slower games were
  "classical"). For a recent month no published split was found; assumed here (``PERFS``):
  ultraBullet 1 %, bullet 30 %, blitz 42 %, rapid 21.5 %, classical 5 %, correspondence
  0.5 %, the old 23 % of rapid and classical split as most of it rapid. A player has a
  favourite perf (drawn from the mix) and plays 70 % of their games in it.
* **Time controls** (``PERFS``): Lichess's common ones in each perf, classified by the
  project's ``speed_of`` (lila's initial + 40 x increment); a fifth of the classical games
  are 45 minutes or more (2700+30, 3600+0, 5400+30), so FIDE's standard chapter (60
  minutes and more per player, the Laws of Chess, Appendix A) is reached by some of them.
  Correspondence games have ``TimeControl "-"`` and no clock comments.
* **Termination**: "Time forfeit" for 33 % of the clocked games (jcw024: 150 M of 453 M
  games lost on time), else "Normal".
* **Events** (assumed, no published share found): 20 % of the bullet, blitz and rapid
  games in arenas (``Rated Blitz tournament https://lichess.org/tournament/ID``), 2 % in
  swiss events (``Blitz swiss https://lichess.org/swiss/ID``, no Rated word, as the dump
  writes them); 5 % and 5 % of classical; none in correspondence. About 300 games an event.
* **Strengths and ratings**: strength ~ N(1550, 320), clipped to 600-2900 (jcw024: 52 % of
  the games have the lower rating of the two in 1400-1799); a game pairs two players of one
  perf close in strength (sorted on strength + N(0, 60): Lichess pairs by rating); the rating in
  the game is the strength + N(0, 35); the result is drawn from the strengths (logistic,
  White +20, draws 5-10 % rising with strength); the rating diffs from the ratings with a
  K of 8 + 32 / sqrt(games that month) (new, rarely seen players move most).
* **Times**: UTCDate/UTCTime increase through the month, games in the order they started.

The movetext is one of 48 random legal lines of 16 to 60 plies (python-chess), with
``[%clk]`` comments for the game's clock and the game's result: about 0.6-1.9 KB a game.

Run ``python benchmarks/gen_month.py OUT --games 20000000 [--month 2024-03] [--seed 1]``: the
same seed and ``--chunk`` give the same file. 2 M games take about 15 s and 0.5 GB here.
Memory: the month's appearances (8 bytes a game) plus one chunk of text (``--chunk`` games,
about 1.3 KB each, a few times over while it is built).
"""

from __future__ import annotations

import argparse
import calendar
import datetime as dt
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import chess
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import zstandard

#: A real month of the open database, in games (see the top).
MONTH_GAMES = 92_000_000

#: perf -> (the Event's word, share of the games, ((initial s, increment s, weight), ...));
#: a correspondence game has no clock (initial None).
PERFS: dict[str, tuple[str, float, tuple[tuple[int | None, int, float], ...]]] = {
    "ultraBullet": ("UltraBullet", 0.010, ((15, 0, 1.0),)),
    "bullet": ("Bullet", 0.300, ((60, 0, 0.60), (120, 1, 0.25), (30, 0, 0.15))),
    "blitz": (
        "Blitz",
        0.420,
        ((180, 0, 0.35), (180, 2, 0.25), (300, 0, 0.25), (300, 3, 0.15)),
    ),
    "rapid": ("Rapid", 0.215, ((600, 0, 0.55), (600, 5, 0.25), (900, 10, 0.20))),
    "classical": (
        "Classical",
        0.050,
        ((1800, 0, 0.50), (1800, 20, 0.30), (2700, 30, 0.10), (3600, 0, 0.05), (5400, 30, 0.05)),
    ),
    "correspondence": ("Correspondence", 0.005, ((None, 0, 1.0),)),
}
#: perf -> (share of its games in arenas, in swiss events).
EVENT_SHARES: dict[str, tuple[float, float]] = {
    "ultraBullet": (0.20, 0.0),
    "bullet": (0.20, 0.02),
    "blitz": (0.20, 0.02),
    "rapid": (0.20, 0.02),
    "classical": (0.05, 0.05),
    "correspondence": (0.0, 0.0),
}
GAMES_PER_EVENT = 300
FAVOURITE_SHARE = 0.70
TIME_FORFEIT = 0.33
OPENINGS = (
    ("B20", "Sicilian Defense"), ("C50", "Italian Game"), ("D02", "Queen's Pawn Game"),
    ("A00", "Van't Kruijs Opening"), ("C00", "French Defense"), ("B01", "Scandinavian Defense"),
    ("C41", "Philidor Defense"), ("A40", "Englund Gambit"), ("B10", "Caro-Kann Defense"),
    ("C20", "King's Pawn Game: Wayward Queen Attack"), ("A45", "Indian Defense"),
    ("D00", "Queen's Pawn Game: Accelerated London System"),
)  # fmt: skip
NAME_STEMS = (
    "chess", "knight", "pawn", "rook", "tal", "zug", "bishop", "gambit", "queen", "endgame",
    "blitz", "castle", "fork", "pin", "mate", "capa", "morphy", "petrosian",
)  # fmt: skip
ALPHABET = np.frombuffer(
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", dtype=np.uint8
)
RESULTS = ("1-0", "0-1", "1/2-1/2")
LINES = 48


@dataclass(frozen=True)
class MonthStats:
    """What was written: games, players, the games-per-player figures, bytes, seconds."""

    path: str
    month: str
    games: int
    players: int
    median_games: float
    mean_games: float
    p90_games: float
    p99_games: float
    max_games: int
    share_one_game: float
    share_three_or_fewer: float
    bytes: int
    seconds: float
    seed: int


def _clock_classes() -> list[tuple[int, str, int | None, int, float]]:
    """(perf index, TimeControl tag, initial, increment, share of all games) of every clock."""
    out = []
    for p, (_, share, clocks) in enumerate(PERFS.values()):
        total = sum(w for _, _, w in clocks)
        for initial, inc, w in clocks:
            tag = "-" if initial is None else f"{initial}+{inc}"
            out.append((p, tag, initial, inc, share * w / total))
    return out


def _lines(seed: int) -> list[list[str]]:
    """``LINES`` random legal lines of 16-60 plies (SAN)."""
    rng = random.Random(seed)
    lines: list[list[str]] = []
    while len(lines) < LINES:
        board = chess.Board()
        sans: list[str] = []
        for _ in range(rng.randint(16, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            sans.append(board.san(move))
            board.push(move)
        if len(sans) >= 16 and not board.is_game_over():
            lines.append(sans)
    return lines


def _movetext(sans: Sequence[str], clock: tuple[int | None, int], result: str, seed: int) -> str:
    rng = random.Random(seed)
    initial, inc = clock
    left = [initial or 0, initial or 0]
    parts: list[str] = []
    for ply, san in enumerate(sans):
        side = ply % 2
        number = f"{ply // 2 + 1}." if side == 0 else f"{ply // 2 + 1}..."
        if initial is None:
            parts.append(f"{number} {san}")
            continue
        spent = rng.randint(0, max(1, (initial + 40 * inc) // 60))
        left[side] = max(0, left[side] - spent + inc)
        h, rest = divmod(left[side], 3600)
        m, s = divmod(rest, 60)
        parts.append(f"{number} {san} {{ [%clk {h}:{m:02d}:{s:02d}] }}")
    parts.append(result)
    return " ".join(parts)


def movetext_pool(seed: int) -> pa.Array:
    """Every movetext a game can have: index ``(line * clocks + clock) * 3 + result``."""
    clocks = _clock_classes()
    texts = []
    for i, sans in enumerate(_lines(seed)):
        for c, (_, _, initial, inc, _) in enumerate(clocks):
            for r, result in enumerate(RESULTS):
                texts.append(_movetext(sans, (initial, inc), result, seed + i * 997 + c * 31 + r))
    return pa.array(texts, pa.string())


def activity(
    players: int, rng: np.random.Generator, median: float, sigma: float, cap: int
) -> np.ndarray:
    """Games each player plays in the month: a discrete lognormal, 1 to ``cap``."""
    draws = np.rint(np.exp(rng.normal(math.log(median), sigma, players)))
    return np.clip(draws, 1, cap).astype(np.int32)


def mean_activity(median: float, sigma: float, cap: int) -> float:
    """The model's mean games per player (from a fixed sample of 2 M draws)."""
    return float(activity(2_000_000, np.random.default_rng(12345), median, sigma, cap).mean())


def _base62(values: np.ndarray, width: int = 8) -> pa.Array:
    """``values`` (uint64) as ``width`` characters of [a-zA-Z0-9] each."""
    digits = np.empty((len(values), width), dtype=np.uint8)
    rest = values.astype(np.uint64)
    for k in range(width - 1, -1, -1):
        digits[:, k] = ALPHABET[(rest % 62).astype(np.intp)]
        rest //= 62
    return pa.array(digits.view(f"S{width}").ravel()).cast(pa.string())


#: Prime to 62: multiplying by it mod 62^8 is a bijection (ids look random, never repeat);
#: small enough that a counter below 10^8 times it fits 64 bits.
_SCRAMBLE = 150_000_000_001
assert math.gcd(_SCRAMBLE, 62) == 1
_IDS = 62**8


def _ids(counter: np.ndarray, salt: int) -> pa.Array:
    scrambled = (counter.astype(np.uint64) * np.uint64(_SCRAMBLE) + np.uint64(salt)) % np.uint64(
        _IDS
    )
    return _base62(scrambled)


def _names(players: int, seed: int) -> pa.Array:
    rng = random.Random(seed)
    stems = [rng.choice(NAME_STEMS) for _ in range(997)]
    return pa.array(
        [
            f"{stems[i % 997]}_{i:x}" if i % 3 else f"{stems[i % 997].title()}{i}"
            for i in range(players)
        ],
        pa.string(),
    )


def _text_int(values: np.ndarray) -> pa.Array:
    return pc.cast(pa.array(values), pa.string())


def _signed(values: np.ndarray) -> pa.Array:
    sign = pa.array(np.where(values >= 0, "+", "-"))
    return pc.binary_join_element_wise(sign, _text_int(np.abs(values)), "")


class _Month:
    """The month's players and the fixed tables the chunks draw from."""

    def __init__(self, games: int, year: int, month: int, seed: int, args: argparse.Namespace):
        self.rng = np.random.default_rng(seed)
        self.games = games
        self.start = dt.datetime(year, month, 1, tzinfo=dt.UTC)
        days = calendar.monthrange(year, month)[1]
        self.span = days * 86400
        mean = mean_activity(args.median, args.sigma, args.cap)
        players = max(2, round(2 * games / mean))
        act = activity(players, self.rng, args.median, args.sigma, args.cap)
        slots = np.repeat(np.arange(players, dtype=np.int32), act)
        want = 2 * games
        if len(slots) < want:  # top up in proportion to activity
            cum = np.cumsum(act, dtype=np.int64)
            extra = np.searchsorted(cum, self.rng.integers(0, cum[-1], want - len(slots)), "right")
            slots = np.concatenate([slots, extra.astype(np.int32)])
        self.rng.shuffle(slots)
        self.slots = slots[:want]
        self.players = players
        #: Games each player plays in the month, as written.
        self.counts = np.bincount(self.slots, minlength=players).astype(np.int32)
        self.strength = np.clip(self.rng.normal(1550, 320, players), 600, 2900).astype(np.float32)
        shares = np.array([share for _, share, _ in PERFS.values()])
        self.perf_p = shares / shares.sum()
        self.favourite = self.rng.choice(len(PERFS), players, p=self.perf_p).astype(np.int8)
        self.names = _names(players, seed)
        self.clocks = _clock_classes()
        self.pool = movetext_pool(seed)
        words = [word for word, _, _ in PERFS.values()]
        self.event_prefix = pa.array(
            [
                text
                for w in words
                for text in (
                    f"Rated {w} game",
                    f"Rated {w} tournament https://lichess.org/tournament/",
                    f"{w} swiss https://lichess.org/swiss/",
                )
            ]
        )
        self.events = 0
        self.tags = pa.array([tag for _, tag, _, _, _ in self.clocks])
        self.eco = pa.array([e for e, _ in OPENINGS])
        self.opening = pa.array([o for _, o in OPENINGS])

    def chunk(self, first: int, n: int) -> pa.Array:
        """The PGN text of games ``first`` to ``first + n`` (one string a game)."""
        rng = self.rng
        slots = self.slots[2 * first : 2 * (first + n)]
        favourite = self.favourite[slots]
        other = rng.choice(len(PERFS), len(slots), p=self.perf_p).astype(np.int8)
        perf = np.where(rng.random(len(slots)) < FAVOURITE_SHARE, favourite, other)
        key = perf * 10_000.0 + self.strength[slots] + rng.normal(0, 60, len(slots))
        by_key = np.argsort(key, kind="stable")
        paired, perf_sorted = slots[by_key], perf[by_key]
        white, black = paired[0::2].copy(), paired[1::2].copy()
        game_perf = perf_sorted[0::2].astype(np.intp)
        for _ in range(100):  # one player on both sides: swap the black with another game's
            same = np.flatnonzero(white == black)
            if not len(same):
                break
            other_games = rng.integers(0, n, len(same))
            black[same], black[other_games] = black[other_games], black[same].copy()
        swap = rng.random(n) < 0.5
        white, black = np.where(swap, black, white), np.where(swap, white, black)
        order = rng.permutation(n)
        white, black, game_perf = white[order], black[order], game_perf[order]

        # Clocks within the perf, events, strengths, results, ratings and diffs.
        shares = np.array([s for _, _, _, _, s in self.clocks])
        clock = np.empty(n, dtype=np.intp)
        for p in range(len(PERFS)):
            mine = np.flatnonzero(game_perf == p)
            idx = [c for c, cl in enumerate(self.clocks) if cl[0] == p]
            w = shares[idx] / shares[idx].sum()
            clock[mine] = np.asarray(idx)[rng.choice(len(idx), len(mine), p=w)]
        arena_share = np.array([a for a, _ in EVENT_SHARES.values()])[game_perf]
        swiss_share = np.array([s for _, s in EVENT_SHARES.values()])[game_perf]
        u = rng.random(n)
        kind = np.where(u < arena_share, 1, np.where(u < arena_share + swiss_share, 2, 0))
        event_id = np.zeros(n, dtype=np.int64)
        group = game_perf * 3 + kind
        for g in np.unique(group[kind > 0]):  # about GAMES_PER_EVENT games an event
            mine = np.flatnonzero(group == g)
            events = max(1, len(mine) // GAMES_PER_EVENT)
            event_id[mine] = self.events + rng.integers(0, events, len(mine))
            self.events += events
        sw, sb = self.strength[white], self.strength[black]
        p_white = 1 / (1 + 10 ** (-(sw - sb + 20) / 400))
        p_draw = 0.05 + 0.05 * np.clip(((sw + sb) / 2 - 1200) / 1200, 0, 1)
        r = rng.random(n)
        result = np.where(r < p_draw, 2, np.where(rng.random(n) < p_white, 0, 1))
        score = np.choose(result, [1.0, 0.0, 0.5])
        rw = np.rint(sw + rng.normal(0, 35, n)).astype(np.int32)
        rb = np.rint(sb + rng.normal(0, 35, n)).astype(np.int32)
        expected = 1 / (1 + 10 ** (-(rw - rb) / 400))
        k_w = 8 + 32 / np.sqrt(self.counts[white])
        k_b = 8 + 32 / np.sqrt(self.counts[black])
        dw = np.rint(k_w * (score - expected)).astype(np.int32)
        db = np.rint(k_b * (expected - score)).astype(np.int32)

        # Times: increasing through the chunk's share of the month.
        t0 = first / self.games * self.span
        t1 = (first + n) / self.games * self.span
        secs = np.floor(np.sort(rng.uniform(t0, t1, n))).astype(np.int64)
        stamp = pa.array(int(self.start.timestamp()) + secs, pa.timestamp("s"))
        date = pc.strftime(stamp, "%Y.%m.%d")
        clock_time = pc.strftime(stamp, "%H:%M:%S")
        clocked = np.array([cl[2] is not None for cl in self.clocks])[clock]
        forfeit = clocked & (rng.random(n) < TIME_FORFEIT)
        line = rng.integers(0, LINES, n)
        move_idx = (line * len(self.clocks) + clock) * 3 + result
        opening = rng.integers(0, len(OPENINGS), n)
        tid = _ids(event_id.astype(np.uint64), 77)
        tid = pc.if_else(pa.array(kind == 0), pa.scalar(""), tid)
        game_no = np.arange(first, first + n, dtype=np.uint64)
        s = pa.scalar
        pieces = [
            s('[Event "'),
            pc.take(self.event_prefix, pa.array(game_perf * 3 + kind)),
            tid,
            s('"]\n[Site "https://lichess.org/'),
            _ids(game_no, 12345),
            s('"]\n[Date "'),
            date,
            s('"]\n[Round "-"]\n[White "'),
            pc.take(self.names, pa.array(white)),
            s('"]\n[Black "'),
            pc.take(self.names, pa.array(black)),
            s('"]\n[Result "'),
            pc.take(pa.array(RESULTS), pa.array(result)),
            s('"]\n[UTCDate "'),
            date,
            s('"]\n[UTCTime "'),
            clock_time,
            s('"]\n[WhiteElo "'),
            _text_int(rw),
            s('"]\n[BlackElo "'),
            _text_int(rb),
            s('"]\n[WhiteRatingDiff "'),
            _signed(dw),
            s('"]\n[BlackRatingDiff "'),
            _signed(db),
            s('"]\n[ECO "'),
            pc.take(self.eco, pa.array(opening)),
            s('"]\n[Opening "'),
            pc.take(self.opening, pa.array(opening)),
            s('"]\n[TimeControl "'),
            pc.take(self.tags, pa.array(clock)),
            s('"]\n[Termination "'),
            pa.array(np.where(forfeit, "Time forfeit", "Normal")),
            s('"]\n\n'),
            pc.take(self.pool, pa.array(move_idx)),
            s("\n\n"),
        ]
        return pc.binary_join_element_wise(*pieces, "")


def _bytes_of(text: pa.Array) -> memoryview:
    """The concatenated UTF-8 of a string array, without a copy."""
    offsets = np.frombuffer(text.buffers()[1], dtype=np.int32)[
        text.offset : text.offset + len(text) + 1
    ]
    data = text.buffers()[2]
    return memoryview(data)[int(offsets[0]) : int(offsets[-1])]


def write_month(
    out: Path,
    games: int,
    *,
    month: str = "2024-03",
    seed: int = 1,
    median: float = 7.0,
    sigma: float = 1.9,
    cap: int = 6000,
    chunk: int = 50_000,
    level: int = 1,
    threads: int = 2,
) -> MonthStats:
    """Write one month of ``games`` games under ``out``; return its figures (also written
    beside the dump as ``FILE.json``)."""
    started = time.perf_counter()
    year, mon = (int(v) for v in month.split("-"))
    args = argparse.Namespace(median=median, sigma=sigma, cap=cap)
    state = _Month(games, year, mon, seed, args)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"lichess_db_standard_rated_{year:04d}-{mon:02d}.pgn.zst"
    with (
        path.open("wb") as raw,
        zstandard.ZstdCompressor(level=level, threads=threads).stream_writer(raw) as sink,
    ):
        for first in range(0, games, chunk):
            text = state.chunk(first, min(chunk, games - first))
            sink.write(_bytes_of(text))
    counts = state.counts[state.counts > 0]
    stats = MonthStats(
        path=str(path),
        month=month,
        games=games,
        players=len(counts),
        median_games=float(np.median(counts)),
        mean_games=float(counts.mean()),
        p90_games=float(np.percentile(counts, 90)),
        p99_games=float(np.percentile(counts, 99)),
        max_games=int(counts.max()),
        share_one_game=float((counts == 1).mean()),
        share_three_or_fewer=float((counts <= 3).mean()),
        bytes=path.stat().st_size,
        seconds=time.perf_counter() - started,
        seed=seed,
    )
    Path(str(path) + ".json").write_text(json.dumps(asdict(stats), indent=1) + "\n")
    return stats


def describe(stats: MonthStats) -> str:
    """The month's figures in two lines."""
    return (
        f"{stats.path}: {stats.games:,} games, {stats.players:,} players, "
        f"{stats.bytes / 1e6:,.0f} MB, written in {stats.seconds:.1f} s\n"
        f"games per player: median {stats.median_games:g}, mean {stats.mean_games:.1f}, "
        f"90th percentile {stats.p90_games:g}, 99th {stats.p99_games:g}, max {stats.max_games:,}; "
        f"{stats.share_one_game:.1%} with one game, "
        f"{stats.share_three_or_fewer:.1%} with 3 or fewer"
    )


def main() -> None:
    """Command line: write one month and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("out", type=Path, help="directory (outside the repository)")
    parser.add_argument("--games", type=int, default=5_000_000)
    parser.add_argument("--month", default="2024-03", help="YYYY-MM (default 2024-03)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--median", type=float, default=7.0, help="median games per player")
    parser.add_argument(
        "--sigma", type=float, default=1.9, help="lognormal sigma of games per player"
    )
    parser.add_argument("--cap", type=int, default=6000, help="most games of one player")
    parser.add_argument(
        "--chunk",
        type=int,
        default=50_000,
        help="games built at once (the output depends on it too)",
    )
    parser.add_argument("--level", type=int, default=1, help="zstd level")
    parser.add_argument("--threads", type=int, default=2, help="zstd threads")
    args = parser.parse_args()
    stats = write_month(
        args.out,
        args.games,
        month=args.month,
        seed=args.seed,
        median=args.median,
        sigma=args.sigma,
        cap=args.cap,
        chunk=args.chunk,
        level=args.level,
        threads=args.threads,
    )
    print(describe(stats))


if __name__ == "__main__":
    main()
