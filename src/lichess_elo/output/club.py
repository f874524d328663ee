"""``lichess-elo club`` output: the standings and one player's history as text, CSV, JSON
and a PNG or SVG chart (an edge module: it writes text and files, no maths)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from lichess_elo.output.charts import figure
from lichess_elo.output.common import dump_json, plural, signed, write_csv
from lichess_elo.output.tables import Column, Table, render_table, wrap_words

if TYPE_CHECKING:
    from pathlib import Path

    from lichess_elo.core.club.rating import ClubGame, ClubResult, Standing, Target


def _club_mark(s: Standing) -> str:
    return f"{s.shown}?" if s.provisional else str(s.shown)


def _result_text(g: ClubGame) -> str:
    """A game's result from White's side: ``1-0``, ``½-½``, ``0-1``, forfeits ``+:-``/``-:+``."""
    if g.forfeit:
        return "+:-" if g.score == 1 else "-:+"
    return {Decimal(1): "1-0", Decimal(0): "0-1"}.get(g.score, "½-½")


def _excluded_json(result: ClubResult) -> list[dict[str, Any]]:
    return [
        {
            "date": x.game.day.isoformat(),
            "event": x.game.event_name,
            "white": x.game.white,
            "black": x.game.black,
            "result": _result_text(x.game),
            "rule": x.rule,
            "where": x.game.where,
        }
        for x in result.excluded
    ]


def club_json(result: ClubResult, rules_file: str | None = None) -> dict[str, Any]:
    """The ``club`` command's JSON: players (by rating), events, awards, the K values used,
    every excluded game with its rule and the rules file; numbers as numbers."""
    return {
        "rules_file": rules_file,
        "k_used": {label: list(ks) for label, ks in result.k_used},
        "excluded": _excluded_json(result),
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
            "provisional": s.provisional,
        }
        for rank, s in enumerate(result.standings, start=1)
    ]
    return write_csv(rows, CLUB_CSV_FIELDS)


def _club_rules_line(result: ClubResult) -> str:
    r = result.rules
    cap = "400 cap" if r.cap_used else "no cap"
    rounding = "rounded each update" if r.rounding == "update" else "full precision"
    return f"update by {r.update}, {r.method}, {cap}, {rounding}"


def k_used_text(result: ClubResult) -> str:
    """``K used: children 40; others 20, 40`` (the K the rated periods really used)."""
    if not result.k_used:
        return f"K {result.rules.k} (no game rated yet)"
    return "K used: " + "; ".join(
        f"{label} {', '.join(str(k) for k in ks)}" for label, ks in result.k_used
    )


def _header(result: ClubResult, rules_file: str | None, width: int | None) -> list[str]:
    last = f"last update: {result.last_period}" if result.last_period else "no games"
    rules = f"rules: {rules_file}" if rules_file else "rules: the defaults (no club.toml)"
    lines = wrap_words(
        f"Club ladder: {plural(len(result.standings), 'player')}, "
        f"{plural(len(result.events), 'event')} ({_club_rules_line(result)}; {last})",
        width,
        "  ",
    )
    return lines + wrap_words(f"{k_used_text(result)} · {rules}", width, "  ")


def standings_table(result: ClubResult) -> Table:
    """The ladder's standings: rank, name, rating (? provisional), change, games."""
    columns = [Column("#"), Column("Name", "left"), Column("Rating"), Column("Change"),
               Column("Games")]  # fmt: skip
    rows = [
        [str(rank), s.name, _club_mark(s), signed(s.change), str(s.games)]
        for rank, s in enumerate(result.standings, start=1)
    ]
    return Table(columns, rows)


def club_header(result: ClubResult, rules_file: str | None) -> list[str]:
    """The ladder's first lines (players, events, rules, K used), unwrapped."""
    return _header(result, rules_file, None)


