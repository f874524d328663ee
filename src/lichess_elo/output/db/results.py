"""Output of the ``db`` commands: tables for people, CSV and JSON for programs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from rich.console import Console

from lichess_elo.core.population.rows import (
    CompareResult,
    IngestResult,
    PlayerRows,
    RateResult,
    RatingList,
)
from lichess_elo.core.population.schema import month_label
from lichess_elo.output.db.rivals import compare_assumptions, rivals_json, rivals_table
from lichess_elo.output.tables import Column, Table, render_table, wrap_words


def table_text(table: Table, out: Console) -> str:
    """``table`` in the one table style, fitted to ``out`` when it is a terminal."""
    return "\n".join(render_table(table, out.width if out.is_terminal else None))


LIST_FIELDS = ("name", "rating", "games_before", "k", "lichess_rating")


def ingest_document(result: IngestResult) -> dict[str, Any]:
    """The JSON of ``db ingest``."""
    return {
        "files": [str(f) for f in result.files],
        "skipped": [str(f) for f in result.skipped],
        "games": result.games,
        "rejected": result.rejected,
        "months": [
            {"month": month_label(m.month), "games": m.games, "rejected": m.rejected}
            for m in result.months
        ],
        "seconds": round(result.seconds, 3),
    }


#: Games from which the ingest summary gives a speed (below, the time is mostly start-up,
#: and 2 games in 3 s read as "0 games/s").
RATE_FROM_GAMES = 1000


def ingest_text(result: IngestResult, width: int | None) -> str:
    """The summary of ``db ingest`` fitted to ``width`` (``None``: no limit): games per
    month and unusable games by reason."""
    rows = [
        (
            month_label(m.month),
            f"{m.games:,}",
            ", ".join(f"{k} {v:,}" for k, v in m.rejected.items()) or "-",
        )
        for m in result.months
    ]
    title = f"Ingested {len(result.files)} file(s) in {result.seconds:.1f} s"
    lines: list[str] = []
    if result.skipped:
        lines += wrap_words(
            f"{len(result.skipped)} file(s) skipped: the database already holds them in full",
            width,
        )
    columns = [Column("month", "left"), Column("games"), Column("unusable", fold=1)]
    lines += render_table(Table(columns, rows, title=title), width)
    if result.unplaced:
        lines.append(f"{result.unplaced:,} malformed games had no readable date (not stored)")
    stored = f"{result.games:,} games stored"
    if result.games >= RATE_FROM_GAMES and result.seconds > 0:  # a few games: start-up only
        stored += f" ({result.games / result.seconds:,.0f} games/s)"
    lines.append(stored)
    return "\n".join(lines)


def print_rate(result: RateResult, out: Console) -> None:
    """The summary of ``db rate``."""
    span = f"{result.months[0]} to {result.months[-1]}" if result.months else "no months"
    out.print(
        f"Rated {result.games:,} games with {result.engine}: lists {span} in {result.seconds:.1f} s"
    )
    if result.left_out:
        out.print(f"  {result.left_out:,} game sides not rated under the 600/2600 rule")
    name_width = max((10, *(len(p) for p in result.players)))  # "correspondence" is 14
    for perf, n in result.players.items():
        out.print(f"  {perf:<{name_width}} {n:>9,} players")
    width = out.width if out.is_terminal else None
    for rules in result.rules:
        if result.players.get(rules.perf):
            for line in wrap_words(f"  {rules.text}", width, "    "):
                out.print(line, highlight=False, soft_wrap=True)


def list_table(result: RatingList) -> Table:
    """``db list`` as a table."""
    rows = [
        (
            str(i),
            p["name"],
            str(p["rating"]),
            str(p["games_before"]),
            str(p["k"]),
            "-" if p["lichess_rating"] is None else str(p["lichess_rating"]),
        )
        for i, p in enumerate(result.players, 1)
    ]
    columns = [Column("#"), Column("player", "left"), Column("rating"),
               Column("games before", short="before"), Column("K"), Column("Lichess")]  # fmt: skip
    notes = (result.rules.text,) if result.rules else ()
    return Table(columns, rows, title=f"FIDE-rules {result.perf} list, {result.month}", notes=notes)


PLAYER_FIELDS = (
    "perf", "name", "month", "rating", "games_before", "k", "lichess_rating", "games", "points",
    "expected", "k_used", "change", "next_rating", "edition",
)  # fmt: skip


#: What each column of ``db player``'s table is (its legend, under the rules).
PLAYER_LEGEND = (
    ("perf, month", "the list published at the start of that month, in that perf"),
    ("list", "the player's FIDE-rules rating on that list"),
    ("before", "rated games counted before the list (they set K, FIDE 8.3.3)"),
    ("K", "the list's development coefficient"),
    ("Lichess", "the last Lichess rating before the month (- for a newcomer)"),
    ("games", "rated games in the month; score: points scored (win 1, draw ½)"),
    (
        "PD",
        "the sum of the month's expected scores, in points (calc's PD is one game's "
        "probability, 0 to 1); score - PD is the month's result above expectation",
    ),
    ("K used", "K after the 700 rule (K x games at most 700)"),
    ("change", "K used x (score - PD), rounded once: the next list is list + change"),
    ("edition", "the FIDE regulations that rated the month"),
)


def player_legend() -> tuple[str, ...]:
    """``db player``'s legend lines (a table's notes: wrapped between words)."""
    return ("Legend:", *(f"  {name}: {text}" for name, text in PLAYER_LEGEND))


def player_table(result: PlayerRows) -> Table:
    """``db player``'s table: one row per perf and month, with the edition applied."""
    heads = ("perf", "month", "list", "before", "K", "Lichess", "games", "score", "PD",
             "K used", "change")  # fmt: skip
    columns = [Column(h, "left" if h in ("perf", "month") else "right") for h in heads]
    columns.append(Column("edition", "left", fold=1))
    rows = [
        (
            r["perf"],
            r["month"],
            str(r["rating"]),
            str(r["games_before"]),
            str(r["k"]),
            "-" if r["lichess_rating"] is None else str(r["lichess_rating"]),
            str(r["games"]),
            f"{r['points']:g}",
            f"{r['expected']:.2f}",
            str(r["k_used"]) if r["games"] else "-",
            f"{r['change']:+d}" if r["games"] else "-",
            r.get("edition") or "-",
        )
        for r in result.rows
    ]
    return Table(
        columns,
        rows,
        title=f"{result.name}: FIDE-rules lists",
        notes=(*(r.text for r in result.rules), *player_legend()),
    )


