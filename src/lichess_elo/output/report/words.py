"""The report's plain words: the headline per perf, the legend, the other perfs (edge module).

The headline says in one sentence what the report found; the legend says in plain words
what each column means, including that the FIDE-rules track is on the Lichess scale and is
not a prediction of a FIDE rating.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from lichess_elo.core.fide.kinds import SPEED_CHAPTERS
from lichess_elo.core.fide.wording import day_text
from lichess_elo.core.games import CHESSCOM, LICHESS, SITE_NAMES
from lichess_elo.core.words import plural

if TYPE_CHECKING:
    from lichess_elo.core.report.model import PerfReport

#: The mark of an estimated rating (a Chess.com opponent's before the game), in every table.
ESTIMATE_MARK = "~"
#: A disagreement this small (points, or share of the larger move) is called agreement.
_AGREE_POINTS = 5
#: The period holding at least this share of the difference is named as its main source.
_MOSTLY = 0.5


def _moved(points: int, unit: bool = True) -> str:
    """``cost 50 points`` / ``gained 1 point`` (``cost 50`` without ``unit``)."""
    if points == 0:
        return "left the rating unchanged" if unit else "left it unchanged"
    verb = "cost" if points < 0 else "gained"
    word = (" point" if abs(points) == 1 else " points") if unit else ""
    return f"{verb} {abs(points)}{word}"


def _where_from(report: PerfReport, difference: int) -> str:
    """Which period the FIDE − Lichess difference mostly comes from, in words."""
    unit = report.settings.period
    if not report.periods:
        return ""
    same_sign = [p for p in report.periods if p.change_difference * difference > 0]
    if same_sign:
        top = max(same_sign, key=lambda p: abs(p.change_difference))
        if abs(top.change_difference) >= _MOSTLY * abs(difference) and len(report.periods) > 1:
            where = f"game {top.label}" if unit == "game" else top.label
            return (
                f"; the difference is mostly in {where} ({abs(top.change_difference)} points there)"
            )
    if len(report.periods) == 1:
        return ""
    return f"; the difference builds up over {plural(len(report.periods), unit)}"


def headline(report: PerfReport) -> str:
    """One sentence: what FIDE rules would have done with the games, next to Lichess.

    E.g. "Under FIDE rules your 130 blitz games would have cost 50 points where Lichess
    cost 85; the difference is mostly in 2023-02 (23 of the 35 points)."
    """
    s = report.summary
    site = site_name(report)
    games = plural(s.games, f"{report.perf} game")
    elo, lichess = s.elo_change, s.lichess_change
    restart = report.settings.track == "lichess"
    adjusted = adjustment_sentence(report)
    opening = (
        f"Under FIDE rules, restarting each {report.settings.period} from the {site} rating, "
        f"your {games} would have {_moved(elo)} in total"
        if restart
        else f"Under FIDE rules your {games} would have {_moved(elo)}"
    )
    text = f"{opening} where {site} {_moved(lichess, unit=False)}"
    if s.gap_count and s.lichess_gaps:
        text += f" (and moved {s.lichess_gaps:+d} between games)"
    difference = elo - lichess
    if abs(difference) <= max(_AGREE_POINTS, round(0.1 * max(abs(elo), abs(lichess)))):
        text += "; the two agree" + (
            f" to within {plural(abs(difference), 'point')}" if difference else ""
        )
    else:
        text += _where_from(report, difference)
    return f"{text}.{' ' + adjusted if adjusted else ''}"


def adjustment_sentence(report: PerfReport) -> str:
    """The sentence that adds FIDE's one-time adjustments to the games' change, so that the
    headline's numbers add up: ``Adding FIDE's compression of 1 Mar 2024 (+287) to the
    games' -525, the FIDE-rules track ended 238 points lower: 1712 → 1474.``; empty when
    the track crossed none."""
    steps = [
        (p.adjustment, p.elo_start - p.adjusted_from)
        for p in report.periods
        if p.adjustment is not None and p.adjusted_from is not None
    ]
    s = report.summary
    if not steps or s.elo_start is None or s.elo_final is None:
        return ""
    named = " and ".join(f"{a.kind} of {day_text(a.day)} ({raised:+d})" for a, raised in steps)
    total = s.elo_final - s.elo_start
    moved = (
        "where it started"
        if total == 0
        else f"{plural(abs(total), 'point')} {'higher' if total > 0 else 'lower'}"
    )
    return (
        f"Adding FIDE's {named} to the games' {s.elo_change:+d}, the FIDE-rules track "
        f"ended {moved}: {s.elo_start} → {s.elo_final}."
    )


#: Column legends, in the order of the periods table.
PERIOD_LEGEND = (
    ("Games", "rated games in the period"),
    ("Score", "points scored (win 1, draw ½)"),
    ("Expected", "points FIDE's table expects against those opponents"),
    ("Performance", "the rating those results were worth (shown from {min} games)"),
    ("K", "FIDE's development coefficient used, and why"),
    ("FIDE rules", "the rating moved only by FIDE rules: start→end (change)"),
    ("Lichess", "the Lichess rating: start→end (change in these games)"),
    ("FIDE − Lichess (Diff)", "how far apart the two ratings ended the period"),
    ("Gaps", "Lichess rating moves between games"),
)
GAME_LEGEND = (
    ("Opp rating", "the opponent's Lichess rating (? = provisional)"),
    ("Result", "1 win, ½ draw, 0 loss"),
    ("Status", "how Lichess says the game ended"),
    ("Replay found", "what replaying the moves found (e.g. lost on time while ahead)"),
    ("Lichess, Lichess ± (±)", "the Lichess rating before the game and its change"),
    ("FIDE", "the FIDE-rules rating before the game"),
    ("E", "FIDE's expected score"),
    ("K", "FIDE's development coefficient"),
    ("FIDE ±", "the FIDE-rules change: K × (score − E)"),
)
SCALE_NOTE = (
    "FIDE rules here run on Lichess ratings and Lichess opponents: the track shows what "
    "FIDE's formula makes of these games, not a FIDE rating you would get."
)


#: A chapter in the summary's words.
CHAPTER_WORDS = {"standard": "standard", "rapid-blitz": "Rapid & Blitz"}


def chapter_split(report: PerfReport) -> str | None:
    """How many games each FIDE chapter's rules rated (``7 games under Rapid & Blitz
    rules, 1 under standard, by each game's clock``), most first, when the perf's games
    span chapters or a speed perf's games all take another chapter than its name suggests
    (a Lichess classical perf of 30+0 games: FIDE rapid); ``None`` otherwise."""
    counts = Counter(g.chapter for g in report.games)
    if not counts:
        return None
    named = SPEED_CHAPTERS.get(report.perf)
    if len(counts) == 1 and (named is None or named in counts):
        return None
    (first, many), *rest = counts.most_common()
    words = [f"{plural(many, 'game')} under {CHAPTER_WORDS[first]} rules"]
    words += [f"{n} under {CHAPTER_WORDS[c]}" for c, n in rest]
    if not rest:
        words[0] = f"all {words[0]}"
    return f"{', '.join(words)}, by each game's clock (FIDE's Laws, Appendix A)"


#: Chess.com's words for the columns that differ (``legend``).
CHESSCOM_PERIOD_LEGEND = {
    "Lichess": (
        "Chess.com",
        "Chess.com's published rating after the games: start→end (the observed change in "
        "these games)",
    ),
    "FIDE − Lichess (Diff)": (
        "FIDE − Chess.com (Diff)",
        "how far apart the two ratings ended the period",
    ),
    "Gaps": ("Gaps", "Chess.com rating moves between games"),
}
CHESSCOM_GAME_LEGEND = {
    "Opp rating": (
        "Opp rating",
        f"the opponent's Chess.com rating before the game; {ESTIMATE_MARK} = estimated (their "
        "published rating after it plus the player's observed change), else their rating "
        "after it (Chess.com publishes no other)",
    ),
    "Status": ("Status", "how Chess.com's result codes say the game ended"),
    "Lichess, Lichess ± (±)": (
        "Chess.com, Chess.com ± (observed) (±)",
        "the rating before the game (the player's previous rated rating after a game in the "
        "same Chess.com pool) and the observed change (the published rating after this game "
        "minus it); blank where the import does not show it (the first game of a pool)",
    ),
}
CHESSCOM_SCALE_NOTE = (
    "FIDE rules here run on Chess.com ratings and Chess.com opponents: the track shows what "
    "FIDE's formula makes of these games, not a FIDE rating you would get. Chess.com "
    "publishes each rating after the game and not its Glicko constants: its change here is "
    "observed, never a replay of its rating."
)


def site_name(report: PerfReport) -> str:
    """The report's site in words: ``Lichess`` or ``Chess.com``."""
    return SITE_NAMES.get(report.site, report.site)


