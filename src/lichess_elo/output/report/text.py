"""``lichess-elo report`` as text: the headline, the tables fitted to the terminal, the
summary, the perfs left out and the legend (an edge module: it writes text, no maths)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from rich.console import Console

from lichess_elo.core.games import LICHESS
from lichess_elo.core.report.build import MIN_PERFORMANCE_GAMES
from lichess_elo.output.common import plural, signed
from lichess_elo.output.report.json import k_warning_text
from lichess_elo.output.report.words import (
    ESTIMATE_MARK,
    chapter_split,
    headline,
    legend,
    other_perfs,
    site_name,
    site_rules_note,
)
from lichess_elo.output.tables import Column, Table, render_table, wrap_words

if TYPE_CHECKING:
    from lichess_elo.core.fide import Edition
    from lichess_elo.core.report.fide_compare import FideSummary
    from lichess_elo.core.report.model import PerfReport, PeriodRow


def _k_reason(p: PeriodRow) -> str:
    """Why K is what it is, worded from the period's edition to follow the number
    ("40 under 30 games", "10 since 2400")."""
    e = p.edition
    words = {
        "2400": f"since {e.k_top_from}",
        "junior": "for a junior",
        "new": f"under {e.new_player_games} games",
        "standard": "standard",
        "given": "as given",
        "flat": "for everyone",
    }
    return words.get(p.k_reason, p.k_reason)


def _k_text(p: PeriodRow) -> str:
    """``10 (since 2400)``; cut by the 700 rule: ``11 (20 for everyone, cut by the 700 rule)``."""
    reason = _k_reason(p)
    if p.k_limited:
        most = p.edition.k_times_games_max
        return f"{p.k} ({p.k_requested} {reason}, cut by the {most} rule)"
    return f"{p.k} ({reason})"


def _moved(start: int, change: int, end: int, mark: str = "") -> str:
    return f"{start}→{end}{mark} ({signed(change)})"


#: Marks on the FIDE rules column, explained under the table when they appear.
BELOW_FLOOR_MARK = "†"
ADJUSTMENT_LABEL = "adjusted"


def floor_note(floor: int) -> str:
    """What the floor mark means (7.2.1), in words."""
    return (
        f"{BELOW_FLOOR_MARK} below the {floor} floor: FIDE would not list this rating (the "
        "player would show as unrated, 7.2.1); the track goes on from it"
    )


def adjustment_note(report: PerfReport) -> str | None:
    """The line that explains an adjustment row of ``report``'s periods table, if any."""
    for p in report.periods:
        if p.adjustment is not None and p.adjusted_from is not None:
            return (
                f"{ADJUSTMENT_LABEL}: {p.adjustment.title} (FIDE's one-time change to every "
                f"list, not a game): {p.adjusted_from} → {p.elo_start}; --no-adjustment "
                "leaves it out"
            )
    return None


#: The "Gaps" column's meaning, in the legend when a periods table has gaps.
GAPS_FOOTNOTE = (
    "Gaps: n (±x) between the period's games, so start + change + x = end; "
    "'before' = a gap just before its first game, already in its start."
)
_PERIOD_NAMES = {"month": "Month", "week": "Week", "day": "Day", "game": "Game"}


def periods_table(report: PerfReport) -> Table:
    """The report's period table (the terminal's and the page's)."""
    site = site_name(report)
    columns = [
        Column(_PERIOD_NAMES[report.settings.period], "left"),
        Column("Games"),
        Column("Score"),
        Column("Expected", fold=1),
        Column("Performance", fold=2),
        Column("K", "left", fold=3),
        Column("FIDE rules"),
        Column(site),
        Column(f"FIDE − {site}", short="Diff"),
        Column("Gaps", "left", fold=4),
    ]
    rows: list[list[str]] = []
    for p in report.periods:
        if p.adjustment is not None and p.adjusted_from is not None:
            raised = p.elo_start - p.adjusted_from
            step = f"{p.adjusted_from}→{p.elo_start} ({signed(raised)})"
            rows.append([ADJUSTMENT_LABEL, "", "", "", "", "", step, "", "", ""])
        mark = BELOW_FLOOR_MARK if p.below_floor else ""
        rows.append(
            [
                p.label,
                f"{p.games:,}",
                f"{p.score:.1f}",
                f"{p.expected:.2f}",
                str(p.performance) if p.performance is not None else "-",
                _k_text(p),
                _moved(p.elo_start, p.elo_change, p.elo_end, mark),
                _moved(p.lichess_start, p.lichess_change, p.lichess_end),
                signed(p.difference),
                _gaps_text(p),
            ]
        )
    title = (
        f"{report.perf}: FIDE rules ({_track_words(report)}) next to {site}, "
        f"by {report.settings.period}"
    )
    drop = set()
    if all(p.performance is None for p in report.periods):
        drop.add(4)  # no period long enough (always so for one-game periods)
    if report.settings.period == "game":
        drop.add(1)  # one game each
    keep = [i for i in range(len(columns)) if i not in drop]
    return Table([columns[i] for i in keep], [[row[i] for i in keep] for row in rows], title=title)


