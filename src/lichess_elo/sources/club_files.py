"""Readers for the ``club`` command: players/games CSV, PGN, Lichess tournaments.

An edge module: it reads files (and, for tournaments, Lichess through ``lichess.py``) and
turns them into the ``ClubPlayer`` / ``ClubGame`` records that ``club.py`` rates. Every
error names the file, the line and the field, and is a ``BadInput`` (exit 2).
The ``club.toml`` reader is in ``club_rules.py``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

import chess.pgn

from lichess_elo.core.club.rating import ClubGame, ClubPlayer, ClubResult, Rules, rate_club
from lichess_elo.core.games import DAY_FORMATS, SCORE_SPELLINGS, parse_score
from lichess_elo.core.games import parse_day as core_parse_day
from lichess_elo.errors import (
    BadInput,
    CassetteMissing,
    FetchFailed,
    FetchHint,
    NotCached,
    NotFound,
)

_WHITE = ("white", "player_a", "a", "playera")
_BLACK = ("black", "player_b", "b", "playerb")
_TOURNAMENT = re.compile(
    r"(?:https?://[^/\s]+/)?(?:(?P<kind>tournament|swiss|arena)[/:])?(?P<id>[A-Za-z0-9]{8})/?"
)


@dataclass
class Inputs:
    """Everything read from the command's arguments."""

    players: list[ClubPlayer] = field(default_factory=list)
    games: list[ClubGame] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    roster: bool = False


def parse_result(text: str, where: str, fieldname: str = "result") -> Decimal:
    """A result from player A's side, in any spelling ``core.games.parse_score`` accepts.

    Raises:
        BadInput: naming ``where`` and the field.
    """
    try:
        return parse_score(text, fieldname)
    except BadInput:
        problem = f"{text.strip()!r} is not a result ({SCORE_SPELLINGS})"
        raise BadInput(f"{where}: field {fieldname}: {problem}") from None


def parse_day(text: str, where: str, fieldname: str = "date") -> date:
    """A day in any format ``core.games.parse_day`` accepts.

    Raises:
        BadInput: naming ``where`` and the field.
    """
    try:
        return core_parse_day(text, fieldname)
    except BadInput:
        problem = f"{text.strip()!r} is not a date ({DAY_FORMATS})"
        raise BadInput(f"{where}: field {fieldname}: {problem}") from None


def _int(text: str, where: str, fieldname: str) -> int | None:
    value = text.strip()
    if not value:
        return None
    try:
        number = Decimal(value)
        if number == number.to_integral_value():
            return int(number)
    except ArithmeticError:
        pass
    raise BadInput(f"{where}: field {fieldname}: {value!r} is not a whole number")


def parse_round(text: str) -> tuple[int, ...]:
    """PGN/CSV round ``3`` or ``2.1`` as a sortable tuple; ``?``/``-``/empty give ``()``."""
    parts = re.findall(r"\d+", text or "")
    return tuple(int(p) for p in parts)


def time_control(initial_seconds: int, increment: int) -> str:
    """``minutes+increment`` as a club writes it: 900 s + 10 -> ``15+10``."""
    minutes = initial_seconds / 60
    shown = str(int(minutes)) if minutes == int(minutes) else f"{minutes:g}"
    return f"{shown}+{increment}"


def _pgn_time_control(text: str | None) -> str | None:
    m = re.fullmatch(r"(\d+)\+(\d+)", (text or "").strip())
    return time_control(int(m[1]), int(m[2])) if m else None


def _csv_time_control(text: str) -> str | None:
    """A games file's time control: ``15+10`` (or ``900+10`` in seconds) in minutes."""
    from lichess_elo.core.club.rules import normal_time_control

    value = text.strip()
    return (normal_time_control(value) or value) if value else None


def _header(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower().lstrip("\ufeff"))


