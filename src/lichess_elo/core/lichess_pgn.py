"""How Lichess writes its PGN: the one reading of its conventions, for every reader.

Pure code, no I/O. ``sources/pgn.py`` (``games``, ``report --pgn``), ``sources/club_files.py``
(``club``) and ``population/ingest.py`` (``db ingest``, as SQL built here from the same
patterns) all decide with these rules. They follow the two exporters that write Lichess PGN
(read for this module, cited in ``docs/lichess.md``):

* the open database's ``lichess-org/database`` ``src/main/scala/lila/game/PgnDump.scala``
  (``Rated Blitz game``, ``Rated Blitz tournament https://lichess.org/tournament/<id>``,
  ``Blitz swiss https://lichess.org/swiss/<id>``, ``Blitz simul https://...``);
* lila's ``modules/game/src/main/PgnDump.scala`` and ``modules/api/src/main/PgnDump.scala``
  for the user export (``rated blitz game`` in lower case; an arena's, swiss's or simul's
  *name* in place of the generic Event; ``Import`` for an imported game; a correspondence
  ``TimeControl`` of ``3 days per move``).

Rules:

* **Rated.** The Event's first word when it is ``Rated``/``Casual`` (any case); else a swiss
  in the open database's form (``<Perf> swiss https://lichess.org/swiss/<id>``), which only
  the open database writes and which holds only rated games; else rated when a
  ``RatingDiff`` tag is present (Lichess writes one only when the game moved ratings). An
  ``Import`` is never rated.
* **Termination**, mapped back as the exporter writes it: ``Normal`` (resign, draw,
  stalemate, mate, variant end: the final position and the result tell which),
  ``Time forfeit`` (``outoftime`` *or* ``timeout``: the PGN cannot tell them apart, so the
  status is ``timeForfeit``), ``Abandoned`` (``aborted`` with ``*``; ``noStart`` with a
  result, which Lichess rated when the diffs are there), ``Rules infraction`` (``cheat``),
  ``Insufficient material`` (a claimed draw, ``insufficientMaterialClaim``),
  ``Unterminated`` (``started``: still running), ``Unknown`` (``unknownFinish``).
* **AI**: a player named ``lichess AI level N`` (its Elo is ``?``). AI games are left out
  everywhere: Lichess never rates them.
* **BOT**: a ``WhiteTitle``/``BlackTitle`` of ``BOT``. A game against a BOT counts
  everywhere, as Lichess rated it (``report`` flags it ``bot``; ``db`` stores it and rates
  both accounts).
* **Provisional**: never written, so unknown from PGN (``Side.provisional`` stays false and
  nothing says Lichess showed the rating established).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

#: ``Rated``/``Casual`` as the Event's first word (database: capitalised; user export: lower).
MODE_RATED, MODE_CASUAL = r"^\s*rated\b", r"^\s*casual\b"
_MODE = re.compile(r"^\s*(rated|casual)\b", re.IGNORECASE)
#: The open database's swiss Event: ``Rapid swiss https://lichess.org/swiss/<id>``.
SWISS_EVENT = r"^\S+( \S+)* swiss https://lichess\.org/swiss/[A-Za-z0-9]+$"
_SWISS = re.compile(SWISS_EVENT)
#: The generic Event of a game outside any event: ``Rated Blitz game``, ``casual rapid game``.
GENERIC_EVENT = r"^(rated|casual) \S+( \S+)* game$"
_GENERIC = re.compile(GENERIC_EVENT, re.IGNORECASE)
#: The Event of a generic game, arena, swiss or simul, whose second word (after the mode) or
#: first word (swiss, simul) is the perf's name: where an Event names the perf at all.
PERF_EVENT = r"^(?:(?:rated|casual) (\S+) (?:game$|tournament )|(\S+) (?:swiss|simul) https)"
_PERF_EVENT = re.compile(PERF_EVENT, re.IGNORECASE)
#: An AI opponent's name.
AI_NAME = r"^lichess AI level ([1-8])$"
_AI = re.compile(AI_NAME, re.IGNORECASE)
#: The Event of an imported game.
IMPORT_EVENT = "Import"

Status = str
Mode = Literal["rated", "casual"]


def event_mode(event: str | None) -> Mode | None:
    """``rated``/``casual`` when the Event's first word says so (any case), else ``None``."""
    found = _MODE.match(event or "")
    return None if found is None else "rated" if found.group(1).lower() == "rated" else "casual"


