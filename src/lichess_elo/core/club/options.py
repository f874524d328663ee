"""The club's rule overrides (the ``club`` command's options), typed and checked (pure).

``ClubOptions`` replaces a loose mapping: every override of ``club.toml``'s rules, ``None``
(or empty) when not given. ``check()`` refuses a bad value before any input is read, with
the structured errors of ``lichess_elo.errors`` (``field`` names the input: ``"k"``,
``"start"``, ``"provisional"``, ``"return_k"``, ``"count_time_control"``); ``apply()``
lays the options over the file's ``Rules``. ``from_text`` reads the options as typed
(``children=40``, ``40:12``) for a front end.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lichess_elo.core import arguments as args
from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.club.config import SPEEDS, time_control_pattern
from lichess_elo.core.club.model import (
    METHODS,
    ROUNDINGS,
    UPDATE_MODES,
    ClubMethod,
    Rounding,
    Rules,
    Start,
    UpdateMode,
    name_key,
)
from lichess_elo.core.fide import check_choice
from lichess_elo.core.games import RATING_MAX, RATING_MIN
from lichess_elo.errors import BadInput, Malformed, OutOfRange, WrongType

#: Bounds of a start rating (as in the players file).
START_RANGE = (RATING_MIN, RATING_MAX)
TIME_CONTROL_EXPECTED = (
    f"a speed ({', '.join(SPEEDS)}), a time control like 15+10 or 900+10, or a pattern with * or ?"
)


@dataclass(frozen=True)
class Override:
    """One K or start value: for everyone (``name`` is ``None``) or for a group or player.

    A ``name`` is a group when some player of the players file (or ``club.toml``) has that
    group, else a player.
    """

    name: str | None
    value: Start

    def shown(self) -> str:
        """As typed: ``20`` or ``children=40``."""
        return f"{self.value}" if self.name is None else f"{self.name}={self.value}"


@keywords_checked
@dataclass(frozen=True)
class ClubOptions:
    """Overrides of the club's rules; ``None``/empty means "as the rules file says".

    Attributes:
        k: K for everyone or per group/player (later values win).
        start: Newcomers' rating (a number or ``"fide"``) for everyone or per group/player.
        update: ``event``, ``month`` or ``game``.
        method: ``formula`` or ``fide-table``.
        rounding: ``display`` or ``update``.
        cap: The 400-point rule on or off.
        newcomers: Allow players missing from the players file.
        provisional: ``(K, GAMES)``: K for a newcomer's first games.
        junior: ``(K, AGE)``: K for players aged AGE or under (by birth year).
        return_k: ``(K, MONTHS, GAMES)``: K for the games after a break.
        count_events: Only events matching one of these globs count.
        count_time_controls: Only these speeds / time controls / globs count.
        exclude_events: Events matching one of these globs do not count.
        min_games: The published table leaves out players with fewer games.
        hide_provisional: The published table leaves out provisional ratings.
    """

    k: tuple[Override, ...] = ()
    start: tuple[Override, ...] = ()
    update: UpdateMode | None = None
    method: ClubMethod | None = None
    rounding: Rounding | None = None
    cap: bool | None = None
    newcomers: bool | None = None
    provisional: tuple[int, int] | None = None
    return_k: tuple[int, int, int] | None = None
    count_events: tuple[str, ...] = ()
    count_time_controls: tuple[str, ...] = ()
    exclude_events: tuple[str, ...] = ()
    junior: tuple[int, int] | None = None
    min_games: int | None = None
    hide_provisional: bool | None = None

    def __post_init__(self) -> None:
        """Take the natural spellings too (``k=40``, ``k={"children": 40}``,
        ``start="fide"``, ``provisional=[40, 12]``, ``count_events="Club*"``) and refuse a
        wrong type with ``WrongType`` naming the option; values are left to ``check()``."""
        normal: dict[str, object] = {
            "k": _overrides("k", self.k),
            "start": _overrides("start", self.start),
        }
        for name in ("update", "method", "rounding"):
            if getattr(self, name) is not None:
                args.text(name, getattr(self, name))
        for name in ("cap", "newcomers"):
            if getattr(self, name) is not None:
                args.flag(name, getattr(self, name))
        for name, size in (("provisional", 2), ("return_k", 3)):
            normal[name] = _numbers(name, getattr(self, name), size)
        for name in ("count_events", "count_time_controls", "exclude_events"):
            normal[name] = _texts(name, getattr(self, name))
        for name, value in normal.items():
            if value is not getattr(self, name):
                object.__setattr__(self, name, value)

    def check(self) -> None:
        """Check every option before any input is read.

        Raises:
            BadInput: a K below 1 (``field`` ``k``, ``provisional``, ``junior`` or
                ``return_k``), a negative count of months, games or years, or a negative
                ``min_games``.
            OutOfRange: a start rating outside 0..4000 (``start``).
            Malformed: a time control that is not a speed, ``15+10`` or a pattern
                (``count_time_control``).
            UnknownChoice: an unknown update mode, method or rounding.
        """
        for item in self.k:
            if item.value == "fide":
                raise Malformed("k", item.shown(), "20 or children=40")
            if item.value < 1:
                raise BadInput("is below 1", field="k", value=item.shown())
        for item in self.start:
            if item.value != "fide" and not (START_RANGE[0] <= int(item.value) <= START_RANGE[1]):
                raise OutOfRange("start", item.value, *START_RANGE)
        if self.update is not None:
            check_choice("update", self.update, UPDATE_MODES)
        if self.method is not None:
            check_choice("method", self.method, METHODS)
        if self.rounding is not None:
            check_choice("rounding", self.rounding, ROUNDINGS)
        for field_name, numbers, what in (
            ("provisional", self.provisional, "games"),
            ("junior", self.junior, "the age"),
            ("return_k", self.return_k, "months and games"),
        ):
            if numbers is None:
                continue
            shown = ":".join(str(n) for n in numbers)
            if numbers[0] < 1:
                raise BadInput("K must be at least 1", field=field_name, value=shown)
            if any(n < 0 for n in numbers[1:]):
                raise BadInput(f"{what} must be 0 or more", field=field_name, value=shown)
        if self.min_games is not None and self.min_games < 0:
            raise BadInput("must be 0 or more", field="min_games", value=self.min_games)
        self.time_controls()

    def time_controls(self) -> tuple[str, ...]:
        """``count_time_controls`` as matched (``900+10`` -> ``15+10``).

        Raises:
            Malformed: a value that is not a speed, a time control or a pattern.
        """
        out = []
        for text in self.count_time_controls:
            pattern = time_control_pattern(text)
            if pattern is None:
                raise Malformed(
                    "count_time_control", text, TIME_CONTROL_EXPECTED, kind="a time control"
                )
            out.append(pattern)
        return tuple(out)

    def apply(self, rules: Rules, groups: set[str]) -> Rules:
        """``rules`` with these options laid over them (call ``check()`` first).

        ``groups`` are the players file's groups (lowercase); a named K or start whose
        name is such a group (or a group of ``rules``) sets the group, else the player.

        Raises:
            BadInput: a player's start given as ``fide`` (``field`` ``start``).
        """
        changes: dict[str, Any] = {
            key: value
            for key, value in (
                ("update", self.update),
                ("method", self.method),
                ("rounding", self.rounding),
                ("cap", self.cap),
                ("newcomers", self.newcomers),
                ("min_games", self.min_games),
                ("hide_provisional", self.hide_provisional),
            )
            if value is not None
        }
        if self.provisional is not None:
            changes["provisional_k"], changes["provisional_games"] = self.provisional
        if self.junior is not None:
            changes["junior_k"], changes["junior_age"] = self.junior
        if self.return_k is not None:
            k, months, games = self.return_k
            changes.update(return_k=k, return_months=months, return_games=games)
        for attr, value in (
            ("count_events", self.count_events),
            ("count_time_controls", self.time_controls()),
            ("exclude_events", self.exclude_events),
        ):
            if value:
                changes[attr] = value
        known = groups | set(rules.start_groups) | set(rules.k_groups)
        for attr, items in (("k", self.k), ("start", self.start)):
            by_group = dict(getattr(rules, f"{attr}_groups"))
            by_player = dict(getattr(rules, f"{attr}_players"))
            for item in items:
                if item.name is None:
                    changes[attr] = item.value
                elif item.name.lower() in known:
                    by_group[item.name.lower()] = item.value
                elif item.value == "fide":
                    raise BadInput(
                        "fide is for the default or a group", field=attr, value=repr(item.shown())
                    )
                else:
                    by_player[name_key(item.name)] = item.value
            changes[f"{attr}_groups"] = by_group
            changes[f"{attr}_players"] = by_player
        return dataclasses.replace(rules, **changes)

    @classmethod
    def from_text(
        cls,
        *,
        k: Sequence[str] = (),
        start: Sequence[str] = (),
        provisional: str | None = None,
        junior: str | None = None,
        return_k: str | None = None,
        **rest: Any,
    ) -> ClubOptions:
        """Options as typed: ``k``/``start`` as ``N`` or ``NAME=N`` (``fide`` for a start),
        ``provisional`` as ``K:GAMES``, ``junior`` as ``K:AGE``, ``return_k`` as
        ``K:MONTHS:GAMES``; ``rest`` are the
        other fields as they are. Shapes are read here, values are left to ``check()``.

        Raises:
            Malformed: a value of the wrong shape, with its ``field``.
        """
        prov = parse_numbers(provisional, "provisional", ("K", "GAMES"), "40:12")
        ret = parse_numbers(return_k, "return_k", ("K", "MONTHS", "GAMES"), "40:6:5")
        jun = parse_numbers(junior, "junior", ("K", "AGE"), "40:18")
        return cls(
            k=tuple(parse_override(t, "k") for t in k),
            start=tuple(parse_override(t, "start") for t in start),
            provisional=(prov[0], prov[1]) if prov else None,
            junior=(jun[0], jun[1]) if jun else None,
            return_k=(ret[0], ret[1], ret[2]) if ret else None,
            **rest,
        )


_OVERRIDE = "a number, a {NAME: number} dict or a tuple of Override"


def _value(field: str, value: object) -> Start:
    """One K or start value: a whole number (``"fide"`` too for a start)."""
    if field == "start" and value == "fide":
        return "fide"
    return args.whole(field, value)


def _overrides(field: str, value: object) -> tuple[Override, ...]:
    """``k``/``start`` as a tuple of ``Override``: from one value (for everyone), a mapping
    of names to values, or a sequence of ``Override``, values and ``(name, value)`` pairs."""
    if isinstance(value, tuple) and all(isinstance(item, Override) for item in value):
        for item in value:
            if item.name is not None:
                args.text(field, item.name)
            _value(field, item.value)
        return value
    if isinstance(value, int | str) and not isinstance(value, bool):
        return (Override(None, _value(field, value)),)
    if isinstance(value, Mapping):
        return tuple(Override(args.text(field, n), _value(field, v)) for n, v in value.items())
    if not isinstance(value, list | tuple):
        raise WrongType(field, value, _OVERRIDE)
    out: list[Override] = []
    for item in value:
        if isinstance(item, Override):
            out.append(item)
        elif isinstance(item, tuple) and len(item) == 2:
            out.append(Override(args.text(field, item[0]), _value(field, item[1])))
        else:
            out.append(Override(None, _value(field, item)))
    return tuple(out)


def _numbers(field: str, value: object, size: int) -> tuple[int, ...] | None:
    """``provisional`` (``K, GAMES``) or ``return_k`` (``K, MONTHS, GAMES``) as a tuple."""
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != size:
        raise WrongType(field, value, f"a tuple of {size} whole numbers")
    numbers = tuple(args.whole(field, n) for n in value)
    return value if isinstance(value, tuple) else numbers


def _texts(field: str, value: object) -> tuple[str, ...]:
    """Globs or time controls: one ``str`` or a sequence of them, as a tuple."""
    if isinstance(value, str):
        return (value,)
    items = args.sequence(field, value, "str")
    texts = tuple(args.text(field, item) for item in items)
    return value if isinstance(value, tuple) else texts


def parse_override(text: str, field: str) -> Override:
    """``N`` or ``NAME=N`` (and ``fide`` for ``field`` ``start``).

    Raises:
        Malformed: not that shape, or a K below 1.
    """
    name, sep, value = text.rpartition("=")
    value = value.strip()
    who = name.strip() if sep else None
    if field == "start" and value == "fide":
        return Override(who, "fide")
    if not (value.isascii() and value.isdigit()) or (field == "k" and int(value) < 1):
        example = "1000, fide or beginner=800" if field == "start" else "20 or children=40"
        raise Malformed(field, text, example)
    return Override(who, int(value))


def parse_numbers(
    text: str | None, field: str, names: Sequence[str], example: str
) -> tuple[int, ...] | None:
    """``K:GAMES``-style values: whole numbers separated by colons (``None`` for ``None``).

    The first number is a K and must be at least 1, as in ``club.toml``.

    Raises:
        Malformed: naming ``field``, the expected shape and ``example``.
    """
    if text is None:
        return None
    parts = [p.strip() for p in text.split(":")]
    if (
        len(parts) != len(names)
        or not all(p.isascii() and p.isdigit() for p in parts)
        or int(parts[0]) < 1
    ):
        shape = ":".join(names)
        raise Malformed(field, text, f"{shape}, e.g. {example} ({names[0]} at least 1)")
    return tuple(int(p) for p in parts)
