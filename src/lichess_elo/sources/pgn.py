"""Read a Lichess PGN export into the same ``Game`` objects as the JSON parser.

Pure code, no I/O: ``read_pgn`` takes the text. It reads the tags Lichess writes
(``Site``, ``GameId``, ``UTCDate``/``UTCTime``, ``White``/``Black``, ``WhiteElo``,
``WhiteRatingDiff``, ``WhiteTitle``, ``Variant``, ``TimeControl``, ``Event``,
``Termination``, ``Result``, ``FEN``/``SetUp``) and the main line's moves as written (SAN
tokens; comments, variations, NAGs and move numbers left out). python-chess reads the tags
and finds where each game ends (``read_headers``, which skips the movetext); the moves are
then played once with ``Board.push_san``, the same SAN grammar the replay uses, to find the
final position a ``Normal`` termination needs. No SAN is generated to be parsed again.

Bad moves do not lose a game: when a move is illegal, ambiguous or unreadable, the FEN is
broken or the variant unknown, the game is still built from its tags, with the main line's
move tokens as written, the FEN tag as given and the variant as given; the replay then
marks it invalid with the ply and the reason, and it still counts for ratings, as Lichess
rated it. Only a game whose tags cannot make a ``Game`` (no Lichess id in ``Site``, no
date, a bad ``Result``, ``TimeControl`` or rating, or a rating outside ``RATING_MIN``..
``RATING_MAX``, a rating diff wider than that range) is skipped, with a warning that names
it and the value.

Which games are rated, what each ``Termination`` means and who is an AI follow Lichess's
exporters, as ``core/lichess_pgn.py`` reads them (the one reading shared with ``club`` and
``db ingest``). What a PGN export does not carry stays ``None`` or false (``lastMoveAt``,
``source``, an arena's id when ``Event`` holds only its name, and the ``provisional`` flag:
Lichess never writes it, so a PGN cannot say a rating was provisional or established).
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime

import chess
import chess.pgn

from lichess_elo.core import lichess_pgn
from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.games import (
    RATING_MAX,
    RATING_MIN,
    SPEEDS,
    Color,
    Game,
    Side,
    parse_time_control,
    speed_of,
)
from lichess_elo.core.replay import ReplayJob, play_moves, replay_job
from lichess_elo.core.replay_facts import stalemate_status

#: PGN ``Variant`` tag -> Lichess variant key.
VARIANTS = {
    "standard": "standard",
    "chess960": "chess960",
    "crazyhouse": "crazyhouse",
    "antichess": "antichess",
    "atomic": "atomic",
    "horde": "horde",
    "king of the hill": "kingOfTheHill",
    "racing kings": "racingKings",
    "three-check": "threeCheck",
    "from position": "fromPosition",
}

_ID = re.compile(r"lichess\.org/(?:embed/)?(?:game/export/)?([A-Za-z0-9]{8})")
_TOURNAMENT = re.compile(r"lichess\.org/tournament/([A-Za-z0-9]+)")
_SWISS = re.compile(r"lichess\.org/swiss/([A-Za-z0-9]+)")
_RESULTS: dict[str, Color | None] = {"1-0": "white", "0-1": "black", "1/2-1/2": None, "*": None}
#: Movetext tokens: a {comment} (to the end when unclosed), a ;comment, a %escape line,
#: a parenthesis, or a word (a move, possibly with its number, annotation or NAG).
_TOKEN = re.compile(r"\{[^}]*\}?|;[^\n]*|^%[^\n]*|[()]|[^\s{}();]+", re.MULTILINE)
#: A word: an optional move number ("12." / "12..."), the move, annotations ("?!", "$2").
_WORD = re.compile(r"(?:\d+\.+)?(.*?)(?:[?!]+|\$\d+)*", re.DOTALL)


def _int_tag(value: str | None, name: str) -> int | None:
    if value is None or value.strip() in ("", "?", "-"):
        return None
    text = value.strip().rstrip("?")
    try:
        number = int(text)
    except ValueError as exc:
        raise ValueError(f"bad {name} {_shown(value)}") from exc
    # A rating in RATING_MIN..RATING_MAX (the range of every rating the tool takes), a
    # change no wider than that range: past it, no site wrote the value.
    low, high = (RATING_MIN, RATING_MAX) if name.endswith("Elo") else (-RATING_MAX, RATING_MAX)
    if not low <= number <= high:
        raise ValueError(f"{name} {_shown(value)} is outside {low}..{high}")
    return number


def _shown(value: str) -> str:
    """A tag's value for a one-line message: quoted, cut to 40 characters."""
    return repr(value if len(value) <= 40 else value[:40] + "...")


