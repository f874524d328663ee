"""Terminal, JSON and CSV output for the commands (an edge module: it writes text, no maths).

The shared helpers at the top are used by every command; below them each command owner has
one marked section.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rich.console import Console


def console() -> Console:
    """Return a rich Console writing to stdout (plain text when stdout is not a terminal)."""
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


def err_console() -> Console:
    """Return a rich Console writing to stderr (progress bars, warnings)."""
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def dump_json(obj: Any) -> str:
    """Serialise ``obj`` as indented JSON; numbers stay numbers (Decimal becomes a number too)."""
    return json.dumps(obj, indent=2, ensure_ascii=False, default=_json_default)


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__} as JSON")


def write_csv(rows: Iterable[Mapping[str, Any]], fieldnames: Sequence[str]) -> str:
    """Return ``rows`` as CSV text with a header line (``\\n`` line endings)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(fieldnames), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return buffer.getvalue()


# --- calc ---

from lichess_elo import fide  # noqa: E402  (the calc section keeps its own import)

_K_RULES = {
    "given": "given with --k",
    "2400": "rating 2400 or more: K 10 for good (FIDE 8.3.3)",
    "junior": "junior: through the year of the 18th birthday, rating below 2300 (FIDE 8.3.3)",
    "new": "new player: fewer than 30 rated games (FIDE 8.3.3)",
    "standard": "30 or more rated games, rating below 2400 (FIDE 8.3.3)",
}


def _calc_num(value: Decimal) -> str:
    """At most two decimals, at least one, sign always shown: +7.2, -8.57, +5.55, 0.0."""
    rounded = value.quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    if rounded == 0:
        return "0.0"
    text = f"{rounded:+.2f}"
    return text[:-1] if text.endswith("0") else text


