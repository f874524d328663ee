"""The Lichess import's side of the parsed-games cache (an edge module; see ``games_cache``).

A month's games are looked up by the request that fetches them (server, user, window,
``Accept``) and used only while the HTTP cache still holds, under the same key, the very
bytes they were parsed from, and would serve them (stored to never expire, or offline).
After a month's whole, valid answer is parsed, its games and the parse's warnings are
kept, once the stored response's body is checked to be the body parsed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lichess_elo.sources.cache.games import (
    ParsedCache,
    decode_games,
    decode_user,
    encode_games,
    encode_user,
    request_id,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from lichess_elo.core.games import Game, UserInfo

#: The ``Accept`` of a games export (part of the HTTP cache's key, so of the request's).
GAMES_ACCEPT = "application/x-ndjson"
#: The ``Accept`` of a profile (berserk asks for JSON).
USER_ACCEPT = "application/json"


def month_request(api_url: str, user_id: str, params: dict[str, Any]) -> str:
    """The identity of one monthly games export (``export_params``) of ``user_id``."""
    return request_id(api_url, f"/api/games/user/{user_id}", params, GAMES_ACCEPT)


def user_request(api_url: str, user_id: str) -> str:
    """The identity of the profile request (``GET /api/user/{id}``) of ``user_id``."""
    return request_id(api_url, f"/api/user/{user_id}", {}, USER_ACCEPT)


def open_parsed(cache_dir: Path, on_warning: Callable[[str], None] | None) -> ParsedCache:
    """The parsed-games cache beside the HTTP cache in ``cache_dir`` (opened on first use)."""
    return ParsedCache(cache_dir, on_warning=on_warning)


def cached_month(
    parsed: ParsedCache, request: str, *, stale_ok: bool
) -> tuple[list[Game], list[str]] | None:
    """The month's games and parse warnings, if the cache holds them for the stored response."""
    payload = parsed.lookup(request, stale_ok=stale_ok)
    return None if payload is None else decode_games(payload)


def cached_user(parsed: ParsedCache, request: str) -> UserInfo | None:
    """The profile kept for the response the HTTP cache holds (offline only: the HTTP cache
    stores a profile already expired, so an online run asks the server again)."""
    payload = parsed.lookup(request, stale_ok=True)
    return None if payload is None else decode_user(payload)


def keep_user(parsed: ParsedCache, request: str, session: Any, user: UserInfo) -> bool:
    """Keep the profile just read from ``session``'s last response (see ``keep_month``)."""
    return _keep(parsed, request, session, lambda: encode_user(user))


def keep_month(
    parsed: ParsedCache,
    request: str,
    session: Any,
    games: Sequence[Game],
    warnings: Sequence[str],
) -> bool:
    """Keep the games just parsed from ``session``'s last response, if the HTTP cache stored it.

    Args:
        parsed: The parsed-games cache.
        request: ``month_request`` of the month.
        session: The requests-cache session; its ``last_response`` is the month's response
            (with requests-cache's ``cache_key``) and its cache can read a stored response.
        games: The games parsed from that response (the whole answer: every game was the
            player's own).
        warnings: The warnings the parse gave.

    Returns:
        Whether the games were kept.
    """
    return _keep(parsed, request, session, lambda: encode_games(games, warnings))


def _keep(parsed: ParsedCache, request: str, session: Any, payload: Callable[[], bytes]) -> bool:
    response = getattr(session, "last_response", None)
    key = getattr(response, "cache_key", None)
    if response is None or not isinstance(key, str) or not key:
        return False
    body = response.content

    def matches(blob: bytes) -> bool:
        stored = session.cache.responses.deserialize(key, blob)
        return stored is not None and stored.content == body

    return parsed.store(request, key, matches, payload())
