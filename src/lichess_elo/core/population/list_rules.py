"""Which rules and options made each perf's lists: planned by ``db rate``, stored beside the
lists (table ``list_rules``, one row per perf) and printed by ``db list`` and ``db player``.

A perf's lists are always rebuilt whole (every month, again), and its record replaced in the
same transaction, so one perf's lists never mix two sets of rules. Pure: the table is
written and read by ``sources/population/list_rules_store.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from lichess_elo.core.population.rulebook_sql import MonthRules, chapter_of_perf, month_rules
from lichess_elo.core.population.stages import Opponents

LIST_RULES_DDL = "CREATE TABLE IF NOT EXISTS list_rules (perf VARCHAR PRIMARY KEY, rules VARCHAR)"


@dataclass(frozen=True)
class ListRules:
    """The rules of one perf's lists.

    Attributes:
        perf: The perf.
        rules_as_of: The one day whose editions rated every month; ``None``: each month's own.
        editions: The keys of the editions that rated the months, oldest first.
        opponents: Where opponents' ratings came from (``list`` or ``lichess``).
        adjustment: Whether one-time compressions were applied where the run crosses them.
        adjustments: The keys of the compressions applied.
        engine: ``duckdb`` or ``spark``.
    """

    perf: str
    rules_as_of: date | None
    editions: tuple[str, ...]
    opponents: Opponents
    adjustment: bool
    adjustments: tuple[str, ...]
    engine: str

    @property
    def by_month(self) -> bool:
        """Whether each month took its own edition."""
        return self.rules_as_of is None

    def document(self) -> dict[str, Any]:
        """The JSON form (stored, and shown by ``db list`` and ``db player``)."""
        return {
            "perf": self.perf,
            "editions_by": "month" if self.by_month else "rules_as_of",
            "rules_as_of": self.rules_as_of.isoformat() if self.rules_as_of else None,
            "editions": list(self.editions),
            "opponents": self.opponents,
            "adjustment": self.adjustment,
            "adjustments": list(self.adjustments),
            "engine": self.engine,
        }

    @property
    def text(self) -> str:
        """One line in words."""
        how = "each month's edition" if self.by_month else f"as of {self.rules_as_of}"
        adj = ", ".join(self.adjustments) if self.adjustments else "none"
        if not self.adjustment:
            adj = "left out"
        return (
            f"{self.perf} rules: {how} ({', '.join(self.editions) or 'none'}); opponents: "
            f"{self.opponents}; compression: {adj}; engine: {self.engine}"
        )

    @staticmethod
    def from_document(doc: dict[str, Any]) -> ListRules:
        """The record from its JSON form."""
        as_of = doc.get("rules_as_of")
        return ListRules(
            perf=str(doc["perf"]),
            rules_as_of=date.fromisoformat(as_of) if as_of else None,
            editions=tuple(doc["editions"]),
            opponents=doc["opponents"],
            adjustment=bool(doc["adjustment"]),
            adjustments=tuple(doc["adjustments"]),
            engine=str(doc["engine"]),
        )


def plan(months: Sequence[int], *, rules_as_of: date | None, adjustment: bool) -> list[MonthRules]:
    """The rules of each month of a run (``rulebook_sql.month_rules``); the first month has
    no compression (nobody is listed before it)."""
    out = [month_rules(m, as_of=rules_as_of, adjustments=adjustment) for m in months]
    if out and out[0].compressions:
        out[0] = MonthRules(out[0].month, out[0].standard, out[0].rapid_blitz)
    return out


def record(
    perf: str,
    months: Sequence[MonthRules],
    *,
    rules_as_of: date | None,
    opponents: Opponents,
    adjustment: bool,
    engine: str,
) -> ListRules:
    """The record of ``perf``'s lists made under ``months``."""
    chapter = chapter_of_perf(perf)
    keys: list[str] = []
    adjs: list[str] = []
    for rules in months:
        key = rules.edition(chapter).key
        if key not in keys:
            keys.append(key)
        adjs.extend(a.key for a in rules.compressions if chapter in a.chapters)
    return ListRules(
        perf,
        rules_as_of,
        tuple(keys),
        opponents,
        adjustment and rules_as_of is None,
        tuple(adjs),
        engine,
    )