def _calc_int(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _calc_score(score: Decimal) -> str:
    return "0.5" if score == Decimal("0.5") else str(int(score))


def _calc_pd(value: Decimal, method: fide.Method) -> str:
    places = "0.01" if method == "table" else "0.0001"
    return str(value.quantize(Decimal(places), rounding="ROUND_HALF_UP"))


def calc_k_text(result: fide.PeriodResult, rule: str, *, games_assumed: bool) -> str:
    """Say which K applied and why, including the 700 rule when it cut K."""
    text = f"K {result.k_requested}: {_K_RULES.get(rule, rule)}"
    if games_assumed:
        text += "; 30 rated games assumed, pass --games N or --k N"
    if result.k_limited:
        n = len(result.games)
        text += (
            f"\n700 rule: {n} games x K {result.k_requested} = {n * result.k_requested} > 700,"
            f" so K {result.k} (FIDE 8.3.3)"
        )
    return text


def calc_table(result: fide.PeriodResult, rule: str, *, games_assumed: bool) -> str:
    """The rating period as a text table: one row per game, then the totals."""
    method = "table 8.1.2" if result.method == "table" else "the logistic formula"
    if not result.cap:
        cap = "400-point rule off (--no-cap)"
    elif result.rating >= fide.CAP_EXEMPT_FROM:
        cap = "no 400-point rule (rated 2650 or more)"
    else:
        cap = "400-point rule on"
    lines = [
        f"FIDE rating period for {result.rating}: {len(result.games)} game(s), "
        f"expected score from {method}, {cap}",
        f"{'#':>3}  {'opponent':>8}  {'score':>5}  {'D':>6}  {'PD':>6}  {'change':>7}",
    ]
    for i, game in enumerate(result.games, 1):
        diff = f"{game.difference:+d}" + ("*" if game.capped else " ")
        lines.append(
            f"{i:>3}  {game.opponent:>8}  {_calc_score(game.score):>5}  {diff:>6}  "
            f"{_calc_pd(game.expected, result.method):>6}  {_calc_num(game.change):>7}"
        )
    lines.append(
        f"{'total':>13}  {_calc_score_total(result.points):>5}  {'':>6}  "
        f"{_calc_pd(result.expected, result.method):>6}  {_calc_num(result.change):>7}"
    )
    if any(game.capped for game in result.games):
        lines.append("* difference over 400 counted as 400 (FIDE 8.3.1, player below 2650)")
    lines += [
        calc_k_text(result, rule, games_assumed=games_assumed),
        f"rounded change: {_calc_int(result.rounded_change)} "
        f"(period total {_calc_num(result.change)} rounded once, 0.5 away from zero)",
        f"new rating: {result.new_rating}",
        f"performance rating: {result.performance}",
    ]
    return "\n".join(lines)


def _calc_score_total(points: Decimal) -> str:
    return f"{points.normalize():f}"


def calc_json(result: fide.PeriodResult, rule: str, *, games_assumed: bool) -> str:
    """The rating period as JSON; ``change`` is the unrounded period total."""
    return dump_json(
        {
            "rating": result.rating,
            "k": result.k,
            "k_requested": result.k_requested,
            "k_limited": result.k_limited,
            "k_rule": rule,
            "games_assumed": games_assumed,
            "method": result.method,
            "cap": result.cap,
            "games": [
                {
                    "opponent": g.opponent,
                    "score": float(g.score),
                    "difference": g.difference,
                    "capped": g.capped,
                    "expected": float(g.expected),
                    "change": float(g.change),
                }
                for g in result.games
            ],
            "points": float(result.points),
            "expected": float(result.expected),
            "change": float(result.change),
            "rounded_change": result.rounded_change,
            "new_rating": result.new_rating,
            "performance": result.performance,
        }
    )


def calc_initial_table(details: fide.InitialRating, performance: int | None) -> str:
    """The initial rating (FIDE 8.2) step by step as text."""
    n = len(details.games)
    lines = [
        f"FIDE initial rating (8.2, 2024 rule) from {n} games against rated opponents",
        f"{'#':>3}  {'opponent':>8}  {'score':>5}",
    ]
    for i, game in enumerate(details.games, 1):
        lines.append(f"{i:>3}  {game.opponent:>8}  {_calc_score(game.score):>5}")
    total = (
        sum(g.opponent for g in details.games)
        + fide.HYPOTHETICAL_DRAWS * fide.HYPOTHETICAL_OPPONENT
    )
    average = details.average.quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    unrounded = details.unrounded.quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    lines += [
        f"points {_calc_score_total(details.points)} of {n}, plus 2 hypothetical draws "
        f"against {fide.HYPOTHETICAL_OPPONENT}",
        f"Ra = {total} / {n + fide.HYPOTHETICAL_DRAWS} = {average}",
        f"p = {_calc_score_total(details.points + 1)} / {n + fide.HYPOTHETICAL_DRAWS}"
        f" = {details.p} -> dp {details.dp:+d} (table 8.1.1)",
        f"Ru = Ra + dp = {unrounded} -> {details.rating}"
        + (f" (at most {fide.INITIAL_RATING_MAX})" if details.at_maximum else ""),
        f"initial rating: {details.rating}",
    ]
    if not details.publishable:
        lines.append(f"below {fide.PUBLICATION_FLOOR}: FIDE would not publish this rating (7.1.4)")
    lines.append(f"performance rating (real games only): {performance}")
    return "\n".join(lines)


def calc_initial_json(details: fide.InitialRating, performance: int | None) -> str:
    """The initial rating as JSON; ``new_rating`` is the initial rating."""
    return dump_json(
        {
            "rating": None,
            "unrated": True,
            "k": None,
            "method": "table",
            "games": [{"opponent": g.opponent, "score": float(g.score)} for g in details.games],
            "points": float(details.points),
            "hypothetical_draws": fide.HYPOTHETICAL_DRAWS,
            "hypothetical_opponent": fide.HYPOTHETICAL_OPPONENT,
            "average": float(details.average),
            "p": float(details.p),
            "dp": details.dp,
            "change": None,
            "rounded_change": None,
            "new_rating": details.rating,
            "at_maximum": details.at_maximum,
            "publishable": details.publishable,
            "performance": performance,
        }
    )


# --- glicko ---

if TYPE_CHECKING:
    from lichess_elo.glicko import Rating, SideResult


def _glicko_rating(r: Rating) -> dict[str, float]:
    return {"rating": r.rating, "deviation": r.deviation, "volatility": r.volatility}


def glicko_json(white: SideResult, black: SideResult) -> dict[str, Any]:
    """Return the ``glicko`` command's JSON object; ``after`` numbers are unrounded."""
    return {
        color: {
            "before": _glicko_rating(side.before),
            "after": _glicko_rating(side.after),
            "rating_diff": side.rating_diff,
        }
        for color, side in (("white", white), ("black", black))
    }


def _glicko_shown(r: Rating) -> str:
    """The rating as Lichess displays it: truncated, with "?" when provisional."""
    return f"{int(r.rating)}{'?' if r.provisional else ''}"


def glicko_heading(
    result: str, *, perf: str | None, factor: float, advantage: str, points: float, bot: str | None
) -> str:
    """Return the first line of the ``glicko`` table: result, regulator, advantage, BOT."""
    if perf is None:
        regulator = "no perf given, no regulator"
    elif factor == 1.0:
        regulator = f"perf {perf} (no regulator)"
    else:
        regulator = f"perf {perf} (gains x{factor:g})"
    colour = f"colour advantage {points} ({advantage})" if points else "no colour advantage"
    return f"Lichess Glicko-2: {result}, {regulator}, {colour}" + (
        f", {bot} is a BOT" if bot else ""
    )


def glicko_text(white: SideResult, black: SideResult, *, heading: str) -> str:
    """Return the ``glicko`` command's table: each side before and after, and the ratingDiff."""
    head = (
        f"{'':6} {'rating':>8} {'RD':>7} {'volatility':>10}"
        f"  ->  {'rating':>8} {'RD':>7} {'volatility':>10}   Lichess shows"
    )
    lines = [heading, "", f"{'':6} {'before':^27}      {'after':^27}", head]
    for color, side in (("White", white), ("Black", black)):
        b, a = side.before, side.after
        lines.append(
            f"{color:6} {b.rating:8.2f} {b.deviation:7.2f} {b.volatility:10.6f}"
            f"  ->  {a.rating:8.2f} {a.deviation:7.2f} {a.volatility:10.6f}"
            f"   {_glicko_shown(a)} ({side.rating_diff:+d})"
        )
    return "\n".join(line.rstrip() for line in lines)


# --- fetch ---
#
# ``lichess-elo fetch``: the progress bar (a ``lichess.Progress``) and the summary.
# ``fetch_document`` is the JSON contract (README "fetch").

from collections.abc import Iterator as _FetchIterator  # noqa: E402
from contextlib import contextmanager as _fetch_contextmanager  # noqa: E402

from rich.progress import BarColumn as _BarColumn  # noqa: E402
from rich.progress import MofNCompleteColumn as _MofNColumn  # noqa: E402
from rich.progress import Progress as _RichProgress  # noqa: E402
from rich.progress import TextColumn as _TextColumn  # noqa: E402
from rich.progress import TimeElapsedColumn as _ElapsedColumn  # noqa: E402
from rich.table import Table as _FetchTable  # noqa: E402

if TYPE_CHECKING:
    from lichess_elo.lichess import FetchResult


class FetchBar:
    """Months done of the total, games so far, the last month and any wait (on stderr)."""

    def __init__(self, bar: _RichProgress | None) -> None:
        self._bar = bar
        self._task: Any = None

    def start(self, total_months: int) -> None:
        """Show the bar with ``total_months`` steps."""
        if self._bar is not None:
            self._task = self._bar.add_task("months", total=total_months, games=0, note="")

    def month(self, label: str, done: int, games_so_far: int, from_cache: bool) -> None:
        """Advance to ``done`` months; ``label`` is the month just read."""
        if self._bar is not None and self._task is not None:
            note = "(cache)" if from_cache else ""
            self._bar.update(
                self._task, completed=done, games=games_so_far, description=label, note=note
            )

    def waiting(self, seconds: float, reason: str) -> None:
        """Show a wait (HTTP 429 or a retry backoff)."""
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, note=f"waiting {seconds:.3g} s: {reason}")


