"""The ``--rules``, ``--rules-as-of``, ``--peak`` and ``--fide-id`` options of ``calc`` and
``report``: their help texts and parsing (the rules themselves are ``core/fide_rules.py``).
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, cast

import typer

from lichess_elo.core.fide_rules import ChapterChoice
from lichess_elo.errors import BadInput
from lichess_elo.sources.lichess.checks import parse_date_option

RULES_HELP = (
    "FIDE chapter: auto (bullet, blitz, rapid -> Rapid & Blitz; classical, correspondence "
    "-> standard), standard or rapid-blitz, e.g. --rules standard. See docs/rules.md."
)
RULES_AS_OF_HELP = (
    "Which date's regulations: game (each period by the rules in force on its date), today, "
    "or YYYY-MM-DD, e.g. --rules-as-of 2023-06-01."
)
PEAK_HELP = (
    "The highest published rating ever: decides the 2400 rule (K 10 for good) and the "
    "junior's 2300 limit (no K 40 once rated 2300), e.g. --peak 2350."
)
FIDE_ID_HELP = (
    "The player's FIDE id: their real FIDE record (birth year, peak, monthly ratings) "
    "beside the track, fetched from Lichess, e.g. --fide-id 35009192."
)
_CHOICES = ("auto", "standard", "rapid-blitz")

#: The shared declarations of ``calc`` and ``report``.
RulesOpt = Annotated[
    str, typer.Option("--rules", metavar="auto|standard|rapid-blitz", help=RULES_HELP)
]
RulesAsOfOpt = Annotated[
    str,
    typer.Option("--rules-as-of", metavar="game|today|YYYY-MM-DD", help=RULES_AS_OF_HELP),
]


def parse_rules(text: str) -> ChapterChoice:
    """``auto``, ``standard`` or ``rapid-blitz`` (case and spaces do not matter).

    Raises:
        BadInput: anything else.
    """
    value = text.strip().lower()
    if value not in _CHOICES:
        raise BadInput(f"--rules {text!r} is not auto, standard or rapid-blitz")
    return cast(ChapterChoice, value)


def parse_rules_as_of(text: str, today: date) -> date | None:
    """``game`` -> ``None`` (each period by its own date), ``today`` -> ``today``, or a date.

    Raises:
        BadInput: anything else (the message gives the accepted forms).
    """
    value = text.strip().lower()
    if value == "game":
        return None
    if value == "today":
        return today
    try:
        return parse_date_option(text, "--rules-as-of")
    except BadInput:
        raise BadInput(
            f"--rules-as-of {text!r} is not game, today or a date (YYYY-MM-DD)"
        ) from None
