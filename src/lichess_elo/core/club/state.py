"""A club player's state during a rating run, their K and their line in the standings
(pure; used by ``rating.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from lichess_elo.core import fide
from lichess_elo.core.club.kfactor import KChoice, k_choice
from lichess_elo.core.club.model import ClubPlayer, PeriodEntry, Rules, Standing, Start, name_key


@dataclass
class PlayerState:
    """Mutable state of one player during a run (internal)."""

    name: str
    rating: Decimal | None
    group: str | None = None
    born: int | None = None
    established: bool = False  # a rating or start from the players file, not marked ?
    games: int = 0
    last_day: date | None = None
    return_left: int = 0
    pending: list[fide.GameResult] = field(default_factory=list)
    history: list[PeriodEntry] = field(default_factory=list)
    update_ids: list[int] = field(default_factory=list)


def start_rating(player: ClubPlayer | None, name: str, rules: Rules) -> Decimal | None:
    """The rating a player starts with: the sheet's rating, their own start, the start of
    their name, of their group, or the default; ``None`` for ``fide`` (rated after 5 games)."""
    if player is not None and player.rating is not None:
        return Decimal(player.rating)
    start: Start
    if player is not None and player.start is not None:
        start = player.start
    elif name_key(name) in rules.start_players:
        start = rules.start_players[name_key(name)]
    elif player is not None and player.group and player.group.lower() in rules.start_groups:
        start = rules.start_groups[player.group.lower()]
    else:
        start = rules.start
    return None if start == "fide" else Decimal(start)


def k_for(state: PlayerState, rules: Rules, day: date | None) -> KChoice:
    """The K a player gets for a period starting on ``day``, and its rule (``kfactor``)."""
    return k_choice(
        rules,
        name=state.name,
        group=state.group,
        born=state.born,
        day=day,
        newcomer=not state.established,
        games=state.games,
        returning=state.return_left > 0,
    )


def standing(st: PlayerState, rules: Rules, last_id: int | None, club_day: date | None) -> Standing:
    """``st``'s line: its change in the last update (``last_id``) and the K of its next
    period (as on ``club_day``, the club's latest game)."""
    assert st.rating is not None
    last = [e for e, uid in zip(st.history, st.update_ids, strict=True) if uid == last_id]
    change = 0
    if last and last[0].rating_before is not None:
        change = fide.round_half_away(last[-1].rating_after) - fide.round_half_away(
            last[0].rating_before
        )
    # Only the club's provisional rule marks a rating provisional, and only a newcomer's.
    provisional = (
        not st.established and rules.provisional_games > 0 and st.games < rules.provisional_games
    )
    k_next = k_for(st, rules, club_day or st.last_day)
    return Standing(
        st.name, st.rating, change, st.games, provisional, tuple(st.history), k_next.k,
        k_next.rule, not st.established,
    )  # fmt: skip
