"""The page's rating chart: inline SVG made from the report's JSON document (an edge module).

Game ``i`` of ``n`` is drawn over ``[i, i + 1]`` of the width: the Lichess line goes from its
rating before the game to the rating after (rating + ratingDiff); the FIDE-rules track is
flat through each rating period at its start and steps to its end at the period's last
game. A jump between two games (a gap) is a dashed line; FIDE's one-time adjustment is a
violet step; the rating floor a dashed red line when the track comes near it; every period
starts at a thin vertical line. The SVG stretches to the width (``preserveAspectRatio
none``, strokes that keep their width); labels are HTML placed in percent, so zooming only
widens the plot. A history of more than ``MAX_POINTS`` games draws its Lichess line from
the lowest and highest rating of each run of games, and says so; the tooltip still shows
every game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from lichess_elo.core.fide.adjustments import COMPRESSION_2024
from lichess_elo.core.fide.wording import day_text
from lichess_elo.core.games import CHESSCOM, game_url
from lichess_elo.core.words import plural
from lichess_elo.output.html.page import esc, json_script

#: Games drawn one by one up to this many; beyond, runs of games share a low and a high point.
MAX_POINTS = 4000
#: Period labels shown along the bottom at the widest view (more appear when zoomed in).
LABELS_WANTED = 10
#: Period boundaries drawn at most (beyond: every k-th, said in the note).
MAX_BOUNDS = 600
_W, _H = 1000.0, 300.0


def _nice_step(span: float) -> int:
    raw = max(span / 6, 1)
    base = 10 ** math.floor(math.log10(raw))
    return int(next(m * base for m in (1, 2, 5, 10) if m * base >= raw))


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _lichess_points(before: Sequence[int], after: Sequence[int]) -> tuple[str, str, int]:
    """The Lichess line and its gap jumps as SVG path data (x in game units), and how many
    games one drawn point stands for (1: every game)."""
    n = len(before)
    jumps = [i for i in range(1, n) if before[i] != after[i - 1]]
    gaps = "".join(f"M{i} {after[i - 1]}V{before[i]}" for i in jumps)
    if n <= MAX_POINTS:
        parts = [f"M0 {before[0]}"]
        for i in range(n):
            if i and before[i] != after[i - 1]:
                parts.append(f"M{i} {before[i]}")
            parts.append(f"L{i + 1} {after[i]}")
        return "".join(parts), gaps, 1
    run = math.ceil(n / (MAX_POINTS // 2))
    parts = []
    for start in range(0, n, run):
        stop = min(n, start + run)
        values = [before[start]] + [after[i] for i in range(start, stop)]
        low, high = min(values), max(values)
        first, second = (low, high) if values.index(low) <= values.index(high) else (high, low)
        parts.append(f"{'M' if not parts else 'L'}{start} {first}L{stop} {second}")
    return "".join(parts), gaps, run


def _fide_path(spans: Sequence[tuple[int, int, Mapping[str, Any]]]) -> tuple[str, str]:
    """The FIDE-rules track by period, and the adjustment steps, as path data."""
    parts: list[str] = []
    adjust: list[str] = []
    for a, b, p in spans:
        start, end = p["elo"]["start"], p["elo"]["end"]
        adjustment = p.get("adjustment")
        if adjustment is not None:
            adjust.append(f"M{a} {adjustment['from']}V{start}")
        parts.append(f"{'M' if not parts else 'L'}{a} {start}H{b}V{end}")
    return "".join(parts), "".join(adjust)


def _scaled(path: str, n: int, lo: float, hi: float) -> str:
    """Path data in game units and rating points, mapped onto the 1000 × 300 view."""
    out, number, axis = [], "", "x"
    sx, sy = _W / n, _H / (hi - lo)

    def flush() -> None:
        nonlocal number
        if number:
            v = float(number)
            out.append(_fmt(v * sx) if axis == "x" else _fmt((hi - v) * sy))
            number = ""

    for ch in path + " ":
        if ch.isdigit() or ch in ".-":
            number += ch
            continue
        was = axis
        flush()
        if ch in "MLH":
            axis = "x"
        elif ch == "V":
            axis = "y"
        elif ch == " ":
            axis = "y" if was == "x" else "x"
            out.append(" ")
            continue
        out.append(ch)
    return "".join(out).strip()


def _path(css: str, data: str) -> str:
    return f'<path class="{css}" d="{data}" vector-effect="non-scaling-stroke"/>'


def _spans(
    games: Sequence[Mapping[str, Any]], periods: Sequence[Mapping[str, Any]]
) -> list[tuple[int, int, Mapping[str, Any]]]:
    """Each period with the first game index and one past its last."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for i, g in enumerate(games):
        first.setdefault(g["period"], i)
        last[g["period"]] = i + 1
    return [(first[p["period"]], last[p["period"]], p) for p in periods if p["period"] in first]


def _site_key(game: Mapping[str, Any]) -> str:
    """The key of a game's site block (``chesscom``): the one holding ``after``."""
    return next(k for k, v in game.items() if isinstance(v, dict) and "after" in v)