def is_database_swiss(event: str | None) -> bool:
    """True for the open database's swiss Event (only the open database writes it)."""
    return bool(_SWISS.match((event or "").strip()))


def is_generic_event(event: str | None) -> bool:
    """True for ``Rated Blitz game``/``casual rapid game``: a game outside any event."""
    return bool(_GENERIC.match((event or "").strip()))


def event_perf(event: str | None) -> str | None:
    """The perf's name the Event writes, lower case (``blitz``, ``chess960``), or ``None``
    when the Event is an event's name and names no perf."""
    found = _PERF_EVENT.match((event or "").strip())
    if found is None:
        return None
    return (found.group(1) or found.group(2)).lower()


def is_rated(event: str | None, white_diff: object, black_diff: object) -> bool:
    """Whether Lichess rated the game, from its Event and its ``RatingDiff`` tags.

    The Event's ``Rated``/``Casual`` word decides; else the open database's swiss form
    (rated: that database holds rated games only); else a diff present means rated. An
    ``Import`` is never rated.
    """
    mode = event_mode(event)
    if mode is not None:
        return mode == "rated"
    if (event or "").strip() == IMPORT_EVENT:
        return False
    if is_database_swiss(event):
        return True
    return white_diff is not None or black_diff is not None


def ai_level(name: str | None) -> int | None:
    """The level of a ``lichess AI level N`` player, else ``None``."""
    found = _AI.match((name or "").strip())
    return int(found.group(1)) if found else None


def is_bot(title: str | None) -> bool:
    """True for a BOT account's title tag."""
    return (title or "").strip() == "BOT"


#: Lichess's PGN Termination (lower case) -> the status it stands for, when one status only.
_TERMINATIONS: dict[str, Status] = {
    "time forfeit": "timeForfeit",
    "rules infraction": "cheat",
    "insufficient material": "insufficientMaterialClaim",
    "unterminated": "started",
    "unknown": "unknownFinish",
}
#: Every Termination the exporters write, as written.
TERMINATIONS = (
    "Normal",
    "Time forfeit",
    "Abandoned",
    "Rules infraction",
    "Insufficient material",
    "Unterminated",
    "Unknown",
)


def termination_status(
    termination: str | None, result: str, ending: Callable[[], Status | None]
) -> Status:
    """The status a game's ``Termination`` and ``Result`` stand for, as the exporter wrote them.

    Args:
        termination: The tag as written (``None`` when absent).
        result: The ``Result`` tag (``1-0``, ``0-1``, ``1/2-1/2``, ``*``).
        ending: The status the final position says (``mate``, ``stalemate``,
            ``variantEnd``) or ``None``; called only for a ``Normal`` termination.
    """
    term = (termination or "").strip().lower()
    if term == "normal":
        end = ending()
        if end is not None:
            return end
        return "draw" if result == "1/2-1/2" else "resign" if result != "*" else "started"
    if term == "abandoned":
        return "aborted" if result == "*" else "noStart"
    if term in _TERMINATIONS:
        return _TERMINATIONS[term]
    if result == "*":
        return "started"
    return "unknownFinish"


# --- the same rules as SQL, for db ingest (DuckDB's regexp_matches, RE2) ------------------


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def rated_sql(event: str, white_diff: str, black_diff: str) -> str:
    """SQL for ``is_rated`` on the columns named (the diffs as raw text, NULL when absent)."""
    return f"""(CASE
        WHEN regexp_matches({event}, {_quote("(?i)" + MODE_RATED)}) THEN TRUE
        WHEN regexp_matches({event}, {_quote("(?i)" + MODE_CASUAL)}) THEN FALSE
        WHEN trim({event}) = {_quote(IMPORT_EVENT)} THEN FALSE
        WHEN regexp_matches(trim({event}), {_quote(SWISS_EVENT)}) THEN TRUE
        ELSE {white_diff} IS NOT NULL OR {black_diff} IS NOT NULL END)"""


def ai_sql(name: str) -> str:
    """SQL: the player column ``name`` is a Lichess AI."""
    return f"regexp_matches(trim({name}), {_quote('(?i)' + AI_NAME)})"


def event_perf_sql(event: str) -> str:
    """SQL for ``event_perf`` (NULL when the Event names no perf)."""
    pattern = _quote("(?i)" + PERF_EVENT)
    return f"""NULLIF(lower(COALESCE(
        NULLIF(regexp_extract(trim({event}), {pattern}, 1), ''),
        regexp_extract(trim({event}), {pattern}, 2))), '')"""