def club_text(result: ClubResult, rules_file: str | None = None, width: int | None = None) -> str:
    """Standings, awards and unrated players, fitted to ``width`` (``None``: no limit)."""
    lines = [*_header(result, rules_file, width), ""]
    lines += render_table(standings_table(result), width)
    if any(s.provisional for s in result.standings):
        lines.append("? provisional: fewer games than the club's provisional rule asks")
    if result.unrated:
        lines += wrap_words(
            f"Not rated yet (fewer than 5 rated games): {', '.join(result.unrated)}", width, "  "
        )
    if result.excluded:
        lines += wrap_words(
            f"{plural(len(result.excluded), 'game')} not rated: see --view excluded", width
        )
    lines.append("")
    lines.append("Awards")
    progress = "; ".join(f"{a.period} {a.name} {a.change:+d}" for a in result.progress)
    lines += wrap_words(f"  Biggest progress (by month): {progress or '-'}", width, "  ")
    most = ", ".join(f"{a.name} {a.games}" for a in result.most_games)
    lines += wrap_words(f"  Most games: {most or '-'}", width, "  ")
    return "\n".join(lines)


def club_excluded_text(
    result: ClubResult, rules_file: str | None = None, width: int | None = None
) -> str:
    """Every game read but not rated, with the rule that left it out."""
    lines = [*_header(result, rules_file, width), ""]
    if not result.excluded:
        return "\n".join([*lines, "Every game read was rated."])
    columns = [
        Column("Date", "left"),
        Column("Event", "left", fold=1),
        Column("White", "left"),
        Column("Black", "left"),
        Column("Result", "left"),
        Column("Rule", "left", fold=2),
    ]
    rows = [
        [x.game.day.isoformat(), x.game.event_name, x.game.white, x.game.black,
         _result_text(x.game), x.rule]
        for x in result.excluded
    ]  # fmt: skip
    title = f"{plural(len(result.excluded), 'game')} not rated"
    return "\n".join(lines + render_table(Table(columns, rows, title=title), width))


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


def history_table(s: Standing) -> Table:
    """One player's rated periods: date, period, games, points, expected, K, rating."""
    columns = [Column("Date", "left"), Column("Period", "left", fold=1), Column("Games"),
               Column("Points", short="Pts"), Column("Expected", short="Exp."), Column("K"),
               Column("Rating")]  # fmt: skip
    rows = [
        [e.day.isoformat(), e.period, str(e.games), str(e.points), f"{e.expected:.2f}",
         str(e.k), str(round(float(e.rating_after)))]
        for e in s.history
    ]  # fmt: skip
    return Table(columns, rows)


def club_player_text(
    s: Standing, recent: int, months: int, target: Target, width: int | None = None
) -> str:
    """One player's page: rating, history, change over the last months and the next target,
    fitted to ``width`` (``None``: no limit)."""
    mark = " (provisional)" if s.provisional else ""
    lines = [*wrap_words(f"{s.name}: {s.shown}{mark}, {s.games} games", width, "  "), ""]
    lines += render_table(history_table(s), width)
    if not s.history:
        lines.append("(no rated games yet)")
    lines.append("")
    lines += wrap_words(f"Change over the last {months} months: {signed(recent)}", width, "  ")
    by = f" by the end of term ({target.by.isoformat()})" if target.by else ""
    lines += wrap_words(
        f"Next target: {target.rating} (+{target.step}){by}: about {target.wins_needed} wins "
        f"against players of your rating (K {target.k}: {float(target.gain_per_win):+.1f} a win)",
        width,
        "  ",
    )
    return "\n".join(lines)


def club_output(
    result: ClubResult,
    fmt: str,
    *,
    view: str = "standings",
    rules_file: str | None = None,
    width: int | None = None,
) -> str:
    """The ladder in ``fmt`` (``json``, ``csv`` or the text table): the standings, or with
    ``view == "excluded"`` the games not rated (JSON always has both)."""
    if fmt == "json":
        return dump_json(club_json(result, rules_file))
    if view == "excluded":
        if fmt == "csv":
            fields = ("date", "event", "white", "black", "result", "rule", "where")
            return write_csv(_excluded_json(result), fields)
        return club_excluded_text(result, rules_file, width)
    if fmt == "csv":
        return club_csv(result)
    return club_text(result, rules_file, width)


def club_player_output(
    s: Standing, recent: int, months: int, target: Target, fmt: str, width: int | None = None
) -> str:
    """One player's history and progress in ``fmt``: ``json``, ``csv`` or the text (fitted
    to ``width``; ``None``: no limit)."""
    if fmt == "json":
        return dump_json(club_player_json(s, recent, months, target))
    if fmt == "csv":
        return club_player_csv(s)
    return club_player_text(s, recent, months, target, width)


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


