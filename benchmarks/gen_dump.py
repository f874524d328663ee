"""Generate Lichess open-database dumps: ``.pgn.zst`` and the Parquet mirror's layout.

The format follows https://database.lichess.org (section "Standard chess", the PGN sample)
and the real exports in ``shared/reference/lichess/`` (``game-export-q7ZvsdUF.pgn``):

* headers in the database's order: ``Event, Site, Date, Round, White, Black, Result,
  UTCDate, UTCTime, WhiteElo, BlackElo, WhiteRatingDiff, BlackRatingDiff, [WhiteTitle],
  [BlackTitle], ECO, Opening, TimeControl, Termination``; the Event names the perf
  (``Rated Blitz game``, ``Rated Bullet tournament https://lichess.org/tournament/…``);
* a blank line, the movetext on one line with ``[%clk h:mm:ss]`` comments, a blank line;
* games in the order they started; one file per month
  (``lichess_db_standard_rated_YYYY-MM.pgn.zst``).

The Parquet mirror (Hugging Face ``Lichess/standard-chess-games``) has one column per
header: ``Event, Site, White, Black, Result, WhiteTitle, BlackTitle, WhiteElo (int16),
BlackElo, WhiteRatingDiff, BlackRatingDiff, UTCDate (date32), UTCTime (time32[s]), ECO,
Opening, Termination, TimeControl, movetext``, partitioned ``data/year=YYYY/month=MM/``.

Players have a true strength; each game pairs two players of one perf, draws the result
from their strengths (logistic, 8 % draws), and Lichess's ratings and rating diffs come
from this project's Glicko-2 engine (``lichess_elo.core.glicko.lichess_game``: live RD,
regulator, colour advantage, BOT halving). A share of games can be made unusable on purpose
(a BOT, a missing rating, a malformed header, an unfinished game) to test the counts.

Run ``python benchmarks/gen_dump.py OUTDIR --players 2000 --games 50000 --months 3``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import math
import random
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import chess
import zstandard

from lichess_elo.core.glicko import DEFAULT, Rating, advantage_for, lichess_game

#: perf -> (Event word, weight, clocks (initial, increment))
PERFS: dict[str, tuple[str, float, tuple[tuple[int, int], ...]]] = {
    "bullet": ("Bullet", 0.30, ((60, 0), (120, 1))),
    "blitz": ("Blitz", 0.40, ((180, 0), (180, 2), (300, 0), (300, 3))),
    "rapid": ("Rapid", 0.22, ((600, 0), (600, 5), (900, 10))),
    "classical": ("Classical", 0.08, ((1800, 0), (1800, 20))),
}
DRAW_SHARE = 0.08
HEADER_ORDER = (
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "UTCDate", "UTCTime",
    "WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "WhiteTitle", "BlackTitle",
    "ECO", "Opening", "TimeControl", "Termination",
)  # fmt: skip
OPENINGS = (
    ("B20", "Sicilian Defense"), ("C50", "Italian Game"), ("D02", "Queen's Pawn Game"),
    ("A00", "Van't Kruijs Opening"), ("C00", "French Defense"), ("B01", "Scandinavian Defense"),
)  # fmt: skip
ID_CHARS = string.ascii_letters + string.digits


@dataclass
class DumpGame:
    """One game as the dump holds it: headers (in order, as text) and the movetext line."""

    headers: dict[str, str]
    movetext: str

    def pgn(self) -> str:
        """The game's PGN text, as in the dump (ends with a blank line)."""
        tags = "".join(f'[{k} "{v}"]\n' for k, v in self.headers.items())
        return f"{tags}\n{self.movetext}\n\n"


@dataclass
class _Player:
    name: str
    strength: float
    title: str | None
    ratings: dict[str, Rating] = field(default_factory=dict)
    last: dict[str, dt.datetime] = field(default_factory=dict)


