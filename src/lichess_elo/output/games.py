"""``games`` output: every game with what the replay found, as a table, CSV or JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lichess_elo.core.fide.kinds import fide_speed
from lichess_elo.core.games import LICHESS, SITE_NAMES
from lichess_elo.core.replay_facts import ENDING_WORDS
from lichess_elo.core.report.editions import game_chapter
from lichess_elo.output.common import iso_utc, write_csv

if TYPE_CHECKING:
    from lichess_elo.app.games import ListedGame
    from lichess_elo.core.games import Game, Side
    from lichess_elo.core.replay_facts import Ending


#: An ending's short words, for a table cell (``core.replay_facts.ENDING_WORDS``).
ENDING_LABELS: dict[str, str] = {name: short for name, (short, _) in ENDING_WORDS.items()}


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
    "time_control",
    "fide_speed",
    "chapter",
)


def _games_row(row: ListedGame) -> dict[str, Any]:
    game, color, facts = row.game, row.color, row.facts
    them = game.opponent(color)
    return {
        "id": game.id,
        "played_at": iso_utc(game.created_at),
        "perf": game.perf,
        "rated": game.rated,
        "color": color,
        "opponent": them.name or them.label,  # the name without title; "AI level 3"
        "opponent_rating": them.rating if game.site == LICHESS else them.rating_shown,
        "score": game.score(color),
        "status": game.status,
        **_site_block(row),
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
        # FIDE's speed and rating chapter of the clock, by the Laws of Chess, Appendix A
        "time_control": _time_control(game),
        "fide_speed": fide_speed(game.clock, game.created_at.date()),
        "chapter": game_chapter(game, "auto"),
    }


def _time_control(game: Game) -> str | None:
    """The clock as a PGN ``TimeControl`` (``1500+10`` seconds), ``None`` without one."""
    clock = game.clock
    return None if clock is None else f"{clock.initial}+{clock.increment}"


def _site_block(row: ListedGame) -> dict[str, Any]:
    """The game's site block, named for its site: Lichess's ``rating``, ``diff`` and
    ``provisional``; Chess.com's ``rating`` (before the game, where the import shows it),
    ``after`` (published), ``diff`` (observed) and ``opponent_estimated``
    (``opponent_rating`` is an estimate), as in the report (``docs/json.md``)."""
    game = row.game
    me, them = game.side(row.color), game.opponent(row.color)
    if game.site == LICHESS:
        return {
            "lichess": {"rating": me.rating, "diff": me.rating_diff, "provisional": me.provisional}
        }
    return {
        game.site: {
            "rating": me.rating,
            "after": me.rating_after,
            "diff": me.rating_diff,
            "opponent_estimated": them.rating is not None and them.rating_estimated,
        }
    }


def games_document(user: str, rows: Sequence[ListedGame]) -> dict[str, Any]:
    """The ``games --format json`` document: ``{"user", "games": [...]}``, oldest first."""
    return {"user": user, "games": [_games_row(row) for row in rows]}


def games_csv(rows: Sequence[ListedGame]) -> str:
    """One CSV line per game (the JSON's fields, flattened; ``ended`` joined by ``;``)."""
    flat = []
    for row in rows:
        item = _games_row(row)
        site, replayed = item.pop(row.game.site), item.pop("replay")
        item.update({k: site.get(k) for k in ("rating", "diff", "provisional")})
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


def _opponent_cell(them: Side, mark: str) -> str:
    """The opponent's rating at the game (``Side.rating_shown``), ``mark``-ed when it is
    an estimate; blank when the site gave none."""
    shown = them.rating_shown
    if shown is None:
        return ""
    return f"{mark if them.rating is not None and them.rating_estimated else ''}{shown}"


def games_text(user: str, rows: Sequence[ListedGame], width: int | None) -> str:
    """The ``games`` table fitted to ``width`` (``None``: no limit), then a summary line."""
    from lichess_elo.output.report.words import ESTIMATE_MARK
    from lichess_elo.output.tables import Column, Table, render_table, wrap_words

    site = SITE_NAMES.get(rows[0].game.site, rows[0].game.site) if rows else "Lichess"
    columns = [
        Column("Date (UTC)", "left", short="Date"),
        Column("Time", "left", fold=6),
        Column("Game", "left", fold=3),
        Column("Perf", "left"),
        Column("FIDE", "left", fold=3),
        Column("Colour", "left", short="Col", fold=2),
        Column("Opponent", "left"),
        Column("Opp rating", short="Opp"),
        Column("Result", "left", short="Res"),
        Column("Status", "left", fold=4),
        Column(site),
        Column(f"{site} ±", short="±"),
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
                fide_speed(game.clock, game.created_at.date()) or "-",
                color,
                them.label,
                _opponent_cell(them, ESTIMATE_MARK),
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
    games = f"{len(rows):,} game" + ("" if len(rows) == 1 else "s")
    lines += wrap_words(f"{games}, {invalid} invalid" + (f"; {found}" if found else ""), width)
    return "\n".join(lines) + "\n"
