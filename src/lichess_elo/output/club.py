"""``lichess-elo club`` output: the standings and one player's history as text, CSV, JSON
and a PNG or SVG chart (an edge module: it writes text and files, no maths)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from lichess_elo.output.charts import figure
from lichess_elo.output.common import dump_json, plural, signed, write_csv

if TYPE_CHECKING:
    from pathlib import Path

    from lichess_elo.core.club.rating import ClubResult, Standing, Target


def _club_mark(s: Standing) -> str:
    return f"{s.shown}?" if s.provisional else str(s.shown)


def club_json(result: ClubResult) -> dict[str, Any]:
    """The ``club`` command's JSON: players (by rating), events and awards; numbers as numbers."""
    return {
        "players": [
            {
                "name": s.name,
                "rating": s.shown,
                "change": s.change,
                "games": s.games,
                "provisional": s.provisional,
            }
            for s in result.standings
        ],
        "events": [
            {"name": e.name, "date": e.day.isoformat(), "games": e.games} for e in result.events
        ],
        "awards": {
            "progress": [
                {"period": a.period, "name": a.name, "change": a.change} for a in result.progress
            ],
            "most_games": [{"name": a.name, "games": a.games} for a in result.most_games],
        },
    }


CLUB_CSV_FIELDS = ("rank", "name", "rating", "change", "games", "provisional")


def club_csv(result: ClubResult) -> str:
    """The standings as CSV (rank, name, rating, change, games, provisional)."""
    rows = [
        {
            "rank": rank,
            "name": s.name,
            "rating": s.shown,
            "change": s.change,
            "games": s.games,
            "provisional": "yes" if s.provisional else "",
        }
        for rank, s in enumerate(result.standings, start=1)
    ]
    return write_csv(rows, CLUB_CSV_FIELDS)


def _club_rules_line(result: ClubResult) -> str:
    r = result.rules
    cap = "400 cap" if r.cap_used else "no cap"
    rounding = "rounded each update" if r.rounding == "update" else "full precision"
    return f"update by {r.update}, {r.method}, {cap}, K {r.k}, {rounding}"


def club_text(result: ClubResult) -> str:
    """Standings, awards and unrated players as a plain-text table."""
    last = f"last update: {result.last_period}" if result.last_period else "no games"
    lines = [
        f"Club ladder: {plural(len(result.standings), 'player')}, "
        f"{plural(len(result.events), 'event')} "
        f"({_club_rules_line(result)}; {last})",
        "",
    ]
    width = max([4, *(len(s.name) for s in result.standings)])
    lines.append(f"{'#':>3}  {'Name':<{width}}  {'Rating':>7}  {'Change':>6}  {'Games':>5}")
    for rank, s in enumerate(result.standings, start=1):
        lines.append(
            f"{rank:>3}  {s.name:<{width}}  {_club_mark(s):>7}  {signed(s.change):>6}  {s.games:>5}"
        )
    if any(s.provisional for s in result.standings):
        lines.append("  ? provisional (fewer games than the provisional K period)")
    if result.unrated:
        lines.append(f"Not rated yet (fewer than 5 rated games): {', '.join(result.unrated)}")
    lines.append("")
    lines.append("Awards")
    progress = "; ".join(f"{a.period} {a.name} {a.change:+d}" for a in result.progress)
    lines.append(f"  Biggest progress (by month): {progress or '-'}")
    most = ", ".join(f"{a.name} {a.games}" for a in result.most_games)
    lines.append(f"  Most games: {most or '-'}")
    return "\n".join(lines)


def club_player_json(s: Standing, recent: int, months: int, target: Target) -> dict[str, Any]:
    """One player's numbers only (for ``--player``): rating, history, recent change, target."""
    return {
        "name": s.name,
        "rating": s.shown,
        "change": s.change,
        "games": s.games,
        "provisional": s.provisional,
        "history": [
            {
                "period": e.period,
                "date": e.day.isoformat(),
                "games": e.games,
                "points": e.points,
                "expected": round(float(e.expected), 2),
                "k": e.k,
                "rating": round(float(e.rating_after), 1),
            }
            for e in s.history
        ],
        "recent": {"months": months, "change": recent},
        "target": {
            "rating": target.rating,
            "step": target.step,
            "by": target.by.isoformat() if target.by else None,
            "k": target.k,
            "wins_needed": target.wins_needed,
        },
    }


def club_player_csv(s: Standing) -> str:
    """One player's history as CSV."""
    rows = [
        {
            "period": e.period,
            "date": e.day.isoformat(),
            "games": e.games,
            "points": e.points,
            "expected": f"{e.expected:.2f}",
            "k": e.k,
            "rating": round(float(e.rating_after)),
        }
        for e in s.history
    ]
    return write_csv(rows, ("period", "date", "games", "points", "expected", "k", "rating"))