@_fetch_contextmanager
def fetch_progress(quiet: bool) -> _FetchIterator[FetchBar]:
    """A progress bar on stderr; silent when ``quiet`` or stderr is not a terminal."""
    err = err_console()
    if quiet or not err.is_terminal:
        yield FetchBar(None)
        return
    bar = _RichProgress(
        _TextColumn("{task.description:>8}"),
        _BarColumn(),
        _MofNColumn(),
        _TextColumn("months  {task.fields[games]} games {task.fields[note]}"),
        _ElapsedColumn(),
        console=err,
        transient=True,
    )
    with bar:
        yield FetchBar(bar)


def fetch_document(result: FetchResult) -> dict[str, Any]:
    """The ``fetch --format json`` document: user, games, perfs, months, cache (+ split)."""
    split: dict[str, dict[str, int]] = {}
    for game in result.games:
        counts = split.setdefault(game.perf, {"rated": 0, "casual": 0})
        counts["rated" if game.rated else "casual"] += 1
    order = sorted(split, key=lambda p: (-(split[p]["rated"] + split[p]["casual"]), p))
    return {
        "user": result.user.username,
        "games": len(result.games),
        "perfs": {p: split[p]["rated"] + split[p]["casual"] for p in order},
        "months": {
            "total": result.months_total,
            "from_network": result.months_from_network,
            "from_cache": result.months_from_cache,
        },
        "cache": str(result.cache_path),
        "split": {p: split[p] for p in order},
    }


