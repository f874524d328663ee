"""Checks of what the user gives the import before any request: the username, the token
and the ``LICHESS_ELO_*`` numbers of seconds; and ``scrub``, the one function that keeps
tokens out of messages.

Pure apart from reading the environment.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from lichess_elo.errors import BadFile, BadInput, Malformed

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


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def _split_userinfo(url: str) -> tuple[str, str, str] | None:
    """``(scheme, userinfo, rest)`` of a URL with an ``@`` before its path, else ``None``."""
    text = url.strip()
    match = _SCHEME.match(text)
    scheme = match.group(0) if match else ""
    after = text[len(scheme) :]
    authority = re.split(r"[/?#]", after, maxsplit=1)[0]
    if "@" not in authority:
        return None
    info, host = authority.rsplit("@", 1)
    return scheme, info, host + after[len(authority) :]


def url_secrets(url: str) -> list[str]:
    """The user name and password inside ``url`` (``http://user:TOKEN@host``), if any."""
    parts = _split_userinfo(url)
    return [] if parts is None else [p for p in parts[1].split(":", 1) if p]


def redact_url(url: str) -> str:
    """``url`` with its user name and password (if any) shown as ``***``."""
    parts = _split_userinfo(url)
    return url.strip() if parts is None else f"{parts[0]}***@{parts[2]}"


def forbid_core_dumps() -> None:
    """No core dump for the rest of this process (``RLIMIT_CORE`` 0): one would hold the
    token it was given. Where the platform has no such limit, nothing."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_CORE)
    if soft != 0:
        resource.setrlimit(resource.RLIMIT_CORE, (0, hard))


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


def read_token_file(path: Path) -> str:
    """The token in the file ``path``: its text without surrounding whitespace (the line
    break an editor adds). The token itself is never part of a message.

    Raises:
        BadFile: the file cannot be read, is empty, or is not UTF-8 text (then
            ``validate_token`` checks the token itself).
    """
    try:
        token = path.read_bytes().decode("utf-8").strip()
    except FileNotFoundError:
        raise BadFile(path, "no such file", field="token_file", unreadable=True) from None
    except IsADirectoryError:
        raise BadFile(path, "is a folder", field="token_file", unreadable=True) from None
    except OSError as exc:
        raise BadFile(
            path, exc.strerror or type(exc).__name__, field="token_file", unreadable=True
        ) from None
    except UnicodeDecodeError:
        raise BadFile(path, "not a token (not UTF-8 text)", field="token_file") from None
    if not token:
        raise BadFile(path, "the file is empty", field="token_file")
    return token
