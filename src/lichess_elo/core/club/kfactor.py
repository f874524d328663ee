"""Which K a club player gets, and the rule that gave it (pure).

The base K is the first of: the player's own K (``k.players``), their group's K
(``k.groups``), the junior K (``k.junior`` while ``year - born <= k.junior_age``), the
default K. Two rules can raise it, never lower it:

* the newcomers' K (``k.provisional`` for the first ``k.provisional_games`` games) applies
  only to a newcomer: a player missing from the players file, with an empty rating there,
  or with a rating marked ``?``. A rating (or start) from the players file without ``?``
  is established and gets the base K from the first game;
* the return K (``return_k``) applies to the games after a break.

The rule is named only when it raised the K: a kid of a K-40 group in their first games
has ``40 children``, not ``40 new``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from lichess_elo.core.club.model import Rules, name_key

#: The rule names of ``KChoice.rule`` besides a group's name ("" is the default K).
OWN, JUNIOR, NEW, RETURN = "own", "junior", "new", "return"


@dataclass(frozen=True)
class KChoice:
    """A K and the rule that gave it: ``""`` (the default K), ``own`` (the player's own),
    a group's name, ``junior``, ``new`` (a newcomer's first games) or ``return``."""

    k: int
    rule: str

    def shown(self) -> str:
        """``20``, ``40 new``, ``40 children``."""
        return f"{self.k} {self.rule}" if self.rule else str(self.k)


def k_choice(
    rules: Rules,
    *,
    name: str,
    group: str | None,
    born: int | None,
    day: date | None,
    newcomer: bool,
    games: int,
    returning: bool,
) -> KChoice:
    """The K of a player for a period starting on ``day`` (see the module's docstring).

    ``games`` are the rated games the player has played so far; ``returning`` is true
    while the return K's games after a break last.
    """
    key = name_key(name)
    group_key = (group or "").lower()
    if key in rules.k_players:
        choice = KChoice(rules.k_players[key], OWN)
    elif group_key in rules.k_groups:
        choice = KChoice(rules.k_groups[group_key], group_key)
    elif (
        rules.junior_k is not None
        and born
        and day is not None
        and day.year - born <= rules.junior_age
    ):
        choice = KChoice(rules.junior_k, JUNIOR)
    else:
        choice = KChoice(rules.k, "")
    if (
        newcomer
        and rules.provisional_k is not None
        and games < rules.provisional_games
        and rules.provisional_k > choice.k
    ):
        choice = KChoice(rules.provisional_k, NEW)
    if returning and rules.return_k is not None and rules.return_k > choice.k:
        choice = KChoice(rules.return_k, RETURN)
    return choice


def k_legend(rules: Rules, used: set[str]) -> list[str]:
    """What each rule name of ``used`` means, in the rules' numbers (for a table's legend)."""
    out = []
    if OWN in used:
        out.append("own = the player's own K")
    if JUNIOR in used:
        out.append(f"junior = aged {rules.junior_age} or under that year")
    if NEW in used:
        out.append(f"new = a newcomer's first {rules.provisional_games} games")
    if RETURN in used:
        out.append(
            f"return = the {rules.return_games} games after more than "
            f"{rules.return_months} months away"
        )
    groups = sorted(used - {OWN, JUNIOR, NEW, RETURN, ""})
    if groups:
        out.append(f"{', '.join(groups)}: the group's K")
    return out
