"""``club.toml``: the club's rating rules, read with ``tomllib`` and checked key by key.

Every error names the file, the line and the key (``BadInput``, exit 2). The command-line
options override the file through ``with_overrides``.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from lichess_elo.core.club.rating import METHODS, ROUNDINGS, UPDATE_MODES, Rules, Start, name_key
from lichess_elo.errors import BadInput

#: Every key the file may hold: top-level scalars, and tables with their keys.
_SCALARS = {"update", "method", "cap", "rounding", "newcomers", "start", "k"}
_TABLES: dict[str, set[str]] = {
    "start": {"default", "groups", "players"},
    "k": {
        "default",
        "groups",
        "players",
        "junior",
        "junior_age",
        "provisional",
        "provisional_games",
    },
    "return_k": {"k", "after_months", "games"},
    "count": {"events", "time_controls"},
    "exclude": {"events"},
    "target": {"step", "term_end"},
}
#: Lichess's speed names, accepted as time-control patterns (any case).
SPEEDS = ("ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence")
_TIME_CONTROL = re.compile(r"(\d+(?:\.\d+)?)\s*\+\s*(\d+)")
#: A base above this is in seconds (PGN's ``900+10``), at or below it in minutes (``15+10``).
_MAX_MINUTES = 180


def normal_time_control(text: str) -> str | None:
    """``minutes+increment`` for a time control written ``15+10`` or, in seconds, ``900+10``.

    A base above 180 is read as seconds (no club plays more than 3 hours a side), so
    ``900+10`` -> ``15+10``; ``None`` when ``text`` is not ``BASE+INCREMENT``.
    """
    m = _TIME_CONTROL.fullmatch(text.strip())
    if m is None:
        return None
    base = float(m[1])
    minutes = base / 60 if base > _MAX_MINUTES else base
    return f"{minutes:g}+{int(m[2])}"


def time_control_pattern(text: str) -> str | None:
    """A ``count.time_controls`` pattern as it is matched, or ``None`` when it is not one.

    Accepted: a speed name (``rapid``), a time control (``15+10``, ``900+10``, returned in
    minutes) or a glob with ``*`` or ``?`` (``15+*``).
    """
    value = text.strip()
    if value.casefold() in {s.casefold() for s in SPEEDS}:
        return value
    normal = normal_time_control(value)
    if normal is not None:
        return normal
    if value and ("*" in value or "?" in value):
        return value
    return None


def _time_control_problem(text: str) -> str:
    return (
        f"{text!r} is not a speed ({', '.join(SPEEDS)}), a time control like 15+10 or "
        "900+10, or a pattern with * or ?"
    )


def check_time_controls(patterns: Sequence[str], option: str) -> tuple[str, ...]:
    """Check ``--count-time-control`` values (see ``time_control_pattern``).

    Raises:
        BadInput: naming the option and the bad value.
    """
    out = []
    for text in patterns:
        pattern = time_control_pattern(text)
        if pattern is None:
            raise BadInput(f"{option}: {_time_control_problem(text)}")
        out.append(pattern)
    return tuple(out)


class _Doc:
    """The parsed file plus what is needed to name lines in messages."""

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

    def fail(self, table: str | None, key: str, problem: str) -> BadInput:
        name = f"{table}.{key}" if table else key
        line = self.line_of(table, key.split(".")[0])
        return BadInput(f"{self.path}:{line}: key {name}: {problem}")


def _whole(doc: _Doc, table: str | None, key: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise doc.fail(table, key, f"expected a whole number >= {low}, got {value!r}")
    return value


def _start(doc: _Doc, table: str | None, key: str, value: Any) -> Start:
    if value == "fide":
        return "fide"
    return _whole(doc, table, key, value)


def _choice(doc: _Doc, key: str, value: Any, allowed: Sequence[str]) -> Any:
    if value not in allowed:
        raise doc.fail(None, key, f"expected one of {', '.join(allowed)}, got {value!r}")
    return value


def _patterns(doc: _Doc, table: str, key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise doc.fail(table, key, 'expected a list of patterns like ["Club*"]')
    return tuple(value)


def _named(doc: _Doc, table: str, key: str, value: Any, start: bool = False) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise doc.fail(table, key, "expected a table like { beginner = 800 }")
    out: dict[str, Any] = {}
    for name, number in value.items():
        where = f"{key}.{name}"
        out[name_key(name)] = (
            _start(doc, table, where, number) if start else _whole(doc, table, where, number, 1)
        )
    return out


def read_rules(path: Path) -> Rules:
    """Read and check ``club.toml``.

    Raises:
        BadInput: a missing file, a TOML syntax error, an unknown key or a bad value, with
            the file, line and key.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"{path}: cannot read the rules file ({exc.strerror})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = m[1] if m else "1"
        raise BadInput(f"{path}:{line}: not valid TOML ({exc})") from None
    return rules_from_mapping(data, _Doc(path, text))


