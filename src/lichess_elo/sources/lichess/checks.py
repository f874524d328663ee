"""Checks of what the user gives the import before any request: the username, the token
and the ``LICHESS_ELO_*`` numbers of seconds; and ``scrub``, the one function that keeps
tokens out of messages.

Pure apart from reading the environment.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable

from lichess_elo.errors import BadInput, Malformed

MAX_SECONDS = 3600.0  # the largest LICHESS_ELO_TIMEOUT / LICHESS_ELO_RETRY_WAIT accepted
_USERNAME = re.compile(r"[A-Za-z0-9_-]{2,30}")
#: Shorter secrets are not scrubbed: replacing a 3-letter "token" everywhere would mangle
#: messages, and a real Lichess token is far longer.
MIN_SECRET_LENGTH = 8


def scrub(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every secret of at least ``MIN_SECRET_LENGTH`` characters as ``***``."""
    for secret in secrets:
        if secret and len(secret) >= MIN_SECRET_LENGTH:
            text = text.replace(secret, "***")
    return text


def validate_username(name: str) -> str:
    """Return ``name`` if it is a possible Lichess username (it goes into the URL path).

    Raises:
        BadInput: not 2-30 characters of ``[A-Za-z0-9_-]``.
    """
    if not _USERNAME.fullmatch(name):
        raise Malformed("username", name, "2-30 letters, digits, '_' or '-'", "a Lichess username")
    return name


def validate_token(token: str | None) -> str | None:
    """Return ``token`` (``None`` when empty) if it can go into an HTTP header.

    The token itself is never part of the message.

    Raises:
        BadInput: whitespace or a line break (e.g. ``LICHESS_TOKEN=$'lip_x\\n'``), or a
            character that is not printable ASCII.
    """
    if not token:
        return None
    if any(char.isspace() for char in token):
        raise BadInput("contains whitespace or a line break", field="token")
    if not (token.isascii() and token.isprintable()):
        raise BadInput("contains a character that is not printable ASCII", field="token")
    return token


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