def _side(headers: chess.pgn.Headers, color: str) -> Side:
    name = headers.get(color, "?").strip()
    level = lichess_pgn.ai_level(name)
    if level is not None:
        return Side(ai_level=level)
    if name in ("", "?", "Anonymous"):
        return Side()
    elo = headers.get(f"{color}Elo")
    return Side(
        user_id=name.lower(),
        name=name,
        title=headers.get(f"{color}Title") or None,
        rating=_int_tag(elo, f"{color}Elo"),
        rating_diff=_int_tag(headers.get(f"{color}RatingDiff"), f"{color}RatingDiff"),
        # Lichess never writes a provisional mark: a trailing "?" is another tool's.
        provisional=bool(elo and elo.strip().endswith("?") and elo.strip() != "?"),
    )


def _created_at(headers: chess.pgn.Headers) -> datetime:
    date = headers.get("UTCDate") or headers.get("Date") or ""
    time = headers.get("UTCTime") or headers.get("Time") or "00:00:00"
    try:
        return datetime.strptime(f"{date} {time}", "%Y.%m.%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError as exc:
        raise ValueError(f"bad date {date!r} {time!r}") from exc


def _board_ending(board: chess.Board) -> str | None:
    """The status the final position itself says, if any (python-chess's board)."""
    if board.is_checkmate():
        return "mate"
    if board.is_variant_end():
        return "variantEnd"
    if board.is_stalemate():
        return stalemate_status(board.uci_variant)
    return None


def _movetext(chunk: str) -> str:
    """The movetext of one game's text as ``read_game`` consumed it (tags skipped)."""
    lines = chunk.lstrip("\ufeff").splitlines(keepends=True)
    for number, line in enumerate(lines):
        if line.strip() and not line.startswith(("[", "%", ";")):
            return "".join(lines[number:])
    return ""


def _raw_moves(movetext: str) -> list[str]:
    """The main line's moves as written: every SAN token, legal or not, in order.

    Comments, variations, NAGs and annotation glyphs, move numbers and the result are
    left out; a stray ``)`` is ignored. A pawn drop ``@e4`` becomes Lichess's ``P@e4``.
    """
    depth = 0
    moves: list[str] = []
    for found in _TOKEN.finditer(movetext):
        token = found.group()
        if token == "(":
            depth += 1
        elif token == ")":
            depth = max(depth - 1, 0)
        elif depth or token[0] in "{;%" or token in _RESULTS:
            continue
        else:
            word = _WORD.fullmatch(token)
            san = word.group(1) if word else token
            if san and not san.isdigit():
                moves.append("P" + san if san.startswith("@") else san)
    return moves


def written_plies(chunk: str) -> int:
    """The plies of one game's text (tags and movetext) as written: its main line's move
    tokens, legal or not (what ``read_pgn`` keeps as ``Game.moves``)."""
    return len(_raw_moves(_movetext(chunk)))


def main_line(chunk: str) -> list[str]:
    """The main line's moves of one game's PGN text (tags included) as written: the SAN
    tokens, with comments (``{[%clk 0:02:59.9]}``), variations, NAGs, move numbers and the
    result left out, as a Lichess PGN's are read (Chess.com's games read so too)."""
    return _raw_moves(_movetext(chunk))


def _game(headers: chess.pgn.Headers, chunk: str) -> Game:
    """The ``Game`` of one parsed PGN game; ``chunk`` is its text, tags included.

    Raises:
        ValueError: the tags cannot make a Game (no id, a bad date, Result, TimeControl or
            rating).
    """
    game_id = headers.get("GameId") or ""
    if not game_id:
        found = _ID.search(headers.get("Site", ""))
        if not found:
            raise ValueError(f"no Lichess game id in Site {headers.get('Site', '')!r}")
        game_id = found.group(1)
    variant_tag = headers.get("Variant", "Standard").strip()
    variant = VARIANTS.get(variant_tag.lower())
    fen = headers.get("FEN")
    setup = headers.get("SetUp")
    if variant == "standard" and setup == "1" and fen is not None:
        variant = "fromPosition"
    clock = parse_time_control(headers.get("TimeControl", "-").strip())
    speed = speed_of(clock)
    result = headers.get("Result", "*").strip()
    if result not in _RESULTS:
        raise ValueError(f"bad Result {result!r}")
    winner = _RESULTS[result]
    moves = tuple(map(sys.intern, _raw_moves(_movetext(chunk))))
    initial_fen = fen if fen is not None and setup in ("1", None) else None
    board = _played(headers, moves) if variant is not None else None
    event = headers.get("Event", "")
    tournament = _TOURNAMENT.search(event)
    swiss = _SWISS.search(event)
    white, black = _side(headers, "White"), _side(headers, "Black")
    rated = lichess_pgn.is_rated(event, white.rating_diff, black.rating_diff)
    termination = headers.get("Termination")
    if board is not None:
        end = board
        status = lichess_pgn.termination_status(termination, result, lambda: _board_ending(end))
    else:  # bad data: the position the good moves reach (the replay says how far that is)
        job = (game_id, variant or variant_tag, initial_fen, "", moves)
        status = lichess_pgn.termination_status(termination, result, lambda: _facts_ending(job))
    return Game(
        id=game_id,
        rated=rated,
        variant=variant or variant_tag,
        speed=speed,
        perf=_standard_perf(event, speed)
        if variant in ("standard", "fromPosition")
        else variant or variant_tag,
        created_at=_created_at(headers),
        status=status,
        white=white,
        black=black,
        winner=winner,
        moves=moves,
        initial_fen=initial_fen,
        tournament_id=tournament.group(1) if tournament else None,
        swiss_id=swiss.group(1) if swiss else None,
        clock=clock,
    )


#: The speed perfs, lower case (as an Event writes them) -> their keys.
_SPEED_PERFS = {p.lower(): p for p in SPEEDS}


def _standard_perf(event: str, speed: str) -> str:
    """A standard game's perf: the one its Event names (``Rated Classical game``: before
    2018 Lichess had no rapid pool and rated such games as the Event says, as ``db ingest``
    does), else its speed."""
    named = lichess_pgn.event_perf(event)
    return _SPEED_PERFS.get(named or "", speed)


def _played(headers: chess.pgn.Headers, moves: tuple[str, ...]) -> chess.Board | None:
    """The position after every move from the tags' start; ``None`` if one fails.

    The moves are the tokens as written, read as ``push_san`` reads them (``play_moves``,
    the replay's own: no SAN is generated and parsed again).
    """
    try:
        board = headers.board()
    except ValueError:  # a broken FEN or an unknown variant
        return None
    _, error = play_moves(board, moves)  # an illegal or unreadable move: ``error``
    return None if error is not None else board


def _facts_ending(job: ReplayJob) -> str | None:
    """The status the position after a bad game's last good move says, if any."""
    facts = replay_job(job)
    if facts.checkmate:
        return "mate"
    if facts.variant_end:  # antichess stalemate included, as Lichess has it
        return "variantEnd"
    if facts.stalemate:
        return "stalemate"
    return None


#: Games read between two ``on_read`` calls of ``read_pgn``.
READ_STEP = 200


@keywords_checked
def read_pgn(
    text: str,
    *,
    on_warning: Callable[[str], None] | None = None,
    on_read: Callable[[int, int], None] | None = None,
    other: Callable[[chess.pgn.Headers, str], bool] | None = None,
) -> list[Game]:
    """Read every game of a Lichess PGN export.

    Args:
        text: The PGN text (one or more games).
        on_warning: Called with a one-line message for each game that cannot be read
            (naming it by its Site/GameId or its number in the file); the game is skipped.
            A game with bad moves, a broken FEN or an unknown variant is kept instead (its
            replay says what is wrong) and gives no warning.
        on_read: Called with ``(games read, games in the text)`` every ``READ_STEP`` games
            and at the end (the total counts the ``[Event`` tags: every Lichess game has one).
        other: Handed each game's tags and text first; a game it takes (it returns true)
            is another site's, not read here (``sources.chesscom.pgn`` takes Chess.com's).
    """
    stream = io.StringIO(text)
    games: list[Game] = []
    number = 0
    total = text.count("[Event ") if on_read is not None else 0
    while True:
        if on_read is not None and number % READ_STEP == 0:
            on_read(number, max(total, number))
        before = stream.tell()
        try:
            headers = chess.pgn.read_headers(stream)  # the movetext is skipped, not parsed
        except (ValueError, KeyError) as exc:  # python-chess failing on a tag it needs
            number += 1
            if on_warning is not None:
                on_warning(f"PGN game {number}: skipped ({exc})")
            if stream.tell() == before:
                break
            continue
        if headers is None:
            break
        number += 1
        if other is not None and other(headers, text[before : stream.tell()]):
            continue
        try:
            games.append(_game(headers, text[before : stream.tell()]))
        except (ValueError, KeyError) as exc:
            if on_warning is not None:
                name = headers.get("GameId") or headers.get("Site") or "?"
                on_warning(f"PGN game {number} ({name}): skipped ({exc})")
    if on_read is not None:
        on_read(number, number)
    return games
