"""The one implementation of the small wording rules shared by the core's messages and output."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games`` (``many`` for an irregular plural)."""
    return f"{count} {word if count == 1 else many or word + 's'}"