def chart_html(
    element_id: str,
    report: Mapping[str, Any],
    rows: Sequence[Sequence[str]],
    columns: Sequence[tuple[str, str]],
) -> str:
    """The chart of one perf (``report``: one item of the JSON document's ``reports``), its
    key, zoom buttons and its data block: ``rows`` are the games table's cells under
    ``columns`` (header, alignment), for the tooltip and the games table."""
    games, periods = report["games"], report["periods"]
    n = len(games)
    if games and "lichess" not in games[0]:  # another site's block: rating after published
        blocks = [g[_site_key(g)] for g in games]
        after = [b["after"] for b in blocks]
        before = [
            a if b["rating"] is None else b["rating"] for a, b in zip(after, blocks, strict=True)
        ]
    else:
        before = [g["lichess"]["rating"] for g in games]
        after = [g["lichess"]["rating"] + (g["lichess"]["diff"] or 0) for g in games]
    spans = _spans(games, periods)
    fide = [0] * n
    for a, b, p in spans:
        fide[a:b] = [p["elo"]["start"]] * (b - a)
    floors = {p["floor"] for p in periods if p.get("floor") is not None}
    lo, hi = _value_range(before + after + fide, periods, floors)
    line, gaps, run = _lichess_points(before, after)
    track, adjust = _fide_path(spans)
    step = _nice_step(hi - lo)
    ticks = range(math.ceil(lo / step) * step, hi + 1, step)
    bound_every = max(1, math.ceil(len(spans) / MAX_BOUNDS))
    bounds = "".join(f"M{a} {lo}V{hi}" for k, (a, _, _) in enumerate(spans) if k % bound_every == 0)

    svg = _svg(
        n,
        lo,
        hi,
        ticks,
        floors,
        {"bound": bounds, "gap": gaps, "lichess": line, "adjust": adjust, "fide": track},
    )
    every = max(1, math.ceil(len(spans) / 2000))
    labels = "".join(
        f'<span data-k="{k // every}" style="left:{a / n * 100:.3f}%">{esc(p["period"])}</span>'
        for k, (a, _, p) in enumerate(spans)
        if k % every == 0
    )
    yaxis = "".join(
        f'<span style="top:{(hi - t) / (hi - lo) * 100:.2f}%">{t}</span>' for t in ticks
    )
    table = _table_data(rows, columns)
    data = _chart_data(
        report, (before, after, fide), (lo, hi), table, math.ceil(len(spans) / every)
    )
    key = _key(bool(gaps), bool(adjust), any(lo <= f <= hi for f in floors))
    note = _notes(n, run, bound_every, len(spans))
    if "site" in data:  # another site's line: its name, never Lichess's
        name = data["site"]["name"]
        svg = svg.replace("Lichess and FIDE rules", f"{name} and FIDE rules")
        key = key.replace("Lichess rating, game by game", f"{name} rating, game by game")
        note = note.replace("the Lichess line", f"the {name} line")
    return (
        f'{key}<div class="chart" data-data="{esc(element_id)}" data-games="{n}">'
        f'<div class="yaxis">{yaxis}</div><div class="scroll">'
        f'<div class="plot" tabindex="0" aria-label="Chart: hover, tap or use the arrow keys '
        f'to see each game">{svg}<div class="xaxis">{labels}</div>'
        '<div class="dot l"></div><div class="dot f"></div></div></div>'
        '<div class="tip" role="status"></div></div>'
        '<div class="controls"><button type="button" data-zoom="in">Zoom in</button>'
        '<button type="button" data-zoom="out">Zoom out</button>'
        '<button type="button" data-zoom="fit">Whole history</button>'
        '<span class="muted">Hover or tap a game; scroll sideways when zoomed.</span></div>'
        f"{note}{json_script(element_id, data)}"
    )


def _svg(n: int, lo: int, hi: int, ticks: range, floors: set[int], paths: Mapping[str, str]) -> str:
    """The plot: grid lines at ``ticks``, the floors in range, and ``paths`` (path data in
    game units and rating points, by CSS class; an empty one is left out)."""

    def y(value: float) -> str:
        return _fmt((hi - value) * _H / (hi - lo))

    def scaled(css: str) -> str:
        return _path(css, _scaled(paths[css], n, lo, hi)) if paths[css] else ""

    return "".join(
        [
            f'<svg viewBox="0 0 {_W:.0f} {_H:.0f}" preserveAspectRatio="none" role="img" '
            'aria-label="Ratings game by game: Lichess and FIDE rules">',
            *(_path("grid", f"M0 {y(t)}H{_W:.0f}") for t in ticks),
            _path("bound", _scaled(paths["bound"], n, lo, hi)),
            *(_path("floor", f"M0 {y(f)}H{_W:.0f}") for f in sorted(floors) if lo <= f <= hi),
            scaled("gap"),
            _path("lichess", _scaled(paths["lichess"], n, lo, hi)),
            scaled("adjust"),
            _path("fide", _scaled(paths["fide"], n, lo, hi)),
            f'<line class="cursor" x1="0" x2="0" y1="0" y2="{_H:.0f}" '
            'vector-effect="non-scaling-stroke"/>',
            "</svg>",
        ]
    )


