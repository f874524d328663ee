"""The Chess.com source: the public API (PubAPI) through the project's HTTP cache (an
edge package).

``settings`` says where and how to ask (``CHESSCOM_API_URL`` read only by
``settings_from_env``), ``session`` opens the cached session (User-Agent, offline, cassette)
and holds the politeness and fault policy, ``archives`` reads a player's archives list and
monthly archives into ``core.chesscom`` records. See ``docs/chesscom.md``.

Nothing here imports requests or requests-cache until a session is opened.
"""

from __future__ import annotations

from lichess_elo.sources.chesscom.archives import (
    ChessComImport,
    archive_months,
    fetch_archives,
    fetch_month,
    import_games,
)
from lichess_elo.sources.chesscom.session import ChessComConn, connect
from lichess_elo.sources.chesscom.settings import (
    API_URL_ENV,
    DEFAULT_API_URL,
    USER_AGENT,
    ChessComSettings,
    check_username,
    settings_from_env,
)

__all__ = [
    "API_URL_ENV",
    "DEFAULT_API_URL",
    "USER_AGENT",
    "ChessComConn",
    "ChessComImport",
    "ChessComSettings",
    "archive_months",
    "check_username",
    "connect",
    "fetch_archives",
    "fetch_month",
    "import_games",
    "settings_from_env",
]
