"""The Lichess source: berserk over a requests-cache SQLite cache (an edge package).

``session`` opens the cached session (User-Agent, token, offline, cassette), ``retries``
holds the politeness and fault policy, ``users`` reads a player's profile, ``months`` says
which months to ask for, ``api`` reads the games month by month (``answers`` keeps only
whole, valid answers), ``tournaments`` and ``fide`` read their API areas, ``parse`` turns
Lichess JSON into ``Game`` records, ``cassette`` reads a cassette's recording time and
``checks`` checks usernames and tokens.
"""

from lichess_elo.sources.lichess.api import FetchResult, fetch_games
from lichess_elo.sources.lichess.cassette import cassette_time
from lichess_elo.sources.lichess.months import export_params, month_windows
from lichess_elo.sources.lichess.retries import (
    MAX_RETRIES,
    RATE_LIMIT_WAIT,
    Progress,
    call_with_retries,
    retry_wait,
)
from lichess_elo.sources.lichess.session import (
    CACHE_FILE,
    DEFAULT_API_URL,
    USER_AGENT,
    Source,
    connect,
    make_cache_dir,
    open_client,
    resolve_cache_dir,
)
from lichess_elo.sources.lichess.users import fetch_hint, fetch_user

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
