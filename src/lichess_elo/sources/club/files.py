"""Readers for the club ladder's inputs: players/games CSV files and PGN headers.

An edge module: it reads files (and, for tournaments, Lichess through a ``fetch`` from
``sources/lichess/tournaments.py``) and turns them into the ``ClubPlayer`` / ``ClubGame``
records that ``core.club.rating`` rates. Every error in a file is a ``BadFile`` naming the
file, the line and the field (exit 2). ``club.toml`` is read by ``club_toml.py``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import chess.pgn

from lichess_elo.core import lichess_pgn
from lichess_elo.core.chesscom import pgn as chesscom_pgn
from lichess_elo.core.club.config import COLUMNS, normal_time_control
from lichess_elo.core.club.model import ClubGame, ClubPlayer
from lichess_elo.core.games import (
    DAY_FORMATS,
    RATING_MAX,
    RATING_MIN,
    RESULT_SPELLINGS,
    parse_result,
)
from lichess_elo.core.games import parse_day as core_parse_day
from lichess_elo.core.words import fold
from lichess_elo.errors import BadFile, BadInput
from lichess_elo.sources.pgn import written_plies
from lichess_elo.sources.text_files import read_text

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


def result_in_file(
    text: str, path: Path, line: int, fieldname: str = "result"
) -> tuple[Decimal, bool]:
    """A result from player A's side and whether it was a forfeit, in any spelling
    ``core.games.parse_result`` accepts (the same in every command).

    Raises:
        BadFile: naming the file, the line and the field.
    """
    try:
        return parse_result(text, fieldname)
    except BadInput:
        problem = f"{text.strip()!r} is not a result ({RESULT_SPELLINGS})"
        raise BadFile(path, f"field {fieldname}: {problem}", line=line) from None


def parse_day(text: str, path: Path, line: int, fieldname: str = "date") -> date:
    """A day in any format ``core.games.parse_day`` accepts.

    Raises:
        BadFile: naming the file, the line and the field.
    """
    try:
        return core_parse_day(text, fieldname)
    except BadInput:
        problem = f"{text.strip()!r} is not a date ({DAY_FORMATS})"
        raise BadFile(path, f"field {fieldname}: {problem}", line=line) from None


def _int(text: str, path: Path, line: int, fieldname: str) -> int | None:
    value = text.strip()
    if not value:
        return None
    try:
        number = Decimal(value)
        if number == number.to_integral_value():
            return int(number)
    except ArithmeticError:
        pass
    raise BadFile(path, f"field {fieldname}: {value!r} is not a whole number", line=line)


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
    value = text.strip()
    return (normal_time_control(value) or value) if value else None


def _header(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", fold(name.strip().lstrip("\ufeff")))


def column_names(
    headers: Sequence[str], columns: Mapping[str, Sequence[str]] | None = None
) -> list[str]:
    """The tool's column name of each header (``core.club.config.COLUMNS``): the club's
    own map first (``[columns]`` of ``club.toml``: ``name = "Zawodnik"``), then the English
    and Polish names built in; case, accents, spaces and hyphens are folded. A header that
    is none of them keeps its folded self (and is ignored)."""
    lookup: dict[str, str] = {}
    for table in (columns or {}, COLUMNS):
        for tool, names in table.items():
            for name in names:
                lookup.setdefault(_header(name), tool)
    return [lookup.get(_header(h), _header(h)) for h in headers]


def read_csv(
    path: Path,
    text: str,
    into: Inputs,
    seq_start: int = 0,
    columns: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """Read a players file or a games file (told apart by the header) into ``into``;
    ``columns`` maps the tool's column names to the file's own headers (``column_names``).

    Raises:
        BadFile: an unknown header, or a bad row, with file, line and field.
    """
    try:
        dialect: Any = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise BadFile(path, f"not a CSV row ({exc})", line=reader.line_num) from None
    if not rows:
        raise BadFile(path, "the file is empty", line=1)
    header = column_names(rows[0], columns)
    if "name" in header and "white" not in header:
        _read_players(path, header, rows[1:], into)
        return
    # messages name the file's own header (``data``), the code the tool's (``date``)
    label = {tool: _header(h) for tool, h in zip(header, rows[0], strict=True)}
    if not {"date", "white", "black", "result"} <= set(header):
        raise BadFile(
            path,
            "the header is neither a players file (name, rating; nazwisko, ranking) nor a "
            "games file (date, white, black, result; data, biale, czarne, wynik): "
            "[columns] in club.toml names other headers",
            line=1,
        )
    ignored = [
        rows[0][i].strip()
        for i, h in enumerate(header)
        if any(word in h for word in ("rating", "elo", "ranking"))
    ]
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
        for needed in ("date", "white", "black", "result"):
            if not cells.get(needed, "").strip():
                raise BadFile(path, f"field {label[needed]}: empty", line=number)
        score, forfeit = result_in_file(cells["result"], path, number, label["result"])
        into.games.append(
            ClubGame(
                white=" ".join(cells["white"].split()),
                black=" ".join(cells["black"].split()),
                score=score,
                forfeit=forfeit,
                day=parse_day(cells["date"], path, number, label["date"]),
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
            raise BadFile(path, "field name: empty", line=number)
        # a rating (or start) marked ? (1150?) is a newcomer's, not yet established
        rating_text, start_text = cells.get("rating", ""), cells.get("start", "")
        marked = any(t.strip().endswith("?") for t in (rating_text, start_text))
        rating = _int(rating_text.strip().removesuffix("?"), path, number, "rating")
        start = _int(start_text.strip().removesuffix("?"), path, number, "start")
        for value, fieldname in ((rating, "rating"), (start, "start")):
            if value is not None and not RATING_MIN <= value <= RATING_MAX:
                outside = f"{value} is outside {RATING_MIN}..{RATING_MAX}"
                raise BadFile(path, f"field {fieldname}: {outside}", line=number)
        into.players.append(
            ClubPlayer(
                name=name,
                rating=rating,
                group=cells.get("group", "").strip() or None,
                born=_int(cells.get("born", ""), path, number, "born"),
                start=start,
                lichess=cells.get("lichess", "").strip().lstrip("@") or None,
                where=where,
                provisional=marked,
            )
        )


def read_pgn(path: Path, text: str, into: Inputs, seq_start: int = 0) -> None:
    """Read every game's tags (White, Black, Result, Date, Event, Round, TimeControl, Site).

    Unfinished games (``*``) are skipped with a note, and so are games against Lichess's
    AI (``lichess AI level N``: never rated; ``core/lichess_pgn.py``) and a Lichess game
    that was not played (``unplayed``: no rating diff and at most one ply, so Lichess did
    not rate it; ``lichess_pgn.unplayed``, the rule of every command). A Lichess game
    with an ``Abandoned`` termination and rating diffs (``noStart`` in an arena) was rated
    by Lichess and is a played result here too. A Lichess game
    outside any event has the generic Event ``rated blitz game``: such games are grouped
    into one event a month (``rated blitz game 2025-05``), with a note, so that years of
    them are not one event.

    Raises:
        BadFile: a missing player, a bad result or an unparsable date, with file, line, tag.
    """
    handle = io.StringIO(text)
    skipped = ai_games = generic = generic_chesscom = unplayed = 0
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
                raise BadFile(path, f"tag {tag}: no player name", line=line)
            names[tag] = name
        if any(lichess_pgn.ai_level(n) is not None for n in names.values()):
            ai_games += 1
            continue
        day_text = headers.get("Date", "")
        if "?" in day_text and "?" not in headers.get("EventDate", "?"):
            day_text = headers["EventDate"]
        site = headers.get("Site", "")
        lichess_id = re.search(r"lichess\.org/([A-Za-z0-9]{8})", site)
        event = headers.get("Event", "").strip()
        score, forfeit = result_in_file(result, path, line, "Result")
        termination = headers.get("Termination", "").strip().lower()
        diffs = any(headers.get(f"{c}RatingDiff", "").strip() for c in ("White", "Black"))
        if lichess_id and not diffs:
            chunk = text[offset : handle.tell()]
            if lichess_pgn.unplayed(False, written_plies(chunk)):
                unplayed += 1  # Lichess did not rate it: nor does the club
                continue
        # A game not played (a no-show): "forfeit", or "abandoned" without rating diffs
        # (Lichess rated an arena's noStart, with diffs: a result as it rated it); "time
        # forfeit" is a game lost on the clock, which is rated.
        no_show = termination == "forfeit" or (termination == "abandoned" and not diffs)
        forfeit = forfeit or no_show
        day = parse_day(day_text, path, line, "Date")
        if lichess_id and lichess_pgn.is_generic_event(event):
            event = f"{event} {day:%Y-%m}"
            generic += 1
        elif chesscom_pgn.is_generic_event(headers):
            event = f"{event} {day:%Y-%m}"  # "Live Chess 2020-05", as Lichess's by month
            generic_chesscom += 1
        into.games.append(
            ClubGame(
                white=names["White"],
                black=names["Black"],
                score=score,
                forfeit=forfeit,
                day=day,
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
    if ai_games:
        into.notes.append(f"{path}: skipped {ai_games} games against the Lichess AI (never rated)")
    if unplayed:
        into.notes.append(
            f"{path}: skipped {unplayed} unplayed Lichess games (no rating diff and at most "
            f"{lichess_pgn.UNPLAYED_PLIES} ply: Lichess did not rate them)"
        )
    if generic:
        into.notes.append(
            f'{path}: {generic} Lichess games outside any event (Event "rated blitz game" '
            "and the like) grouped into one event a month (update mode game rates each alone)"
        )
    if generic_chesscom:
        into.notes.append(
            f'{path}: {generic_chesscom} Chess.com games outside any event (Event "Live Chess" '
            'or "Let\'s Play!") grouped into one event a month (update mode game rates each '
            "alone)"
        )
    if count == 0:
        raise BadFile(path, "no PGN game found", line=1)


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
    columns: Mapping[str, Sequence[str]] | None = None,
) -> Inputs:
    """Read every argument: ``.csv`` and ``.pgn`` files, and tournaments through ``fetch``.

    Args:
        args: File paths, tournament ids or URLs, in any mix.
        fetch: ``fetch(kind, id, seq_start)`` yields a tournament's games; ``kind`` is
            ``"arena"``, ``"swiss"`` or ``None`` (unknown: try both).
        columns: The club's header map (``read_csv``).

    Raises:
        BadFile: a missing or unreadable file, or bad content.
        BadInput: an argument that is neither a file nor a tournament.
    """
    into = Inputs()
    for number, arg in enumerate(args):
        seq = number * 1_000_000
        path = Path(arg)
        suffix = path.suffix.lower()
        if path.is_file() or suffix in (".csv", ".pgn", ".txt", ".tsv"):
            try:
                text = read_text(path)
            except FileNotFoundError:
                raise BadFile(path, "no such file") from None
            except OSError as exc:
                raise BadFile(path, f"cannot read the file ({exc.strerror or exc})") from None
            if suffix == ".pgn":
                read_pgn(path, text, into, seq)
            elif suffix in (".csv", ".tsv", ".txt"):
                read_csv(path, text, into, seq, columns)
            else:
                raise BadFile(path, "not a .csv or .pgn file (club.toml is the rules file)")
            continue
        ref = tournament_ref(arg)
        if ref is None:
            raise BadInput(
                f"{arg!r} is neither a file nor a Lichess tournament id or URL "
                "(e.g. https://lichess.org/swiss/AbCd1234)"
            )
        if fetch is None:
            raise BadInput("a tournament needs a Lichess source", field="inputs", value=arg)
        into.games.extend(fetch(ref[0], ref[1], seq))
    return into
