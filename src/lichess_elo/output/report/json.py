"""``lichess-elo report`` output: the JSON document, streamed.

An edge module (it writes text, no maths). ``report_document`` is the JSON contract
(``docs/json.md#report``): games oldest first, numbers as numbers, every key always present.
``write_report_json`` writes it row by row to a stream, so the whole document is never held
as one string; ``report_json`` is the same bytes as text. The CSV views are in
``output.report.csv``.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from itertools import islice
from typing import TYPE_CHECKING, Any, TextIO

from lichess_elo.core.games import LICHESS
from lichess_elo.output.common import edition_json, iso_utc, json_default
from lichess_elo.output.report.json_rows import game_lines
from lichess_elo.output.scorecard.records import accuracy_json

if TYPE_CHECKING:
    from lichess_elo.core.report.editions import KWarning
    from lichess_elo.core.report.fide_compare import FideSummary
    from lichess_elo.core.report.model import GameRow, PerfReport, PeriodRow
    from lichess_elo.core.report.predictions import PerfAccuracy
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
        # Rated games before the first reported game (held before ``since``, or given).
        "games_before": report.periods[0].games_before if report.periods else report.missing_games,
        "born": s.born,
        "since": iso_utc(s.start) if s.start else None,
        "until": iso_utc(s.stop) if s.stop else None,
        "rules": s.rules,
        "chapter": report.chapter,
        "chapter_games": dict(Counter(g.chapter for g in report.games).most_common()),
        "rules_as_of": s.rules_as_of.isoformat() if s.rules_as_of else "game",
        "peak": s.peak,
    }


def _site_block(row: GameRow) -> tuple[str, dict[str, Any]]:
    """The game's site block, named for its site: Lichess's ``rating``, ``diff`` and
    ``provisional``; Chess.com's ``rating`` (before the game, ``null`` where the import does
    not show it), ``after`` (published), ``diff`` (observed, or ``null``) and
    ``opponent_estimated`` (``opponent_rating`` is an estimate)."""
    if row.site == LICHESS:
        return "lichess", {
            "rating": row.lichess_rating,
            "diff": row.lichess_diff,
            "provisional": row.provisional,
        }
    return row.site, {
        "rating": row.lichess_rating,
        "after": row.lichess_after,
        "diff": row.lichess_diff,
        "opponent_estimated": row.opponent_estimated,
    }


def _site_keys(value: Any, site: str) -> Any:
    """``value`` with every key ``lichess``/``lichess_*`` named for ``site`` instead (a
    Chess.com report's periods and summary: ``chesscom``, ``chesscom_start``...)."""
    if site == LICHESS:
        return value
    if isinstance(value, dict):
        return {
            (site + key[len(LICHESS) :] if key.startswith(LICHESS) else key): _site_keys(v, site)
            for key, v in value.items()
        }
    if isinstance(value, list):
        return [_site_keys(v, site) for v in value]
    return value


def _game_json(row: GameRow) -> dict[str, Any]:
    site, block = _site_block(row)
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
        site: block,
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
        "chapter": row.chapter,
        "not_rated": row.not_rated,
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
        **edition_json(p.edition),
        # one part a chapter its games take, the main one (above) first
        "chapters": [
            {
                "chapter": part.chapter,
                "games": part.games,
                "k": part.k,
                "k_reason": part.k_reason,
                "change": part.change,
                "regulations_key": part.edition.key,
                "regulations": part.edition.title,
            }
            for part in p.parts
        ],
        "peak_before": p.peak_before,
        "fide_rating": p.fide_rating,
        "below_floor": p.below_floor,
        "adjustment": (
            None
            if p.adjustment is None
            else {
                "key": p.adjustment.key,
                "title": p.adjustment.title,
                "day": p.adjustment.day.isoformat(),
                "from": p.adjusted_from,
                "to": p.elo_start,
            }
        ),
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
        "not_rated_games": sum(g.not_rated is not None for g in report.games),
        "k_warning": _k_warning_json(report.k_warning),
        "fide": _fide_json(report.fide),
    }


def _k_warning_json(warning: KWarning | None) -> dict[str, Any] | None:
    if warning is None:
        return None
    return {
        "text": k_warning_text(warning),
        "first_game": warning.first_game,
        "first_rating": warning.first_rating,
        "counted_before": warning.counted_before,
        "assumed_before": warning.assumed_before,
        "basis": warning.basis,
    }


def k_warning_text(warning: KWarning) -> str:
    """The K warning in one line, with the option that overrides it."""
    return f"K warning: {warning.text}; --games-before N overrides"