def read_csv(path: Path, text: str, into: Inputs, seq_start: int = 0) -> None:
    """Read a players file or a games file (told apart by the header) into ``into``.

    Raises:
        BadInput: an unknown header, or a bad row, with file, line and field.
    """
    try:
        dialect: Any = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    rows = list(reader)
    if not rows:
        raise BadInput(f"{path}:1: the file is empty")
    header = [_header(h) for h in rows[0]]
    if "name" in header and not any(h in _WHITE for h in header):
        _read_players(path, header, rows[1:], into)
        return
    white = next((h for h in header if h in _WHITE), None)
    black = next((h for h in header if h in _BLACK), None)
    if white is None or black is None or "result" not in header or "date" not in header:
        raise BadInput(
            f"{path}:1: the header is neither a players file (name, rating) nor a "
            "games file (date, white, black, result)"
        )
    ignored = [rows[0][i].strip() for i, h in enumerate(header) if "rating" in h or "elo" in h]
    if ignored:
        into.notes.append(
            f"{path}: ignored the rating columns ({', '.join(ignored)}); ratings come from the "
            "players file and the games"
        )
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(header, row, strict=False))
        where = f"{path}:{number}"
        for needed in ("date", white, black, "result"):
            if not cells.get(needed, "").strip():
                raise BadInput(f"{where}: field {needed}: empty")
        into.games.append(
            ClubGame(
                white=" ".join(cells[white].split()),
                black=" ".join(cells[black].split()),
                score=parse_result(cells["result"], where),
                day=parse_day(cells["date"], where),
                event=cells.get("event", "").strip() or None,
                round=parse_round(cells.get("round", "")),
                time_control=_csv_time_control(cells.get("time_control", "")),
                where=where,
                seq=seq_start + number,
            )
        )


def _read_players(path: Path, header: list[str], rows: list[list[str]], into: Inputs) -> None:
    into.roster = True
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(header, row, strict=False))
        where = f"{path}:{number}"
        name = " ".join(cells.get("name", "").split())
        if not name:
            raise BadInput(f"{where}: field name: empty")
        rating = _int(cells.get("rating", ""), where, "rating")
        start = _int(cells.get("start", ""), where, "start")
        for value, fieldname in ((rating, "rating"), (start, "start")):
            if value is not None and not 0 <= value <= 4000:
                raise BadInput(f"{where}: field {fieldname}: {value} is outside 0..4000")
        into.players.append(
            ClubPlayer(
                name=name,
                rating=rating,
                group=cells.get("group", "").strip() or None,
                born=_int(cells.get("born", ""), where, "born"),
                start=start,
                where=where,
            )
        )


def read_pgn(path: Path, text: str, into: Inputs, seq_start: int = 0) -> None:
    """Read every game's tags (White, Black, Result, Date, Event, Round, TimeControl, Site).

    Unfinished games (``*``) are skipped with a note.

    Raises:
        BadInput: a missing player, a bad result or an unparsable date, with file, line, tag.
    """
    handle = io.StringIO(text)
    skipped = 0
    count = 0
    while True:
        offset = handle.tell()
        headers = chess.pgn.read_headers(handle)
        if headers is None:
            break
        start = text.find("[", offset)
        line = text.count("\n", 0, start if start >= 0 else offset) + 1
        where = f"{path}:{line}"
        count += 1
        result = headers.get("Result", "*").strip()
        if result == "*":
            skipped += 1
            continue
        names = {}
        for tag in ("White", "Black"):
            name = " ".join(headers.get(tag, "").split())
            if not name or name == "?":
                raise BadInput(f"{where}: tag {tag}: no player name")
            names[tag] = name
        day_text = headers.get("Date", "")
        if "?" in day_text and "?" not in headers.get("EventDate", "?"):
            day_text = headers["EventDate"]
        site = headers.get("Site", "")
        lichess_id = re.search(r"lichess\.org/([A-Za-z0-9]{8})", site)
        event = headers.get("Event", "").strip()
        into.games.append(
            ClubGame(
                white=names["White"],
                black=names["Black"],
                score=parse_result(result, where, "Result"),
                day=parse_day(day_text, where, "Date"),
                event=event if event and event != "?" else None,
                round=parse_round(headers.get("Round", "")),
                time_control=_pgn_time_control(headers.get("TimeControl")),
                game_id=lichess_id[1] if lichess_id else None,
                where=where,
                seq=seq_start + count,
            )
        )
    if skipped:
        into.notes.append(f"{path}: skipped {skipped} unfinished games (result *)")
    if count == 0:
        raise BadInput(f"{path}:1: no PGN game found")


