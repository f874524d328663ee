"""Checks of what the user gives the import before any request: the username, the
``--since``/``--until`` dates, the token and the ``LICHESS_ELO_*`` numbers of seconds;
and ``scrub``, the one function that keeps tokens out of messages.

Pure apart from reading the environment.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable
from datetime import date

from lichess_elo.errors import BadInput

MAX_SECONDS = 3600.0  # the largest LICHESS_ELO_TIMEOUT / LICHESS_ELO_RETRY_WAIT accepted
_USERNAME = re.compile(r"[A-Za-z0-9_-]{2,30}")
_DATE_FORMAT = "expected YYYY-MM or YYYY-MM-DD, e.g. 2023-01 or 2023-01-25"
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
        raise BadInput(f"{name!r} is not a Lichess username (2-30 letters, digits, '_' or '-')")
    return name


def parse_date_range(since: str | None, until: str | None) -> tuple[date | None, date | None]:
    """Parse the ``--since`` and ``--until`` options (each ``None`` or empty when not given).

    Every command that takes the options calls this, so an empty or reversed range is
    refused here, once, whatever the games' source (Lichess or a PGN file).

    Raises:
        BadInput: a malformed date (``parse_date_option``), or ``since`` not before
            ``until``.
    """
    first = parse_date_option(since, "--since") if since else None
    stop = parse_date_option(until, "--until") if until else None
    if first is not None and stop is not None and first >= stop:
        shown = (since or "").strip(), (until or "").strip()
        raise BadInput(f"--since {shown[0]} is not before --until {shown[1]}")
    return first, stop


def parse_date_option(text: str, option: str) -> date:
    """Parse ``YYYY-MM`` (first day of the month) or ``YYYY-MM-DD``.

    Raises:
        BadInput: anything else, with the expected format in the message.
    """
    match = re.fullmatch(r"(\d{4})-(\d{2})(?:-(\d{2}))?", text.strip())
    try:
        if match is None:
            raise ValueError(text)
        year, month, day = match.groups()
        return date(int(year), int(month), int(day) if day else 1)
    except ValueError:
        raise BadInput(f"{option} {text!r} is not a date; {_DATE_FORMAT}") from None


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
        raise BadInput("--token contains whitespace or a line break (check LICHESS_TOKEN)")
    if not (token.isascii() and token.isprintable()):
        raise BadInput(
            "--token contains a character that is not printable ASCII (check LICHESS_TOKEN)"
        )
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
