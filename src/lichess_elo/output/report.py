"""``lichess-elo report`` output: the JSON document, the CSV views and the rich tables.

An edge module (it writes text, no maths). ``report_document`` is the JSON contract (README
"JSON format"): games oldest first, numbers as numbers, every key always present.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.table import Table

from lichess_elo.output.common import iso_utc, plural, signed

if TYPE_CHECKING:
    from lichess_elo.core.report.model import GameRow, PerfReport, PeriodRow
    from lichess_elo.core.report.summary import Disagreement


def _num(value: Decimal | None, places: int = 2) -> float | int | None:
    """A Decimal as a JSON number: an int when whole, else a float rounded to ``places``."""
    if value is None:
        return None
    number = float(value)
    return int(number) if number.is_integer() else round(number, places)


def _report_settings(report: PerfReport) -> dict[str, Any]:
    s = report.settings
    return {
        "track": s.track,
        "period": s.period,
        "k": "auto" if s.k is None else s.k,
        "method": s.method,
        "cap": s.cap,
        "start_rating": report.start_rating,
        "games_before": report.missing_games,
        "born": s.born,
        "since": iso_utc(s.start) if s.start else None,
        "until": iso_utc(s.stop) if s.stop else None,
    }


def _game_json(row: GameRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "url": row.url,
        "played_at": iso_utc(row.played_at),
        "period": row.period,
        "color": row.color,
        "opponent": row.opponent,
        "opponent_title": row.opponent_title,
        "opponent_rating": row.opponent_rating,
        "opponent_provisional": row.opponent_provisional,
        "score": _num(row.score),
        "status": row.status,
        "endings": list(row.endings),
        "lichess": {
            "rating": row.lichess_rating,
            "diff": row.lichess_diff,
            "provisional": row.provisional,
        },
        "elo": {
            "rating": row.elo_rating,
            "expected": _num(row.expected, 4),
            "k": row.k,
            "change": _num(row.elo_change, 4),
        },
        "replay": {"valid": row.replay_valid, "plies": row.plies},
        "gap_before": row.gap_before,
        "gap_cause": row.gap_cause,
        "flags": list(row.flags),
    }


def _period_json(p: PeriodRow) -> dict[str, Any]:
    return {
        "period": p.label,
        "games": p.games,
        "score": _num(p.score),
        "expected": _num(p.expected, 4),
        "performance": p.performance,
        "games_before": p.games_before,
        "k": p.k,
        "k_requested": p.k_requested,
        "k_reason": p.k_reason,
        "k_700_rule": p.k_limited,
        "elo": {
            "start": p.elo_start,
            "change": p.elo_change,
            "change_exact": _num(p.elo_change_exact, 4),
            "end": p.elo_end,
        },
        "lichess": {"start": p.lichess_start, "change": p.lichess_change, "end": p.lichess_end},
        "difference": p.difference,
        "change_difference": p.change_difference,
        "gaps": [{"before": g.before, "size": g.size, "cause": g.cause} for g in p.gaps],
        "gap_before_start": p.gap_before_start,
        "gap_points_inside": p.gap_points_inside,
        "long_break": p.long_break,
    }


def _disagreement_json(d: Disagreement, key: str) -> dict[str, Any]:
    return {
        key: d.key,
        "elo": _num(d.elo, 4),
        "lichess": d.lichess,
        "difference": _num(d.difference, 4),
        "reasons": list(d.reasons),
    }


def _summary_json(report: PerfReport) -> dict[str, Any]:
    s = report.summary
    return {
        "games": s.games,
        "periods": s.periods,
        "elo_start": s.elo_start,
        "elo_final": s.elo_final,
        "elo_change": s.elo_change,
        "elo_peak": s.elo_peak,
        "lichess_start": s.lichess_start,
        "lichess_final": s.lichess_final,
        "lichess_change": s.lichess_change,
        "lichess_gaps": s.lichess_gaps,
        "gap_count": s.gap_count,
        "overlap_gaps": s.overlap_gaps,
        "lichess_peak": s.lichess_peak,
        "correlation": None if s.correlation is None else round(s.correlation, 4),
        "mean_abs_difference": (
            None if s.mean_abs_difference is None else round(s.mean_abs_difference, 2)
        ),
        "top_games": [_disagreement_json(d, "id") for d in s.top_games],
        "top_periods": [_disagreement_json(d, "period") for d in s.top_periods],
        "excluded": dict(report.excluded),
        "endings": [
            {
                "ending": e.ending,
                "label": e.label,
                "games": e.games,
                "elo": _num(e.elo, 4),
                "lichess": e.lichess,
            }
            for e in s.endings
        ],
        "provisional_games": s.provisional_games,
        "bot_games": s.bot_games,
        "capped_games": s.capped_games,
        "invalid_replays": s.invalid_replays,
    }


def report_document(user: str, reports: Sequence[PerfReport]) -> dict[str, Any]:
    """The ``--format json`` document: ``{"user", "reports": [...]}`` (see the README)."""
    return {
        "user": user,
        "reports": [
            {
                "perf": r.perf,
                "message": r.message,
                "settings": _report_settings(r),
                "games": [_game_json(g) for g in r.games],
                "periods": [_period_json(p) for p in r.periods],
                "summary": _summary_json(r),
            }
            for r in reports
        ],
    }


def report_json(user: str, reports: Sequence[PerfReport]) -> str:
    """``report_document`` as JSON text: indented, with one game or period per line
    (``report_write.write_report_json`` into a string; the CLI streams it instead)."""
    from lichess_elo.output.report_write import write_report_json

    buffer = io.StringIO()
    write_report_json(buffer, user, reports)
    return buffer.getvalue()


REPORT_GAME_FIELDS = (
    "perf", "id", "url", "played_at", "period", "color", "opponent", "opponent_title",
    "opponent_rating",
    "opponent_provisional", "score", "status", "endings", "lichess_rating", "lichess_diff",
    "provisional", "elo_rating", "expected", "k", "elo_change", "replay_valid", "plies",
    "gap_before", "gap_cause", "flags",
)  # fmt: skip
REPORT_PERIOD_FIELDS = (
    "perf", "period", "games", "score", "expected", "performance", "games_before", "k",
    "k_requested", "k_reason", "k_700_rule", "elo_start", "elo_change", "elo_change_exact",
    "elo_end", "lichess_start", "lichess_change", "lichess_end", "difference",
    "change_difference", "gap_count", "gap_points", "gap_before_start", "long_break",
)  # fmt: skip


def report_csv(reports: Sequence[PerfReport], view: str) -> str:
    """CSV, one row per game (``view == "games"``) or per period (otherwise)
    (``report_write.write_report_csv`` into a string; the CLI streams it instead)."""
    from lichess_elo.output.report_write import write_report_csv

    buffer = io.StringIO()
    write_report_csv(buffer, reports, view)
    return buffer.getvalue()


_K_REASONS = {
    "2400": "reached 2400",
    "junior": "junior",
    "new": "under 30 games",
    "standard": "standard",
    "fixed": "--k",
}


def _k_text(p: PeriodRow) -> str:
    reason = _K_REASONS.get(p.k_reason, p.k_reason)
    if p.k_limited:
        return f"{p.k} (700 rule: {p.k_requested}, {reason})"
    return f"{p.k} ({reason})"


def _moved(start: int, change: int, end: int) -> str:
    return f"{start}→{end} ({signed(change)})"


#: Printed under a periods table that has gaps (the "Gaps" column's meaning).
GAPS_FOOTNOTE = (
    "Gaps: n (±x) between the period's games, so start + change + x = end; "
    "'before' = a gap just before its first game, already in its start."
)


def _periods_table(report: PerfReport) -> Table:
    table = Table(
        title=f"{report.perf}: FIDE Elo ({report.settings.track} track) vs Lichess, "
        f"by {report.settings.period}",
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),  # with the box's blank divider: 2 spaces between columns
        show_edge=False,
    )
    table.add_column("Period", no_wrap=True)
    for name in ("Games", "Score", "ΣE", "Perf"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("K", no_wrap=True)
    table.add_column("FIDE Elo", justify="right", no_wrap=True)
    table.add_column("Lichess", justify="right", no_wrap=True)
    table.add_column("Elo−Lichess", justify="right", no_wrap=True)
    table.add_column("Gaps", justify="right", no_wrap=True)
    for p in report.periods:
        table.add_row(
            p.label,
            str(p.games),
            f"{p.score:.1f}",
            f"{p.expected:.2f}",
            str(p.performance) if p.performance is not None else "-",
            _k_text(p),
            _moved(p.elo_start, p.elo_change, p.elo_end),
            _moved(p.lichess_start, p.lichess_change, p.lichess_end),
            signed(p.difference),
            _gaps_text(p),
        )
    return table


def _gaps_text(p: PeriodRow) -> str:
    """``n (+x)`` for the gaps between the period's games (so start + change + x = end),
    then the gap just before its first game, which the start already includes."""
    inside = len(p.gaps) - (p.gap_before_start is not None)
    text = f"{inside} ({p.gap_points_inside:+d})" if inside else ""
    if p.gap_before_start is not None:
        text += f"{' · ' if text else ''}{p.gap_before_start:+d} before"
    return text


def _games_table(report: PerfReport) -> Table:
    table = Table(
        title=f"{report.perf}: games, oldest first",
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),
        show_edge=False,
    )
    for name in ("Date (UTC)", "Game", "Col", "Opponent", "Result", "How it ended"):
        table.add_column(name)
    for name in ("Lichess", "±", "Elo", "E", "K", "Elo ±"):
        table.add_column(name, justify="right")
    table.add_column("Flags")
    for g in report.games:
        title = f"{g.opponent_title} " if g.opponent_title else ""
        opponent = f"{title}{g.opponent} {g.opponent_rating}{'?' if g.opponent_provisional else ''}"
        ended = ", ".join([g.status, *(e.replace("_", " ") for e in g.endings)])
        table.add_row(
            g.played_at.strftime("%Y-%m-%d %H:%M"),
            f"[link={g.url}]{g.id}[/link]",
            g.color[0],
            opponent,
            {Decimal(1): "1", Decimal(0): "0"}.get(g.score, "½"),
            ended,
            f"{g.lichess_rating}{'?' if g.provisional else ''}",
            signed(g.lichess_diff),
            str(g.elo_rating),
            f"{g.expected:.2f}",
            str(g.k),
            signed(g.elo_change, 1),
            " ".join(g.flags),
        )
    return table


def _summary_lines(report: PerfReport, full: bool) -> list[str]:
    s = report.summary
    gaps = f", {signed(s.lichess_gaps)} in {plural(s.gap_count, 'gap')}" if s.gap_count else ""
    lines = [
        f"[bold]{report.perf}[/bold]: {plural(s.games, 'game')} in "
        f"{plural(s.periods, report.settings.period)}",
        (
            f"  FIDE Elo  {s.elo_start} → [bold]{s.elo_final}[/bold] ({signed(s.elo_change)})"
            f", peak {s.elo_peak}"
            if report.settings.track == "shadow"
            else f"  FIDE Elo  {signed(s.elo_change)} over the periods, each restarted from "
            f"the Lichess rating (last ended at [bold]{s.elo_final}[/bold])"
        ),
        f"  Lichess   {s.lichess_start} → [bold]{s.lichess_final}[/bold] "
        f"({signed(s.lichess_change)} in games{gaps}), peak {s.lichess_peak}",
    ]
    if s.correlation is not None and s.mean_abs_difference is not None:
        lines.append(
            f"  Per game: correlation {s.correlation:.2f}, "
            f"mean absolute difference {s.mean_abs_difference:.1f} points"
        )
    if s.gap_count:
        missing = s.gap_count - s.overlap_gaps
        causes = []
        if s.overlap_gaps:
            causes.append(
                f"{s.overlap_gaps} where a game started before the previous one ended "
                "(overlapping games)"
            )
        if missing:
            causes.append(f"{missing} from missing games or adjustments")
        lines.append(f"  Gaps: {', '.join(causes)}")
    if not full:
        return lines
    excluded = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in report.excluded.items() if n)
    lines.append(f"  Excluded games: {excluded or 'none'}")
    for title, items in (("games", s.top_games), ("periods", s.top_periods)):
        if items:
            lines.append(f"  Largest disagreements ({title}):")
            lines.extend(
                f"    {d.key}: Elo {signed(d.elo, 1 if title == 'games' else 0)} vs Lichess "
                f"{d.lichess:+d} (off by {d.difference:.{1 if title == 'games' else 0}f}; "
                f"{', '.join(d.reasons)})"
                for d in items
            )
    if s.endings:
        lines.append("  How it ended (Elo = sum of those games' K×(score−E)):")
        lines.extend(f"    {e.text}" for e in s.endings)
    flags = (
        f"{s.provisional_games} provisional, {s.bot_games} against BOTs, "
        f"{s.capped_games} capped by the 400 rule, {plural(s.invalid_replays, 'invalid replay')}"
    )
    lines.append(f"  Flags: {flags}")
    return lines


def print_report(reports: Sequence[PerfReport], view: str, out: Console) -> None:
    """Print rich tables: ``periods`` (with a short summary), ``games`` or ``summary``."""
    if not out.is_terminal:  # a file or a pipe: no need to squeeze the tables into 80 columns
        out = Console(file=out.file, width=200, color_system=None, highlight=False, soft_wrap=True)
    for report in reports:
        if report.message:
            continue  # the command line prints the message once, on stderr
        if view == "periods":
            out.print(_periods_table(report))
            if any(p.gaps for p in report.periods):
                out.print(GAPS_FOOTNOTE)
            out.print()
        elif view == "games":
            out.print(_games_table(report))
            out.print()
        for line in _summary_lines(report, full=view == "summary"):
            out.print(line)
        out.print()


def report_text(reports: Sequence[PerfReport], view: str) -> str:
    """The table output as plain text (for ``--output FILE`` with ``--format table``)."""
    buffer = io.StringIO()
    print_report(reports, view, Console(file=buffer, width=200, color_system=None))
    return buffer.getvalue()