def tournament_ref(arg: str) -> tuple[str | None, str] | None:
    """``(kind, id)`` for a tournament URL, ``swiss:ID``/``arena:ID`` or a bare 8-char id."""
    m = _TOURNAMENT.fullmatch(arg.strip())
    if m is None:
        return None
    kind = m["kind"]
    return ("arena" if kind in ("tournament", "arena") else kind), m["id"]


def read_inputs(
    args: Sequence[str],
    *,
    fetch: Callable[[str | None, str, int], Iterator[ClubGame]] | None = None,
) -> Inputs:
    """Read every argument: ``.csv`` and ``.pgn`` files, and tournaments through ``fetch``.

    Args:
        args: File paths, tournament ids or URLs, in any mix.
        fetch: ``fetch(kind, id, seq_start)`` yields a tournament's games; ``kind`` is
            ``"arena"``, ``"swiss"`` or ``None`` (unknown: try both).

    Raises:
        BadInput: a missing or unreadable file, an unknown kind, or bad content.
    """
    into = Inputs()
    for number, arg in enumerate(args):
        seq = number * 1_000_000
        path = Path(arg)
        suffix = path.suffix.lower()
        if path.is_file() or suffix in (".csv", ".pgn", ".txt", ".tsv"):
            try:
                text = path.read_text(encoding="utf-8-sig")
            except FileNotFoundError:
                raise BadInput(f"{path}: no such file") from None
            except (OSError, UnicodeDecodeError) as exc:
                raise BadInput(f"{path}: cannot read the file ({exc})") from None
            if suffix == ".pgn":
                read_pgn(path, text, into, seq)
            elif suffix in (".csv", ".tsv", ".txt"):
                read_csv(path, text, into, seq)
            else:
                raise BadInput(f"{path}: not a .csv or .pgn file (club.toml goes in --config)")
            continue
        ref = tournament_ref(arg)
        if ref is None:
            raise BadInput(
                f"{arg!r} is neither a file nor a Lichess tournament id or URL "
                "(e.g. https://lichess.org/swiss/AbCd1234)"
            )
        if fetch is None:
            raise BadInput(f"{arg}: tournaments need the Lichess source options")
        into.games.extend(fetch(ref[0], ref[1], seq))
    return into


def games_from_lichess(
    games: Sequence[Any], *, name: str, where: str, seq_start: int = 0
) -> Iterator[ClubGame]:
    """Turn a tournament's ``games.Game`` list into ``ClubGame`` records (finished only)."""
    for number, g in enumerate(sorted(games, key=lambda g: (g.created_at, g.id))):
        white = g.white.name or g.white.user_id
        black = g.black.name or g.black.user_id
        score = g.score("white")
        if not white or not black or score is None:
            continue
        # a game without a clock is matched by its speed (``correspondence``)
        tc = time_control(g.clock.initial, g.clock.increment) if g.clock else g.speed
        yield ClubGame(
            white=white,
            black=black,
            score=Decimal(str(score)),
            day=g.created_at.date(),
            event=name,
            time_control=tc,
            game_id=g.id,
            where=f"{where} game {g.id}",
            seq=seq_start + number,
        )


def info_name(info: Mapping[str, Any], fallback: str) -> str:
    """A tournament's name from its info object (arena ``fullName``, swiss ``name``)."""
    for key in ("fullName", "name"):
        value = info.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return fallback


