"""What a replay found, and the endings read from it (pure, no python-chess).

``ReplayFacts`` is what ``core.replay`` gives for each game and ``sources.cache.replay_store``
keeps; ``endings`` reads them. They live apart from the replay itself so that a report
whose facts are all cached (``report --offline``) never imports python-chess.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from lichess_elo.core.games import Color, Game
from lichess_elo.core.value import value_class

#: Bump when the facts or their derivation change: every cached replay is then redone.
REPLAY_VERSION = 1

Ending = Literal[
    "lost_on_time_ahead",
    "won_on_time_behind",
    "resigned_not_behind",
    "won_by_timeout",
    "lost_by_timeout",
    "decided_quickly",
]

#: Ahead or behind by at least this many points counts for the time-loss endings.
MATERIAL_MARGIN = 3
#: A decisive game with at most this many plies was "decided quickly".
QUICK_PLIES = 10

#: Every ending in the order the report lists them, worded twice: short, for a table cell
#: (``games``), and as a count's sentence (the report's summary).
ENDING_WORDS: Mapping[Ending, tuple[str, str]] = {
    "lost_on_time_ahead": (
        "lost on time, ahead",
        f"losses on time while {MATERIAL_MARGIN}+ points of material ahead",
    ),
    "won_on_time_behind": (
        "won on time, behind",
        f"wins on time while {MATERIAL_MARGIN}+ points of material behind",
    ),
    "resigned_not_behind": ("resigned, not behind", "resignations while not behind in material"),
    "won_by_timeout": ("opponent left", "wins by the opponent leaving the game"),
    "lost_by_timeout": ("left the game", "losses by leaving the game"),
    "decided_quickly": (f"within {QUICK_PLIES} plies", f"games decided within {QUICK_PLIES} plies"),
}

#: The variants where a stalemate ends the game as Lichess's ``variantEnd`` (the stalemated
#: side wins antichess); the name is the same in Lichess and python-chess.
STALEMATE_WINS = frozenset({"antichess"})


def stalemate_status(variant: str | None) -> str:
    """Lichess's status of a game that ends in stalemate in ``variant``: ``variantEnd`` in
    antichess (the stalemated side wins), ``stalemate`` elsewhere."""
    return "variantEnd" if variant in STALEMATE_WINS else "stalemate"


@value_class  # frozen for mypy; built as fast as a plain slotted dataclass (one a game)
class ReplayFacts:
    """What the replay of one game found.

    Attributes:
        game_id: The Lichess game id.
        valid: Every move legal and the status consistent with the final position.
        plies: Moves replayed successfully (all of them when valid).
        error: Why the game is invalid, one line; ``None`` when valid.
        error_ply: 1-based ply of the first bad move (0: bad start position or variant;
            plies + 1: the move list ends before the position the status claims).
        bad_move: The SAN that failed, when a move failed.
        final_fen: FEN after the last good move (``None`` when the start failed, or when
            the caller did not ask for it: ``replay_cache.replay_all(final_fen=False)``).
        checkmate: The final position is checkmate.
        stalemate: The final position is stalemate.
        insufficient_material: Neither side can mate (python-chess's rule for the variant).
        variant_end: The variant's own end is reached (three checks, king on the hill...).
        material_white: White's material, 1/3/3/5/9 (crazyhouse: board plus pocket).
        material_black: Black's material, likewise.
        status_agrees: Lichess's status agrees with the final position; ``None`` when the
            status makes no claim about it (resign, outoftime, draw...).
    """

    game_id: str
    valid: bool
    plies: int
    error: str | None
    error_ply: int | None
    bad_move: str | None
    final_fen: str | None
    checkmate: bool
    stalemate: bool
    insufficient_material: bool
    variant_end: bool
    material_white: int
    material_black: int
    status_agrees: bool | None

    def material(self, color: Color) -> int:
        """Material balance from ``color``'s side: own minus opponent's points."""
        diff = self.material_white - self.material_black
        return diff if color == "white" else -diff


def endings(game: Game, color: Color, facts: ReplayFacts) -> tuple[Ending, ...]:
    """How the game ended, from ``color``'s side: the facts the rating ignored.

    - ``lost_on_time_ahead``: lost on time (``outoftime``) while ahead by >= 3 points;
    - ``won_on_time_behind``: won on time while behind by >= 3 points;
    - ``resigned_not_behind``: resigned while level or ahead in material;
    - ``won_by_timeout`` / ``lost_by_timeout``: the opponent / the player left the game
      (Lichess status ``timeout``: the other side claimed the win);
    - ``decided_quickly``: a decisive result within 10 plies.

    Material and ply counts are only trusted when the replay is valid.
    """
    found: list[Ending] = []
    winner = game.winner
    won = winner == color
    lost = winner is not None and not won
    status = game.status
    if facts.valid:
        material = facts.material(color)
        if status == "outoftime" and lost and material >= MATERIAL_MARGIN:
            found.append("lost_on_time_ahead")
        if status == "outoftime" and won and material <= -MATERIAL_MARGIN:
            found.append("won_on_time_behind")
        if status == "resign" and lost and material >= 0:
            found.append("resigned_not_behind")
    if status == "timeout" and won:
        found.append("won_by_timeout")
    if status == "timeout" and lost:
        found.append("lost_by_timeout")
    if facts.valid and winner is not None and game.finished and facts.plies <= QUICK_PLIES:
        found.append("decided_quickly")
    return tuple(found)
