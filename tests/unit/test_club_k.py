"""Club K rules: the newcomers' K for newcomers only, the junior K apart,
the rule named beside each K; the [publish] rules; time-control ladders.

Expected numbers are derived by hand with the FIDE formula, E = 1/(1+10^(-D/400)):
  E(0) = 0.5;  E(-20) = 1/(1+10^0.05) = 1/(1+1.122018) = 0.471249;  E(+20) = 0.528751.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from lichess_elo.core.club.kfactor import KChoice, k_choice, k_legend
from lichess_elo.core.club.player import find_player
from lichess_elo.core.club.publish import published
from lichess_elo.core.club.rating import ClubGame, ClubPlayer, Rules, rate_club

D = Decimal
JAN10, JAN17 = date(2026, 1, 10), date(2026, 1, 17)
NEWCOMER_RULES = Rules(k=20, provisional_k=40, provisional_games=2, newcomers=True)


def _k(rules: Rules, **given: object) -> KChoice:
    facts: dict[str, object] = {
        "name": "P", "group": None, "born": None, "day": JAN10, "newcomer": False,
        "games": 0, "returning": False,
    }  # fmt: skip
    facts.update(given)
    return k_choice(rules, **facts)  # type: ignore[arg-type]


def test_a_rating_from_the_players_file_gets_the_normal_k_from_the_first_game() -> None:
    # Sheet 1000 (unmarked: established), Marked 1000? (the sheet marks it: a newcomer),
    # Nowy missing from the players file (a newcomer, start 1000). K 20; newcomers K 40
    # for their first 2 games. Event E1 (2026-01-10), ratings frozen at 1000, E = 0.5:
    #   Sheet beats Marked, draws Nowy: 1.5 - 1.0 -> 1000 + 20 x 0.5    = 1010
    #   Marked 0 - 0.5                            -> 1000 - 40 x 0.5    = 980
    #   Nowy 0.5 - 0.5                            -> 1000
    # E2 (2026-01-17): Marked (1 game, still K 40) beats Nowy (1 game, K 40):
    #   Marked 1 - E(-20) = 0.528751              -> 980 + 21.1501      = 1001.15 -> 1001
    #   Nowy   0 - E(+20) = -0.528751             -> 1000 - 21.1501     = 978.85  -> 979
    players = [ClubPlayer("Sheet", 1000), ClubPlayer("Marked", 1000, provisional=True)]
    games = [
        ClubGame("Sheet", "Marked", D(1), JAN10, "E1"),
        ClubGame("Nowy", "Sheet", D("0.5"), JAN10, "E1"),
        ClubGame("Marked", "Nowy", D(1), JAN17, "E2"),
    ]
    result = rate_club(players, games, NEWCOMER_RULES)
    sheet, marked, nowy = (find_player(result, n) for n in ("Sheet", "Marked", "Nowy"))
    assert [(e.k, e.k_rule) for e in sheet.history] == [(20, "")]
    assert [(e.k, e.k_rule) for e in marked.history] == [(40, "new"), (40, "new")]
    assert [(e.k, e.k_rule) for e in nowy.history] == [(40, "new"), (40, "new")]
    assert (sheet.shown, marked.shown, nowy.shown) == (1010, 1001, 979)
    # After 2 games the newcomers are settled: the next K is the normal 20, not provisional.
    assert [(s.k_next, s.k_rule, s.provisional) for s in (sheet, marked, nowy)] == [
        (20, "", False), (20, "", False), (20, "", False),
    ]  # fmt: skip
    # The established player is never provisional, the newcomer with 1 game is.
    early = rate_club(players, games[:2], NEWCOMER_RULES)
    assert not find_player(early, "Sheet").provisional
    assert find_player(early, "Marked").provisional
    assert (find_player(early, "Marked").k_next, find_player(early, "Marked").k_rule) == (40, "new")


def test_junior_k_is_apart_from_the_newcomers_k() -> None:
    # Junior K 40 through the year of the 18th birthday: born 2008 -> 18 in 2026 (junior),
    # born 2007 -> 19 (not). The newcomers' K 30 never lowers a junior's 40.
    rules = Rules(k=20, junior_k=40, junior_age=18, provisional_k=30, provisional_games=5)
    assert _k(rules, born=2008) == KChoice(40, "junior")
    assert _k(rules, born=2007) == KChoice(20, "")
    assert _k(rules, born=2008, newcomer=True) == KChoice(40, "junior")
    assert _k(rules, born=2007, newcomer=True) == KChoice(30, "new")
    assert _k(rules, born=2007, newcomer=True, games=5) == KChoice(20, "")
    # A group's own K and a player's own K come first; the return K raises any of them.
    ruled = Rules(k=20, k_groups={"kids": 32}, k_players={"p": 16}, return_k=25)
    assert _k(ruled) == KChoice(16, "own")
    assert _k(ruled, name="Q", group="Kids") == KChoice(32, "kids")
    assert _k(ruled, returning=True) == KChoice(25, "return")
    assert _k(ruled, name="Q", group="kids", returning=True) == KChoice(32, "kids")
    assert [c.shown() for c in (KChoice(20, ""), KChoice(40, "new"))] == ["20", "40 new"]


def test_k_legend_names_only_the_rules_used() -> None:
    rules = Rules(junior_age=18, provisional_games=10, return_games=5, return_months=6)
    assert k_legend(rules, {"", "new", "children"}) == [
        "new = a newcomer's first 10 games",
        "children: the group's K",
    ]
    assert k_legend(rules, {"junior", "return", "own"}) == [
        "own = the player's own K",
        "junior = aged 18 or under that year",
        "return = the 5 games after more than 6 months away",
    ]
    assert k_legend(rules, {""}) == []


def _ladder(**publish: object) -> tuple[Rules, list[ClubPlayer], list[ClubGame]]:
    # A plays B, C and D (3 games), B plays A and C (2), C plays A and B (2), D plays A (1).
    players = [ClubPlayer(n, 1000) for n in "ABCD"]
    games = [
        ClubGame("A", "B", D(1), JAN10, "E1"),
        ClubGame("A", "C", D(1), JAN10, "E1"),
        ClubGame("A", "D", D(1), JAN10, "E1"),
        ClubGame("B", "C", D(1), JAN10, "E1"),
    ]
    return Rules(**publish), players, games  # type: ignore[arg-type]


def test_min_games_hides_players_not_yet_settled_and_counts_them() -> None:
    # K 20, all 1000, E = 0.5: A 3 wins -> +30 = 1030; B 1 of 2 -> 1000; C 0 of 2 -> 980;
    # D 0 of 1 -> 990. min_games 2 leaves out D only; ranks follow the players shown.
    rules, players, games = _ladder(min_games=2)
    full = rate_club(players, games, rules)
    shown = published(full)
    assert [(s.name, s.shown) for s in full.standings] == [
        ("A", 1030), ("B", 1000), ("D", 990), ("C", 980),
    ]  # fmt: skip
    assert [s.name for s in shown.standings] == ["A", "B", "C"]
    assert shown.hidden is not None
    assert (shown.hidden.players, shown.hidden.unrated, shown.hidden.min_games) == (1, 0, 2)
    assert [a.name for a in shown.most_games] == ["A", "B", "C"]
    # No [publish] rule: the result is published as it is.
    rules0, _, _ = _ladder()
    assert published(rate_club(players, games, rules0)).hidden is None


def test_hide_provisional_hides_newcomers_in_their_first_games() -> None:
    # Newcomers' K 40 for 2 games: B marked ? has 2 games (settled), D marked ? has 1.
    players = [
        ClubPlayer("A", 1000), ClubPlayer("B", 1000, provisional=True),
        ClubPlayer("C", 1000), ClubPlayer("D", 1000, provisional=True),
    ]  # fmt: skip
    _, _, games = _ladder()
    rules = Rules(provisional_k=40, provisional_games=2, hide_provisional=True)
    shown = published(rate_club(players, games, rules))
    assert [s.name for s in shown.standings] == ["A", "B", "C"]
    assert shown.hidden is not None
    assert (shown.hidden.players, shown.hidden.provisional) == (1, True)


def test_a_time_control_ladder_lists_only_players_of_that_control() -> None:
    # Blitz only: A beats B at 3+2 (blitz), A beats C at 15+10 (rapid, not counted).
    # C played no blitz and is not listed; K 20, E 0.5 -> A 1010, B 990.
    players = [ClubPlayer(n, 1000) for n in "ABC"]
    games = [
        ClubGame("A", "B", D(1), JAN10, "E1", time_control="3+2"),
        ClubGame("A", "C", D(1), JAN10, "E1", time_control="15+10"),
    ]
    blitz = rate_club(players, games, Rules(count_time_controls=("blitz",)))
    assert [(s.name, s.shown) for s in blitz.standings] == [("A", 1010), ("B", 990)]
    assert "1 player not listed (no game of the counted time controls: blitz)" in blitz.notes
    # Without a time-control rule every member is listed, games or not.
    everyone = rate_club(players, games[:1], Rules())
    assert [s.name for s in everyone.standings] == ["A", "C", "B"]


@pytest.mark.parametrize("rule", ["hide_provisional", "min_games"])
def test_publish_rules_leave_unrated_players_unnamed(rule: str) -> None:
    # start "fide": N has 1 game against a rated player, not the 5 a first rating needs.
    players = [ClubPlayer("A", 1000), ClubPlayer("N")]
    games = [ClubGame("A", "N", D(1), JAN10, "E1")]
    value: object = True if rule == "hide_provisional" else 1
    rules = Rules(start="fide", **{rule: value})  # type: ignore[arg-type]
    full = rate_club(players, games, rules)
    assert full.unrated == ("N",)
    shown = published(full)
    assert shown.unrated == ()
    assert shown.hidden is not None and shown.hidden.unrated == 1
