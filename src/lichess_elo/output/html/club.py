"""``club --html FILE``: the ladder, or one player's own page, as a self-contained page.

An edge module. The pages are written for the people who read them: an organiser pins the
ladder up, a parent opens a child's page on a phone. Every label is in the club's language
(``[page] language``, the words of ``output/club/words.py``), the title names the club
(``[page] name``), the legend is sentences, and each page has a chart drawn as inline SVG
(no script, no file beside it): the ladder the top players' ratings after each update,
the player page the player's own rating after each event with the next target. At phone
width (the style sheet's ``max-width: 600px`` rules) the player's history table turns
into one card per event, so the rating after each event is seen without a sideways scroll.
The numbers are those of the terminal's tables (``output/club/ladder.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from lichess_elo._version import __version__
from lichess_elo.core.club.kfactor import JUNIOR, NEW, OWN, RETURN
from lichess_elo.core.fide import round_half_away
from lichess_elo.output.charts.club import fit_labels
from lichess_elo.output.charts.compare import series_style
from lichess_elo.output.club.ladder import NAMED_TIE, points_text, tie_groups
from lichess_elo.output.club.words import Words
from lichess_elo.output.common import signed
from lichess_elo.output.html.page import esc, page

if TYPE_CHECKING:
    from lichess_elo.core.club.rating import ClubResult, Rules, Standing, Target

#: The SVG's own units: the drawing scales to the page's width, its text with it.
_W, _H = 400.0, 230.0
_LEFT, _TOP, _BOTTOM = 34.0, 14.0, 24.0
#: Room right of the plot for the ratings that end the ladder chart's lines.
_ENDS = 34.0
#: Beyond this many updates the dots and the per-point ratings are left off.
_DOTS_UP_TO = 24


def _footer(w: Words) -> str:
    return f"<footer>{esc(w('footer', version=__version__))}</footer>"


def _language(rules: Rules | None) -> Words:
    return Words(rules.language if rules is not None else "en")


@dataclass(frozen=True)
class _Column:
    label: str
    right: bool = True


def _table(columns: Sequence[_Column], rows: Sequence[Sequence[str]], css: str) -> str:
    """A table whose cells carry their column's label (``data-label``), so that at phone
    width the style sheet can show each row as a card of labelled values."""
    head = "".join(
        f'<th scope="col"{" class=r" if c.right else ""}>{esc(c.label)}</th>' for c in columns
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td{" class=r" if c.right else ""} data-label="{esc(c.label)}">{esc(v)}</td>'
            for c, v in zip(columns, row, strict=True)
        )
        + "</tr>"
        for row in rows
    )
    return (
        f'<div class="scroll"><table class="{esc(css)}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _nice_step(span: float) -> int:
    raw = max(span / 5, 1.0)
    base = 10 ** len(str(int(raw))) // 10 or 1
    return next(m * base for m in (1, 2, 5, 10) if m * base >= raw)


@dataclass(frozen=True)
class _Frame:
    """Where a chart's values go: x by index (``count`` places), y by rating."""

    count: int
    low: float
    high: float
    right: float

    def x(self, i: float) -> float:
        span = self.right - _LEFT - 16
        return _LEFT + 8 + (span * i / (self.count - 1) if self.count > 1 else span / 2)

    def y(self, rating: float) -> float:
        return _TOP + (self.high - rating) / (self.high - self.low) * (_H - _TOP - _BOTTOM)


def _frame(ratings: Sequence[float], count: int, right: float) -> _Frame:
    low, high = min(ratings), max(ratings)
    margin = max(15.0, (high - low) * 0.12)
    return _Frame(count, low - margin, high + margin, right)