def print_fetch_summary(result: FetchResult, *, replay: bool) -> None:
    """Print the table summary of a fetch on stdout."""
    doc = fetch_document(result)
    out = console()
    months = doc["months"]
    got = "from the cassette" if replay else "fetched"
    out.print(
        f"{doc['user']}: {doc['games']} games in {months['total']} months "
        f"({months['from_network']} {got}, {months['from_cache']} from the cache)"
    )
    if doc["games"]:
        table = _FetchTable(box=None, pad_edge=False)
        for name in ("perf", "rated", "casual", "total"):
            table.add_column(name, justify="left" if name == "perf" else "right")
        for perf, counts in doc["split"].items():
            total = counts["rated"] + counts["casual"]
            table.add_row(perf, str(counts["rated"]), str(counts["casual"]), str(total))
        out.print(table)
    label = "replayed from" if replay else "cache"
    out.print(f"{label}: {doc['cache']}")


# --- games ---
#
# ``lichess-elo games``: one row per game, oldest first. ``games_document`` is the JSON
# contract (README "games"): every key always present, numbers as numbers.

from rich.box import SIMPLE_HEAD as _games_box  # noqa: E402
from rich.table import Table as _GamesTable  # noqa: E402

if TYPE_CHECKING:
    from lichess_elo.replay import Ending, ListedGame

ENDING_LABELS: dict[str, str] = {
    "lost_on_time_ahead": "lost on time, ahead",
    "won_on_time_behind": "won on time, behind",
    "resigned_not_behind": "resigned, not behind",
    "won_by_timeout": "opponent left",
    "lost_by_timeout": "left the game",
    "decided_quickly": "within 10 plies",
}
_GAMES_CSV_FIELDS = (
    "id",
    "played_at",
    "perf",
    "rated",
    "color",
    "opponent",
    "opponent_rating",
    "score",
    "status",
    "rating",
    "diff",
    "provisional",
    "valid",
    "plies",
    "error",
    "material",
    "status_agrees",
    "ended",
)


