"""``club.toml``: the club's rating rules, read with ``tomllib``.

The keys are checked by the pure ``core.club.config.rules_from_mapping``; this module reads
the file and finds the line of a bad key, so every error is a ``BadFile`` naming the file,
the line and the key (``field`` ``config``, exit 2).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path

from lichess_elo.core.club.config import rules_from_mapping
from lichess_elo.core.club.model import Rules
from lichess_elo.errors import BadFile
from lichess_elo.sources.text_files import read_text

FIELD = "config"


@cache
def page_languages() -> tuple[str, ...]:
    """The languages the pages are shipped in: the tables of ``data/club_words.toml``
    (``output/club/words.py`` reads their words)."""
    text = resources.files("lichess_elo").joinpath("data", "club_words.toml").read_text("utf-8")
    return tuple(sorted(tomllib.loads(text)))


class _Doc:
    """The file's lines, to name the line of a key in messages."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def line_of(self, table: str | None, key: str) -> int:
        """The line of ``key`` in ``table``; else the table's header line; else 1."""
        current: str | None = None
        header_line = 1
        for number, line in enumerate(self.lines, start=1):
            stripped = line.strip()
            header = re.fullmatch(r"\[\s*([^\]]+?)\s*\]", stripped)
            if header:
                current = header[1]
                if table is not None and current == f"{table}.{key}":
                    return number
                if table is not None and current == table and header_line == 1:
                    header_line = number
                continue
            if re.match(rf"['\"]?{re.escape(key)}['\"]?\s*=", stripped) and current == table:
                return number
            if table is not None and current is None and stripped.startswith(f"{table}."):
                return number
        return header_line

    def fail(self, table: str | None, key: str, problem: str) -> BadFile:
        """The error for a bad ``key`` of ``table``, at its line."""
        name = f"{table}.{key}" if table else key
        line = self.line_of(table, key.split(".")[0])
        return BadFile(self.path, f"key {name}: {problem}", line=line, field=FIELD)


def read_rules(path: Path) -> Rules:
    """Read and check ``club.toml``.

    Raises:
        BadFile: a missing or unreadable file, a TOML syntax error, an unknown key or a
            bad value, with the file, line and key.
    """
    try:
        text = read_text(path, FIELD)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise BadFile(path, f"cannot read the rules file ({reason})", field=FIELD) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = int(m[1]) if m else 1
        raise BadFile(path, f"not valid TOML ({exc})", line=line, field=FIELD) from None
    return rules_from_mapping(data, _Doc(path, text).fail, page_languages())