def _axes(f: _Frame, ticks: Sequence[str]) -> list[str]:
    """Grid lines with their ratings, and the x labels (one per place)."""
    out = []
    step = _nice_step(f.high - f.low)
    value = (int(f.low) // step + 1) * step
    while value < f.high:
        y = f.y(value)
        out.append(
            f'<line class="grid" x1="{_LEFT}" x2="{f.right:.1f}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        out.append(f'<text class="yl" x="{_LEFT - 4}" y="{y + 3.5:.1f}">{value}</text>')
        value += step
    every = max(1, -(-len(ticks) // 12))
    for i, tick in enumerate(ticks):
        if i % every == 0 or i == len(ticks) - 1:
            out.append(f'<text class="xl" x="{f.x(i):.1f}" y="{_H - 8}">{esc(tick)}</text>')
    return out


def _svg(parts: Sequence[str], label: str) -> str:
    return (
        f'<svg class="club-chart" viewBox="0 0 {_W:.0f} {_H:.0f}" role="img" '
        f'aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'
    )


def _updates(result: ClubResult, standings: Sequence[Standing]) -> list[tuple[date, str]]:
    """The club's updates in order (day, period), as the players' histories record them."""
    found = {(e.day, e.period) for s in standings for e in s.history}
    return sorted(found, key=lambda u: (u[0], u[1].casefold()))


def _day(w: Words, day: date) -> str:
    return w("day", d=day.day, m=day.month)


def ladder_chart(result: ClubResult, names: Sequence[str], w: Words) -> str:
    """The players' ratings after each update (x: the start, then the updates in order,
    each under its day, listed under the chart), each line in its own colour ending at
    the rating; the key under the chart names the players in the same colours (it wraps
    at phone width, where names beside the lines would not fit)."""
    wanted = {n.casefold() for n in names}
    shown = [s for s in result.standings if s.name.casefold() in wanted and s.history]
    updates = _updates(result, shown)
    if not shown:
        return ""
    place = {u: i + 1 for i, u in enumerate(updates)}
    lines: list[tuple[Standing, list[tuple[int, float]]]] = []
    for s in shown:
        first = s.history[0]
        points: list[tuple[int, float]] = []
        if first.rating_before is not None:
            points.append((place[(first.day, first.period)] - 1, float(first.rating_before)))
        points += [(place[(e.day, e.period)], float(e.rating_after)) for e in s.history]
        if points[-1][0] < len(updates):
            points.append((len(updates), points[-1][1]))  # carried to the latest update
        lines.append((s, points))
    f = _frame([r for _, ps in lines for _, r in ps], len(updates) + 1, _W - _ENDS)
    parts = _axes(f, [w("start"), *(_day(w, day) for day, _ in updates)])
    ends = fit_labels([f.y(ps[-1][1]) for _, ps in lines], 11.0, _H - _BOTTOM)
    dots = len(updates) <= _DOTS_UP_TO
    key = []
    for n, ((s, ps), end) in enumerate(zip(lines, ends, strict=True)):
        colour = series_style(n)[0]
        path = "".join(f"{'M' if i == 0 else 'L'}{f.x(x):.1f} {f.y(r):.1f}" for i, (x, r) in
                       enumerate(ps))  # fmt: skip
        parts.append(f'<path d="{path}" stroke="{colour}" class="line"/>')
        if dots:
            parts += [f'<circle cx="{f.x(x):.1f}" cy="{f.y(r):.1f}" r="2.6" fill="{colour}"/>'
                      for x, r in ps]  # fmt: skip
        parts.append(f'<text class="end" x="{f.right + 4:.1f}" y="{end + 3.5:.1f}" '
                     f'fill="{colour}">{s.shown}</text>')  # fmt: skip
        key.append(f'<li><i style="background:{colour}"></i>{esc(s.name)} {s.shown}</li>')
    events = "".join(
        f"<li><b>{esc(_day(w, day))}</b> {esc(period)}</li>" for day, period in updates
    )
    return (
        f'<figure class="club-figure">{_svg(parts, w("chart_ladder"))}'
        f'<figcaption><ul class="who">{"".join(key)}</ul>'
        f'<ul class="updates">{events}</ul></figcaption></figure>'
    )


def player_chart(s: Standing, target: Target, w: Words) -> str:
    """``s``'s rating at the start and after each event, each point with its rating, and
    the next target as a dashed line."""
    if not s.history:
        return ""
    ratings = [float(e.rating_after) for e in s.history]
    start = s.history[0].rating_before
    points = ([float(start)] if start is not None else []) + ratings
    ticks = ([w("start")] if start is not None else []) + [_day(w, e.day) for e in s.history]
    f = _frame([*points, float(target.rating)], len(points), _W - 12)
    parts = _axes(f, ticks)
    ty = f.y(target.rating)
    parts.append(f'<line class="target" x1="{_LEFT}" x2="{f.right:.1f}" y1="{ty:.1f}" '
                 f'y2="{ty:.1f}"/>')  # fmt: skip
    goal = w("target_short", rating=target.rating)
    parts.append(f'<text class="tl" x="{f.right - 2:.1f}" y="{ty - 4:.1f}">{esc(goal)}</text>')
    path = "".join(f"{'M' if i == 0 else 'L'}{f.x(i):.1f} {f.y(r):.1f}"
                   for i, r in enumerate(points))  # fmt: skip
    colour = series_style(0)[0]
    parts.append(f'<path d="{path}" stroke="{colour}" class="line"/>')
    if len(points) <= _DOTS_UP_TO:
        for i, r in enumerate(points):
            x, y = f.x(i), f.y(r)
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.2" fill="{colour}"/>')
            parts.append(f'<text class="pl" x="{x:.1f}" y="{y - 7:.1f}">'
                         f"{round_half_away(Decimal(str(r)))}</text>")  # fmt: skip
    return f'<figure class="club-figure">{_svg(parts, w("chart_player"))}</figure>'


def _k_legend(result: ClubResult, w: Words) -> list[str]:
    """What each rule named in the K column means, in the page's words."""
    rules, used = result.rules, {s.k_rule for s in result.standings}
    out = []
    if OWN in used:
        out.append(w("k_own"))
    if JUNIOR in used:
        out.append(w("k_junior", age=rules.junior_age))
    if NEW in used:
        out.append(w("k_new", games=w.count(rules.provisional_games, "games")))
    if RETURN in used:
        out.append(w("k_return", games=w.count(rules.return_games, "games"),
                     months=rules.return_months))  # fmt: skip
    groups = sorted(used - {OWN, JUNIOR, NEW, RETURN, ""})
    if groups:
        out.append(w("k_group", groups=", ".join(groups)))
    return out


def _legend(result: ClubResult, rules_file: str | None, w: Words) -> list[str]:
    """The ladder's legend, in sentences: who and what, how ratings change, the K used and
    where the rules come from."""
    summary = (
        w("summary", players=w.count(len(result.standings), "players"),
          events=w.count(len(result.events), "events"), last=result.last_period)
        if result.last_period else w("no_games")
    )  # fmt: skip
    out = [summary, w(f"how_{result.rules.update}")]
    if result.k_used:
        ks = "; ".join(
            f"{w('k_others') if label == 'others' else label} {', '.join(map(str, values))}"
            for label, values in result.k_used
        )
        out.append(w("k_used", list=ks))
    out.append(w("rules_file", file=rules_file) if rules_file else w("rules_default"))
    return out


def _notes(result: ClubResult, w: Words) -> list[str]:
    """The sentences under the standings: provisional mark, K column, players not shown."""
    out = []
    if any(s.provisional for s in result.standings):
        out.append(w("provisional"))
    legend = _k_legend(result, w)
    out.append(w("k_column") + (" " + "; ".join(legend) + "." if legend else ""))
    h = result.hidden
    if h is not None and h.players + h.unrated:
        why = [w("hidden_games", games=w.count(h.min_games, "games"))] if h.min_games > 0 else []
        why += [w("hidden_provisional")] if h.provisional else []
        why += [w("hidden_unrated")] if h.unrated else []
        out.append(w("hidden", players=w.count(h.players + h.unrated, "players"),
                     why=f" {w('or')} ".join(why)))  # fmt: skip
    if result.unrated:
        out.append(w("unrated", names=", ".join(result.unrated)))
    if result.excluded:
        out.append(w("excluded", games=w.count(len(result.excluded), "games")))
    return out


def _awards(result: ClubResult, w: Words) -> str:
    """The two awards, a tie of more than ``NAMED_TIE`` players counted in words."""
    months: dict[str, list[tuple[str, int]]] = {}
    for a in result.progress:
        months.setdefault(a.period, []).append((a.name, a.change))
    progress = []
    for month, awards in months.items():
        if len(awards) > NAMED_TIE:
            progress.append(f"{month} {w.count(len(awards), 'players')} {awards[0][1]:+d}")
        else:
            progress += [f"{month} {name} {change:+d}" for name, change in awards]
    most = []
    for names, games in tie_groups([(a.name, a.games) for a in result.most_games]):
        if len(names) > NAMED_TIE:
            most.append(w("tied", players=w.count(len(names), "players"),
                          games=w.count(games, "games")))  # fmt: skip
        else:
            most += [f"{name} {games}" for name in names]
    why = w("progress_why", games=w.count(result.rules.calibration_games, "games"))
    return (
        '<ul class="lines">'
        f"<li><b>{esc(w('progress'))}:</b> {esc('; '.join(progress) or w('none'))}</li>"
        f"<li><b>{esc(w('most_games'))}:</b> {esc(', '.join(most) or w('none'))}</li></ul>"
        f'<p class="note">{esc(why)}</p>'
    )


def _sentences(lines: Sequence[str], css: str) -> str:
    return f'<p class="{css}">{esc(" ".join(lines))}</p>' if lines else ""


def club_html(result: ClubResult, rules_file: str | None = None, top: int | None = None) -> str:
    """The ladder: the club's name, a legend in sentences, the chart of the ``top``
    players (default 5), the standings (sortable), the notes and the awards."""
    w = _language(result.rules)
    name = result.rules.club_name
    title = f"{name}: {w('ladder_title')}" if name else w("ladder_title")
    columns = [_Column(w(f"col_{key}"), key not in ("name", "k"))
               for key in ("rank", "name", "rating", "change", "games", "k")]  # fmt: skip
    rows = [
        [str(rank), s.name, f"{s.shown}?" if s.provisional else str(s.shown), signed(s.change),
         f"{s.games:,}", f"{s.k_next} {s.k_rule}".rstrip()]
        for rank, s in enumerate(result.standings, start=1)
    ]  # fmt: skip
    chart = ladder_chart(result, [s.name for s in result.standings[: top or 5]], w)
    body = [
        f"<header><h1>{esc(name or w('ladder_title'))}</h1>",
        f'<p class="sub">{esc(w("ladder_title"))}</p>' if name else "",
        _sentences(_legend(result, rules_file, w), "legend muted"),
        "</header>",
        f'<section class="ladder-chart"><h2>{esc(w("chart_ladder"))}</h2>{chart}</section>'
        if chart
        else "",
        f'<section class="standings"><h2>{esc(w("standings"))}</h2>',
        _table(columns, rows, "sortable ladder"),
        _sentences(_notes(result, w), "note"),
        "</section>",
        f'<section class="awards"><h2>{esc(w("awards"))}</h2>{_awards(result, w)}</section>',
        _footer(w),
    ]
    return page(title, body, lang=w.language)


def club_player_html(
    s: Standing, recent: int, months: int, target: Target, rules: Rules | None = None
) -> str:
    """One player's own page: their rating, a chart of it after each event with the next
    target, the change over the last ``months`` months and their history only."""
    w = _language(rules)
    club = rules.club_name if rules is not None else None
    mark = f" ({w('provisional_mark')})" if s.provisional else ""
    headline = w("headline", name=s.name, rating=f"{s.shown}{mark}",
                 games=w.count(s.games, "games"))  # fmt: skip
    by = w("target_by", date=target.by.isoformat()) if target.by else ""
    goal = w("target", rating=target.rating, step=target.step, by=by, k=target.k,
             wins=w.count(target.wins_needed, "wins"), count=target.wins_needed,
             gain=w.number(float(target.gain_per_win)))  # fmt: skip
    columns = [_Column(w("col_date"), False), _Column(w("col_event"), False),
               _Column(w("col_games")), _Column(w("col_points")), _Column(w("col_expected")),
               _Column(w("col_k"), False), _Column(w("col_rating_after"))]  # fmt: skip
    rows = [
        [e.day.isoformat(), e.period, str(e.games), points_text(e.points),
         f"{e.expected:.2f}".replace(".", w("decimal")), f"{e.k} {e.k_rule}".rstrip(),
         str(round(float(e.rating_after)))]
        for e in s.history
    ]  # fmt: skip
    title = w("player_title", name=s.name)
    body = [
        "<header>",
        f'<p class="sub">{esc(club)}</p>' if club else "",
        f'<h1>{esc(s.name)}</h1><p class="headline">{esc(headline)}</p></header>',
        f'<section class="progress"><h2>{esc(w("chart_player"))}</h2>',
        player_chart(s, target, w),
        f'<p class="recent">{esc(w("recent", months=months, change=signed(recent)))}</p>',
        f'<p class="goal">{esc(goal)}</p></section>',
        f'<section class="history"><h2>{esc(w("history"))}</h2>',
        _table(columns, rows, "cards") if s.history else f"<p>{esc(w('no_history'))}</p>",
        "</section>",
        _footer(w),
    ]
    return page(f"{club}: {title}" if club else title, body, lang=w.language)
