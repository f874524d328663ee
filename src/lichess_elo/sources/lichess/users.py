"""A player's public profile (``GET /api/user/{id}``), through the cached session.

One client module per API area: users here, the monthly games in ``api``, tournaments and
FIDE in their own modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from lichess_elo.core.games import PerfStats, UserInfo
from lichess_elo.errors import (
    FetchHint,
    LichessEloError,
    UserNotFound,
)
from lichess_elo.sources.base import Progress
from lichess_elo.sources.cache.lichess_parsed import cached_user, keep_user, user_request
from lichess_elo.sources.lichess.answers import read_whole
from lichess_elo.sources.lichess.checks import validate_username
from lichess_elo.sources.lichess.months import next_month
from lichess_elo.sources.lichess.retries import call_with_retries
from lichess_elo.sources.lichess.session import DEFAULT_API_URL, Conn, LichessSettings, connect

if TYPE_CHECKING:
    from lichess_elo.sources.cache.games import ParsedCache


def _user_info(data: Mapping[str, Any]) -> UserInfo:
    created = data.get("createdAt")
    if isinstance(created, int | float):
        created = datetime.fromtimestamp(created / 1000, UTC)
    if not isinstance(created, datetime):
        created = datetime.fromtimestamp(0, UTC)
    perfs = {
        key: PerfStats(
            games=int(value.get("games", 0)),
            rating=int(value["rating"]),
            rd=int(value.get("rd", 0)),
            provisional=bool(value.get("prov", False)),
        )
        for key, value in (data.get("perfs") or {}).items()
        if isinstance(value, Mapping) and "rating" in value
    }
    return UserInfo(
        id=str(data.get("id", "")),
        username=str(data.get("username", data.get("id", ""))),
        created_at=created.astimezone(UTC),
        disabled=bool(data.get("disabled", False)),
        perfs=perfs,
        fide_id=_fide_id(data.get("fideId")),
    )


def _fide_id(value: Any) -> int | None:
    """The profile's ``fideId`` where the public data carries one (a positive int)."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    return value


def _get_user(
    conn: Conn, name: str, progress: Progress | None, warn: Callable[[str], None]
) -> UserInfo:
    import berserk  # with the session (``connect``)

    session = conn.session
    session.settings.expire_after = datetime.now(UTC)  # refetched online, served offline

    what = f"the Lichess user '{name}'"
    hint = fetch_hint(name, conn.source)

    def action() -> Any:
        return read_whole(conn, lambda: conn.client.users.get_public_data(name.lower()), what, hint)

    try:
        data = call_with_retries(
            action,
            what=what,
            source=conn.source,
            hint=hint,
            progress=progress,
            on_warning=warn,
            passthrough=frozenset({404}),
        )
    except berserk.exceptions.ResponseError:
        raise UserNotFound(f"no Lichess user '{name}'") from None
    return _user_info(data)


def cached_or_fetched_user(
    conn: Callable[[], Conn],
    parsed: ParsedCache | None,
    name: str,
    source: LichessSettings,
    progress: Progress | None,
    warn: Callable[[str], None],
) -> UserInfo:
    """The player's profile: offline from the parsed-games cache when it holds the one the
    HTTP cache stores, else through the session (and then kept there)."""
    request = user_request(source.api_url, name.lower())
    if parsed is not None and source.offline and not source.refresh:
        kept = cached_user(parsed, request)
        if kept is not None:
            return kept
    session = conn()
    user = _get_user(session, name, progress, warn)
    if parsed is not None:
        keep_user(parsed, request, session.session, user)
    return user


def fetch_hint(name: str, source: LichessSettings, month: date | None = None) -> FetchHint:
    """What would fetch ``name``'s profile (or ``month``) online, for a ``NotCached`` error."""
    api_url = source.api_url.rstrip("/")
    return FetchHint(
        user=name,
        since=month,
        until=next_month(month) if month is not None else None,
        api_url=None if api_url == DEFAULT_API_URL else source.api_url,
        cache_dir=source.cache_dir,
    )


def fetch_user(username: str, source: LichessSettings) -> UserInfo:
    """The public profile of ``username`` (``GET /api/user/{id}``), through the cache.

    Raises:
        BadInput, UserNotFound, NotCached, CassetteMissing, RateLimited, FetchFailed.
    """
    name = validate_username(username)
    with connect(source) as conn:
        return _get_user(conn, name, None, lambda _msg: None)


def cache_holds_user(username: str, source: LichessSettings) -> bool:
    """Whether the cache can serve ``username``'s profile offline (so working offline
    would help); a cassette run never counts."""
    if source.replay is not None:
        return False
    try:
        fetch_user(username, replace(source, offline=True, refresh=False))
    except LichessEloError:
        return False
    return True
