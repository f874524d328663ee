"""FIDE rating constants: the numbers of the regulations (see ``docs/rules.md``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from lichess_elo.core.fide.editions import Edition, latest
from lichess_elo.core.fide.editions import KReason as KReason
from lichess_elo.core.games import RATING_MAX, RATING_MIN

Method = Literal["table", "formula"]


METHODS: tuple[Method, ...] = ("table", "formula")


#: Why ``calculate`` used its K: given by the caller, or one of the 8.3.3 reasons (the
#: same words as ``KReason``).
KRule = KReason


#: The standard chapter as it stands: its newest edition in the rulebook (``editions.py``).
#: Every default of the library is this edition, and the constants below are read from it,
#: so an edition added to the rulebook reaches them too.
CURRENT_STANDARD: Edition = latest("standard")


#: 8.3.1: a difference above this counts as this much ...
CAP_DIFFERENCE = CURRENT_STANDARD.cap_difference


#: ... unless the player being rated is at or above this rating (the newest edition's).
CAP_EXEMPT_FROM = CURRENT_STANDARD.cap_exempt_from


#: Table 8.1.2 ends with "> 735 -> 1.0 / .00" (the table's, not an edition's).
TABLE_LIMIT = 735


#: 8.3.3 K values.
K_2400 = CURRENT_STANDARD.k_top


K_JUNIOR = CURRENT_STANDARD.k_junior


K_NEW = CURRENT_STANDARD.k_new


K_STANDARD = CURRENT_STANDARD.k_standard


#: A published rating that has reached this gets K 10 for good.
RATING_FOR_K10 = CURRENT_STANDARD.k_top_from


#: Junior K 40 lasts through the year of this birthday, while the rating is below ...
JUNIOR_AGE = CURRENT_STANDARD.junior_age


JUNIOR_RATING_BELOW = CURRENT_STANDARD.junior_below


#: K 40 until events with at least this many games are completed.
NEW_PLAYER_GAMES = CURRENT_STANDARD.new_player_games


#: The 700 rule: K x n may not exceed this.
K_TIMES_GAMES_MAX = CURRENT_STANDARD.k_times_games_max


#: 7.1.4 / 8.2: initial rating.
INITIAL_MIN_GAMES = CURRENT_STANDARD.initial_min_games


HYPOTHETICAL_OPPONENT = CURRENT_STANDARD.hypothetical_opponent


HYPOTHETICAL_DRAWS = CURRENT_STANDARD.hypothetical_draws


INITIAL_RATING_MAX = CURRENT_STANDARD.initial_max


#: 7.1.2 / 7.2.1: the one floor: ratings below it are not published (the player shows as
#: unrated). Each edition has its own (``Edition.floor``); this is today's.
PUBLICATION_FLOOR = CURRENT_STANDARD.floor


#: Range of ratings this tool accepts as input (``core.games``'s).
MIN_RATING = RATING_MIN


MAX_RATING = RATING_MAX


#: Range ``calculate`` accepts for a year of birth (up to the year of the list) ...
BIRTH_YEAR_MIN = 1900


#: ... and for the rated games played before the period (from 0).
GAMES_BEFORE_MAX = 100_000


HUNDREDTH = Decimal("0.01")


ONE = Decimal(1)


HALF = Decimal("0.5")


ZERO = Decimal(0)
