"""The Lichess source: berserk over a requests-cache SQLite cache (an edge package).

``session`` opens the cached session (User-Agent, token, offline, cassette), ``retries``
holds the politeness and fault policy, ``api`` reads a player's profile and games month by
month, ``parse`` turns Lichess JSON into ``Game`` records, ``parsed`` keeps parsed months in
the parsed-games cache, ``cassette`` reads a cassette's recording time, ``checks`` checks
usernames, tokens and environment values and ``source`` says what a source is (``Source``,
the cache folder, ``Progress``) without importing the HTTP libraries.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lichess_elo.sources.lichess.api import (
        FetchResult,
        export_params,
        fetch_games,
        fetch_hint,
        fetch_user,
        month_windows,
    )
    from lichess_elo.sources.lichess.cassette import cassette_time
    from lichess_elo.sources.lichess.retries import MAX_RETRIES, call_with_retries
    from lichess_elo.sources.lichess.session import USER_AGENT, connect, open_client
    from lichess_elo.sources.lichess.source import (
        CACHE_FILE,
        DEFAULT_API_URL,
        RATE_LIMIT_WAIT,
        Progress,
        Source,
        make_cache_dir,
        resolve_cache_dir,
        retry_wait,
    )

#: Where each public name lives. They are imported on first use (PEP 562), so that
#: importing this package does not import berserk, requests and requests-cache: a run
#: served whole by the caches never needs them.
_HOMES = {
    "FetchResult": "api",
    "export_params": "api",
    "fetch_games": "api",
    "fetch_hint": "api",
    "fetch_user": "api",
    "month_windows": "api",
    "cassette_time": "cassette",
    "MAX_RETRIES": "retries",
    "call_with_retries": "retries",
    "USER_AGENT": "session",
    "connect": "session",
    "open_client": "session",
    "CACHE_FILE": "source",
    "DEFAULT_API_URL": "source",
    "RATE_LIMIT_WAIT": "source",
    "Progress": "source",
    "Source": "source",
    "make_cache_dir": "source",
    "resolve_cache_dir": "source",
    "retry_wait": "source",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)


__all__ = [
    "CACHE_FILE",
    "DEFAULT_API_URL",
    "MAX_RETRIES",
    "RATE_LIMIT_WAIT",
    "USER_AGENT",
    "FetchResult",
    "Progress",
    "Source",
    "call_with_retries",
    "cassette_time",
    "connect",
    "export_params",
    "fetch_games",
    "fetch_hint",
    "fetch_user",
    "make_cache_dir",
    "month_windows",
    "open_client",
    "resolve_cache_dir",
    "retry_wait",
]
