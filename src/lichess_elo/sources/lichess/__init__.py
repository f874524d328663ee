"""The Lichess source: berserk over a requests-cache SQLite cache (an edge package).

``session`` opens the cached session (User-Agent, token, offline, cassette), ``retries``
holds the politeness and fault policy, ``users`` reads a player's profile, ``months`` says
which months to ask for, ``api`` reads the games month by month (``answers`` keeps only
whole, valid answers), ``tournaments`` and ``fide`` read their API areas, ``parse`` turns
Lichess JSON into ``Game`` records, ``cassette`` reads a cassette's recording time and
``checks`` checks usernames and tokens.

Every name is imported on first use (PEP 562), so ``checks`` and ``session`` load without
the fetching code (berserk, the parser) behind ``api``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Public name -> the module that defines it.
_EXPORTS = {
    "CACHE_FILE": "lichess_elo.sources.lichess.session",
    "DEFAULT_API_URL": "lichess_elo.sources.lichess.session",
    "FetchResult": "lichess_elo.sources.lichess.api",
    "MAX_RETRIES": "lichess_elo.sources.lichess.retries",
    "Progress": "lichess_elo.sources.base",
    "RATE_LIMIT_WAIT": "lichess_elo.sources.lichess.retries",
    "LichessSettings": "lichess_elo.sources.lichess.session",
    "USER_AGENT": "lichess_elo.sources.lichess.session",
    "call_with_retries": "lichess_elo.sources.lichess.retries",
    "cassette_time": "lichess_elo.sources.lichess.cassette",
    "connect": "lichess_elo.sources.lichess.session",
    "export_params": "lichess_elo.sources.lichess.months",
    "fetch_games": "lichess_elo.sources.lichess.api",
    "fetch_hint": "lichess_elo.sources.lichess.users",
    "fetch_user": "lichess_elo.sources.lichess.users",
    "make_cache_dir": "lichess_elo.sources.lichess.session",
    "month_windows": "lichess_elo.sources.lichess.months",
    "open_client": "lichess_elo.sources.lichess.session",
    "resolve_cache_dir": "lichess_elo.sources.lichess.session",
    "retry_wait": "lichess_elo.sources.lichess.retries",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from lichess_elo.sources.base import Progress as Progress
    from lichess_elo.sources.lichess.api import FetchResult as FetchResult
    from lichess_elo.sources.lichess.api import fetch_games as fetch_games
    from lichess_elo.sources.lichess.cassette import cassette_time as cassette_time
    from lichess_elo.sources.lichess.months import export_params as export_params
    from lichess_elo.sources.lichess.months import month_windows as month_windows
    from lichess_elo.sources.lichess.retries import MAX_RETRIES as MAX_RETRIES
    from lichess_elo.sources.lichess.retries import RATE_LIMIT_WAIT as RATE_LIMIT_WAIT
    from lichess_elo.sources.lichess.retries import call_with_retries as call_with_retries
    from lichess_elo.sources.lichess.retries import retry_wait as retry_wait
    from lichess_elo.sources.lichess.session import CACHE_FILE as CACHE_FILE
    from lichess_elo.sources.lichess.session import DEFAULT_API_URL as DEFAULT_API_URL
    from lichess_elo.sources.lichess.session import USER_AGENT as USER_AGENT
    from lichess_elo.sources.lichess.session import LichessSettings as LichessSettings
    from lichess_elo.sources.lichess.session import connect as connect
    from lichess_elo.sources.lichess.session import make_cache_dir as make_cache_dir
    from lichess_elo.sources.lichess.session import open_client as open_client
    from lichess_elo.sources.lichess.session import resolve_cache_dir as resolve_cache_dir
    from lichess_elo.sources.lichess.users import fetch_hint as fetch_hint
    from lichess_elo.sources.lichess.users import fetch_user as fetch_user


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, imported or not."""
    return sorted({*globals(), *_EXPORTS})
