"""Names, months and table layouts shared by ingest, the stages and both engines."""

from __future__ import annotations

import re

from lichess_elo.core.fide.editions import chapter_of_speed
from lichess_elo.core.games import SPEEDS
from lichess_elo.core.lichess_pgn import UNPLAYED
from lichess_elo.core.months import yyyymm_add, yyyymm_range
from lichess_elo.errors import BadInput

#: The perfs rated here: Lichess's speeds (``core.games.SPEEDS``, fastest first), the same
#: perfs ``report`` rates a speed's games in, each under the chapter ``report`` gives it
#: (``chapter_of_speed``; docs/rules.md): ultraBullet, bullet, blitz and rapid the Rapid &
#: Blitz chapter (plain 400-point cap, RB24 §7.3.1), classical and correspondence the
#: standard chapter (400-point cap, none from 2650, H24 §8.3.1).
PERFS: tuple[str, ...] = SPEEDS
STANDARD_CHAPTER_PERFS = frozenset(p for p in PERFS if chapter_of_speed(p) == "standard")

#: The headers read from a dump (PGN tag names = the Parquet mirror's column names).
#: ``Variant`` is absent from the standard dumps and the mirror; a game without it is standard.
HEADERS = (
    "Event", "White", "Black", "Result", "UTCDate", "UTCTime", "WhiteElo", "BlackElo",
    "WhiteRatingDiff", "BlackRatingDiff", "WhiteTitle", "BlackTitle", "TimeControl", "Variant",
    "Termination",
)  # fmt: skip

#: Why a game is not used, in the order they are tested (the first that applies counts).
#: Rated, AI and Termination as ``core/lichess_pgn.py`` reads them. A game against a BOT
#: is used (Lichess rated it; ``report`` counts it too).
REASONS = (
    "malformed",  # a header that does not parse: date, player, rating, diff or result
    "ai_opponent",  # a "lichess AI level N" player: Lichess never rates these games
    "aborted",  # Termination "Abandoned" with Result "*": aborted, never rated
    "unfinished",  # any other Result "*" ("Unterminated": still running)
    "unrated",  # casual, by the Event's word, or by its having no rating diff
    UNPLAYED,  # rated by its Event, but no rating diff and 0-1 plies: Lichess did not rate it
    "variant",  # not standard chess
    "missing_rating",  # WhiteElo or BlackElo absent or "?"
    "other_perf",  # neither the Event nor the TimeControl names a speed
)

GAMES_DDL = """
CREATE TABLE IF NOT EXISTS games (
    month INTEGER NOT NULL, perf VARCHAR NOT NULL, white VARCHAR NOT NULL,
    black VARCHAR NOT NULL, white_elo INTEGER NOT NULL, black_elo INTEGER NOT NULL,
    white_diff INTEGER, black_diff INTEGER, score INTEGER NOT NULL, ord BIGINT NOT NULL,
    event VARCHAR, chapter VARCHAR, white_id BIGINT, black_id BIGINT
)"""
#: A database made before ``games`` kept each game's event gains the column (NULL: the
#: game's event is unknown, so the once-per-event rule takes the period as its event).
GAMES_EVENT_DDL = "ALTER TABLE games ADD COLUMN IF NOT EXISTS event VARCHAR"
#: ``chapter``: FIDE's chapter of the game's ``TimeControl`` by the Laws of Chess, Appendix A
#: (``standard`` or ``rapid-blitz``; ``standard`` for ``-``, no clock). A database made
#: before it was kept gains the column, NULL: such a game takes its perf's chapter
#: (``rulebook_sql.chapter_of_perf``) until the month is ingested again.
GAMES_CHAPTER_DDL = "ALTER TABLE games ADD COLUMN IF NOT EXISTS chapter VARCHAR"
#: ``white_id``, ``black_id``: the ``player_ids`` id of (white, perf) and (black, perf),
#: written with the game by ``db ingest``. A database made before they were kept gains the
#: columns, NULL, until ``sources/population/ids.ensure_ids`` fills them.
GAMES_IDS_DDL = (
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS white_id BIGINT",
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS black_id BIGINT",
)
#: One integer id per (name, perf) pair, dense from 0 in the order the pairs first arrived
#: (``db ingest``), never reused or renumbered: a month ingested again keeps its players'
#: ids, and the rows of players whose games were deleted stay. (Not ``players``: the rate
#: stages use a temp table of that name.)
PLAYER_IDS_DDL = """
CREATE TABLE IF NOT EXISTS player_ids (id BIGINT NOT NULL, perf VARCHAR NOT NULL,
    name VARCHAR NOT NULL)"""
REJECTS_DDL = """
CREATE TABLE IF NOT EXISTS rejects (month INTEGER NOT NULL, reason VARCHAR NOT NULL,
    games BIGINT NOT NULL)"""
MONTHS_DDL = """
CREATE TABLE IF NOT EXISTS months (month INTEGER PRIMARY KEY, games BIGINT NOT NULL,
    rejected BIGINT NOT NULL, sources VARCHAR NOT NULL)"""
#: One row per player, perf and month: the list at the start of the month (rating,
#: games before, K, highest rating so far, Lichess rating), what the month's rated games
#: did to it and the key of the edition that rated them.
LISTS_COLUMNS = (
    "perf", "name", "month", "rating", "games_before", "k", "peak", "lichess_rating",
    "games", "points", "expected", "k_used", "change", "next_rating", "next_games_before",
    "next_peak", "next_lichess", "edition",
)  # fmt: skip

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def parse_month(text: str) -> int:
    """``YYYY-MM`` as the integer YYYYMM used in the tables.

    Raises:
        BadInput: anything else, or a month outside 01..12.
    """
    match = _MONTH.match(text.strip())
    if not match or not 1 <= int(match.group(2)) <= 12:
        raise BadInput("is not YYYY-MM, e.g. 2024-02", field="month", value=text)
    return int(match.group(1)) * 100 + int(match.group(2))


def month_label(month: int) -> str:
    """YYYYMM as ``YYYY-MM``."""
    return f"{month // 100:04d}-{month % 100:02d}"


def next_month(month: int) -> int:
    """The month after YYYYMM (``core.months``)."""
    return yyyymm_add(month, 1)


def month_range(first: int, last: int) -> list[int]:
    """Every month from ``first`` to ``last`` inclusive (YYYYMM; ``core.months``)."""
    return yyyymm_range(first, last)


def check_perf(perf: str) -> str:
    """``perf`` if it is one of ``PERFS``.

    Raises:
        BadInput: naming the perfs that are rated here.
    """
    if perf not in PERFS:
        from lichess_elo.core.words import did_you_mean

        near = did_you_mean(perf, PERFS)
        raise BadInput(
            f"is not rated here; use one of {', '.join(PERFS)}" + (f"; {near}" if near else ""),
            field="perf",
            value=perf,
        )
    return perf
