"""``lichess-elo club`` output: the standings and one player's history as text, CSV, JSON
and a PNG or SVG chart (an edge module: it writes text and files, no maths)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from lichess_elo.core.club.kfactor import k_legend
from lichess_elo.output.common import plural, signed, write_csv
from lichess_elo.output.tables import Column, Table, render_table, wrap_words

if TYPE_CHECKING:
    from lichess_elo.core.club.rating import ClubGame, ClubResult, Standing, Target


def points_text(points: Decimal) -> str:
    """Points as a chess crosstable writes them: ``3``, ``2½``, ``½`` (never ``3.0`` or
    ``2.5``; CSV and JSON keep numbers: ``3``, ``2.5``)."""
    whole = int(points)
    half = points - whole == Decimal("0.5")
    if not half:
        return str(whole) if points == whole else str(points.normalize())
    return f"{whole}½" if whole else "½"


#: A tie of more players than this is counted in words ("12 players with 15 games").
NAMED_TIE = 3


def tie_groups(items: list[tuple[str, int]]) -> list[tuple[list[str], int]]:
    """Consecutive ``(name, value)`` pairs of equal value grouped: ``(names, value)``."""
    groups: list[tuple[list[str], int]] = []
    for name, value in items:
        if groups and groups[-1][1] == value:
            groups[-1][0].append(name)
        else:
            groups.append(([name], value))
    return groups


def _most_games_text(result: ClubResult) -> str:
    """``Ania Nowak 4, Dawid Sowa 3, 12 players with 2 games``: a tie of more than
    ``NAMED_TIE`` players is counted, not named."""
    parts = []
    for names, games in tie_groups([(a.name, a.games) for a in result.most_games]):
        if len(names) > NAMED_TIE:
            parts.append(f"{plural(len(names), 'player')} with {plural(games, 'game')}")
        else:
            parts.extend(f"{name} {games:,}" for name in names)
    return ", ".join(parts)


def _progress_text(result: ClubResult) -> str:
    """``2026-03 Ania Nowak +40; 2026-04 4 players +20``: per month, a tie of more than
    ``NAMED_TIE`` players is counted."""
    parts = []
    months: dict[str, list[tuple[str, int]]] = {}
    for a in result.progress:
        months.setdefault(a.period, []).append((a.name, a.change))
    for month, awards in months.items():
        if len(awards) > NAMED_TIE:
            parts.append(f"{month} {plural(len(awards), 'player')} {awards[0][1]:+d}")
        else:
            parts.extend(f"{month} {name} {change:+d}" for name, change in awards)
    return "; ".join(parts)


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
                "k": s.k_next,
                "k_rule": s.k_rule or None,
            }
            for s in result.standings
        ],
        "hidden": _hidden_json(result),
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


def _hidden_json(result: ClubResult) -> dict[str, Any] | None:
    h = result.hidden
    if h is None:
        return None
    return {
        "players": h.players,
        "unrated": h.unrated,
        "min_games": h.min_games,
        "provisional": h.provisional,
    }


CLUB_CSV_FIELDS = ("rank", "name", "rating", "change", "games", "provisional", "k", "k_rule")


#: The columns of the CSV of the games not rated (``--view excluded``).
EXCLUDED_CSV_FIELDS = ("date", "event", "white", "black", "result", "rule", "where")


def club_excluded_csv(result: ClubResult) -> str:
    """The games not rated as CSV, one row each with the rule that left it out."""
    return write_csv(_excluded_json(result), EXCLUDED_CSV_FIELDS)


def club_csv(result: ClubResult) -> str:
    """The standings as CSV (rank, name, rating, change, games, provisional, K and its
    rule)."""
    rows = [
        {
            "rank": rank,
            "name": s.name,
            "rating": s.shown,
            "change": s.change,
            "games": s.games,
            "provisional": s.provisional,
            "k": s.k_next,
            "k_rule": s.k_rule,
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
    """The ladder's standings: rank, name, rating (? provisional), change, games and the
    K of the next update with the rule that gives it (``40 new``)."""
    columns = [Column("#"), Column("Name", "left"), Column("Rating"), Column("Change"),
               Column("Games"), Column("K", "left")]  # fmt: skip
    rows = [
        [str(rank), s.name, _club_mark(s), signed(s.change), f"{s.games:,}",
         f"{s.k_next} {s.k_rule}".rstrip()]
        for rank, s in enumerate(result.standings, start=1)
    ]  # fmt: skip
    return Table(columns, rows)


def hidden_text(result: ClubResult) -> str | None:
    """``3 players with fewer than 10 games not shown; --min-games 0 shows all`` (``None``
    when the ``[publish]`` rules left nobody out)."""
    h = result.hidden
    if h is None or h.players + h.unrated == 0:
        return None
    why = []
    if h.min_games > 0:
        why.append(f"fewer than {plural(h.min_games, 'game')}")
    if h.provisional:
        why.append("a provisional rating")
    if h.unrated:
        why.append("no rating yet")
    how = " ".join(
        option
        for option, on in (
            ("--min-games 0", h.min_games > 0),
            ("--show-provisional", h.provisional),
        )
        if on
    )
    who = plural(h.players + h.unrated, "player")
    return f"{who} with {' or '.join(why)} not shown; {how} shows all"


def k_legend_text(result: ClubResult) -> str | None:
    """``K: the next update's K; new = a newcomer's first 10 games, ...`` for the rules
    named in the K column (``None`` when it names none)."""
    legend = k_legend(result.rules, {s.k_rule for s in result.standings})
    return f"K: the next update's K; {'; '.join(legend)}" if legend else None


def club_header(result: ClubResult, rules_file: str | None) -> list[str]:
    """The ladder's first lines (players, events, rules, K used), unwrapped."""
    return _header(result, rules_file, None)


def club_text(result: ClubResult, rules_file: str | None = None, width: int | None = None) -> str:
    """Standings, awards and unrated players, fitted to ``width`` (``None``: no limit)."""
    lines = [*_header(result, rules_file, width), ""]
    lines += render_table(standings_table(result), width)
    if any(s.provisional for s in result.standings):
        lines.append("? provisional: fewer games than the club's provisional rule asks")
    for extra in (k_legend_text(result), hidden_text(result)):
        if extra:
            lines += wrap_words(extra, width, "  ")
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
    progress = _progress_text(result)
    lines += wrap_words(f"  Biggest progress (by month): {progress or '-'}", width, "  ")
    lines += wrap_words(f"  Most games: {_most_games_text(result) or '-'}", width, "  ")
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
                "k_rule": e.k_rule or None,
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
               Column("Points", short="Pts"), Column("Expected", short="Exp."), Column("K", "left"),
               Column("Rating")]  # fmt: skip
    rows = [
        [e.day.isoformat(), e.period, str(e.games), points_text(e.points), f"{e.expected:.2f}",
         f"{e.k} {e.k_rule}".rstrip(), str(round(float(e.rating_after)))]
        for e in s.history
    ]  # fmt: skip
    return Table(columns, rows)


def club_player_text(
    s: Standing, recent: int, months: int, target: Target, width: int | None = None
) -> str:
    """One player's page: rating, history, change over the last months and the next target,
    fitted to ``width`` (``None``: no limit)."""
    mark = " (provisional)" if s.provisional else ""
    lines = [*wrap_words(f"{s.name}: {s.shown}{mark}, {plural(s.games, 'game')}", width, "  "), ""]
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
