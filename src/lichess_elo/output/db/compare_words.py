"""``db compare`` in plain words: a headline per perf, the note on the players
``--min-games`` left out, and the legend of every column (an edge module: no maths)."""

from __future__ import annotations

from collections.abc import Sequence

from lichess_elo.core.accuracy import Outcome, verdict
from lichess_elo.core.contenders import FIDE, LICHESS
from lichess_elo.core.population.scorecard import MonthScore, tracked
from lichess_elo.core.words import plural

COMPARE_LEGEND = (
    ("band", "players whose Lichess rating on the list is in the band (from its lower bound)"),
    ("month columns of the band table", "the band's mean Elo - Lichess on that month's list, "
     "then its players"),
    ("month", "the month whose games are scored, each side rated from that month's list"),
    ("games (scorecard)", "games scored (* a seeded sample of the month's games)"),
    ("dev. F/L", "binomial deviance of FIDE rules / of Lichess; lower is better"),
    ("F-L [95%]", "FIDE's deviance minus Lichess's and its 95 % bootstrap interval; below "
     "0 FIDE's rules predicted better; an interval that includes 0 names no winner"),
    ("Brier F/L", "mean squared gap between expected and actual score; lower is better"),
    ("right F/L", "share of games whose winner each expected (a draw counts half)"),
    ("player, Elo, Lichess", "the player's FIDE-rules and Lichess ratings on the last list"),
    ("Elo - Lichess", "how far apart the two ratings are"),
    ("games (players)", "the player's rated games before the last list"),
)  # fmt: skip
#: Where the tracked contenders' rows (``track_legend``) go in the legend.
_TRACKS_AT = 8


def headline(perf: str, scores: Sequence[MonthScore]) -> str | None:
    """One sentence per perf: in how many months each system predicted the games better,
    a month counting only when its interval excludes 0; ``None`` with no month scored."""
    if not scores:
        return None
    fide, lichess = FIDE.headline, LICHESS.headline
    wins = {fide: 0, lichess: 0}
    unclear = 0
    for s in scores:
        v = verdict(s.comparison)
        if v.outcome is Outcome.CLEAR:
            wins[fide if v.better == s.comparison.first else lichess] += 1
        else:
            unclear += 1
    lead = f"{perf}, {plural(len(scores), 'month')} of games scored: "
    if unclear == len(scores):
        return f"{lead}too few games to tell whether {fide} or {lichess} predicts them better."
    parts = [f"{name} predicted them better in {n}" for name, n in wins.items() if n]
    if unclear:
        parts.append(f"too few games to tell in {unclear}")
    return lead + ", ".join(parts) + "."


def rivals_headline(perf: str, scores: Sequence[MonthScore]) -> str | None:
    """One sentence per perf on each tracked contender against Lichess's rating:
    the months each predicted better and worse (interval excluding 0), and the rest;
    ``None`` without their scores."""
    scored = [s for s in scores if s.rivals]
    if not scored:
        return None
    lichess = LICHESS.label
    parts = []
    for label in (c.label for c in tracked()):
        better = worse = 0
        for s in scored:
            c = s.versus(label, lichess)
            v = verdict(c) if c is not None else None
            if v is not None and v.outcome is Outcome.CLEAR:
                if v.better == label:
                    better += 1
                else:
                    worse += 1
        unclear = len(scored) - better - worse
        parts.append(
            f"{label} better in {better}, worse in {worse}, too few games to tell in {unclear}"
        )
    return f"{perf}, against {LICHESS.headline} month by month: " + "; ".join(parts) + "."


def few_games_note(perf: str, left_out: int, min_games: int) -> str | None:
    """The players of ``perf``'s last list the differ table left out for too few games."""
    if not left_out:
        return None
    return (
        f"{perf}: {plural(left_out, 'player')} left out with fewer than {min_games} games; "
        "--min-games 0 shows them."
    )


def track_legend() -> tuple[tuple[str, str], ...]:
    """The legend of the tracked contenders' columns (``db_rivals.rivals_table``), each
    contender named by its registry entry (``core.contenders``)."""
    tracks = tracked()
    if not tracks:
        return ()
    lichess = LICHESS.initial
    deviances = " / ".join(f"of {name}" for name in (*(c.subject for c in tracks), LICHESS.short))
    possessive = " or ".join(f"{c.label}'s" for c in tracks)
    return (
        (
            f"dev. {'/'.join(c.initial for c in tracks)}/{lichess}",
            f"binomial deviance {deviances}, each game seen from one of its sides (picked by "
            "a seeded hash), with that player's track",
        ),
        (
            f"{', '.join(f'{c.initial}-{lichess}' for c in tracks)} [95%]",
            f"{possessive} deviance minus {LICHESS.short}'s and its 95% bootstrap interval; "
            "below 0 the contender predicted better",
        ),
    )


def legend() -> list[str]:
    """The legend lines of ``db compare``."""
    rows = (*COMPARE_LEGEND[:_TRACKS_AT], *track_legend(), *COMPARE_LEGEND[_TRACKS_AT:])
    return ["Legend:", *(f"  {name}: {text}" for name, text in rows)]
