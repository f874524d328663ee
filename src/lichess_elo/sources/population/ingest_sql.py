"""The SQL of ``db ingest`` (``ingest.py`` runs it): the tables of what an ``Event`` says,
and the statement that parses and checks a batch of raw headers,
giving every unusable game its reason (``schema.REASONS``). Which games are rated, which
are AI games, what ``Termination`` means and which games were not played follow
``core/lichess_pgn.py``'s SQL forms.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from lichess_elo.core import lichess_pgn
from lichess_elo.core.games import RATING_MAX, RATING_MIN
from lichess_elo.core.population.schema import PERFS

#: The first day a game can have been played: Lichess opened in 2010.
FIRST_DAY = "2010-01-01"

#: The event of a game for the once-per-event 400-point rule, as ``core/report/rules.game_event``
#: names it: ``arena:<id>`` or ``swiss:<id>`` from the ``Event`` header's address, else NULL.
_EVENT_SQL = """CASE
            WHEN regexp_matches(Event, 'lichess\\.org/tournament/[A-Za-z0-9]+')
                THEN 'arena:' || regexp_extract(Event, 'lichess\\.org/tournament/([A-Za-z0-9]+)', 1)
            WHEN regexp_matches(Event, 'lichess\\.org/swiss/[A-Za-z0-9]+')
                THEN 'swiss:' || regexp_extract(Event, 'lichess\\.org/swiss/([A-Za-z0-9]+)', 1)
        END"""


#: What a game's ``Event`` says, worked out once per distinct ``Event`` (a month has a few
#: thousand: the perf words and the tournaments) instead of once per game: the perf word
#: (``lichess_pgn.event_perf_sql``), whether it is rated by its words alone
#: (``lichess_pgn.rated_sql``, for a game with rating diffs and one without) and the event
#: (``_EVENT_SQL``).
EVENTS_DDL = """
CREATE OR REPLACE TEMP TABLE _events (ev VARCHAR, perf_word VARCHAR,
    rated_if_diffs BOOLEAN, rated_if_none BOOLEAN, event VARCHAR)"""


def new_events_sql() -> str:
    """Add the ``Event`` values given as the statement's one parameter (a list) to
    ``_events``. (A list, not an Arrow table: ``pa.array`` of Python strings imports pandas
    when it is installed, 0.25-0.5 s at the first batch.)"""
    with_diffs = lichess_pgn.rated_sql("ev", "1", "1")
    without = lichess_pgn.rated_sql("ev", "NULL", "NULL")
    return f"""
    INSERT INTO _events
    SELECT ev, {lichess_pgn.event_perf_sql("ev")}, {with_diffs}, {without},
        {_EVENT_SQL.replace("Event", "ev")}
    FROM (SELECT UNNEST(?::VARCHAR[]) AS ev)"""


def classify_sql(seq0: int) -> str:
    """Parse and check a batch of raw headers (``_batch``, games ``seq0`` on, with each
    game's ``plies`` as the dump reader counts them, NULL when not known): one row per
    game, its ``reason`` NULL when it is usable. A rated game with no rating diff and at
    most ``lichess_pgn.UNPLAYED_PLIES`` plies is ``unplayed`` (``lichess_pgn.unplayed_sql``
    on the diffs as parsed: an empty diff, which the PGN reader reads as none, is none)."""
    rated = ", ".join(f"'{p}'" for p in PERFS)
    # A date that parses but cannot be a Lichess game's (before Lichess, or after tomorrow,
    # e.g. 2999.12.31 or 0000.01.01) is no date: the game is malformed, and ``ord`` below
    # cannot overflow.
    latest = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d")
    # The Event's word in lower case (``ultrabullet``) -> the perf as ``PERFS`` spells it.
    named = " ".join(f"WHEN '{p.lower()}' THEN '{p}'" for p in PERFS)
    return f"""
    WITH d AS (
        SELECT *, try_strptime(UTCDate || ' ' || COALESCE(UTCTime, '00:00:00'),
                               '%Y.%m.%d %H:%M:%S') AS ts0
        FROM _batch),
    p AS (
        SELECT r.*, CASE WHEN r.ts0 >= TIMESTAMP '{FIRST_DAY}'
                          AND r.ts0 < TIMESTAMP '{latest}' + INTERVAL 1 DAY
                    THEN r.ts0 END AS ts,
               TRY_CAST(r.WhiteElo AS INTEGER) AS we, TRY_CAST(r.BlackElo AS INTEGER) AS be,
               TRY_CAST(r.WhiteRatingDiff AS INTEGER) AS wd,
               TRY_CAST(r.BlackRatingDiff AS INTEGER) AS bd,
               COALESCE(CASE e.perf_word {named} END, t.speed) AS perf,
               CASE WHEN r.WhiteRatingDiff IS NOT NULL OR r.BlackRatingDiff IS NOT NULL
                    THEN COALESCE(e.rated_if_diffs, TRUE) ELSE COALESCE(e.rated_if_none, FALSE)
               END AS is_rated, e.event AS event_key, t.chapter AS tc_chapter
        FROM d r LEFT JOIN _speeds t ON t.tc = r.TimeControl
            LEFT JOIN _events e ON e.ev = r.Event)
    SELECT year(ts) * 100 + month(ts) AS month, perf, White AS white, Black AS black, we, be,
        wd, bd, CASE Result WHEN '1-0' THEN 100 WHEN '0-1' THEN 0 ELSE 50 END AS score,
        epoch(ts)::BIGINT * 1000000000 + seq + {seq0} AS ord,
        CASE
            WHEN ts IS NULL OR COALESCE(trim(White), '') IN ('', '?')
                 OR COALESCE(trim(Black), '') IN ('', '?')
                 OR COALESCE(Result, '') NOT IN ('1-0', '0-1', '1/2-1/2', '*')
                 OR (we IS NULL AND COALESCE(WhiteElo, '?') NOT IN ('?', ''))
                 OR (be IS NULL AND COALESCE(BlackElo, '?') NOT IN ('?', ''))
                 OR (wd IS NULL AND COALESCE(WhiteRatingDiff, '') <> '')
                 OR (bd IS NULL AND COALESCE(BlackRatingDiff, '') <> '')
                 OR we NOT BETWEEN {RATING_MIN} AND {RATING_MAX}
                 OR be NOT BETWEEN {RATING_MIN} AND {RATING_MAX}
                 OR wd NOT BETWEEN -{RATING_MAX} AND {RATING_MAX}
                 OR bd NOT BETWEEN -{RATING_MAX} AND {RATING_MAX}
                 THEN 'malformed'
            WHEN {lichess_pgn.ai_sql("White")} OR {lichess_pgn.ai_sql("Black")}
                 THEN 'ai_opponent'
            WHEN Result = '*' AND lower(trim(Termination)) = 'abandoned' THEN 'aborted'
            WHEN Result = '*' THEN 'unfinished'
            WHEN NOT COALESCE(is_rated, FALSE) THEN 'unrated'
            WHEN {lichess_pgn.unplayed_sql("wd", "bd", "plies")}
                 THEN '{lichess_pgn.UNPLAYED}'
            WHEN COALESCE(Variant, 'Standard') <> 'Standard' THEN 'variant'
            WHEN we IS NULL OR be IS NULL THEN 'missing_rating'
            WHEN perf IS NULL OR perf NOT IN ({rated}) THEN 'other_perf'
        END AS reason,
        event_key AS event,
        tc_chapter AS chapter
    FROM p"""