def _fide_json(fide: FideSummary | None) -> dict[str, Any] | None:
    if fide is None:
        return None
    return {
        "fide_id": fide.fide_id,
        "name": fide.name,
        "list": fide.fide_list,
        "periods_compared": fide.periods_compared,
        "mean_offset": None if fide.mean_offset is None else round(fide.mean_offset, 1),
        "last_offset": fide.last_offset,
        "message": fide.message,
        "warning": fide.warning,
        "notes": list(fide.notes),
    }


def report_document(
    user: str,
    reports: Sequence[PerfReport],
    accuracy: Mapping[str, PerfAccuracy] | None = None,
) -> dict[str, Any]:
    """The ``--format json`` document: ``{"user", "reports": [...]}`` (``docs/json.md#report``).

    ``accuracy`` holds the scorecards by perf; a perf without one has ``"accuracy": null``.
    """
    cards = accuracy or {}
    return {
        "user": user,
        "reports": [
            {
                "perf": r.perf,
                "message": r.message,
                "settings": _report_settings(r),
                "games": [_game_json(g) for g in r.games],
                "periods": [_site_keys(_period_json(p), r.site) for p in r.periods],
                "summary": _site_keys(_summary_json(r), r.site),
                "accuracy": (
                    accuracy_json(cards[r.perf], user, r.perf) if r.perf in cards else None
                ),
            }
            for r in reports
        ],
    }


#: ``_compact``'s encoder, made once: ``json.dumps`` with any option makes a new one per
#: call, a fifth of the cost of a game's line.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), default=json_default)


def _compact(value: Any) -> str:
    return _COMPACT.encode(value)


def _block(value: dict[str, Any], indent: str) -> str:
    """A dict a key a line; lists of dicts an item a line; everything else compact."""
    lines = []
    inner = indent + "  "
    for key, item in value.items():
        if isinstance(item, dict) and item:
            text = _block(item, inner)
        elif isinstance(item, list) and item and isinstance(item[0], dict):
            rows = f",\n{inner}  ".join(_compact(v) for v in item)
            text = f"[\n{inner}  {rows}\n{inner}]"
        else:
            text = _compact(item)
        lines.append(f'{inner}"{key}": {text}')
    return "{\n" + ",\n".join(lines) + f"\n{indent}}}"


def _rows(out: TextIO, key: str, rows: Iterator[str]) -> None:
    """``"key": [...]`` with one row a line, or ``"key": []`` when there is none."""
    first = next(rows, None)
    if first is None:
        out.write(f'      "{key}": []')
        return
    out.write(f'      "{key}": [\n        {first}')
    while chunk := list(islice(rows, 256)):  # a write per 256 rows, not two per row
        out.write(",\n        " + ",\n        ".join(chunk))
    out.write("\n      ]")


def _indented(value: Any) -> str:
    inner = json.dumps(value, indent=2, ensure_ascii=False, default=json_default)
    return inner.replace("\n", "\n      ")


def write_report_json(
    out: TextIO,
    user: str,
    reports: Sequence[PerfReport],
    accuracy: Mapping[str, PerfAccuracy] | None = None,
) -> None:
    """Write ``report_document`` to ``out`` as JSON, one game or period at a time:
    indented, with one game or period per line.

    (``json.dumps(indent=...)`` runs Python's slow encoder; a line per game keeps the file
    readable and lets the C encoder write 20,000 games in a fraction of the time.)
    """
    cards = accuracy or {}
    out.write(f'{{\n  "user": {_compact(user)},\n  "reports": ')
    for number, r in enumerate(reports):
        out.write("[\n    {\n" if number == 0 else ",\n    {\n")
        out.write(f'      "perf": {_compact(r.perf)},\n')
        out.write(f'      "message": {_compact(r.message)},\n')
        out.write(f'      "settings": {_indented(_report_settings(r))},\n')
        if r.site == LICHESS:  # the fast lines, byte for byte the encoder's
            _rows(out, "games", game_lines(r.games))
        else:
            _rows(out, "games", (_compact(_game_json(g)) for g in r.games))
        out.write(",\n")
        periods = (_compact(_site_keys(_period_json(p), r.site)) for p in r.periods)
        _rows(out, "periods", periods)
        out.write(f',\n      "summary": {_indented(_site_keys(_summary_json(r), r.site))},\n')
        card = accuracy_json(cards[r.perf], user, r.perf) if r.perf in cards else None
        out.write(f'      "accuracy": {_block(card, "      ") if card else _compact(card)}')
        out.write("\n    }")
    out.write("\n  ]" if reports else "[]")
    out.write("\n}\n")


def report_json(
    user: str,
    reports: Sequence[PerfReport],
    accuracy: Mapping[str, PerfAccuracy] | None = None,
) -> str:
    """``write_report_json``'s document as one text."""
    buffer = io.StringIO()
    write_report_json(buffer, user, reports, accuracy)
    return buffer.getvalue()


#: The JSON's numbers and period rows, which the CSV (``output.report.csv``) shares.
number = _num
period_json = _period_json