# --- compare --------------------------------------------------------------------------------

#: Months shown as columns of the band table (the latest ones); JSON has them all.
BAND_MONTHS_SHOWN = 6


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def compare_document(result: CompareResult) -> dict[str, Any]:
    """The JSON of ``db compare``."""
    return {
        "perfs": list(result.perfs),
        "bands": [
            {
                "perf": b.perf,
                "month": month_label(b.month),
                "band": b.band,
                "players": b.players,
                "mean": round(b.mean, 2),
                "median": b.median,
            }
            for b in result.bands
        ],
        "scores": [
            {
                "perf": s.perf,
                "month": month_label(s.month),
                "games": s.games,
                "sampled": s.sampled,
                "fide": asdict(s.fide),
                "lichess": asdict(s.lichess),
                "deviance_difference": s.comparison.difference,
                "interval": asdict(s.comparison.interval) if s.comparison.interval else None,
                **rivals_json(s),
            }
            for s in result.scores
        ],
        "assumptions": compare_assumptions(),
        "min_games": result.min_games,
        "few_games": dict(result.few_games),
        "differs": [
            {
                "perf": d.perf,
                "name": d.name,
                "rating": d.rating,
                "lichess_rating": d.lichess_rating,
                "difference": d.difference,
                "games_before": d.games_before,
            }
            for d in result.differs
        ],
    }