def tournament_fetcher(
    source: Any, on_warning: Callable[[str], None] | None = None
) -> Callable[[str | None, str, int], Iterator[ClubGame]]:
    """A ``fetch`` for ``read_inputs`` that reads arenas and swisses through berserk.

    Uses ``lichess.open_client`` (cache, ``--offline``, ``--replay`` cassette, token) and
    ``lichess.call_with_retries``. A bare id is tried as an arena, then as a swiss.
    """
    import berserk

    from lichess_elo.sources.lichess.parse import parse_games
    from lichess_elo.sources.lichess.retries import call_with_retries
    from lichess_elo.sources.lichess.session import open_client

    def fetch(kind: str | None, tid: str, seq: int) -> Iterator[ClubGame]:
        with open_client(source) as client:

            def call(what: str, action: Callable[[], Any]) -> Any:
                return call_with_retries(
                    action,
                    what=what,
                    source=source,
                    hint=FetchHint(tid, tournament=True),
                    on_warning=on_warning,
                )

            kinds = [kind] if kind else ["arena", "swiss"]
            info: Mapping[str, Any] | None = None
            for current in kinds:
                getter = (
                    client.tournaments.get_tournament
                    if current == "arena"
                    else client.tournaments.get_swiss
                )
                try:
                    info = call(f"the {current} {tid}", partial(getter, tid))
                except berserk.exceptions.ResponseError as exc:
                    if int(exc.status_code) == 404 and current != kinds[-1]:
                        continue
                    if int(exc.status_code) == 404:
                        raise NotFound(f"{tid}: no Lichess tournament with this id") from None
                    raise FetchFailed(f"{tid}: Lichess answered HTTP {exc.status_code}") from None
                except (NotCached, CassetteMissing):
                    if current != kinds[-1]:
                        continue  # a bare id offline: the cache may hold it as a swiss
                    raise
                kind = current
                break
            assert info is not None and kind is not None
            exporter = (
                client.tournaments.export_arena_games
                if kind == "arena"
                else client.tournaments.export_swiss_games
            )
            raw = call(
                f"the games of the {kind} {tid}",
                lambda: list(exporter(tid, moves=False, evals=False)),
            )
        games = list(parse_games(raw, on_warning))
        name = info_name(info, tid)
        yield from games_from_lichess(games, name=name, where=f"{kind} {tid}", seq_start=seq)

    return fetch


def load_club(
    args: Sequence[str],
    *,
    config: Path | None = None,
    k: Sequence[str] = (),
    start: Sequence[str] = (),
    overrides: Mapping[str, Any] | None = None,
    source: Any = None,
    on_warning: Callable[[str], None] | None = None,
) -> ClubResult:
    """Read the inputs and rules, apply the command-line overrides and rate the club.

    Args:
        args: Files (``.csv``, ``.pgn``) and tournament ids or URLs, in any mix.
        config: ``club.toml``, if given.
        k: ``--k`` values (``N`` or ``NAME=N``).
        start: ``--start`` values (``N``, ``fide`` or ``NAME=N``).
        overrides: Other rules from options (``update``, ``method``, ...); ``None`` skipped.
            ``count_time_controls`` is checked and normalised (``900+10`` -> ``15+10``).
        source: A ``lichess.Source`` for tournaments.
        on_warning: Told about retries while fetching.

    Raises:
        BadInput: any bad input, with the file, line and field.
    """
    from lichess_elo.core.club.rules import (
        check_options,
        check_time_controls,
        read_rules,
        with_overrides,
    )

    rules = read_rules(config) if config is not None else Rules()
    check_options(k, start)  # every option is checked before any input is read or fetched
    overrides = dict(overrides or {})
    if overrides.get("count_time_controls"):
        overrides["count_time_controls"] = check_time_controls(
            overrides["count_time_controls"], "--count-time-control"
        )
    fetch = tournament_fetcher(source, on_warning) if source is not None else None
    inputs = read_inputs(args, fetch=fetch)
    groups = {p.group.lower() for p in inputs.players if p.group}
    rules = with_overrides(rules, groups=groups, k=k, start=start, **overrides)
    return rate_club(inputs.players, inputs.games, rules, roster=inputs.roster, notes=inputs.notes)
