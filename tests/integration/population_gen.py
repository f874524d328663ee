"""A generated population for the differential tests (seeded, fixed count): 2021-11 to
2025-11, so it crosses every edition date of both chapters that ``db`` meets (2022-01,
2022-10, 2024-03, 2024-12, 2025-10), with arena and swiss games (the once-per-event rule),
gaps over 400, classical players rated 2650+, rapid and blitz pairs 600 apart with one
player above 2600 (the 600/2600 rule) and months of 40 games for one pair (the 700 rule).
Its classical games span FIDE's chapters: 30+0 (rapid) and 90+30 (standard) mixed."""

from __future__ import annotations

import random

from tests.integration.db_helpers import game

PERFS = {
    "bullet": ("Rated Bullet", "60+0"),
    "blitz": ("Rated Blitz", "180+0"),
    "rapid": ("Rated Rapid", "600+0"),
    "classical": ("Rated Classical", "1800+0"),
}
MONTHS = [
    y * 100 + m for y in range(2021, 2026) for m in range(1, 13) if 202111 <= y * 100 + m <= 202511
]
#: Months where one pair plays 40 games of one perf (the 700 rule: K x 40 > 700 for K 20).
BURSTS = {202203: "blitz", 202211: "rapid", 202406: "rapid", 202501: "bullet", 202510: "classical"}


def population(seed: int = 20, count: int = 3000) -> list[str]:
    """``count`` games (plus the bursts) in the open database's PGN layout."""
    rng = random.Random(seed)
    players = [f"P{i:02d}" for i in range(36)]
    base = {perf: {p: rng.randint(900, 2450) for p in players} for perf in PERFS}
    for perf in PERFS:  # the strong: 2650+ in classical, above 2600 in rapid and blitz
        base[perf]["P00"], base[perf]["P01"] = 2760, 2680
    out: list[tuple[int, int, str]] = []

    def add(month: int, perf: str, white: str, black: str) -> None:
        word, tc = PERFS[perf]
        if perf == "classical" and len(out) % 3:  # two in three: 90 + 30 = 120 min, standard
            tc = "5400+30"  # (the Laws of Chess, Appendix A); the third, 30 min, is rapid
        roll = rng.random()
        if roll < 0.4:
            arena = f"t{month}{perf[:2]}{rng.randint(0, 2)}"
            event = f"{word} tournament https://lichess.org/tournament/{arena}"
        elif roll < 0.55:
            swiss = f"s{month}{perf[:2]}{rng.randint(0, 1)}"
            event = f"{word} swiss https://lichess.org/swiss/{swiss}"
        else:
            event = f"{word} game"
        we = base[perf][white] + rng.randint(-40, 40)
        be = base[perf][black] + rng.randint(-40, 40)
        white_p = 1 / (1 + 10 ** ((be - we) / 400))  # results follow the strengths
        roll = rng.random()
        result = "1-0" if roll < white_p - 0.05 else "0-1" if roll > white_p + 0.05 else "1/2-1/2"
        day, sec = rng.randint(1, 28), rng.randint(0, 86399)
        clock = f"{sec // 3600:02d}:{sec // 60 % 60:02d}:{sec % 60:02d}"
        when = f"{month // 100}.{month % 100:02d}.{day:02d} {clock}"
        d = rng.randint(1, 9)
        text = game(when, white, black, result, (str(we), str(be)), (f"+{d}", f"-{d}"),
                    event=event, tc=tc, site=f"g{len(out):07d}")  # fmt: skip
        out.append((month * 100 + day, sec, text))

    for _ in range(count):
        month, perf = rng.choice(MONTHS), rng.choice(list(PERFS))
        if rng.random() < 0.2:  # a strong player against anyone: gaps over 400 and 600
            white, black = rng.choice(["P00", "P01"]), rng.choice(players[2:])
            if rng.random() < 0.5:
                white, black = black, white
        else:
            white, black = rng.sample(players, 2)
        add(month, perf, white, black)
    for month, perf in BURSTS.items():
        for i in range(40):
            add(month, perf, *(("P05", "P06") if i % 2 else ("P06", "P05")))
    return [text for _, _, text in sorted(out, key=lambda x: (x[0], x[1]))]