#: The report chart's palette and text colour, so both charts read alike on a noticeboard.
_LINE_COLOURS = ("#1f6fb4", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0b7285", "#c2255c")
_TEXT = "#495057"


def _spread(values: Sequence[float], gap: float) -> list[float]:
    """``values`` moved apart (as little as possible) so that neighbours are ``gap`` apart:
    where the end labels go, so that no two overprint."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    placed = [0.0] * len(values)
    last = float("-inf")
    for i in order:
        placed[i] = max(values[i], last + gap)
        last = placed[i]
    return placed


def write_club_chart(result: ClubResult, names: Sequence[str], path: Path) -> None:
    """Chart the players' ratings after each update (matplotlib, Agg, written atomically).

    Each line starts at the player's start rating (see ``club_chart_series``) and ends with
    the name and rating; every event is a faint line with its name, as the report chart
    labels its periods. The path's suffix picks the format, ``.png`` or ``.svg``.

    Raises:
        BadInput: the path cannot take a chart (``chart.check_chart_path``).
        WriteFailed: the file could not be written (disk full...); the message names
            ``path``, never a temporary file, and nothing half-written is left behind.
    """
    import importlib

    mdates: Any = importlib.import_module("matplotlib.dates")
    wanted = {n.casefold() for n in names}
    shown = [s for s in result.standings if s.name.casefold() in wanted]
    with figure(path, figsize=(11, 5.6), dpi=110) as (_fig, ax):
        ends: list[tuple[float, str, str]] = []
        last_x = 0.0
        for n, s in enumerate(shown):
            series = club_chart_series(s, result.last_day)
            if not series.days:
                continue
            colour = _LINE_COLOURS[n % len(_LINE_COLOURS)]
            # matplotlib's date numbers: days since 1970-01-01 (its default epoch)
            xs = [float((d - date(1970, 1, 1)).days) for d in series.days]
            ax.plot(xs, list(series.ratings), marker="o", markevery=list(series.dots),
                    drawstyle="steps-post", color=colour, lw=2.0, ms=5)  # fmt: skip
            ends.append(
                (
                    series.ratings[-1],
                    f"{s.name} {_club_round(Decimal(str(series.ratings[-1])))}",
                    colour,
                )
            )
            last_x = max(last_x, xs[-1])
        low, high = ax.get_ylim()
        ax.set_ylim(low, high + 0.22 * (high - low))  # headroom: the event names sit above
        for event in result.events:
            x = float((event.day - date(1970, 1, 1)).days)
            ax.axvline(x, color="#adb5bd", lw=0.8, ls=":", zorder=0)
            ax.text(x, 1.0, f" {event.name}", transform=ax.get_xaxis_transform(), rotation=90,
                    ha="right", va="top", fontsize=8, color=_TEXT)  # fmt: skip
        low, high = ax.get_ylim()
        placed = _spread([e[0] for e in ends], 0.045 * (high - low))
        first_x = min((float((e.day - date(1970, 1, 1)).days) for e in result.events), default=0)
        pad = max(1.0, (last_x - first_x) * 0.02)
        for (_, label, colour), y in zip(ends, placed, strict=True):
            ax.text(last_x + pad, y, label, va="center", fontsize=9, color=colour,
                    fontweight="bold")  # fmt: skip
        ax.xaxis_date()
        locator = mdates.AutoDateLocator()
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, show_offset=False))
        left, right = ax.get_xlim()
        ax.set_xlim(left, right + (right - left) * 0.25)  # room for the names at the ends
        who = f"{shown[0].name}'s" if len(shown) == 1 else f"Top {len(shown)} players'"
        after = f" after {result.last_period}" if result.last_period else ""
        ax.set_title(f"{who} club rating{after}", loc="left", fontsize=12)
        ax.set_ylabel("club rating")
        if result.events:
            span = f"{result.events[0].day.isoformat()} to {result.events[-1].day.isoformat()}"
            ax.set_xlabel(f"{plural(len(result.events), 'event')}, {span}", fontsize=8)
        ax.grid(True, axis="y", alpha=0.3)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
