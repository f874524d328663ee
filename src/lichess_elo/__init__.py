"""lichess-elo: FIDE-style Elo for your Lichess games, next to Lichess's own Glicko-2.

The public library API (see ``docs/library.md``)::

    from lichess_elo import fide, glicko                 # the pure engines
    from lichess_elo import LichessSettings, ReportSettings, run_report, list_games, load_games
    from lichess_elo import rate_club_files, ClubOptions, errors
    from lichess_elo import GameSource, LichessGames, ChessComGames, PgnFile, DumpFile, cassette

Every name is imported on first use, so ``import lichess_elo`` stays cheap and the HTTP
stack is loaded only by what needs it.
"""

from __future__ import annotations

import sys

# Nothing is imported here but ``sys`` (already loaded with the interpreter): a Ctrl-C in
# the command line's first moments lands in the entry point's own handler, not in an import
# of this package (``lichess_elo.cli.main``). ``typing`` is read by type checkers only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from lichess_elo._version import __version__ as __version__

#: Public name -> the module that defines it (``module:attribute``, or a module alone).
_EXPORTS = {
    "errors": "lichess_elo.errors",
    "fide": "lichess_elo.core.fide",
    "glicko": "lichess_elo.core.glicko",
    "Game": "lichess_elo.core.games:Game",
    "Side": "lichess_elo.core.games:Side",
    "Clock": "lichess_elo.core.games:Clock",
    "UserInfo": "lichess_elo.core.games:UserInfo",
    "PerfStats": "lichess_elo.core.games:PerfStats",
    "speed_of": "lichess_elo.core.games:speed_of",
    "parse_score": "lichess_elo.core.games:parse_score",
    "replay_game": "lichess_elo.core.replay:replay_game",
    "ReportSettings": "lichess_elo.core.report:ReportSettings",
    "build_report": "lichess_elo.core.report:build_report",
    "LichessSettings": "lichess_elo.sources.lichess:LichessSettings",
    "fetch_games": "lichess_elo.sources.lichess:fetch_games",
    "load_games": "lichess_elo.sources.load:load_games",
    "GameSource": "lichess_elo.sources.base:GameSource",
    "GameQuery": "lichess_elo.sources.base:GameQuery",
    "LoadHooks": "lichess_elo.sources.base:LoadHooks",
    "LoadedGames": "lichess_elo.sources.base:LoadedGames",
    "LichessGames": "lichess_elo.sources.game_sources:LichessGames",
    "ChessComGames": "lichess_elo.sources.game_sources:ChessComGames",
    "PgnFile": "lichess_elo.sources.game_sources:PgnFile",
    "DumpFile": "lichess_elo.sources.game_sources:DumpFile",
    "cassette": "lichess_elo.sources.game_sources:cassette",
    "read_pgn": "lichess_elo.sources.pgn:read_pgn",
    "run_report": "lichess_elo.app.report:run_report",
    "ReportRun": "lichess_elo.app.report:ReportRun",
    "list_games": "lichess_elo.app.games:list_games",
    "ListSettings": "lichess_elo.app.games:ListSettings",
    "run_fetch": "lichess_elo.app.fetch:run_fetch",
    "FetchSettings": "lichess_elo.app.fetch:FetchSettings",
    "rate_club": "lichess_elo.core.club.rating:rate_club",
    "ClubOptions": "lichess_elo.core.club.options:ClubOptions",
    "ClubSettings": "lichess_elo.app.club:ClubSettings",
    "rate_club_files": "lichess_elo.app.club:rate_club_files",
    # The old name of ``LichessSettings``, kept for one release (docs/library.md, "What moved")
    "Source": "lichess_elo.sources.lichess:LichessSettings",
}

__all__ = ["__version__", *sorted(_EXPORTS)]

if TYPE_CHECKING:
    from lichess_elo import errors as errors
    from lichess_elo.app.club import ClubSettings as ClubSettings
    from lichess_elo.app.club import rate_club_files as rate_club_files
    from lichess_elo.app.fetch import FetchSettings as FetchSettings
    from lichess_elo.app.fetch import run_fetch as run_fetch
    from lichess_elo.app.games import ListSettings as ListSettings
    from lichess_elo.app.games import list_games as list_games
    from lichess_elo.app.report import ReportRun as ReportRun
    from lichess_elo.app.report import run_report as run_report
    from lichess_elo.core import fide as fide
    from lichess_elo.core import glicko as glicko
    from lichess_elo.core.club.options import ClubOptions as ClubOptions
    from lichess_elo.core.club.rating import rate_club as rate_club
    from lichess_elo.core.games import Clock as Clock
    from lichess_elo.core.games import Game as Game
    from lichess_elo.core.games import PerfStats as PerfStats
    from lichess_elo.core.games import Side as Side
    from lichess_elo.core.games import UserInfo as UserInfo
    from lichess_elo.core.games import parse_score as parse_score
    from lichess_elo.core.games import speed_of as speed_of
    from lichess_elo.core.replay import replay_game as replay_game
    from lichess_elo.core.report import ReportSettings as ReportSettings
    from lichess_elo.core.report import build_report as build_report
    from lichess_elo.sources.base import GameQuery as GameQuery
    from lichess_elo.sources.base import GameSource as GameSource
    from lichess_elo.sources.base import LoadedGames as LoadedGames
    from lichess_elo.sources.base import LoadHooks as LoadHooks
    from lichess_elo.sources.game_sources import ChessComGames as ChessComGames
    from lichess_elo.sources.game_sources import DumpFile as DumpFile
    from lichess_elo.sources.game_sources import LichessGames as LichessGames
    from lichess_elo.sources.game_sources import PgnFile as PgnFile
    from lichess_elo.sources.game_sources import cassette as cassette
    from lichess_elo.sources.lichess import LichessSettings as LichessSettings
    from lichess_elo.sources.lichess import fetch_games as fetch_games
    from lichess_elo.sources.load import load_games as load_games
    from lichess_elo.sources.pgn import read_pgn as read_pgn

    Source = LichessSettings  # the old name, for one release


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    target = "lichess_elo._version:__version__" if name == "__version__" else _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'lichess_elo' has no attribute {name!r}")
    module_name, _, attribute = target.partition(":")
    __import__(module_name)
    module = sys.modules[module_name]
    value = getattr(module, attribute) if attribute else module
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (``__all__``), imported or not."""
    return list(__all__)