def _move_pool(rng: random.Random, size: int = 40) -> list[list[str]]:
    pool: list[list[str]] = []
    for _ in range(size):
        board = chess.Board()
        sans: list[str] = []
        for _ in range(rng.randint(20, 90)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            sans.append(board.san(move))
            board.push(move)
        pool.append(sans)
    return pool


def _movetext(sans: Sequence[str], clock: tuple[int, int], result: str) -> str:
    parts: list[str] = []
    left = [clock[0], clock[0]]
    for ply, san in enumerate(sans):
        side = ply % 2
        left[side] = max(0, left[side] - 3 + clock[1])
        h, rest = divmod(left[side], 3600)
        m, s = divmod(rest, 60)
        number = f"{ply // 2 + 1}." if side == 0 else f"{ply // 2 + 1}..."
        parts.append(f"{number} {san} {{ [%clk {h}:{m:02d}:{s:02d}] }}")
    parts.append(result)
    return " ".join(parts)


def make_players(n: int, rng: random.Random, bots: int = 0) -> list[_Player]:
    """``n`` players with strengths ~ N(1500, 350); the first ``bots`` are BOT accounts."""
    players = []
    for i in range(n):
        title = "BOT" if i < bots else ("FM" if rng.random() < 0.01 else None)
        name = f"{rng.choice(('chess', 'knight', 'pawn', 'rook', 'tal', 'zug'))}_{i:06d}"
        players.append(_Player(name, rng.gauss(1500, 350), title))
    return players


def month_start(year: int, month: int) -> dt.datetime:
    return dt.datetime(year, month, 1, tzinfo=dt.UTC)


def next_month(year: int, month: int) -> tuple[int, int]:
    return (year + 1, 1) if month == 12 else (year, month + 1)


def generate(
    players: Sequence[_Player],
    months: Sequence[tuple[int, int]],
    games_per_month: int,
    *,
    seed: int = 1,
    bad_share: float = 0.0,
) -> Iterator[tuple[tuple[int, int], DumpGame]]:
    """Yield ``(year, month), game`` for ``games_per_month`` games in each month, in time order.

    Players are paired with a neighbour in strength (Lichess pairs by rating); results are
    drawn from the true strengths; ratings and diffs follow ``glicko.lichess_game``.
    ``bad_share`` of the games are spoiled on purpose (see the module docstring).
    """
    rng = random.Random(seed)
    pool = _move_pool(rng)
    order = sorted(range(len(players)), key=lambda i: players[i].strength)
    perf_names = list(PERFS)
    weights = [PERFS[p][1] for p in perf_names]
    for year, month in months:
        start = month_start(year, month)
        span = (month_start(*next_month(year, month)) - start).total_seconds()
        step = span / games_per_month
        for g in range(games_per_month):
            when = start + dt.timedelta(seconds=int(g * step + rng.random() * step * 0.5))
            perf = rng.choices(perf_names, weights)[0]
            pos = rng.randrange(len(order))
            window = max(1, len(order) // 10)
            other = min(len(order) - 1, max(0, pos + rng.randint(-window, window)))
            if other == pos:
                other = pos - 1 if pos > 0 else pos + 1
            white, black = players[order[pos]], players[order[other]]
            if rng.random() < 0.5:
                white, black = black, white
            yield (year, month), _game(white, black, perf, when, rng, pool, bad_share)


def _game(
    white: _Player,
    black: _Player,
    perf: str,
    when: dt.datetime,
    rng: random.Random,
    pool: list[list[str]],
    bad_share: float,
) -> DumpGame:
    p_white = 1 / (1 + 10 ** (-(white.strength - black.strength) / 400))
    if rng.random() < DRAW_SHARE:
        score, result = 0.5, "1/2-1/2"
    elif rng.random() < p_white:
        score, result = 1.0, "1-0"
    else:
        score, result = 0.0, "0-1"
    before = (white.ratings.get(perf, DEFAULT), black.ratings.get(perf, DEFAULT))
    days = [
        (when - p.last[perf]).total_seconds() / 86400 if perf in p.last else 0.0
        for p in (white, black)
    ]
    bot = "white" if white.title == "BOT" else ("black" if black.title == "BOT" else None)
    w, b = lichess_game(
        before[0],
        before[1],
        score,
        perf=perf,
        advantage=advantage_for("standard", when),
        days_white=days[0],
        days_black=days[1],
        bot=bot if white.title != black.title else None,
    )
    for p, side in ((white, w), (black, b)):
        p.ratings[perf] = side.after
        p.last[perf] = when
    word, _, clocks = PERFS[perf]
    clock = rng.choice(clocks)
    game_id = "".join(rng.choice(ID_CHARS) for _ in range(8))
    arena = rng.random() < 0.3
    event = (
        f"Rated {word} tournament https://lichess.org/tournament/{game_id[::-1]}"
        if arena
        else f"Rated {word} game"
    )
    eco, opening = rng.choice(OPENINGS)
    headers = {
        "Event": event,
        "Site": f"https://lichess.org/{game_id}",
        "Date": when.strftime("%Y.%m.%d"),
        "Round": "-",
        "White": white.name,
        "Black": black.name,
        "Result": result,
        "UTCDate": when.strftime("%Y.%m.%d"),
        "UTCTime": when.strftime("%H:%M:%S"),
        "WhiteElo": str(math.trunc(before[0].rating)),
        "BlackElo": str(math.trunc(before[1].rating)),
        "WhiteRatingDiff": f"{w.rating_diff:+d}",
        "BlackRatingDiff": f"{b.rating_diff:+d}",
    }
    if white.title:
        headers["WhiteTitle"] = white.title
    if black.title:
        headers["BlackTitle"] = black.title
    headers |= {
        "ECO": eco,
        "Opening": opening,
        "TimeControl": f"{clock[0]}+{clock[1]}",
        "Termination": "Time forfeit" if rng.random() < 0.2 else "Normal",
    }
    if bad_share and rng.random() < bad_share:
        _spoil(headers, rng)
    return DumpGame(headers, _movetext(rng.choice(pool), clock, headers["Result"]))


def _spoil(headers: dict[str, str], rng: random.Random) -> None:
    kind = rng.randrange(4)
    if kind == 0:
        headers["WhiteElo"] = "?"
    elif kind == 1:
        headers["BlackElo"] = "15x0"
    elif kind == 2:
        headers["UTCDate"] = "2024.13.45"
    else:
        headers["Result"] = "*"


def write_pgn_zst(path: Path, games: Iterator[DumpGame], level: int = 3) -> int:
    """Write ``games`` to ``path`` as a zstd-compressed PGN; return the number written."""
    count = 0
    with (
        path.open("wb") as raw,
        zstandard.ZstdCompressor(level=level).stream_writer(raw) as out,
    ):
        buf = io.StringIO()
        for game in games:
            buf.write(game.pgn())
            count += 1
            if count % 2000 == 0:
                out.write(buf.getvalue().encode())
                buf = io.StringIO()
        out.write(buf.getvalue().encode())
    return count


def write_parquet(path: Path, games: Sequence[DumpGame]) -> None:
    """Write ``games`` to one Parquet file with the mirror's columns and types."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def col(name: str) -> list[str | None]:
        return [g.headers.get(name) for g in games]

    def ints(name: str) -> list[int | None]:
        out: list[int | None] = []
        for g in games:
            try:
                out.append(int(g.headers[name]))
            except (KeyError, ValueError):
                out.append(None)
        return out

    def dates() -> list[dt.date | None]:
        out: list[dt.date | None] = []
        for g in games:
            try:
                out.append(dt.datetime.strptime(g.headers["UTCDate"], "%Y.%m.%d").date())
            except ValueError:
                out.append(None)
        return out

    times = [dt.datetime.strptime(g.headers["UTCTime"], "%H:%M:%S").time() for g in games]
    table = pa.table(
        {
            "Event": pa.array(col("Event"), pa.string()),
            "Site": pa.array(col("Site"), pa.string()),
            "White": pa.array(col("White"), pa.string()),
            "Black": pa.array(col("Black"), pa.string()),
            "Result": pa.array(col("Result"), pa.string()),
            "WhiteTitle": pa.array(col("WhiteTitle"), pa.string()),
            "BlackTitle": pa.array(col("BlackTitle"), pa.string()),
            "WhiteElo": pa.array(ints("WhiteElo"), pa.int16()),
            "BlackElo": pa.array(ints("BlackElo"), pa.int16()),
            "WhiteRatingDiff": pa.array(ints("WhiteRatingDiff"), pa.int16()),
            "BlackRatingDiff": pa.array(ints("BlackRatingDiff"), pa.int16()),
            "UTCDate": pa.array(dates(), pa.date32()),
            "UTCTime": pa.array(times, pa.time32("s")),
            "ECO": pa.array(col("ECO"), pa.string()),
            "Opening": pa.array(col("Opening"), pa.string()),
            "Termination": pa.array(col("Termination"), pa.string()),
            "TimeControl": pa.array(col("TimeControl"), pa.string()),
            "movetext": pa.array([g.movetext for g in games], pa.string()),
        }
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)


def write_dumps(
    out: Path,
    *,
    players: int,
    games: int,
    months: int,
    start: tuple[int, int] = (2023, 12),
    seed: int = 1,
    bots: int = 0,
    bad_share: float = 0.0,
    parquet: bool = False,
    warmup: int = 1,
) -> list[Path]:
    """Write one ``.pgn.zst`` per month (and the Parquet mirror with ``parquet``) under ``out``.

    ``warmup`` months of games are played first and not written, so that the Lichess
    ratings in the dumps have settled as on the real site. Returns the ``.pgn.zst`` paths.
    ``games`` is the number of games per month.
    """
    rng = random.Random(seed)
    pool = make_players(players, rng, bots)
    month_list = [start]
    while len(month_list) < months + warmup:
        month_list.append(next_month(*month_list[-1]))
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    stream = generate(pool, month_list, games, seed=seed, bad_share=bad_share)
    for i, (year, month) in enumerate(month_list):
        batch = [next(stream)[1] for _ in range(games)]
        if i < warmup:
            continue
        path = out / f"lichess_db_standard_rated_{year:04d}-{month:02d}.pgn.zst"
        write_pgn_zst(path, iter(batch))
        paths.append(path)
        if parquet:
            target = out / "data" / f"year={year:04d}" / f"month={month:02d}"
            write_parquet(target / "train-00000-of-00001.parquet", batch)
    return paths


def main() -> None:
    """Command line: write dumps into a directory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=50_000, help="games per month")
    parser.add_argument("--months", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", type=int, default=0)
    parser.add_argument("--bad-share", type=float, default=0.0)
    parser.add_argument("--parquet", action="store_true")
    parser.add_argument("--warmup", type=int, default=1, help="months played, not written")
    args = parser.parse_args()
    for path in write_dumps(
        args.out,
        players=args.players,
        games=args.games,
        months=args.months,
        seed=args.seed,
        bots=args.bots,
        bad_share=args.bad_share,
        parquet=args.parquet,
        warmup=args.warmup,
    ):
        print(path)


if __name__ == "__main__":
    main()
