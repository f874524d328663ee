"""How Lichess writes its PGN: the one reading of its conventions, for every reader.

Pure code, no I/O. ``sources/pgn.py`` (``games``, ``report --pgn``), ``sources/club/files.py``
(``club``) and ``sources/population/ingest.py`` (``db ingest``, as SQL built here from the same
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
* **Unplayed** (``unplayed``): a game counts where its site rated it. Lichess rates a
  game only when it is *accountable* (lila ``Game.accountable``: at least two plies, or a
  tournament game), and then writes its ``RatingDiff`` tags. So a game with **no rating
  diff and at most one ply** (``UNPLAYED_PLIES``) was not rated, whatever its Event says
  (``Rated Blitz game``, ``Time forfeit`` after 0 or 1 ply); a game with diffs was rated
  however short it was (an arena's ``Abandoned`` game with a result: ``noStart``, rated).
  Every command leaves such a game out under the reason ``unplayed`` (``UNPLAYED``).
* **AI**: a player named ``lichess AI level N`` (its Elo is ``?``). AI games are left out
  everywhere: Lichess never rates them.
* **BOT**: a ``WhiteTitle``/``BlackTitle`` of ``BOT``. A game against a BOT counts
  everywhere, as Lichess rated it (``report`` flags it ``bot``; ``db`` stores it and rates
  both accounts).
* **Provisional**: never written, so unknown from PGN (``Side.provisional`` stays false and
  nothing says Lichess showed the rating established).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

#: The open database's swiss Event holds this: ``Rapid swiss https://lichess.org/swiss/<id>``.
SWISS_MARK = " swiss https://lichess.org/swiss/"
#: The Event of an imported game.
IMPORT_EVENT = "Import"
#: The names Lichess gives its AI, level 1 to 8 (lila ``PgnDump.player``).
AI_NAMES = frozenset(f"lichess AI level {n}" for n in range(1, 9))

Status = str
Mode = Literal["rated", "casual"]

# The Event is read word by word, words split on single spaces, exactly as the SQL forms
# below split it (``split_part``): the same answer for every Event, from either reader.


def _word(event: str, n: int) -> str:
    words = event.split(" ")
    return words[n - 1] if len(words) >= n else ""


def event_mode(event: str | None) -> Mode | None:
    """``rated``/``casual`` when the Event's first word says so (any case), else ``None``."""
    first = _word(event or "", 1).lower()
    return "rated" if first == "rated" else "casual" if first == "casual" else None


def is_database_swiss(event: str | None) -> bool:
    """True for the open database's swiss Event (only the open database writes it)."""
    return SWISS_MARK in (event or "")


def is_generic_event(event: str | None) -> bool:
    """True for ``Rated Blitz game``/``casual rapid game``: a game outside any event."""
    words = (event or "").strip().split(" ")
    return len(words) >= 3 and words[0].lower() in ("rated", "casual") and words[-1] == "game"


def event_perf(event: str | None) -> str | None:
    """The perf's name the Event writes, lower case (``blitz``, ``ultrabullet``), or
    ``None`` when the Event is an event's name and names no perf.

    ``<Mode> <Perf> game``, ``<Mode> <Perf> tournament https://...`` and ``<Perf> swiss
    https://...``/``<Perf> simul https://...`` name it; a perf of several words (``King of
    the Hill``, a variant, rejected anyway) is not read.
    """
    text = event or ""
    if event_mode(text) is not None and _word(text, 3) in ("game", "tournament"):
        return _word(text, 2).lower() or None
    if _word(text, 2) in ("swiss", "simul") and _word(text, 3).startswith("https://"):
        return _word(text, 1).lower() or None
    return None


def is_rated(event: str | None, white_diff: object, black_diff: object) -> bool:
    """Whether Lichess rated the game, from its Event and its ``RatingDiff`` tags.

    The Event's ``Rated``/``Casual`` word decides; else ``Import`` is unrated; else the open
    database's swiss form is rated (that database holds rated games only); else a diff
    present means rated.
    """
    mode = event_mode(event)
    if mode is not None:
        return mode == "rated"
    if (event or "") == IMPORT_EVENT:
        return False
    if is_database_swiss(event):
        return True
    return white_diff is not None or black_diff is not None


#: The most plies a game may have and still be unplayed when it moved no rating.
UNPLAYED_PLIES = 1
#: The reason every command counts an unplayed game under.
UNPLAYED = "unplayed"


def unplayed(has_change: bool, plies: int | None) -> bool:
    """Whether a game was not played, so that its site did not rate it: no rating change
    published (``has_change`` false: no ``RatingDiff``, no post-game rating) and at most
    ``UNPLAYED_PLIES`` plies. ``plies`` ``None`` (not known) is never unplayed: the game
    is then judged by its other facts, as before this rule.

    ``unplayed(False, 0)`` and ``unplayed(False, 1)`` are true; ``unplayed(True, 0)`` (an
    arena's rated ``noStart``) and ``unplayed(False, 2)`` are false.
    """
    return not has_change and plies is not None and plies <= UNPLAYED_PLIES


def rated_by_site(rated: bool, status: Status, has_change: bool, plies: int | None) -> bool:
    """Whether the site rated the game: rated by its Event/mode, not aborted or still
    running (``aborted``, ``created``, ``started``) and not ``unplayed``. An ``Abandoned``
    game with a result (``noStart``) and rating diffs is rated."""
    if not rated or status in ("aborted", "created", "started"):
        return False
    return not unplayed(has_change, plies)


def ai_level(name: str | None) -> int | None:
    """The level of a ``lichess AI level N`` player, else ``None``."""
    return int(name[-1]) if name in AI_NAMES else None


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


# --- the same rules as SQL, for db ingest (cheap string functions: no regex per game) ----


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _word_sql(event: str, n: int) -> str:
    return f"split_part({event}, ' ', {n})"


def rated_sql(event: str, white_diff: str, black_diff: str) -> str:
    """SQL for ``is_rated`` on the columns named (the diffs as raw text, NULL when absent)."""
    first = f"lower({_word_sql(event, 1)})"
    return f"""(CASE
        WHEN {first} = 'rated' THEN TRUE
        WHEN {first} = 'casual' THEN FALSE
        WHEN {event} = {_quote(IMPORT_EVENT)} THEN FALSE
        WHEN contains({event}, {_quote(SWISS_MARK)}) THEN TRUE
        ELSE {white_diff} IS NOT NULL OR {black_diff} IS NOT NULL END)"""


def unplayed_sql(white_diff: str, black_diff: str, plies: str) -> str:
    """SQL for ``unplayed`` on the columns named (the diffs as raw text, NULL when absent;
    ``plies`` an integer, NULL when not known)."""
    return (
        f"({white_diff} IS NULL AND {black_diff} IS NULL AND {plies} IS NOT NULL "
        f"AND {plies} <= {UNPLAYED_PLIES})"
    )


def ai_sql(name: str) -> str:
    """SQL: the player column ``name`` is a Lichess AI."""
    return f"({name} IN ({', '.join(_quote(n) for n in sorted(AI_NAMES))}))"


def event_perf_sql(event: str) -> str:
    """SQL for ``event_perf`` (NULL when the Event names no perf)."""
    w1, w2, w3 = (_word_sql(event, n) for n in (1, 2, 3))
    return f"""NULLIF(CASE
        WHEN lower({w1}) IN ('rated', 'casual') AND {w3} IN ('game', 'tournament')
            THEN lower({w2})
        WHEN {w2} IN ('swiss', 'simul') AND starts_with({w3}, 'https://') THEN lower({w1})
        END, '')"""