def _track_words(report: PerfReport) -> str:
    site = site_name(report)
    if report.settings.track == "shadow":
        return f"one rating from the first {site} rating on"
    return f"restarted each {report.settings.period} from the {site} rating"


def _gaps_text(p: PeriodRow) -> str:
    """``n (+x)`` for the gaps between the period's games (so start + change + x = end),
    then the gap just before its first game, which the start already includes."""
    inside = len(p.gaps) - (p.gap_before_start is not None)
    text = f"{inside} ({p.gap_points_inside:+d})" if inside else ""
    if p.gap_before_start is not None:
        text += f"{' · ' if text else ''}{p.gap_before_start:+d} before"
    return text


def games_table(report: PerfReport) -> Table:
    """The report's game-by-game table (the terminal's and the page's); an estimated
    opponent rating (a Chess.com opponent's before the game) is marked ``~``."""
    site = site_name(report)
    observed = "" if report.site == LICHESS else " (observed)"
    columns = [
        Column("Date (UTC)", "left", short="Date"),
        Column("Time", "left", fold=7),
        Column("Game", "left", fold=4),
        Column("Colour", "left", short="Col", fold=3),
        Column("Opponent", "left"),
        Column("Opp rating", short="Opp"),
        Column("Result", "left", short="Res"),
        Column("Status", "left", fold=6),
        Column("Replay found", "left", fold=8),
        Column(site),
        Column(f"{site} ±{observed}", short="±"),
        Column("FIDE"),
        Column("E", fold=2),
        Column("K", fold=1),
        Column("FIDE ±"),
        Column("Flags", "left", fold=9),
    ]
    rows = []
    for g in report.games:
        title = f"{g.opponent_title} " if g.opponent_title else ""
        rows.append(
            [
                g.played_at.strftime("%Y-%m-%d"),
                g.played_at.strftime("%H:%M"),
                g.id,
                g.color,
                f"{title}{g.opponent}",
                f"{ESTIMATE_MARK if g.opponent_estimated else ''}{g.opponent_rating}"
                f"{'?' if g.opponent_provisional else ''}",
                {Decimal(1): "1", Decimal(0): "0"}.get(g.score, "½"),
                g.status,
                ", ".join(e.replace("_", " ") for e in g.endings),
                ""
                if g.lichess_rating is None
                else f"{g.lichess_rating}{'?' if g.provisional else ''}",
                "" if g.lichess_diff is None else signed(g.lichess_diff),
                str(g.elo_rating),
                f"{g.expected:.2f}",
                str(g.k),
                signed(g.elo_change, 1),
                " ".join(g.flags),
            ]
        )
    return Table(columns, rows, title=f"{report.perf}: games, oldest first")


def fide_text(fide: FideSummary) -> list[str]:
    """The FIDE comparison: the offset, then the warning that the pools differ."""
    who = f"{fide.name} ({fide.fide_id}), {fide.fide_list} list"
    if fide.message is not None:
        return [f"  Real FIDE: {who}: {fide.message}"]
    if fide.mean_offset is None or fide.last_offset is None:
        return [f"  Real FIDE: {who}: no rating in the report's months"]
    return [
        f"  Real FIDE: {who}: the track is {fide.mean_offset:+.0f} on average "
        f"({signed(fide.last_offset)} at the end)",
        f"    Note: {fide.warning}.",
        *(f"    Jump: {note}." for note in fide.notes),
    ]


def _adjusted_words(report: PerfReport) -> str:
    """`` in games, +196 by FIDE's adjustment`` when the track crossed one, else nothing."""
    raised = sum(
        p.elo_start - p.adjusted_from for p in report.periods if p.adjusted_from is not None
    )
    return f" in games, {signed(raised)} by FIDE's adjustment" if raised else ""


def _editions(period: PeriodRow) -> list[Edition]:
    """The editions that rated a period's games: one a chapter part, the main one first."""
    return [part.edition for part in period.parts] or [period.edition]


