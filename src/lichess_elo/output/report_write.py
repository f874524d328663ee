"""Write ``lichess-elo report``'s JSON and CSV row by row to a text stream (an edge module).

The whole document is never held as one string: each game or period line is made, written
and let go, so memory does not grow with the output. The bytes are exactly those of the
README's "JSON format" (indented, one game or period per line) and of the CSV views.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from lichess_elo.output.common import iso_utc, json_default, stream_csv
from lichess_elo.output.report import (
    REPORT_GAME_FIELDS,
    REPORT_PERIOD_FIELDS,
    _game_json,
    _num,
    _period_json,
    _report_settings,
    _summary_json,
)

if TYPE_CHECKING:
    from lichess_elo.core.report.model import PerfReport

_ROW_SEP = ",\n        "


_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(", ", ": "), default=json_default, check_circular=False
)


def _compact(value: Any) -> str:
    """``value`` as one line of JSON (``json.dumps`` with ", " and ": "; the encoder is made
    once, not once a row; no circular check, a row is a tree)."""
    return _ENCODER.encode(value)


def _indented(value: Any) -> str:
    inner = json.dumps(value, indent=2, ensure_ascii=False, default=json_default)
    return inner.replace("\n", "\n      ")


def _rows(out: TextIO, key: str, rows: Iterator[str]) -> None:
    """``"key": [...]`` with one row a line, or ``"key": []`` when there is none."""
    first = next(rows, None)
    if first is None:
        out.write(f'      "{key}": []')
        return
    out.write(f'      "{key}": [\n        {first}')
    for row in rows:
        out.write(_ROW_SEP)
        out.write(row)
    out.write("\n      ]")


def write_report_json(out: TextIO, user: str, reports: Sequence[PerfReport]) -> None:
    """Write the ``--format json`` document to ``out``, one game or period at a time."""
    out.write(f'{{\n  "user": {_compact(user)},\n  "reports": ')
    if not reports:
        out.write("[]")
    for number, r in enumerate(reports):
        out.write("[\n    {\n" if number == 0 else ",\n    {\n")
        out.write(f'      "perf": {_compact(r.perf)},\n')
        out.write(f'      "message": {_compact(r.message)},\n')
        out.write(f'      "settings": {_indented(_report_settings(r))},\n')
        _rows(out, "games", (_compact(_game_json(g)) for g in r.games))
        out.write(",\n")
        _rows(out, "periods", (_compact(_period_json(p)) for p in r.periods))
        out.write(f',\n      "summary": {_indented(_summary_json(r))}\n    }}')
    if reports:
        out.write("\n  ]")
    out.write("\n}\n")


def _game_rows(reports: Sequence[PerfReport]) -> Iterator[dict[str, Any]]:
    for r in reports:
        for g in r.games:
            row = {k: getattr(g, k, None) for k in REPORT_GAME_FIELDS}
            row.update(
                perf=r.perf,
                played_at=iso_utc(g.played_at),
                score=_num(g.score),
                expected=_num(g.expected, 4),
                elo_change=_num(g.elo_change, 4),
                endings=" ".join(g.endings),
                flags=" ".join(g.flags),
            )
            yield row


def _period_rows(reports: Sequence[PerfReport]) -> Iterator[dict[str, Any]]:
    for r in reports:
        for p in r.periods:
            row = _period_json(p)
            yield {
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


def write_report_csv(out: TextIO, reports: Sequence[PerfReport], view: str) -> None:
    """Write CSV to ``out``, one row per game (``view == "games"``) or per period."""
    if view == "games":
        stream_csv(out, _game_rows(reports), REPORT_GAME_FIELDS)
    else:
        stream_csv(out, _period_rows(reports), REPORT_PERIOD_FIELDS)