def _games_iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _games_row(row: ListedGame) -> dict[str, Any]:
    game, color, facts = row.game, row.color, row.facts
    me, them = game.side(color), game.opponent(color)
    return {
        "id": game.id,
        "played_at": _games_iso(game.created_at),
        "perf": game.perf,
        "rated": game.rated,
        "color": color,
        "opponent": them.name or them.label,  # the name without title; "AI level 3"
        "opponent_rating": them.rating,
        "score": game.score(color),
        "status": game.status,
        "lichess": {"rating": me.rating, "diff": me.rating_diff, "provisional": me.provisional},
        "replay": {
            "valid": facts.valid,
            "plies": facts.plies,
            "error": facts.error,
            "final_fen": facts.final_fen,
            "checkmate": facts.checkmate,
            "stalemate": facts.stalemate,
            "insufficient_material": facts.insufficient_material,
            "material": facts.material(color),
            "status_agrees": facts.status_agrees,
        },
        "ended": list(row.ended),
    }


def games_document(user: str, rows: Sequence[ListedGame]) -> dict[str, Any]:
    """The ``games --format json`` document: ``{"user", "games": [...]}``, oldest first."""
    return {"user": user, "games": [_games_row(row) for row in rows]}


def games_csv(rows: Sequence[ListedGame]) -> str:
    """One CSV line per game (the JSON's fields, flattened; ``ended`` joined by ``;``)."""
    flat = []
    for row in rows:
        item = _games_row(row)
        lichess, replayed = item.pop("lichess"), item.pop("replay")
        item.update(lichess)
        item.update(
            {k: replayed[k] for k in ("valid", "plies", "error", "material", "status_agrees")}
        )
        item["ended"] = ";".join(item["ended"])
        flat.append(item)
    return write_csv(flat, _GAMES_CSV_FIELDS)


def _games_result(score: float | None) -> str:
    return {1.0: "won", 0.5: "draw", 0.0: "lost"}.get(score, "-") if score is not None else "-"


def _games_ended(ended: Sequence[Ending]) -> str:
    return ", ".join(ENDING_LABELS[e] for e in ended)


