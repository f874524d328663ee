"""``db compare``'s columns of the contenders with a monthly track (Glicko-1, Stephenson's
rating: ``core.contenders``): their table beside the FIDE/Lichess scorecard of a perf, and
the JSON's ``assumptions`` (an edge module: no maths)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from lichess_elo.core.contenders import LICHESS
from lichess_elo.core.population import rivals_sql
from lichess_elo.core.population.schema import month_label
from lichess_elo.core.population.scorecard import MonthScore, tracked
from lichess_elo.output.tables import Column, Table

#: How ``db compare`` runs the contenders on a database (``core/population/rivals_sql.py``).
_DB_RIVALS = {
    "start": (
        "the player's Lichess rating in their first game of the perf, with RD "
        f"{rivals_sql.LICHESS_RD:g} (the dumps carry no RD or provisional flag)"
    ),
    "opponents": (
        "the opponent's Lichess rating before the game, with RD "
        f"{rivals_sql.LICHESS_RD:g}, the established RD of the scorecard"
    ),
    "side": (
        "each game is scored from one side, White or Black, picked by the seed; the side's "
        "prediction is turned into White's expected score"
    ),
    "left_out": (
        "a game some system cannot predict (no list row or no track row for a side that "
        "month) is left out of every system alike"
    ),
}


def compare_assumptions() -> dict[str, Any]:
    """The contenders' constants and their sources, and how a database runs them (JSON)."""
    from lichess_elo.output.scorecard.records import rivals_json

    out: dict[str, Any] = rivals_json()
    for key in out:
        out[key] = {**out[key], "start": _DB_RIVALS["start"]}
    return {**out, **{k: v for k, v in _DB_RIVALS.items() if k != "start"}}


def rivals_json(score: MonthScore) -> dict[str, Any]:
    """A scored month's JSON beyond FIDE and Lichess: the contenders' scores by key, the
    games left out of every system and every pair of systems."""
    return {
        **{key: asdict(scores) for key, scores in score.rivals.items()},
        "left_out": score.left_out,
        "comparisons": [
            {
                "first": c.first,
                "second": c.second,
                "deviance_difference": c.difference,
                "interval": asdict(c.interval) if c.interval else None,
            }
            for c in score.comparisons
        ],
    }


def _short(value: float | None, signed: bool = False) -> str:
    """0.304 as ``.304`` (and -0.135 as ``-.135``): three decimals, no leading zero."""
    if value is None:
        return "-"
    text = f"{value:+.3f}" if signed else f"{value:.3f}"
    return text.replace("0.", ".", 1)


def _versus(score: MonthScore, label: str) -> str:
    """The contender's deviance minus Lichess's, with its interval."""
    c = score.versus(label, LICHESS.label)
    if c is None or c.difference is None:
        return "-"
    text = _short(c.difference, signed=True)
    if c.interval:
        text += f" [{_short(c.interval.low, True)},{_short(c.interval.high, True)}]"
    return text


def rivals_table(perf: str, scores: Sequence[MonthScore]) -> Table | None:
    """Each tracked contender (Glicko-1 (G) and Stephenson (S)) on each month's games of
    ``perf``, against Lichess (L): deviances, the paired differences and their 95 %
    intervals; ``None`` without contenders' scores."""
    rows = [s for s in scores if s.rivals]
    tracks = tracked()
    if not rows or not tracks:
        return None
    lichess = LICHESS.initial
    heads = (
        "month",
        "games",
        f"dev. {'/'.join(c.initial for c in tracks)}/{lichess}",
        *(f"{c.initial}-{lichess} [95%]" for c in tracks),
    )
    body = [
        (
            month_label(s.month),
            f"{s.sampled:,}" + ("" if s.sampled == s.games else "*"),
            "/".join(_short(s.rivals[c.key].deviance) for c in tracks)
            + f"/{_short(s.lichess.deviance)}",
            *(_versus(s, c.label) for c in tracks),
        )
        for s in rows
    ]
    notes = ["each game seen from one side, picked by a seeded hash; lower deviance is better"]
    left = sum(s.left_out for s in rows)
    if left:
        notes.append(f"{left:,} games no system could predict are left out of all")
    named = " and ".join(f"{c.label} ({c.initial})" for c in tracks)
    title = f"{perf}: {named} against {LICHESS.short} ({lichess})"
    columns = [Column(h, "left" if h == "month" else "right") for h in heads]
    return Table(columns, body, title=title, notes=notes)