def summary_lines(report: PerfReport, full: bool) -> list[str]:
    """The summary under the tables; ``full`` adds the detail lines."""
    s = report.summary
    site = site_name(report)
    gaps = f", {signed(s.lichess_gaps)} in {plural(s.gap_count, 'gap')}" if s.gap_count else ""
    lines = [
        f"{report.perf}: {plural(s.games, 'game')} in {plural(s.periods, report.settings.period)}",
        (
            f"  FIDE rules  {s.elo_start} → {s.elo_final} ({signed(s.elo_change)}"
            f"{_adjusted_words(report)}), peak {s.elo_peak}"
            if report.settings.track == "shadow"
            else f"  FIDE rules  {signed(s.elo_change)} over the periods, each restarted from "
            f"the {site} rating (last ended at {s.elo_final})"
        ),
        f"  {site:<12}{s.lichess_start} → {s.lichess_final} "
        f"({signed(s.lichess_change)} in games{gaps}), peak {s.lichess_peak}",
    ]
    if s.correlation is not None and s.mean_abs_difference is not None:
        lines.append(
            f"  Game by game: the changes correlate at {s.correlation:.2f}, and differ by "
            f"{s.mean_abs_difference:.1f} points on average"
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
    editions = dict.fromkeys(e.title for p in report.periods for e in _editions(p))
    split = chapter_split(report)
    if editions:
        lines.append(f"  Rules: {'; '.join([split, *editions] if split else editions)}")
    if report.site != LICHESS:
        lines.append(f"  {site_rules_note(report.site)}")
    adjusted = adjustment_note(report)
    if adjusted is not None:
        lines.append(f"  {adjusted[0].upper()}{adjusted[1:]}")
    under = [p for p in report.periods if p.below_floor]
    if under:
        lines.append(
            f"  Below the floor: {plural(len(under), report.settings.period)} ended under "
            f"{under[-1].edition.floor}, where FIDE would not list the rating "
            f"({BELOW_FLOOR_MARK} in the table; 7.2.1)"
        )
    if report.k_warning is not None:
        lines.append(f"  {k_warning_text(report.k_warning)}")
    if report.fide is not None:
        lines.extend(fide_text(report.fide))
    if not full:
        return lines
    excluded = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in report.excluded.items() if n)
    lines.append(f"  Excluded games: {excluded or 'none'}")
    for title, items in (("games", s.top_games), ("periods", s.top_periods)):
        if items:
            lines.append(f"  Largest disagreements ({title}):")
            lines.extend(
                f"    {d.key}: FIDE {signed(d.elo, 1 if title == 'games' else 0)} vs {site} "
                f"{d.lichess:+d} (off by {d.difference:.{1 if title == 'games' else 0}f}; "
                f"{', '.join(d.reasons)})"
                for d in items
            )
    if s.endings:
        lines.append("  How it ended (FIDE = sum of those games' K×(score−E)):")
        lines.extend(f"    {e.worded(site)}" for e in s.endings)
    flags = (
        f"{s.provisional_games} provisional, {s.bot_games} against BOTs, "
        f"{s.capped_games} capped by the 400 rule, {plural(s.invalid_replays, 'invalid replay')}"
    )
    lines.append(f"  Flags: {flags}")
    return lines


def report_lines(reports: Sequence[PerfReport], view: str, width: int | None) -> list[str]:
    """The table output as lines of at most ``width`` cells (``None``: no limit): per perf
    a headline, the table of ``view`` (``periods`` or ``games``; none for ``summary``) and
    the summary; then the perfs not shown and the legend."""
    lines: list[str] = []
    shown = [r for r in reports if not r.message]  # the CLI prints a message on stderr
    for report in shown:
        lines += wrap_words(headline(report), width)
        lines.append("")
        if view in ("periods", "games"):
            table = periods_table(report) if view == "periods" else games_table(report)
            lines += render_table(table, width)
            lines.append("")
        for line in summary_lines(report, full=view == "summary"):
            lines += wrap_words(line, width, "    ")
        lines.append("")
    counts = reports[0].perf_counts if reports else {}
    rest = other_perfs([r.perf for r in reports], counts)
    if rest is not None:
        lines += [""] if lines and lines[-1] else []
        lines += wrap_words(f"{rest} Show them with --perf NAME or --perf all.", width)
    if shown and view in ("periods", "games"):
        gaps = view == "periods" and any(p.gaps for r in shown for p in r.periods)
        items = ["", *legend(view, MIN_PERFORMANCE_GAMES, shown[0].site)]
        if not gaps:
            items = [line for line in items if not line.startswith("  Gaps:")]
        else:
            items = [f"  {GAPS_FOOTNOTE}" if i.startswith("  Gaps:") else i for i in items]
        periods = [p for r in shown for p in r.periods]
        if view == "periods" and all(p.performance is None for p in periods):
            items = [
                f"  Performance: not shown, no period has {MIN_PERFORMANCE_GAMES} games"
                if i.startswith("  Performance:")
                else i
                for i in items
            ]
        if view == "periods" and all(r.settings.period == "game" for r in shown):
            items = [i for i in items if not i.startswith("  Games:")]
        if view == "periods":
            floors = sorted({p.edition.floor for p in periods if p.below_floor})
            items += [f"  {floor_note(floor)}" for floor in floors]
        for item in items:
            lines += wrap_words(item, width, "    ")
    while lines and not lines[-1]:
        lines.pop()
    return lines


def print_report(reports: Sequence[PerfReport], view: str, out: Console) -> None:
    """Print the report to ``out``, fitted to its width when it is a terminal."""
    width = out.width if out.is_terminal else None
    out.file.write("\n".join(report_lines(reports, view, width)) + "\n")
    out.file.flush()


def report_text(reports: Sequence[PerfReport], view: str) -> str:
    """The table output as plain text (for ``--output FILE`` with ``--format table``)."""
    return "\n".join(report_lines(reports, view, None)) + "\n"
