"""Helpers for the ``db`` tests: write games as a Lichess dump, load the dump generator."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

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
    name = "gen_dump"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / "gen_dump.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