def site_rules_note(site: str) -> str:
    """The summary's note on the site's own rating (none for Lichess, whose numbers are
    published)."""
    if site == CHESSCOM:
        return (
            "Chess.com: ratings after each game as published; the change is observed (after "
            "minus the previous rated game's after in the pool), and Chess.com's Glicko "
            "constants are not published"
        )
    return f"{SITE_NAMES.get(site, site)}: ratings as published"


def legend_items(view: str, site: str = LICHESS) -> tuple[tuple[str, str], ...]:
    """The column legends of ``view`` (``periods`` or ``games``) in the site's words."""
    items: tuple[tuple[str, str], ...] = PERIOD_LEGEND if view == "periods" else GAME_LEGEND
    if site == CHESSCOM:
        words = CHESSCOM_PERIOD_LEGEND if view == "periods" else CHESSCOM_GAME_LEGEND
        items = tuple(words.get(name, (name, text)) for name, text in items)
    return items


def scale_note(site: str = LICHESS) -> str:
    """The note that the FIDE-rules track runs on the site's ratings."""
    return CHESSCOM_SCALE_NOTE if site == CHESSCOM else SCALE_NOTE


def legend(view: str, min_games: int, site: str = LICHESS) -> list[str]:
    """The legend lines for ``view`` (``periods`` or ``games``), then the scale note; the
    site's own words for a site other than Lichess."""
    items = legend_items(view, site)
    note = scale_note(site)
    lines = ["Legend:"]
    lines.extend(f"  {name}: {text.format(min=min_games)}" for name, text in items)
    lines.append(note)
    return lines


def other_perfs(shown: Sequence[str], counts: Mapping[str, int]) -> str | None:
    """ "Not shown: bullet (412 games), rapid (37 games)." for the perfs with games that the
    report left out, largest first; ``None`` when there are none."""
    rest = sorted(
        ((n, perf) for perf, n in counts.items() if perf not in shown and n > 0),
        key=lambda item: (-item[0], item[1]),
    )
    if not rest:
        return None
    return "Not shown: " + ", ".join(f"{perf} ({plural(n, 'game')})" for n, perf in rest) + "."
