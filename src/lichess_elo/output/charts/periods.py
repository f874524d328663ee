"""The report chart's marks by period and by game: rating periods (spans, labels), gaps,
FIDE's adjustment and floor, and the real FIDE list as steps (see ``chart_report``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from lichess_elo.core.contenders import FIDE
from lichess_elo.core.games import SITE_NAMES
from lichess_elo.core.months import add_months

if TYPE_CHECKING:
    from lichess_elo.core.report.model import PerfReport

GAP = "#adb5bd"
#: The Elo line: the FIDE rules' colour on every chart (``core.contenders``).
ELO = str(FIDE.colour)
#: A period is labelled only when it spans at least this share of the axis.
_MIN_LABEL_SHARE = 0.06
_MAX_LABELLED_PERIODS = 16
#: A light backing under the words drawn over the data (FIDE's adjustment, the floor), so
#: that a line crossing them does not run through the letters.
_BACKING = {"boxstyle": "square,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8}
#: The legend's words for a gap (the note under the chart explains it).
GAP_LABEL = "gap between two games (note below)"


def period_span(label: str, kind: str, when: datetime) -> tuple[datetime, datetime]:
    """The calendar bounds [start, end) of a period (a game period: the game's time)."""
    if kind == "month":
        start = datetime(int(label[:4]), int(label[5:7]), 1, tzinfo=UTC)
        end = datetime(*add_months(start.year, start.month, 1), 1, tzinfo=UTC)
        return start, end
    if kind == "week":
        start = datetime.fromisocalendar(int(label[:4]), int(label[6:]), 1).replace(tzinfo=UTC)
        return start, start + timedelta(days=7)
    if kind == "day":
        start = datetime.fromisoformat(label).replace(tzinfo=UTC)
        return start, start + timedelta(days=1)
    return when, when


def period_spans(report: PerfReport, lo: datetime, step_at: datetime) -> list[tuple[Any, Any]]:
    """Each period's drawn [start, end): its calendar span within the data (a game period
    lasts until the next game); the last step is drawn at ``step_at`` at the latest."""
    games = report.games
    kind = report.settings.period
    firsts: dict[str, datetime] = {}
    for g in games:
        firsts.setdefault(g.period, g.played_at)
    labels = list(firsts)
    spans = []
    for i, label in enumerate(labels):
        start, end = period_span(label, kind, firsts[label])
        if kind == "game":
            end = firsts[labels[i + 1]] if i + 1 < len(labels) else step_at
        spans.append((max(start, lo), min(end, step_at)))
    return spans


def gaps(ax: Any, games: Sequence[Any]) -> int:
    """Quiet grey dotted jumps where Lichess's rating moved between two games."""
    previous = None
    count = 0
    for g in games:
        if g.gap_before is not None and previous is not None:
            ax.plot(
                [g.played_at, g.played_at],
                [previous.lichess_after, g.lichess_from],
                color=GAP,
                ls=":",
                lw=1.0,
                marker="_",
                ms=5,
                label=(GAP_LABEL if count == 0 else None),
                zorder=1,
            )
            count += 1
        previous = g
    return count


def period_labels(ax: Any, report: PerfReport, spans: Sequence[Any], lo: Any, hi: Any) -> list[str]:
    """Label the periods that have room (never for one-game periods: they would overprint);
    returns the labels' narrow forms (three lines), used if two overprint."""
    if report.settings.period == "game" or len(spans) > _MAX_LABELLED_PERIODS:
        return []
    narrow = []
    whole = (hi - lo).total_seconds()
    for (start, end), period in zip(spans, report.periods, strict=True):
        if (end - start).total_seconds() < _MIN_LABEL_SHARE * whole:
            continue
        site = SITE_NAMES.get(report.site, report.site)
        fide, lichess = f"FIDE {period.elo_change:+d}", f"{site} {period.lichess_change:+d}"
        narrow.append(f"{period.label}\n{fide}\n{lichess}")
        ax.text(
            start + (end - start) / 2,
            0.995,
            f"{period.label}\n{fide} · {lichess}",
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="top",
            fontsize=8,
            color="#495057",
            gid="period-label",
        )
    return narrow


def adjustments_and_floor(ax: Any, report: PerfReport, spans: Sequence[Any]) -> None:
    """Mark FIDE's one-time adjustment where the track crosses it (a dotted step with its
    words, never a game) and the floor where a period ends below it."""
    for period, (start, _) in zip(report.periods, spans, strict=True):
        if period.adjustment is None or period.adjusted_from is None:
            continue
        ax.plot([start, start], [period.adjusted_from, period.elo_start], color=ELO, lw=2.2,
                ls=":", zorder=4)  # fmt: skip
        raised = period.elo_start - period.adjusted_from
        ax.annotate(
            f"FIDE adjustment {raised:+d}\n({period.adjustment.day:%-d %b %Y}, not a game)",
            (start, (period.adjusted_from + period.elo_start) / 2),
            xytext=(5, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
            color=ELO,
            bbox=_BACKING,
        )
    floors = sorted({p.edition.floor for p in report.periods if p.below_floor})
    for floor in floors:
        ax.axhline(floor, color="#868e96", lw=1.0, ls="--", zorder=1)
        ax.annotate(
            f"FIDE floor {floor}: below it FIDE would not list the rating",
            (0.01, floor),
            xycoords=("axes fraction", "data"),
            xytext=(0, 3),
            textcoords="offset points",
            fontsize=8,
            color="#495057",
            bbox=_BACKING,
        )


def fide_steps(report: PerfReport, lo: datetime, hi: datetime) -> tuple[list[Any], list[float]]:
    """The real FIDE list as steps: each month's rating from its first day to the next's."""
    if report.fide is None:
        return [], []
    xs: list[Any] = []
    ys: list[float] = []
    for month, rating in report.fide.history:
        start = datetime(month.year, month.month, 1, tzinfo=UTC)
        nxt = datetime(*add_months(month.year, month.month, 1), 1, tzinfo=UTC)
        if xs and xs[-1] != start:
            xs.append(start)
            ys.append(float("nan"))  # a month off the list: no joining line
        xs += [max(start, lo), min(nxt, hi)]
        ys += [rating, rating]
    return xs, ys