def print_games(user: str, rows: Sequence[ListedGame], out: Console) -> None:
    """The ``games`` table, then a one-line summary (games, invalid, endings found)."""
    table = _GamesTable(title=f"Games of {user}", title_justify="left", box=_games_box)
    for name, justify in (
        ("Date", "left"),
        ("Perf", "left"),
        ("Col", "left"),
        ("Opponent", "left"),
        ("Opp", "right"),
        ("Result", "left"),
        ("Status", "left"),
        ("Rating", "right"),
        ("Diff", "right"),
        ("Plies", "right"),
        ("Ended", "left"),
        ("", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    invalid = 0
    for row in rows:
        game, color, facts = row.game, row.color, row.facts
        me, them = game.side(color), game.opponent(color)
        invalid += not facts.valid
        table.add_row(
            game.created_at.strftime("%Y-%m-%d %H:%M"),
            game.perf + ("" if game.rated else " (casual)"),
            color,
            them.label,
            "" if them.rating is None else str(them.rating),
            _games_result(game.score(color)),
            game.status,
            "" if me.rating is None else f"{me.rating}{'?' if me.provisional else ''}",
            "" if me.rating_diff is None else f"{me.rating_diff:+d}",
            str(facts.plies),
            _games_ended(row.ended),
            "" if facts.valid else f"INVALID: {facts.error}",
        )
    if not out.is_terminal:
        out.width = max(out.width, 240)  # a file or pipe gets every column unabridged
    out.print(table)
    counts: dict[str, int] = {}
    for row in rows:
        for ending in row.ended:
            counts[ending] = counts.get(ending, 0) + 1
    found = "; ".join(f"{ENDING_LABELS[k]}: {v}" for k, v in counts.items())
    games = f"{len(rows)} game" + ("" if len(rows) == 1 else "s")
    out.print(f"{games}, {invalid} invalid" + (f"; {found}" if found else ""))


# --- report ---
#
# The report's three outputs. ``report_document`` is the JSON contract (README "JSON
# format"): games oldest first, numbers as numbers, every key always present.

from collections.abc import Callable as _ReportCallable  # noqa: E402  (kept in this section)
from collections.abc import Iterator as _ReportIterator  # noqa: E402
from contextlib import contextmanager as _report_contextmanager  # noqa: E402
from datetime import UTC  # noqa: E402

from rich import box as _report_box  # noqa: E402
from rich.progress import BarColumn as _ReportBar  # noqa: E402
from rich.progress import MofNCompleteColumn as _ReportMofN  # noqa: E402
from rich.progress import Progress as _ReportProgress  # noqa: E402
from rich.progress import TextColumn as _ReportText  # noqa: E402
from rich.table import Table as _ReportTable  # noqa: E402

if TYPE_CHECKING:
    from lichess_elo.report import GameRow, PerfReport, PeriodRow
    from lichess_elo.summary import Disagreement


def _num(value: Decimal | None, places: int = 2) -> float | int | None:
    """A Decimal as a JSON number: an int when whole, else a float rounded to ``places``."""
    if value is None:
        return None
    number = float(value)
    return int(number) if number.is_integer() else round(number, places)


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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
        "since": _iso(s.since) if s.since else None,
        "until": _iso(s.until) if s.until else None,
    }


def _game_json(row: GameRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "url": row.url,
        "played_at": _iso(row.played_at),
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
        "gaps": [{"before": g.before, "size": g.size} for g in p.gaps],
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


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=_json_default)


def report_json(user: str, reports: Sequence[PerfReport]) -> str:
    """``report_document`` as JSON text: indented, with one game or period per line.

    (``json.dumps(indent=...)`` runs Python's slow encoder; a line per game keeps the file
    readable and lets the C encoder write 20,000 games in a fraction of the time.)
    """
    doc = report_document(user, reports)
    blocks = []
    for report in doc["reports"]:
        lines = []
        for key, value in report.items():
            if key in ("games", "periods") and value:
                rows = ",\n        ".join(_compact(v) for v in value)
                lines.append(f'      "{key}": [\n        {rows}\n      ]')
            elif key in ("settings", "summary"):
                inner = json.dumps(value, indent=2, ensure_ascii=False, default=_json_default)
                lines.append(f'      "{key}": ' + inner.replace("\n", "\n      "))
            else:
                lines.append(f'      "{key}": {_compact(value)}')
        blocks.append("    {\n" + ",\n".join(lines) + "\n    }")
    reports_text = "[\n" + ",\n".join(blocks) + "\n  ]" if blocks else "[]"
    return f'{{\n  "user": {_compact(doc["user"])},\n  "reports": {reports_text}\n}}\n'


REPORT_GAME_FIELDS = (
    "perf", "id", "url", "played_at", "period", "color", "opponent", "opponent_title",
    "opponent_rating",
    "opponent_provisional", "score", "status", "endings", "lichess_rating", "lichess_diff",
    "provisional", "elo_rating", "expected", "k", "elo_change", "replay_valid", "plies",
    "gap_before", "flags",
)  # fmt: skip
REPORT_PERIOD_FIELDS = (
    "perf", "period", "games", "score", "expected", "performance", "games_before", "k",
    "k_requested", "k_reason", "k_700_rule", "elo_start", "elo_change", "elo_change_exact",
    "elo_end", "lichess_start", "lichess_change", "lichess_end", "difference",
    "change_difference", "gap_count", "gap_points", "gap_before_start", "long_break",
)  # fmt: skip


def report_csv(reports: Sequence[PerfReport], view: str) -> str:
    """CSV, one row per game (``view == "games"``) or per period (otherwise)."""
    rows: list[dict[str, Any]] = []
    for r in reports:
        if view == "games":
            for g in r.games:
                row = {k: getattr(g, k, None) for k in REPORT_GAME_FIELDS}
                row.update(
                    perf=r.perf,
                    played_at=_iso(g.played_at),
                    score=_num(g.score),
                    expected=_num(g.expected, 4),
                    elo_change=_num(g.elo_change, 4),
                    endings=" ".join(g.endings),
                    flags=" ".join(g.flags),
                )
                rows.append(row)
        else:
            for p in r.periods:
                row = _period_json(p)
                rows.append(
                    {
                        "perf": r.perf,
                        **{k: row[k] for k in REPORT_PERIOD_FIELDS[1:11]},
                        "elo_start": p.elo_start,
                        "elo_change": p.elo_change,
                        "elo_change_exact": _num(p.elo_change_exact, 4),
                        "elo_end": p.elo_end,
                        "lichess_start": p.lichess_start,
                        "lichess_change": p.lichess_change,
                        "lichess_end": p.lichess_end,
                        "difference": p.difference,
                        "change_difference": p.change_difference,
                        "gap_count": len(p.gaps),
                        "gap_points": sum(g.size for g in p.gaps),
                        "gap_before_start": p.gap_before_start,
                        "long_break": p.long_break,
                    }
                )
    fields = REPORT_GAME_FIELDS if view == "games" else REPORT_PERIOD_FIELDS
    return write_csv(rows, fields)


def _signed(value: int | Decimal | None, places: int = 0) -> str:
    if value is None:
        return "-"
    if value == 0:
        return "0"
    return f"{value:+.{places}f}" if places else f"{int(value):+d}"


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
    return f"{start}→{end} ({_signed(change)})"


def _periods_table(report: PerfReport) -> _ReportTable:
    table = _ReportTable(
        title=f"{report.perf}: FIDE Elo ({report.settings.track} track) vs Lichess, "
        f"by {report.settings.period}",
        box=_report_box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),  # with the box's blank divider: 2 spaces between columns
        show_edge=False,
    )
    table.add_column("Period", no_wrap=True)
    for name in ("Games", "Score", "ΣE", "Perf"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("K", no_wrap=True)
    table.add_column("FIDE Elo", justify="right", no_wrap=True)
    table.add_column("Lichess", justify="right", no_wrap=True)
    table.add_column("Diff", justify="right", no_wrap=True)
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
            _signed(p.difference),
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


def _games_table(report: PerfReport) -> _ReportTable:
    table = _ReportTable(
        title=f"{report.perf}: games, oldest first",
        box=_report_box.SIMPLE_HEAD,
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
            _signed(g.lichess_diff),
            str(g.elo_rating),
            f"{g.expected:.2f}",
            str(g.k),
            _signed(g.elo_change, 1),
            " ".join(g.flags),
        )
    return table


def _summary_lines(report: PerfReport, full: bool) -> list[str]:
    s = report.summary
    gaps = f", {_signed(s.lichess_gaps)} in {s.gap_count} gaps" if s.gap_count else ""
    lines = [
        f"[bold]{report.perf}[/bold]: {s.games} games in {s.periods} "
        f"{report.settings.period}{'s' if s.periods != 1 else ''}",
        (
            f"  FIDE Elo  {s.elo_start} → [bold]{s.elo_final}[/bold] ({_signed(s.elo_change)})"
            f", peak {s.elo_peak}"
            if report.settings.track == "shadow"
            else f"  FIDE Elo  {_signed(s.elo_change)} over the periods, each restarted from "
            f"the Lichess rating (last ended at [bold]{s.elo_final}[/bold])"
        ),
        f"  Lichess   {s.lichess_start} → [bold]{s.lichess_final}[/bold] "
        f"({_signed(s.lichess_change)} in games{gaps}), peak {s.lichess_peak}",
    ]
    if s.correlation is not None and s.mean_abs_difference is not None:
        lines.append(
            f"  Per game: correlation {s.correlation:.2f}, "
            f"mean absolute difference {s.mean_abs_difference:.1f} points"
        )
    if s.gap_count:
        lines.append("  Gaps: Lichess's rating jumped between games (missing games or adjustments)")
    if not full:
        return lines
    excluded = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in report.excluded.items() if n)
    lines.append(f"  Excluded games: {excluded or 'none'}")
    for title, items in (("games", s.top_games), ("periods", s.top_periods)):
        if items:
            lines.append(f"  Largest disagreements ({title}):")
            lines.extend(
                f"    {d.key}: Elo {_signed(d.elo, 1 if title == 'games' else 0)} vs Lichess "
                f"{d.lichess:+d} (off by {d.difference:.{1 if title == 'games' else 0}f}; "
                f"{', '.join(d.reasons)})"
                for d in items
            )
    if s.endings:
        lines.append("  How it ended (Elo = sum of those games' K×(score−E)):")
        lines.extend(f"    {e.text}" for e in s.endings)
    flags = (
        f"{s.provisional_games} provisional, {s.bot_games} against BOTs, "
        f"{s.capped_games} capped by the 400 rule, {s.invalid_replays} invalid replays"
    )
    lines.append(f"  Flags: {flags}")
    return lines


