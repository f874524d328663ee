"""The club's rules from a parsed ``club.toml`` mapping, checked key by key (pure).

``sources/club/config.py`` reads the file and says where a key is (its ``fail``); every error
comes back through it as a ``BadFile`` naming the file, the line and the key. The
options (``options.ClubOptions``) override the rules. Time-control patterns, and which
games count under the ``count``/``exclude`` rules (``counts``), live here too.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from lichess_elo.core.club.model import (
    METHODS,
    ROUNDINGS,
    UPDATE_MODES,
    ClubGame,
    Rules,
    Start,
    name_key,
)
from lichess_elo.core.fide.kinds import Chapter, fide_chapter
from lichess_elo.core.games import Clock, speed_of

#: ``fail(table, key, problem)``: the error for a bad ``key`` (in ``table``, or top level).
Fail = Callable[[str | None, str, str], Exception]

#: The columns of the players and games files (``[columns]`` maps them to a file's own
#: headers), and the headers read as each without any map: English and Polish (matched
#: with case, accents and spaces folded: ``Białe`` is ``biale``, ``Imię i nazwisko``
#: ``imie_i_nazwisko``).
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "nazwisko", "imie_i_nazwisko", "zawodnik"),
    "rating": ("rating", "ranking"),
    "group": ("group", "grupa"),
    "born": ("born", "rocznik", "rok_urodzenia"),
    "start": ("start", "ranking_startowy"),
    "lichess": ("lichess", "konto_lichess"),
    "date": ("date", "data"),
    "white": ("white", "player_a", "a", "playera", "biale"),
    "black": ("black", "player_b", "b", "playerb", "czarne"),
    "result": ("result", "wynik"),
    "event": ("event", "turniej"),
    "round": ("round", "runda"),
    "time_control": ("time_control", "tempo"),
}

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
    "publish": {"min_games", "hide_provisional"},
    "awards": {"progress_after"},
    "page": {"name", "language"},
    "columns": set(COLUMNS),
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


def time_control_problem(text: str) -> str:
    """Why ``text`` is not a time-control pattern."""
    return (
        f"{text!r} is not a speed ({', '.join(SPEEDS)}), a time control like 15+10 or "
        "900+10, or a pattern with * or ?"
    )


def matches(value: str | None, patterns: Sequence[str]) -> bool:
    """True when ``value`` matches one of the glob ``patterns`` (case-insensitive)."""
    if value is None:
        return False
    low = value.lower()
    return any(fnmatch.fnmatchcase(low, p.lower()) for p in patterns)


def clock_of(time_control: str | None) -> Clock | None:
    """The clock of a club's ``minutes+increment`` (``15+10`` -> 900 s + 10 s), or ``None``
    when ``time_control`` is not ``BASE+INCREMENT``."""
    if not time_control or "+" not in time_control:
        return None
    base, _, inc = time_control.partition("+")
    try:
        return Clock(initial=round(float(base) * 60), increment=int(inc))
    except ValueError:
        return None


def time_control_speed(time_control: str | None) -> str | None:
    """Lichess's speed class (``core.games.speed_of``) of a club's ``minutes+increment``.

    ``None`` when ``time_control`` is not ``BASE+INCREMENT``.
    """
    clock = clock_of(time_control)
    return None if clock is None else speed_of(clock)


def chapter_of(time_control: str | None) -> Chapter:
    """FIDE's chapter of a club game by its ``minutes+increment`` (the Laws of Chess,
    Appendix A: ``fide.fide_chapter``); a game without one takes the standard chapter, as
    every club game did before the chapter was read from the clock."""
    clock = clock_of(time_control)
    return "standard" if clock is None else fide_chapter(clock)


#: The rule that leaves out a forfeit (FIDE rating regulations 4.1: a game won by forfeit is
#: not rated; the result still stands in the event).
FORFEIT_RULE = "forfeit: recorded, never rated"


def exclusion_rule(game: ClubGame, rules: Rules) -> str | None:
    """The rule that leaves ``game`` unrated, in words, or ``None`` when it counts."""
    if game.forfeit:
        return FORFEIT_RULE
    patterns = ", ".join
    if rules.exclude_events and matches(game.event_name, rules.exclude_events):
        return f"exclude.events ({patterns(rules.exclude_events)}) matches the event"
    if rules.count_events and not matches(game.event_name, rules.count_events):
        return f"count.events ({patterns(rules.count_events)}) does not match the event"
    if rules.count_time_controls:
        tc = game.time_control
        if not (
            matches(tc, rules.count_time_controls)
            or matches(time_control_speed(tc), rules.count_time_controls)
        ):
            speed = time_control_speed(tc)
            shown = f"{tc} ({speed})" if speed else (tc or "none given")
            return (
                f"count.time_controls ({patterns(rules.count_time_controls)}) "
                f"leaves out the time control {shown}"
            )
    return None


def counts(game: ClubGame, rules: Rules) -> bool:
    """Whether ``game`` counts under the forfeit, ``count`` and ``exclude`` rules."""
    return exclusion_rule(game, rules) is None


def _whole(doc: Fail, table: str | None, key: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise doc(table, key, f"expected a whole number >= {low}, got {value!r}")
    return value


def _start(doc: Fail, table: str | None, key: str, value: Any) -> Start:
    if value == "fide":
        return "fide"
    return _whole(doc, table, key, value)


def _choice(doc: Fail, key: str, value: Any, allowed: Sequence[str]) -> Any:
    if value not in allowed:
        raise doc(None, key, f"expected one of {', '.join(allowed)}, got {value!r}")
    return value


def _patterns(doc: Fail, table: str, key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise doc(table, key, 'expected a list of patterns like ["Club*"]')
    return tuple(value)


def _named(doc: Fail, table: str, key: str, value: Any, start: bool = False) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise doc(table, key, "expected a table like { beginner = 800 }")
    out: dict[str, Any] = {}
    for name, number in value.items():
        where = f"{key}.{name}"
        out[name_key(name)] = (
            _start(doc, table, where, number) if start else _whole(doc, table, where, number, 1)
        )
    return out


def rules_from_mapping(
    data: Mapping[str, Any], doc: Fail, languages: Sequence[str] = ("en",)
) -> Rules:
    """Build ``Rules`` from a parsed ``club.toml``; ``doc`` makes the error for a bad key;
    ``languages``: the languages the pages can be written in (``page.language``).

    Raises:
        Whatever ``doc`` returns, for an unknown key or a bad value.
    """
    _check_keys(data, doc)
    values: dict[str, Any] = {}
    for step in (_modes, _starts, _ks, _return_k, _counting, _publishing, _columns):
        values.update(step(data, doc))
    values.update(_page(data, doc, languages))
    return Rules(**values)


def _page(data: Mapping[str, Any], doc: Fail, languages: Sequence[str]) -> dict[str, Any]:
    """``[page]``: the club's name and the pages' language; ``[awards]``."""
    values: dict[str, Any] = {}
    page = _table(doc, data, "page")
    if "name" in page:
        name = page["name"]
        if not isinstance(name, str) or not name.strip():
            raise doc("page", "name", f"expected the club's name in quotes, got {name!r}")
        values["club_name"] = " ".join(name.split())
    if "language" in page:
        language = page["language"]
        if language not in languages:
            shipped = ", ".join(languages)
            raise doc("page", "language", f"{language!r} is not a language of the pages "
                      f"(shipped: {shipped})")  # fmt: skip
        values["language"] = language
    awards = _table(doc, data, "awards")
    if "progress_after" in awards:
        values["progress_after"] = _whole(doc, "awards", "progress_after",
                                          awards["progress_after"])  # fmt: skip
    return values


def _columns(data: Mapping[str, Any], doc: Fail) -> dict[str, Any]:
    """``[columns]``: the tool's column name -> the file's header (a name or a list)."""
    columns = _table(doc, data, "columns")
    out: dict[str, tuple[str, ...]] = {}
    for key, value in columns.items():
        headers = [value] if isinstance(value, str) else value
        if not isinstance(headers, list) or not all(
            isinstance(h, str) and h.strip() for h in headers
        ):
            raise doc("columns", key, f'expected a header like "nazwisko", got {value!r}')
        out[key] = tuple(headers)
    return {"columns": out} if out else {}


def _check_keys(data: Mapping[str, Any], doc: Fail) -> None:
    """Refuse an unknown key, at the top or in a table, and a scalar where a table goes."""
    for key, value in data.items():
        if key in _TABLES and isinstance(value, Mapping):
            for sub in value:
                if sub not in _TABLES[key]:
                    raise doc(key, sub, f"unknown key (known: {', '.join(sorted(_TABLES[key]))})")
        elif key in _TABLES and key not in _SCALARS:
            raise doc(None, key, f"expected a table like [{key}], got {value!r}")
        elif key not in _SCALARS:
            known = ", ".join(sorted(_SCALARS | set(_TABLES)))
            raise doc(None, key, f"unknown key (known: {known})")


def _modes(data: Mapping[str, Any], doc: Fail) -> dict[str, Any]:
    """``update``, ``method``, ``rounding``, ``cap`` and ``newcomers``."""
    values: dict[str, Any] = {}
    if "update" in data:
        values["update"] = _choice(doc, "update", data["update"], UPDATE_MODES)
    if "method" in data:
        values["method"] = _choice(doc, "method", data["method"], METHODS)
    if "rounding" in data:
        values["rounding"] = _choice(doc, "rounding", data["rounding"], ROUNDINGS)
    for flag in ("cap", "newcomers"):
        if flag in data:
            if not isinstance(data[flag], bool):
                raise doc(None, flag, f"expected true or false, got {data[flag]!r}")
            values[flag] = data[flag]
    return values


def _starts(data: Mapping[str, Any], doc: Fail) -> dict[str, Any]:
    """``start``: a number, or ``[start]`` with a default, groups and players."""
    values: dict[str, Any] = {}
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
    return values


def _ks(data: Mapping[str, Any], doc: Fail) -> dict[str, Any]:
    """``k``: a number, or ``[k]`` with a default, junior and provisional K, groups, players."""
    values: dict[str, Any] = {}
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
    return values


def _return_k(data: Mapping[str, Any], doc: Fail) -> dict[str, Any]:
    """``[return_k]``: the K after a break, its months and games."""
    values: dict[str, Any] = {}
    ret = _table(doc, data, "return_k")
    if ret:
        if "k" not in ret:
            raise doc("return_k", "k", "missing (the K after a break, e.g. k = 40)")
        values["return_k"] = _whole(doc, "return_k", "k", ret["k"], 1)
        values["return_months"] = _whole(
            doc, "return_k", "after_months", ret.get("after_months", 6)
        )
        values["return_games"] = _whole(doc, "return_k", "games", ret.get("games", 5))
    return values


def _counting(data: Mapping[str, Any], doc: Fail) -> dict[str, Any]:
    """``[count]`` and ``[exclude]``: which events and time controls count."""
    values: dict[str, Any] = {}
    count = _table(doc, data, "count")
    if "events" in count:
        values["count_events"] = _patterns(doc, "count", "events", count["events"])
    if "time_controls" in count:
        patterns = _patterns(doc, "count", "time_controls", count["time_controls"])
        checked = [time_control_pattern(p) for p in patterns]
        for text, pattern in zip(patterns, checked, strict=True):
            if pattern is None:
                raise doc("count", "time_controls", time_control_problem(text))
        values["count_time_controls"] = tuple(p for p in checked if p is not None)
    exclude = _table(doc, data, "exclude")
    if "events" in exclude:
        values["exclude_events"] = _patterns(doc, "exclude", "events", exclude["events"])
    return values


def _publishing(data: Mapping[str, Any], doc: Fail) -> dict[str, Any]:
    """``[publish]`` and ``[target]``: what the published table leaves out, the targets."""
    values: dict[str, Any] = {}
    publish = _table(doc, data, "publish")
    if "min_games" in publish:
        values["min_games"] = _whole(doc, "publish", "min_games", publish["min_games"])
    if "hide_provisional" in publish:
        hide = publish["hide_provisional"]
        if not isinstance(hide, bool):
            raise doc("publish", "hide_provisional", f"expected true or false, got {hide!r}")
        values["hide_provisional"] = hide
    target = _table(doc, data, "target")
    if "step" in target:
        values["target_step"] = _whole(doc, "target", "step", target["step"], 1)
    if "term_end" in target:
        end = target["term_end"]
        if not isinstance(end, date):
            raise doc("target", "term_end", f"expected a date like 2026-12-18, got {end!r}")
        values["term_end"] = end
    return values


def _table(doc: Fail, data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        raise doc(None, name, "expected a table")
    return value