def compare_tables(result: CompareResult, perfs: Sequence[str] | None = None) -> list[Table]:
    """``db compare`` for people: per perf (of ``perfs``, default all), the band table, the
    scorecard and the differs."""
    tables: list[Table] = []
    for perf in result.perfs if perfs is None else perfs:
        rows = [b for b in result.bands if b.perf == perf]
        if not rows:
            continue
        months = sorted({b.month for b in rows})[-BAND_MONTHS_SHOWN:]
        cell = {(b.band, b.month): b for b in rows}
        band_rows = [
            (
                f"{band}+",
                *(
                    f"{cell[(band, m)].mean:+.0f} ({cell[(band, m)].players:,})"
                    if (band, m) in cell
                    else ""
                    for m in months
                ),
            )
            for band in sorted({b.band for b in rows})
        ]
        tables.append(
            Table(
                [Column("band", "left"), *(Column(month_label(m)) for m in months)],
                band_rows,
                title=f"{perf}: mean Elo - Lichess (players) by Lichess rating band",
            )
        )
        scores = [s for s in result.scores if s.perf == perf]
        if scores:
            heads = ("month", "games", "dev. F/L", "F-L [95%]", "Brier F/L", "right F/L")
            card_rows = []
            for s in scores:
                c = s.comparison
                diff = "-" if c.difference is None else _short(c.difference, signed=True)
                if c.interval:
                    low, high = _short(c.interval.low, True), _short(c.interval.high, True)
                    diff += f" [{low},{high}]"
                games = f"{s.sampled:,}" + ("" if s.sampled == s.games else "*")
                card_rows.append((
                    month_label(s.month), games,
                    f"{_short(s.fide.deviance)}/{_short(s.lichess.deviance)}", diff,
                    f"{_short(s.fide.brier)}/{_short(s.lichess.brier)}",
                    f"{_pct(s.fide.correct)}/{_pct(s.lichess.correct)}",
                ))  # fmt: skip
            notes = ["deviance and Brier: lower is better; right: share predicted"]
            if any(s.sampled != s.games for s in scores):
                notes.append("* a seeded sample of the month's games")
            title = f"{perf}: which predicts the month's games better (F FIDE rules, L Lichess)"
            columns = [Column(h, "left" if h == "month" else "right") for h in heads]
            tables.append(Table(columns, card_rows, title=title, notes=notes))
            contenders = rivals_table(perf, scores)
            if contenders is not None:
                tables.append(contenders)
        differs = [d for d in result.differs if d.perf == perf]
        if differs:
            far_heads = ("player", "Elo", "Lichess", "Elo - Lichess", "games")
            far_rows = [
                (d.name, str(d.rating), str(d.lichess_rating), f"{d.difference:+d}",
                 str(d.games_before))
                for d in differs
            ]  # fmt: skip
            columns = [Column(h, "left" if h == "player" else "right") for h in far_heads]
            title = f"{perf}: players who differ most on the last list"
            tables.append(Table(columns, far_rows, title=title))
    return tables


def compare_text(result: CompareResult, width: int | None) -> str:
    """``db compare`` for people fitted to ``width`` (``None``: no limit): per perf its
    headline and tables, the players ``--min-games`` left out, then the legend."""
    from lichess_elo.output.db import compare_words as words

    blocks: list[list[str]] = []
    for perf in result.perfs:
        said = words.headline(perf, [s for s in result.scores if s.perf == perf])
        if said:
            blocks.append(wrap_words(said, width))
        said = words.rivals_headline(perf, [s for s in result.scores if s.perf == perf])
        if said:
            blocks.append(wrap_words(said, width))
        blocks += [render_table(t, width) for t in compare_tables(result, (perf,))]
        note = words.few_games_note(perf, result.few_games.get(perf, 0), result.min_games)
        if note:
            blocks.append(wrap_words(note, width))
    if blocks:
        blocks.append([line for item in words.legend() for line in wrap_words(item, width, "    ")])
    return "\n\n".join("\n".join(block) for block in blocks)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _short(value: float | None, signed: bool = False) -> str:
    """0.304 as ``.304`` (and -0.135 as ``-.135``): three decimals, no leading zero."""
    if value is None:
        return "-"
    text = f"{value:+.3f}" if signed else f"{value:.3f}"
    return text.replace("0.", ".", 1)