def rules_from_mapping(data: Mapping[str, Any], doc: _Doc) -> Rules:
    """Build ``Rules`` from a parsed ``club.toml`` (see ``read_rules``)."""
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in _TABLES and isinstance(value, Mapping):
            for sub in value:
                if sub not in _TABLES[key]:
                    raise doc.fail(
                        key, sub, f"unknown key (known: {', '.join(sorted(_TABLES[key]))})"
                    )
        elif key in _TABLES and key not in _SCALARS:
            raise doc.fail(None, key, f"expected a table like [{key}], got {value!r}")
        elif key not in _SCALARS:
            known = ", ".join(sorted(_SCALARS | set(_TABLES)))
            raise doc.fail(None, key, f"unknown key (known: {known})")
    if "update" in data:
        values["update"] = _choice(doc, "update", data["update"], UPDATE_MODES)
    if "method" in data:
        values["method"] = _choice(doc, "method", data["method"], METHODS)
    if "rounding" in data:
        values["rounding"] = _choice(doc, "rounding", data["rounding"], ROUNDINGS)
    for flag in ("cap", "newcomers"):
        if flag in data:
            if not isinstance(data[flag], bool):
                raise doc.fail(None, flag, f"expected true or false, got {data[flag]!r}")
            values[flag] = data[flag]
    start = data.get("start")
    if isinstance(start, Mapping):
        if "default" in start:
            values["start"] = _start(doc, "start", "default", start["default"])
        if "groups" in start:
            values["start_groups"] = _named(doc, "start", "groups", start["groups"], start=True)
        if "players" in start:
            players = _named(doc, "start", "players", start["players"])
            values["start_players"] = players
    elif start is not None:
        values["start"] = _start(doc, None, "start", start)
    k = data.get("k")
    if isinstance(k, Mapping):
        simple = {
            "default": "k",
            "junior": "junior_k",
            "junior_age": "junior_age",
            "provisional": "provisional_k",
            "provisional_games": "provisional_games",
        }
        for key, attr in simple.items():
            if key in k:
                low = 0 if key in ("junior_age", "provisional_games") else 1
                values[attr] = _whole(doc, "k", key, k[key], low)
        for key in ("groups", "players"):
            if key in k:
                values[f"k_{key}"] = _named(doc, "k", key, k[key])
    elif k is not None:
        values["k"] = _whole(doc, None, "k", k, 1)
    ret = _table(doc, data, "return_k")
    if ret:
        if "k" not in ret:
            raise doc.fail("return_k", "k", "missing (the K after a break, e.g. k = 40)")
        values["return_k"] = _whole(doc, "return_k", "k", ret["k"], 1)
        values["return_months"] = _whole(
            doc, "return_k", "after_months", ret.get("after_months", 6)
        )
        values["return_games"] = _whole(doc, "return_k", "games", ret.get("games", 5))
    count = _table(doc, data, "count")
    if "events" in count:
        values["count_events"] = _patterns(doc, "count", "events", count["events"])
    if "time_controls" in count:
        patterns = _patterns(doc, "count", "time_controls", count["time_controls"])
        checked = [time_control_pattern(p) for p in patterns]
        for text, pattern in zip(patterns, checked, strict=True):
            if pattern is None:
                raise doc.fail("count", "time_controls", _time_control_problem(text))
        values["count_time_controls"] = tuple(p for p in checked if p is not None)
    exclude = _table(doc, data, "exclude")
    if "events" in exclude:
        values["exclude_events"] = _patterns(doc, "exclude", "events", exclude["events"])
    target = _table(doc, data, "target")
    if "step" in target:
        values["target_step"] = _whole(doc, "target", "step", target["step"], 1)
    if "term_end" in target:
        end = target["term_end"]
        if not isinstance(end, date):
            raise doc.fail("target", "term_end", f"expected a date like 2026-12-18, got {end!r}")
        values["term_end"] = end
    return Rules(**values)


