"""Settings read from the environment: numbers of seconds (``LICHESS_ELO_TIMEOUT`` and
the like) and the cache folder (``LICHESS_ELO_CACHE_DIR``).

Its own module so that both caches and the Lichess session can use it without importing
each other.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from lichess_elo.errors import BadInput

#: The largest number of seconds accepted from the environment.
MAX_SECONDS = 3600.0
#: Lichess: "wait one full minute" after HTTP 429; LICHESS_ELO_RETRY_WAIT overrides it.
RATE_LIMIT_WAIT = 60.0


def env_seconds(name: str, default: float, *, zero_ok: bool) -> float:
    """A number of seconds from the environment variable ``name`` (``default`` if unset).

    Raises:
        BadInput: not a finite number up to ``MAX_SECONDS``, below 0, or 0 when not
            ``zero_ok``; the message names the variable.
    """
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isfinite(value) and (value >= 0 if zero_ok else value > 0) and value <= MAX_SECONDS:
        return value
    low = "from 0" if zero_ok else "above 0"
    raise BadInput(f"{name} must be a number of seconds {low} up to {MAX_SECONDS:g}, not {text!r}")


def retry_wait(given: float | None = None) -> float:
    """Seconds to wait after HTTP 429: ``given`` (a source's own), else
    ``LICHESS_ELO_RETRY_WAIT``, else 60."""
    if given is not None:
        return float(given)
    return env_seconds("LICHESS_ELO_RETRY_WAIT", RATE_LIMIT_WAIT, zero_ok=True)


def cache_folder(given: Path | None = None) -> Path:
    """A run's cache folder (the HTTP answers, the parsed games, the replays): ``given``,
    else ``LICHESS_ELO_CACHE_DIR``, else the user's cache folder (platformdirs)."""
    if given is not None:
        return given
    env = os.environ.get("LICHESS_ELO_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs  # only where it is used

    return platformdirs.user_cache_path("lichess-elo")