def club_player_text(s: Standing, recent: int, months: int, target: Target) -> str:
    """One player's page: rating, history, change over the last months and the next target."""
    mark = " (provisional)" if s.provisional else ""
    lines = [f"{s.name}: {s.shown}{mark}, {s.games} games", ""]
    width = max([6, *(len(e.period) for e in s.history)])
    lines.append(
        f"{'Date':<10}  {'Period':<{width}}  {'Games':>5}  {'Points':>6}  {'Expected':>8}"
        f"  {'K':>3}  {'Rating':>6}"
    )
    if not s.history:
        lines.append("(no rated games yet)")
    for e in s.history:
        lines.append(
            f"{e.day.isoformat():<10}  {e.period:<{width}}  {e.games:>5}  {e.points:>6}"
            f"  {e.expected:>8.2f}  {e.k:>3}  {round(float(e.rating_after)):>6}"
        )
    lines.append("")
    lines.append(f"Change over the last {months} months: {signed(recent)}")
    by = f" by the end of term ({target.by.isoformat()})" if target.by else ""
    lines.append(
        f"Next target: {target.rating} (+{target.step}){by}: about {target.wins_needed} wins "
        f"against players of your rating (K {target.k}: {float(target.gain_per_win):+.1f} a win)"
    )
    return "\n".join(lines)


def club_output(result: ClubResult, fmt: str) -> str:
    """The standings in ``fmt``: ``json``, ``csv`` or (anything else) the text table."""
    if fmt == "json":
        return dump_json(club_json(result))
    if fmt == "csv":
        return club_csv(result)
    return club_text(result)


def club_player_output(s: Standing, recent: int, months: int, target: Target, fmt: str) -> str:
    """One player's history and progress in ``fmt``: ``json``, ``csv`` or the text."""
    if fmt == "json":
        return dump_json(club_player_json(s, recent, months, target))
    if fmt == "csv":
        return club_player_csv(s)
    return club_player_text(s, recent, months, target)


def _club_round(value: Decimal) -> int:
    """A rating as shown: rounded half away from zero (as ``fide.round_half_away``)."""
    from lichess_elo.core.fide import round_half_away

    return round_half_away(value)


class ChartSeries(NamedTuple):
    """One player's line in the club chart: parallel dates and ratings.

    Attributes:
        days: The date of each point.
        ratings: The (unrounded) rating at each point.
        dots: Indices of the points drawn with a dot (all but a carried last point).
    """

    days: tuple[date, ...]
    ratings: tuple[float, ...]
    dots: tuple[int, ...]


def club_chart_series(s: Standing, last_day: date | None) -> ChartSeries:
    """The points of ``s``'s line in the club chart (pure).

    The line starts at the rating before the first counted game (the first update's
    ``rating_before``), dated like that update, so the first step is drawn like every
    other. A player first rated by the FIDE initial-rating rule had no rating before,
    so the line starts at the first rating. Then one point per update (its
    ``rating_after``), and the last rating carried, without a dot, to ``last_day`` (the
    club's latest update) when that is later. No history: no points.
    """
    days: list[date] = []
    ratings: list[float] = []
    if s.history and s.history[0].rating_before is not None:
        days.append(s.history[0].day)
        ratings.append(float(s.history[0].rating_before))
    for e in s.history:
        days.append(e.day)
        ratings.append(float(e.rating_after))
    dots = tuple(range(len(days)))
    if days and last_day is not None and last_day > days[-1]:
        days.append(last_day)  # carried to the club's latest update
        ratings.append(ratings[-1])
    return ChartSeries(tuple(days), tuple(ratings), dots)


def write_club_chart(result: ClubResult, names: Sequence[str], path: Path) -> None:
    """Chart the players' ratings after each update (matplotlib, Agg, written atomically).

    Each line starts at the player's start rating (see ``club_chart_series``). The path's
    suffix picks the format, ``.png`` or ``.svg``, as for ``chart.write_chart``.

    Raises:
        BadInput: the path cannot take a chart (``chart.check_chart_path``).
        WriteFailed: the file could not be written (disk full...); the message names
            ``path``, never a temporary file, and nothing half-written is left behind.
    """
    wanted = {n.casefold() for n in names}
    with figure(path, figsize=(9, 5), dpi=100) as (fig, ax):
        for s in result.standings:
            if s.name.casefold() not in wanted:
                continue
            series = club_chart_series(s, result.last_day)
            first = s.history[0].rating_before if s.history else None
            start = f" (from {_club_round(first)})" if first is not None else ""
            # matplotlib's date numbers: days since 1970-01-01 (its default epoch)
            xs = [float((d - date(1970, 1, 1)).days) for d in series.days]
            ax.plot(
                xs,
                list(series.ratings),
                marker="o",
                markevery=list(series.dots),  # no dot on the carried point
                drawstyle="steps-post",
                label=f"{s.name}{start}",
            )
        ax.xaxis_date()
        shown = [s.name for s in result.standings if s.name.casefold() in wanted]
        title = f"{shown[0]}'s" if len(shown) == 1 else f"Top {len(shown)} players'"
        ax.set_title(f"{title} club rating after each update")
        ax.set_xlabel("date")
        ax.set_ylabel("rating")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
        fig.autofmt_xdate()
