"""Terminal, JSON and CSV output for the commands (an edge module: it writes text, no maths).

The shared helpers at the top are used by every command; below them the calc, glicko, fetch
and games commands each have one marked section. The report and club outputs live in
``render_report`` and ``render_club``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import secrets
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn


def console() -> Console:
    """Return a rich Console writing to stdout (plain text when stdout is not a terminal)."""
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


def err_console() -> Console:
    """Return a rich Console writing to stderr (progress bars, warnings)."""
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def dump_json(obj: Any) -> str:
    """Serialise ``obj`` as indented JSON; numbers stay numbers (Decimal becomes a number too)."""
    return json.dumps(obj, indent=2, ensure_ascii=False, default=json_default)


def json_default(value: Any) -> Any:
    """``json.dumps`` ``default``: Decimal as a number, dates as ISO text."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__} as JSON")


def write_csv(rows: Iterable[Mapping[str, Any]], fieldnames: Sequence[str]) -> str:
    """Return ``rows`` as CSV text with a header line (``\\n`` line endings)."""
    buffer = io.StringIO()
    stream_csv(buffer, rows, fieldnames)
    return buffer.getvalue()


def stream_csv(out: TextIO, rows: Iterable[Mapping[str, Any]], fieldnames: Sequence[str]) -> None:
    """Write ``rows`` to ``out`` as CSV with a header line (``\\n`` line endings), row by row."""
    writer = csv.DictWriter(out, fieldnames=list(fieldnames), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename,
    so a failure never leaves a half-written file behind (``atomic_writer``).

    Raises:
        OSError: the write failed (disk full, no permission...); its ``filename`` is
            ``path``, never the temporary file.
    """
    with atomic_writer(path, binary=isinstance(data, bytes)) as handle:
        handle.write(data)


@contextmanager
def atomic_writer(path: Path, *, binary: bool = False) -> Iterator[Any]:
    """A file to write ``path`` through, bit by bit: a temporary file in the same folder,
    synced and renamed over ``path`` when the block ends without an error, removed when it
    ends with one (an interruption included), so ``path`` is never left half-written.

    Text is UTF-8 with no newline translation. The file gets the permissions a plain write
    would give it: an existing file keeps its mode, a new one gets 0666 less the umask.

    Raises:
        OSError: the write failed (disk full, no permission...); its ``filename`` is
            ``path``, never the temporary file.
    """
    folder = path.parent if str(path.parent) else Path(".")
    try:
        while True:
            tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                break
            except FileExistsError:
                continue
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    try:
        encoding, newline = (None, None) if binary else ("utf-8", "")
        mode = "wb" if binary else "w"
        with os.fdopen(fd, mode, 1 << 16, encoding, None, newline) as handle:
            with contextlib.suppress(OSError):  # no file yet: the umask already applied
                os.fchmod(handle.fileno(), stat.S_IMODE(os.stat(path).st_mode))
            yield handle
            # On disk before the rename: a power loss cannot leave an empty ``path``.
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise


def check_output_path(path: Path) -> None:
    """Check that ``--output`` can be written to ``path`` (before any work is done).

    Raises:
        BadInput: ``path`` is a folder, its folder is missing or not writable, or the file
            exists and is not writable.
    """
    from lichess_elo.errors import BadInput

    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise BadInput(f"--output {path}: cannot write there")
    if path.exists() and not os.access(path, os.W_OK):
        raise BadInput(f"--output {path}: not writable")


@contextmanager
def replay_progress(
    quiet: bool,
) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar for replaying games (``None`` when quiet or not a terminal)."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    with Progress(
        TextColumn("replaying games"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err_console(),
        transient=True,
    ) as bar:
        task = bar.add_task("replay", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


# --- calc ---

from lichess_elo.core import fide  # noqa: E402  (the calc section keeps its own import)

_K_RULES = {
    "given": "given with --k",
    "2400": "rating 2400 or more: K 10 for good (FIDE 8.3.3)",
    "junior": "junior: through the year of the 18th birthday, rating below 2300 (FIDE 8.3.3)",
    "new": "new player: fewer than 30 rated games (FIDE 8.3.3)",
    "standard": "30 or more rated games, rating below 2400 (FIDE 8.3.3)",
}


def _calc_num(value: Decimal) -> str:
    """At most two decimals, at least one, sign always shown: +7.2, -8.57, +5.55, 0.0.

    For the period total that the rounded change comes from (so +5.55 -> +6 is visible).
    """
    rounded = value.quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    if rounded == 0:
        return "0.0"
    text = f"{rounded:+.2f}"
    return text[:-1] if text.endswith("0") else text


def _calc_tenth(value: Decimal) -> str:
    """One decimal, half away from zero, sign always shown: +5.55 -> +5.6, -2.25 -> -2.3, 0.0.

    For the table's change column and total row; JSON keeps the unrounded values.
    """
    rounded = value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return "0.0" if rounded == 0 else f"{rounded:+.1f}"


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
            f"{_calc_pd(game.expected, result.method):>6}  {_calc_tenth(game.change):>7}"
        )
    lines.append(
        f"{'total':>13}  {_calc_score_total(result.points):>5}  {'':>6}  "
        f"{_calc_pd(result.expected, result.method):>6}  {_calc_tenth(result.change):>7}"
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


def calc_output(calc: fide.CalcResult, fmt: str) -> str:
    """What ``calc`` prints for ``fide.calculate``'s result: ``fmt`` is table or json."""
    if calc.initial is not None:
        if fmt == "json":
            return calc_initial_json(calc.initial, calc.performance)
        return calc_initial_table(calc.initial, calc.performance)
    if calc.period is None or calc.k_rule is None:
        raise ValueError("a CalcResult holds a period (with its K rule) or an initial rating")
    if fmt == "json":
        return calc_json(calc.period, calc.k_rule, games_assumed=calc.games_assumed)
    return calc_table(calc.period, calc.k_rule, games_assumed=calc.games_assumed)


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
    from lichess_elo.core.glicko import Rating, SideResult


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

from rich.progress import TimeElapsedColumn as _ElapsedColumn  # noqa: E402
from rich.table import Table as _FetchTable  # noqa: E402

if TYPE_CHECKING:
    from lichess_elo.sources.lichess.api import FetchResult


class FetchBar:
    """Months done of the total, games so far, the last month and any wait (on stderr)."""

    def __init__(self, bar: Progress | None) -> None:
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
            # drawn at once: the wait is shown even before the next timed redraw
            self._bar.update(self._task, note=f"waiting {seconds:.3g} s: {reason}", refresh=True)


@contextmanager
def fetch_progress(quiet: bool) -> Iterator[FetchBar]:
    """A progress bar on stderr; silent when ``quiet`` or stderr is not a terminal."""
    err = err_console()
    if quiet or not err.is_terminal:
        yield FetchBar(None)
        return
    bar = Progress(
        TextColumn("{task.description:>8}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("months  {task.fields[games]} games {task.fields[note]}"),
        _ElapsedColumn(),
        console=err,
        transient=True,
    )
    with bar:
        yield FetchBar(bar)


def fetch_document(result: FetchResult) -> dict[str, Any]:
    """The ``fetch --format json`` document: user, games, perfs, months, cache (+ split)."""
    split = {p: {"rated": rated, "casual": casual} for p, (rated, casual) in result.split.items()}
    order = sorted(split, key=lambda p: (-(split[p]["rated"] + split[p]["casual"]), p))
    return {
        "user": result.user.username,
        "games": result.count,
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
    from lichess_elo.app.games import ListedGame
    from lichess_elo.core.replay import Ending

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
