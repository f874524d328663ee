"""FIDE rating constants: the numbers of the regulations (see ``docs/rules.md``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from lichess_elo.core.fide_rules import KReason as KReason

Method = Literal["table", "formula"]


METHODS: tuple[Method, ...] = ("table", "formula")


#: Why ``calculate`` used its K: given by the caller, or one of the 8.3.3 reasons.
KRule = Literal["given", "2400", "junior", "new", "standard", "flat"]


#: 8.3.1: a difference above this counts as this much ...
CAP_DIFFERENCE = 400


#: ... unless the player being rated is at or above this rating (from 1 October 2025).
CAP_EXEMPT_FROM = 2650


#: Table 8.1.2 ends with "> 735 -> 1.0 / .00".
TABLE_LIMIT = 735


#: 8.3.3 K values.
K_2400 = 10


K_JUNIOR = 40


K_NEW = 40


K_STANDARD = 20


#: A published rating that has reached this gets K 10 for good.
RATING_FOR_K10 = 2400


#: Junior K 40 lasts through the year of this birthday, while the rating is below ...
JUNIOR_AGE = 18


JUNIOR_RATING_BELOW = 2300


#: K 40 until events with at least this many games are completed.
NEW_PLAYER_GAMES = 30


#: The 700 rule: K x n may not exceed this.
K_TIMES_GAMES_MAX = 700


#: 7.1.4 / 8.2: initial rating.
INITIAL_MIN_GAMES = 5


HYPOTHETICAL_OPPONENT = 1800


HYPOTHETICAL_DRAWS = 2


INITIAL_RATING_MAX = 2200


#: 7.1.2 / 7.2.1: ratings below this are not published (the player shows as unrated).
PUBLICATION_FLOOR = 1400


#: Range of ratings this tool accepts as input.
MIN_RATING = 0


MAX_RATING = 4000


#: Range ``calculate`` accepts for a year of birth (up to the year of the list) ...
BIRTH_YEAR_MIN = 1900


#: ... and for the rated games played before the period (from 0).
GAMES_BEFORE_MAX = 100_000


_HUNDREDTH = Decimal("0.01")


_ONE = Decimal(1)


_HALF = Decimal("0.5")


_ZERO = Decimal(0)
