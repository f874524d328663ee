"""FIDE standard Elo: expected scores, K factor, period change, performance and initial rating.

The one FIDE package: the rulebook (``editions``: every edition of both chapters by date,
with its sources, and the one-time adjustments) and the engine that applies an edition
(``engine``, ``initial``, ``calculate``). It re-exports every public name of its modules:
``editions``, ``constants``, ``tables``, ``checks``, ``engine``, ``initial`` and
``calculate``.

Pure functions with exact ``Decimal`` arithmetic. The only thing read from outside is the
two FIDE tables shipped inside the package (``data/expected_score_table.csv`` = table 8.1.2,
``data/dp_table.csv`` = table 8.1.1), loaded once through ``importlib.resources``.

Rules of the newest standard edition, the default (``editions.latest("standard")``, its
dates and sources there and in ``docs/rules.md``; every function takes an ``edition`` for
the rules of another day):

* D = own rating - opponent rating. |D| > 400 counts as 400 while the player being rated
  is below 2650 (8.3.1); each side of a game is computed separately.
* PD from table 8.1.2: the H column when D >= 0, the L column when D < 0; beyond 735 the
  table gives 1.00 / 0.00. The logistic formula 1/(1+10^(-D/400)) is available on request.
* Period change = K x sum(score - PD), rounded once, 0.5 away from zero (8.3.4).
* K: ever reached 2400 -> 10; junior (through the year of the 18th birthday) below 2300 ->
  40; fewer than 30 games -> 40; else 20 (8.3.3, precedence as fitted to FIDE's data).
  If K x n > 700, K becomes the largest whole number with K x n <= 700.
* Initial rating (8.2, 2024): >= 5 games against rated opponents, two hypothetical draws
  against 1800, Ru = Ra + dp(p), at most 2200; published only when >= 1400.

Readings where the text is silent: p is rounded to .01 half up before table 8.1.1 (as the
Title Regulations do for percentages), and Ru / Rp are rounded half up.
"""

from lichess_elo.core.fide.calculate import CalcResult, calculate
from lichess_elo.core.fide.checks import (
    check_birth_year,
    check_choice,
    check_games_before,
    check_k,
    check_rating,
)
from lichess_elo.core.fide.constants import (
    BIRTH_YEAR_MIN,
    CAP_DIFFERENCE,
    CAP_EXEMPT_FROM,
    CURRENT_STANDARD,
    GAMES_BEFORE_MAX,
    HYPOTHETICAL_DRAWS,
    HYPOTHETICAL_OPPONENT,
    INITIAL_MIN_GAMES,
    INITIAL_RATING_MAX,
    JUNIOR_AGE,
    JUNIOR_RATING_BELOW,
    K_2400,
    K_JUNIOR,
    K_NEW,
    K_STANDARD,
    K_TIMES_GAMES_MAX,
    MAX_RATING,
    METHODS,
    MIN_RATING,
    NEW_PLAYER_GAMES,
    PUBLICATION_FLOOR,
    RATING_FOR_K10,
    TABLE_LIMIT,
    KReason,
    KRule,
    Method,
)
from lichess_elo.core.fide.editions import (
    ADJUSTMENTS,
    CHAPTER_CHOICES,
    CHAPTERS,
    COMPRESSION_2024,
    EDITIONS,
    EDITIONS_BY_KEY,
    SOURCES,
    UPLIFT_2022,
    Adjustment,
    Chapter,
    ChapterChoice,
    Citation,
    Edition,
    adjusted,
    adjustment_between,
    chapter_of_speed,
    check_as_of,
    in_force,
    initial_rules,
    latest,
)
from lichess_elo.core.fide.engine import (
    GameResult,
    cap_applies,
    capped_fraction,
    difference_used,
    dp,
    expected_score,
    k_factor,
    limit_k,
    logistic_expected,
    not_rated,
    performance_rating,
    round_half_away,
)
from lichess_elo.core.fide.initial import (
    InitialRating,
    initial_rating,
    initial_rating_details,
    is_publishable,
)
from lichess_elo.core.fide.kinds import FideSpeed, fide_chapter, fide_speed
from lichess_elo.core.fide.period import PeriodResult, RatedGame, rate_period

__all__ = [
    "ADJUSTMENTS",
    "BIRTH_YEAR_MIN",
    "CAP_DIFFERENCE",
    "CAP_EXEMPT_FROM",
    "CHAPTERS",
    "CHAPTER_CHOICES",
    "COMPRESSION_2024",
    "CURRENT_STANDARD",
    "EDITIONS",
    "EDITIONS_BY_KEY",
    "GAMES_BEFORE_MAX",
    "HYPOTHETICAL_DRAWS",
    "HYPOTHETICAL_OPPONENT",
    "INITIAL_MIN_GAMES",
    "INITIAL_RATING_MAX",
    "JUNIOR_AGE",
    "JUNIOR_RATING_BELOW",
    "K_2400",
    "K_JUNIOR",
    "K_NEW",
    "K_STANDARD",
    "K_TIMES_GAMES_MAX",
    "MAX_RATING",
    "METHODS",
    "MIN_RATING",
    "NEW_PLAYER_GAMES",
    "PUBLICATION_FLOOR",
    "RATING_FOR_K10",
    "SOURCES",
    "TABLE_LIMIT",
    "UPLIFT_2022",
    "Adjustment",
    "CalcResult",
    "Chapter",
    "ChapterChoice",
    "Citation",
    "Edition",
    "FideSpeed",
    "GameResult",
    "InitialRating",
    "KReason",
    "KRule",
    "Method",
    "PeriodResult",
    "RatedGame",
    "adjusted",
    "adjustment_between",
    "calculate",
    "cap_applies",
    "capped_fraction",
    "chapter_of_speed",
    "check_as_of",
    "check_birth_year",
    "check_choice",
    "check_games_before",
    "check_k",
    "check_rating",
    "difference_used",
    "dp",
    "expected_score",
    "fide_chapter",
    "fide_speed",
    "in_force",
    "initial_rating",
    "initial_rating_details",
    "initial_rules",
    "is_publishable",
    "k_factor",
    "latest",
    "limit_k",
    "logistic_expected",
    "not_rated",
    "performance_rating",
    "rate_period",
    "round_half_away",
]  # fmt: skip

#: The old name of ``Citation`` (where a rule was read), kept for one release: ``Source``
#: names the Lichess connection at the top level.
Source = Citation