def _table(doc: _Doc, data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        raise doc.fail(None, name, "expected a table")
    return value


def _option(text: str, option: str, start: bool) -> tuple[str | None, Any]:
    """``N`` or ``NAME=N`` (and ``fide`` for --start)."""
    name, sep, value = text.rpartition("=")
    value = value.strip()
    if start and value == "fide":
        return (name.strip() if sep else None), "fide"
    if not (value.isascii() and value.isdigit()) or (not start and int(value) < 1):
        example = "1000, fide or beginner=800" if start else "20 or children=40"
        raise BadInput(f"{option} {text!r}: expected {example}")
    return (name.strip() if sep else None), int(value)


def with_overrides(
    rules: Rules,
    *,
    groups: set[str],
    k: Sequence[str] = (),
    start: Sequence[str] = (),
    **simple: Any,
) -> Rules:
    """Apply the command-line options on top of the file's rules.

    ``--k``/``--start`` take ``N`` (the default) or ``NAME=N``: a group when some player
    has that group (in ``groups``, lowercase), else a player.
    ``simple`` holds the other options (``update=...``); ``None`` values are ignored.
    """
    changes: dict[str, Any] = {key: value for key, value in simple.items() if value is not None}
    groups = groups | set(rules.start_groups) | set(rules.k_groups)
    for option, texts, attr in (("--k", k, "k"), ("--start", start, "start")):
        by_group = dict(getattr(rules, f"{attr}_groups"))
        by_player = dict(getattr(rules, f"{attr}_players"))
        for text in texts:
            name, value = _option(text, option, attr == "start")
            if name is None:
                changes[attr] = value
            elif name.lower() in groups:
                by_group[name.lower()] = value
            elif attr == "start" and value == "fide":
                raise BadInput(f"{option} {text!r}: fide is for the default or a group")
            else:
                by_player[name_key(name)] = value
        changes[f"{attr}_groups"] = by_group
        changes[f"{attr}_players"] = by_player
    return dataclasses.replace(rules, **changes)


def parse_numbers(
    text: str | None, option: str, names: Sequence[str], example: str | None = None
) -> tuple[int, ...] | None:
    """``K:GAMES``-style option values: whole numbers separated by colons.

    The first number is a K and must be at least 1, as in ``club.toml``.

    Raises:
        BadInput: naming the option, the expected shape and ``example``.
    """
    if text is None:
        return None
    parts = [p.strip() for p in text.split(":")]
    if (
        len(parts) != len(names)
        or not all(p.isascii() and p.isdigit() for p in parts)
        or int(parts[0]) < 1
    ):
        shown = f"{':'.join(names)}, e.g. {example}" if example else ":".join(names)
        raise BadInput(f"{option} {text!r}: expected {shown} ({names[0]} at least 1)")
    return tuple(int(p) for p in parts)


def check_options(k: Sequence[str], start: Sequence[str]) -> None:
    """Check the ``--k`` and ``--start`` values before any input is read.

    Raises:
        BadInput: naming the option and the bad value.
    """
    for texts, option in ((k, "--k"), (start, "--start")):
        for text in texts:
            _option(text, option, option == "--start")
