"""The sources of games (an edge): Lichess's API through the cache or a cassette, a PGN
export and a database dump, each a ``sources.base.GameSource``.

- ``LichessGames``: the API through the HTTP cache (``LichessSettings`` holds the server, token,
  cache folder, offline switch, timeouts and retries); with ``LichessSettings.replay`` a vcrpy
  cassette answers instead (``cassette``);
- ``ChessComGames``: Chess.com's public API through the same HTTP cache, month by month
  (``ChessComSettings``; a cassette with ``ChessComSettings.replay``), each game made the
  tool's ``Game`` (``sources.chesscom.games``);
- ``PgnFile``: a player's PGN export from Lichess or Chess.com, read whole;
- ``DumpFile``: a month of Lichess's open database (``.pgn.zst`` or unpacked ``.pgn``),
  streamed; only the player's games are kept, found by their ``White``/``Black`` tags.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.games import Game, dedupe_sorted
from lichess_elo.errors import BadFile
from lichess_elo.sources.base import NO_HOOKS, GameQuery, LoadedGames, LoadHooks, Progress
from lichess_elo.sources.chesscom.settings import ChessComSettings
from lichess_elo.sources.dump.zstd import Frames, zstd_faults
from lichess_elo.sources.lichess.api import fetch_games
from lichess_elo.sources.lichess.checks import validate_username
from lichess_elo.sources.lichess.session import LichessSettings
from lichess_elo.sources.text_files import read_text


@keywords_checked
@dataclass(frozen=True)
class LichessGames:
    """The player's games from Lichess's API, through the cache (or a cassette)."""

    source: LichessSettings = field(default_factory=LichessSettings)
    name: str = "Lichess"
    provisional_known: bool = True

    def load(self, query: GameQuery, hooks: LoadHooks = NO_HOOKS) -> LoadedGames:
        """Fetch the months of ``query`` (and those before ``since`` that K's count needs).

        Raises:
            BadInput: a bad name or setting; ``UserNotFound``, ``NotCached``,
                ``CassetteMissing``, ``FetchFailed``... from the fetch.
        """
        result = fetch_games(  # checks the name; its games are sorted and unique
            query.username,
            self.source,
            since=query.since,
            until=query.until,
            progress=hooks.progress,
            on_warning=hooks.on_warning,
            count_back=query.count_back,
            on_games=hooks.on_games,
        )
        return LoadedGames(
            result.user.username or query.username,
            result.games,
            result.user,
            result.months_back,
            result.count_short,
        )


@keywords_checked
@dataclass(frozen=True)
class ChessComGames:
    """The player's games from Chess.com's public API, through the cache (or a cassette):
    the months of the archives list, each game the tool's ``Game`` with Chess.com's own
    track as observed (``sources.chesscom.games``, ``docs/chesscom.md``)."""

    settings: ChessComSettings = field(default_factory=ChessComSettings)
    name: str = "Chess.com"
    provisional_known: bool = False  # Chess.com publishes no provisional flag in its archives

    def load(self, query: GameQuery, hooks: LoadHooks = NO_HOOKS) -> LoadedGames:
        """The months of ``query`` (``count_back`` is not used: the archive holds what it
        holds), oldest first by end time.

        Raises:
            BadInput: a bad name or setting; ``NotFound``, ``AccountClosed``,
                ``NotCached``, ``DamagedAnswer``, ``RateLimited``... from the import.
        """
        from lichess_elo.core.chesscom import observed_changes
        from lichess_elo.sources.chesscom.archives import import_games, month_reporter
        from lichess_elo.sources.chesscom.games import to_games

        self.settings.check()
        progress = hooks.progress
        found = import_games(
            query.username,
            self.settings,
            since=query.since,
            until=query.until,
            on_warning=hooks.on_warning,
            on_month=month_reporter(progress),
            on_start=None if progress is None else progress.start,
        )
        # Every month between the first and the last read was read: a month the archives
        # list leaves out holds no game, and a listed month not read stops the import.
        changes = observed_changes(found.games, found.username)
        games = tuple(to_games(changes, found.username, hooks.on_warning))
        shown = query.username
        for game in games:  # Chess.com's spelling of the name
            color = game.color_of(found.username)
            if color is not None:
                shown = game.side(color).name or shown
                break
        return LoadedGames(shown, games, None)


@keywords_checked
def cassette(path: Path, cache_dir: Path | None = None) -> LichessGames:
    """Lichess's answers replayed from the vcrpy cassette ``path`` (nothing is sent)."""
    return LichessGames(
        LichessSettings(replay=path, cache_dir=cache_dir), name=f"the cassette {path}"
    )


T = TypeVar("T")


def _opened(path: Path, field_name: str, open_it: Callable[[Path], T]) -> T:
    """``open_it(path)``, with a file that cannot be opened named in one ``BadFile``.

    Raises:
        BadFile: a folder, a missing file, or one the system will not open.
    """

    def bad(problem: str) -> BadFile:
        return BadFile(path, problem, field=field_name, unreadable=True)

    if path.is_dir():
        raise bad("it is a folder, not a file")
    try:
        return open_it(path)
    except FileNotFoundError:
        raise bad("no such file") from None
    except OSError as exc:
        raise bad(exc.strerror or str(exc)) from None


def read_pgn_file(
    path: Path,
    on_warning: Callable[[str], None] | None,
    field_name: str = "pgn",
    progress: Progress | None = None,
    player: str | None = None,
) -> list[Game]:
    """The games of the PGN file ``path`` (``progress`` is told the games read so far):
    Lichess's and Chess.com's, each by its own tags (``sources.chesscom.pgn``; ``player``:
    whose Chess.com games get an observed change).

    Raises:
        BadFile: missing, a folder or unreadable; it names the path.
    """
    text = _opened(path, field_name, lambda p: read_text(p, field_name))
    # python-chess: only a run that reads a file needs it
    from lichess_elo.sources.chesscom.pgn import read_pgn

    on_read = None
    if progress is not None:
        reading = progress.reading

        def on_read(done: int, total: int) -> None:
            reading(done, total, "games")

    return read_pgn(text, player=player, on_warning=on_warning, on_read=on_read)


@keywords_checked
@dataclass(frozen=True)
class PgnFile:
    """A PGN export of Lichess or Chess.com (or both), read whole (a file holds what it
    holds: ``count_back`` and the days are the caller's to filter)."""

    path: Path
    provisional_known: bool = False  # an export never writes the provisional flag

    @property
    def name(self) -> str:
        """``the PGN file PATH``."""
        return f"the PGN file {self.path}"

    def load(self, query: GameQuery, hooks: LoadHooks = NO_HOOKS) -> LoadedGames:
        """Every game of the file, oldest first with each id once.

        Raises:
            BadInput: a malformed name; BadFile: the file cannot be read.
        """
        user = validate_username(query.username)
        games = dedupe_sorted(
            read_pgn_file(self.path, hooks.on_warning, progress=hooks.progress, player=user)
        )
        return LoadedGames(user, tuple(games), None)


#: Bytes of decompressed text searched at a time in a dump.
DUMP_CHUNK = 8 << 20
#: A megabyte, the unit a dump's reading is shown in.
MB = 1 << 20


@keywords_checked
@dataclass(frozen=True)
class DumpFile:
    """A month of Lichess's open database (``.pgn.zst`` or ``.pgn``), streamed: only the
    games whose ``White`` or ``Black`` tag is the player (any case) are read."""

    path: Path
    provisional_known: bool = False  # the dumps carry no provisional flag either

    @property
    def name(self) -> str:
        """``the dump PATH``."""
        return f"the dump {self.path}"

    def load(self, query: GameQuery, hooks: LoadHooks = NO_HOOKS) -> LoadedGames:
        """The player's games of the dump, oldest first with each id once.

        Raises:
            BadInput: a malformed name; BadFile: the file cannot be read;
                DumpUnreadable: a damaged or cut-short zstd stream.
        """
        user = validate_username(query.username)
        tag = re.compile(
            rb'^\[(?:White|Black) "' + re.escape(user.encode()) + rb'"\]\r?$',
            re.MULTILINE | re.IGNORECASE,
        )
        kept: list[bytes] = []
        for chunk in self._chunks(hooks.progress):
            kept.extend(_games_matching(chunk, tag))
        text = b"\n\n".join(kept).decode("utf-8", errors="replace")
        from lichess_elo.sources import pgn  # python-chess, as for a PGN file

        games = dedupe_sorted(pgn.read_pgn(text, on_warning=hooks.on_warning))
        shown = user
        for game in games:  # the dump's spelling of the name
            color = game.color_of(user)
            if color is not None:
                shown = (game.white if color == "white" else game.black).name or user
                break
        return LoadedGames(shown, tuple(games), None)

    def _chunks(self, progress: Progress | None = None) -> Iterator[bytes]:
        """The decompressed text in pieces that each end at a game's start (or the end);
        ``progress`` is told the megabytes of the file read so far."""
        raw = _opened(self.path, "dump", lambda p: p.open("rb"))
        with raw:
            reader = Frames(raw) if self.path.suffix == ".zst" else raw
            size = -(-os.fstat(raw.fileno()).st_size // MB)  # whole megabytes, rounded up
            carry = b""
            buf = bytearray(DUMP_CHUNK)
            while True:
                if progress is not None:
                    progress.reading(min(raw.tell() // MB, size), size, "MB")
                with zstd_faults(self.path), memoryview(buf) as view:
                    got = reader.readinto(view)
                if not got:
                    if progress is not None:
                        progress.reading(size, size, "MB")
                    if carry:
                        yield carry
                    return
                text = carry + bytes(buf[:got])
                cut = text.rfind(b"\n[Event ")
                if cut <= 0:
                    carry = text
                    continue
                yield text[: cut + 1]
                carry = text[cut + 1 :]


def _games_matching(chunk: bytes, tag: re.Pattern[bytes]) -> Iterator[bytes]:
    """The whole games of ``chunk`` (which starts at a game) holding a line ``tag`` matches."""
    last_start = -1
    for match in tag.finditer(chunk):
        start = chunk.rfind(b"[Event ", 0, match.start())
        if start < 0 or start == last_start:
            continue
        last_start = start
        end = chunk.find(b"\n[Event ", match.end())
        yield chunk[start : len(chunk) if end < 0 else end + 1].rstrip()
