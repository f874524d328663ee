"""Helpers for the ``db`` tests: write games as a Lichess dump, load the dump generator."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import duckdb
import zstandard

REPO = Path(__file__).resolve().parents[2]


def game(
    when: str,
    white: str,
    black: str,
    result: str,
    elos: tuple[str, str],
    diffs: tuple[str, str] | None = None,
    *,
    event: str = "Rated Blitz game",
    tc: str = "180+0",
    titles: tuple[str | None, str | None] = (None, None),
    site: str = "abcdefgh",
    termination: str = "Normal",
) -> str:
    """One game in the open database's PGN layout (headers, blank line, movetext)."""
    date, time = when.split(" ")
    tags = [
        ("Event", event), ("Site", f"https://lichess.org/{site}"), ("Date", date),
        ("Round", "-"), ("White", white), ("Black", black), ("Result", result),
        ("UTCDate", date), ("UTCTime", time), ("WhiteElo", elos[0]), ("BlackElo", elos[1]),
    ]  # fmt: skip
    if diffs:
        tags += [("WhiteRatingDiff", diffs[0]), ("BlackRatingDiff", diffs[1])]
    for tag, title in zip(("WhiteTitle", "BlackTitle"), titles, strict=True):
        if title:
            tags.append((tag, title))
    tags += [("ECO", "C20"), ("Opening", "King's Pawn Game"), ("TimeControl", tc),
             ("Termination", termination)]  # fmt: skip
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    return f"{head}\n1. e4 {{ [%clk 0:03:00] }} 1... e5 {{ [%clk 0:03:00] }} {result}\n\n"


def write_dump(path: Path, games: list[str]) -> Path:
    """Write ``games`` as a ``.pgn.zst`` file."""
    path.write_bytes(zstandard.ZstdCompressor().compress("".join(games).encode()))
    return path


def gen_dump() -> ModuleType:
    """``benchmarks/gen_dump.py`` as a module (the generator of realistic dumps)."""
    from benchmarks import gen_dump as module

    return module


def awkward_games() -> list[bytes]:
    """Games that bend the layout, as bytes (one holds invalid UTF-8)."""
    plain = game("2024.06.01 10:00:00", "Ann", "Ben", "1-0", ("1500", "1501"), ("+5", "-5"))
    return [
        plain.encode(),
        # Escaped quotes and a ']' inside values, a '"]' inside a value.
        game("2024.06.01 10:01:00", 'A\\"nn', "B]en", "0-1", ("1500", "1500"), ("-5", "+5"))
        .replace("Rated Blitz game", 'Rated "Blitz"] game')
        .encode(),
        # Tags in another order, some missing (no Result, no UTCTime), one given twice.
        game("2024.06.01 10:02:00", "Cy", "Di", "1-0", ("1600", "1601"))
        .replace('[Result "1-0"]\n', "")
        .replace('[UTCTime "10:02:00"]\n', "")
        .replace('[Event "Rated Blitz game"]\n', "")
        .replace('[Termination "Normal"]', '[Termination "Normal"]\n[Event "Casual Blitz game"]')
        .replace('[White "Cy"]', '[White "Cx"]\n[White "Cy"]')
        .encode(),
        # A game without moves; a game with a title and wrapped movetext starting with '['.
        game("2024.06.01 10:03:00", "Eve", "Fay", "1/2-1/2", ("1700", "1700"), ("0", "0"))
        .split("\n\n")[0]
        .encode()
        + b"\n\n\n",
        game(
            "2024.06.01 10:04:00",
            "Gus",
            "Hal",
            "1-0",
            ("1800", "1803"),
            ("+1", "-1"),
            titles=("GM", "BOT"),
        )
        .replace("1... e5 {", "1... e5\n[%clk 0:03:00] {")
        .encode(),
        # Invalid UTF-8 in a name and in the event; a cut tag line; names that start alike.
        game("2024.06.01 10:05:00", "Ingrid", "Jo", "0-1", ("1900", "1904"), ("-4", "+4"))
        .replace("Ingrid", "Ingr\udce9d")
        .replace("Rated Blitz game", "Rated Blitz game \udcff")
        .replace('[Site "', '[WhiteEloX "9"]\n[Whit "x"]\n[BlackElo "19\n[Site "')
        .encode("utf-8", "surrogateescape"),
        # Garbage without a header, empty values, a tag without a space or quotes.
        b"this is not a game\n\n",
        game("2024.06.01 10:06:00", "", "Kim", "*", ("?", "1500"), termination="Abandoned")
        .replace('[Variant ""]', "")
        .replace('[ECO "C20"]', '[Variant ""]\n[Black"Kim"]\n[WhiteTitle]')
        .encode(),
        # A variant, an AI, a non-ASCII name, a long game (larger than the small chunks).
        game("2024.06.01 10:07:00", "lichess AI level 3", "Łukasz", "1-0", ("1500", "1500"))
        .replace('[ECO "C20"]', '[Variant "Chess960"]')
        .replace("1. e4", "1. e4 " + "{ [%clk 0:02:59] } " * 300)
        .encode(),
        plain.replace("Ann", "Zed").encode(),
        *event_games(),
    ]


def event_games() -> list[bytes]:
    """Blitz games whose Event alone, or with the rating diffs, says if they are rated."""
    diffs = ("+3", "-3")
    arena = "Rated Blitz tournament https://lichess.org/tournament/abc123"
    swiss = "Rated Blitz swiss https://lichess.org/swiss/xyz789"
    cases = [
        ("Arn", arena, diffs),  # rated (its word), event arena:abc123
        ("Swi", swiss, None),  # rated (its word), event swiss:xyz789
        ("Cas", "Casual Rapid game", diffs),  # casual: unrated despite the diffs
        ("Clb", "My club event", None),  # no word: no diffs, unrated
        ("Clc", "My club event", diffs),  # no word: the diffs make it rated, blitz by its TC
        ("Imp", "Import", diffs),  # an imported game: unrated
        ("Nev", "", diffs),  # no Event tag: rated by its diffs
        ("Nen", "", None),  # no Event tag, no diffs: unrated
    ]
    out = []
    for name, event, with_diffs in cases:
        text = game("2024.06.02 10:00:00", name, "Opp", "1-0", ("1500", "1500"), with_diffs)
        text = text.replace("Rated Blitz game", event)
        out.append(text.replace('[Event ""]\n', "").encode())
    return out


def db_tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of ``db``, sorted."""
    con = duckdb.connect(str(db))
    names = [r[0] for r in con.execute("SHOW TABLES").fetchall()]
    out = {}
    for name in names:
        rows = con.execute(f"SELECT * FROM {name}").fetchall()
        out[name] = sorted(rows, key=repr)
    con.close()
    return out