def _chart_data(
    report: Mapping[str, Any],
    ratings: tuple[list[int], list[int], list[int]],
    limits: tuple[int, int],
    table: Mapping[str, Any],
    label_count: int,
) -> dict[str, Any]:
    """The chart's data block for the page's script: the range, the ratings game by game
    (Lichess before and after, FIDE rules), the periods, the gaps' words, the games table
    (``_table_data``) and the zoom."""
    games = report["games"]
    n = len(games)
    before, after, fide = ratings
    return {
        "lo": limits[0],
        "hi": limits[1],
        "before": before,
        "after": after,
        "fide": fide,
        "period": [g["period"] for g in games],
        "periodName": report["settings"]["period"],
        "gap": [_gap_words(g) for g in games],
        **table,
        "labelCount": label_count,
        "labelsWanted": LABELS_WANTED,
        "maxZoom": max(1, 2 ** math.ceil(math.log2(max(n / 40, 1)))),
        **_site_data(columns_of(table)),
    }


def columns_of(table: Mapping[str, Any]) -> list[str]:
    """The games table's column headers in the chart's data block."""
    cols = table.get("cols", [])
    return [c if isinstance(c, str) else c[0] for c in cols]


def _site_data(columns: Sequence[str]) -> dict[str, Any]:
    """The tooltip's site (name, its two columns, the game page's address) for a site other
    than Lichess (the page's script takes Lichess's when the block has none)."""
    if "Chess.com" not in columns:
        return {}
    change = next(c for c in columns if c.startswith("Chess.com ±"))
    return {
        "site": {
            "name": "Chess.com",
            "col": "Chess.com",
            "change": change,
            "url": game_url("", CHESSCOM),
        }
    }


def _table_data(
    rows: Sequence[Sequence[str]], columns: Sequence[tuple[str, str]]
) -> dict[str, Any]:
    """The games table's part of the data block: its columns, their alignment, which one
    links to the game, and the rows."""
    names = [name for name, _ in columns]
    return {
        "cols": names,
        "align": [align for _, align in columns],
        "link": names.index("Game"),
        "rows": rows,
    }


def _value_range(
    ratings: list[int], periods: Sequence[Mapping[str, Any]], floors: set[int]
) -> tuple[int, int]:
    """The chart's lowest and highest rating, padded: the games' ratings (``ratings``),
    each period's end and adjustment, and the floors when the track comes near one."""
    values = ratings + [p["elo"]["end"] for p in periods]
    values += [p["adjustment"]["from"] for p in periods if p.get("adjustment")]
    lo, hi = min(values), max(values)
    near = [f for f in floors if lo - 0.25 * max(hi - lo, 50) <= f <= hi]
    if near or any(p.get("below_floor") for p in periods):
        values += list(floors)
        lo, hi = min(values), max(values)
    pad = max((hi - lo) * 0.06, 10)
    return math.floor(lo - pad), math.ceil(hi + pad)


def _key(gaps: bool, adjust: bool, floor: bool) -> str:
    """The chart's key: the two lines, then only the marks this chart draws."""
    return (
        '<div class="key"><span><i class="l"></i>Lichess rating, game by game</span>'
        '<span><i class="f"></i>FIDE rules, by rating period</span>'
        + ('<span><i class="g"></i>a jump between two games (gap)</span>' if gaps else "")
        + (
            '<span><i class="a"></i>FIDE\'s one-time adjustment of '
            f"{day_text(COMPRESSION_2024.day, long=True)}</span>"
            if adjust
            else ""
        )
        + (
            '<span><i class="fl"></i>the rating floor (FIDE lists no rating below it)</span>'
            if floor
            else ""
        )
        + '<span><i class="b"></i>a new rating period starts</span></div>'
    )


def _notes(n: int, run: int, bound_every: int, periods: int) -> str:
    """The notes under a chart that leaves things out: the Lichess line drawn by runs of
    ``run`` games, or only every ``bound_every``-th period line."""
    notes = []
    if run > 1:
        notes.append(
            f"{plural(n, 'game')}: too many to draw one by one, so the Lichess line is drawn "
            f"from the lowest and highest rating of each run of {run} games. Hovering still "
            "shows every game; zoom in for detail."
        )
    if bound_every > 1:
        notes.append(f"Period lines: every {bound_every}th of {periods} periods is drawn.")
    return "".join(f'<p class="note decimated">{esc(t)}</p>' for t in notes)


def _gap_words(game: Mapping[str, Any]) -> str:
    gap = game.get("gap_before")
    if not gap:
        return ""
    why = (
        "the game started before the previous one ended"
        if game.get("gap_cause") == "overlap"
        else "a game not held here, or a rating adjustment"
    )
    return f"Lichess moved {gap:+d} just before this game ({why})."
