"""The typed choices of what the output looks like: formats and views.

They live here, not in ``cli/``, so core, app and output can name them. A format is a name
the renderer registry (``output.registry``) knows; the built-in ones are below. A view is
what a command shows in a format (the report's periods or games, the club's standings).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NewType

#: An output format: one the registry renders (``table``, ``csv``, ``json``...).
Format = NewType("Format", str)

TABLE = Format("table")
CSV = Format("csv")
JSON = Format("json")

#: The order formats are listed in (``--format``'s metavar, messages); others follow.
FORMAT_ORDER = (TABLE, CSV, JSON)

HTML = Format("html")
CHART = Format("chart")
#: The files written beside the main output (``--html``, ``--chart``): rendered through the
#: registry like any format, never a ``--format`` choice.
FILE_FORMATS = (HTML, CHART)


class ReportView(StrEnum):
    """What the report's table and CSV show."""

    periods = "periods"
    games = "games"
    summary = "summary"
    accuracy = "accuracy"
    predictions = "predictions"


class ClubView(StrEnum):
    """What the club table shows."""

    standings = "standings"
    excluded = "excluded"
