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
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
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
    return json.dumps(obj, indent=2, ensure_ascii=False, default=json_default)


def json_default(value: Any) -> Any:
    """``json.dumps`` ``default``: Decimal as a number, dates as ISO text."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__} as JSON")


def csv_value(value: Any) -> Any:
    """One cell as every command writes it: ``true``/``false`` (as in the JSON), numbers
    as in the JSON (``1``, ``0.5``, ``0``: a whole float or Decimal loses its ``.0``),
    ``None`` empty."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float | Decimal):
        return json_default(Decimal(str(value)))
    return value


def write_csv(rows: Iterable[Mapping[str, Any]], fieldnames: Sequence[str]) -> str:
    """Return ``rows`` as CSV text with a header line (``\\n`` line endings); every cell
    goes through ``csv_value``, so booleans and scores read the same in every command."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(fieldnames), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_value(v) for k, v in row.items()})
    return buffer.getvalue()


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename,
    so a failure never leaves a half-written file behind.

    The file gets the permissions a plain write would give it: an existing file keeps its
    mode, a new one gets 0666 less the umask.

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
        with os.fdopen(fd, "wb") as handle:
            with contextlib.suppress(OSError):  # no file yet: the umask already applied
                os.fchmod(handle.fileno(), stat.S_IMODE(os.stat(path).st_mode))
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
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


if TYPE_CHECKING:
    from lichess_elo.sources.lichess.api import FetchResult


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


def fetch_summary_text(result: FetchResult, *, replay: bool, width: int | None) -> str:
    """The table summary of a fetch: games and months, games by perf, the cache."""
    from lichess_elo.output.tables import Column, Table, render_table, wrap_words

    doc = fetch_document(result)
    months = doc["months"]
    got = "from the cassette" if replay else "fetched"
    lines = wrap_words(
        f"{doc['user']}: {doc['games']} games in {months['total']} months "
        f"({months['from_network']} {got}, {months['from_cache']} from the cache)",
        width,
    )
    if doc["games"]:
        columns = [Column("Perf", "left"), Column("Rated"), Column("Casual"), Column("Total")]
        rows = [
            [perf, str(c["rated"]), str(c["casual"]), str(c["rated"] + c["casual"])]
            for perf, c in doc["split"].items()
        ]
        lines += render_table(Table(columns, rows), width)
    label = "replayed from" if replay else "cache"
    lines += wrap_words(f"{label}: {doc['cache']}", width)
    return "\n".join(lines) + "\n"


# --- games ---
#
# ``lichess-elo games``: one row per game, oldest first. ``games_document`` is the JSON
# contract (README "games"): every key always present, numbers as numbers.


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
    """1, ½ or 0 (the player's score), as in the report's games table."""
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(score, "-") if score is not None else "-"


def _games_ended(ended: Sequence[Ending]) -> str:
    return ", ".join(ENDING_LABELS[e] for e in ended)


def games_text(user: str, rows: Sequence[ListedGame], width: int | None) -> str:
    """The ``games`` table fitted to ``width`` (``None``: no limit), then a summary line."""
    from lichess_elo.output.tables import Column, Table, render_table, wrap_words

    columns = [
        Column("Date (UTC)", "left", short="Date"),
        Column("Time", "left", fold=6),
        Column("Game", "left", fold=3),
        Column("Perf", "left"),
        Column("Colour", "left", short="Col", fold=2),
        Column("Opponent", "left"),
        Column("Opp rating", short="Opp"),
        Column("Result", "left", short="Res"),
        Column("Status", "left", fold=4),
        Column("Lichess"),
        Column("Lichess ±", short="±"),
        Column("Plies", fold=1),
        Column("Replay found", "left", fold=5),
        Column("Replay", "left", fold=7),
    ]
    cells = []
    invalid = 0
    for row in rows:
        game, color, facts = row.game, row.color, row.facts
        me, them = game.side(color), game.opponent(color)
        invalid += not facts.valid
        cells.append(
            [
                game.created_at.strftime("%Y-%m-%d"),
                game.created_at.strftime("%H:%M"),
                game.id,
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
            ]
        )
    lines = render_table(Table(columns, cells, title=f"Games of {user}"), width)
    counts: dict[str, int] = {}
    for row in rows:
        for ending in row.ended:
            counts[ending] = counts.get(ending, 0) + 1
    found = "; ".join(f"{ENDING_LABELS[k]}: {v}" for k, v in counts.items())
    games = f"{len(rows)} game" + ("" if len(rows) == 1 else "s")
    lines += wrap_words(f"{games}, {invalid} invalid" + (f"; {found}" if found else ""), width)
    return "\n".join(lines) + "\n"