def print_report(reports: Sequence[PerfReport], view: str, out: Console) -> None:
    """Print rich tables: ``periods`` (with a short summary), ``games`` or ``summary``."""
    if not out.is_terminal:  # a file or a pipe: no need to squeeze the tables into 80 columns
        out = Console(file=out.file, width=200, color_system=None, highlight=False, soft_wrap=True)
    for report in reports:
        if report.message:
            out.print(report.message)
            continue
        if view == "periods":
            out.print(_periods_table(report))
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


@_report_contextmanager
def report_replay_progress(
    quiet: bool,
) -> _ReportIterator[_ReportCallable[[int, int], None] | None]:
    """A rich progress bar for replaying games (``None`` when quiet or not a terminal)."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    with _ReportProgress(
        _ReportText("replaying games"),
        _ReportBar(),
        _ReportMofN(),
        console=err_console(),
        transient=True,
    ) as bar:
        task = bar.add_task("replay", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


# --- club ---

if TYPE_CHECKING:
    from pathlib import Path

    from lichess_elo.club import ClubResult, Standing, Target


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename,
    so a failure never leaves a half-written file behind."""
    import os
    import tempfile

    folder = path.parent if str(path.parent) else None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _club_signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _club_count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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
        f"Club ladder: {_club_count(len(result.standings), 'player')}, "
        f"{_club_count(len(result.events), 'event')} "
        f"({_club_rules_line(result)}; {last})",
        "",
    ]
    width = max([4, *(len(s.name) for s in result.standings)])
    lines.append(f"{'#':>3}  {'Name':<{width}}  {'Rating':>7}  {'Change':>6}  {'Games':>5}")
    for rank, s in enumerate(result.standings, start=1):
        lines.append(
            f"{rank:>3}  {s.name:<{width}}  {_club_mark(s):>7}  "
            f"{_club_signed(s.change):>6}  {s.games:>5}"
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
    lines.append(f"Change over the last {months} months: {_club_signed(recent)}")
    by = f" by the end of term ({target.by.isoformat()})" if target.by else ""
    lines.append(
        f"Next target: {target.rating} (+{target.step}){by}: about {target.wins_needed} wins "
        f"against players of your rating (K {target.k}: {float(target.gain_per_win):+.1f} a win)"
    )
    return "\n".join(lines)


def _club_round(value: Decimal) -> int:
    """A rating as shown: rounded half away from zero (as ``fide.round_half_away``)."""
    from lichess_elo.fide import round_half_away

    return round_half_away(value)


def write_club_chart(result: ClubResult, names: Sequence[str], path: Path) -> None:
    """A PNG of the players' ratings after each update (matplotlib, Agg, written atomically)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    wanted = {n.casefold() for n in names}
    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    try:
        for s in result.standings:
            if s.name.casefold() not in wanted:
                continue
            days = [e.day for e in s.history]
            ratings = [float(e.rating_after) for e in s.history]
            first = s.history[0].rating_before if s.history else None
            start = f" (from {_club_round(first)})" if first is not None else ""
            if days and result.last_day and result.last_day > days[-1]:
                days.append(result.last_day)  # carried to the club's latest update
                ratings.append(ratings[-1])
            # matplotlib's date numbers: days since 1970-01-01 (its default epoch)
            xs = [float((d - date(1970, 1, 1)).days) for d in days]
            ax.plot(
                xs,
                ratings,
                marker="o",
                markevery=list(range(len(s.history))),  # no dot on the carried point
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
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
    finally:
        plt.close(fig)
    write_atomic(path, buffer.getvalue())
