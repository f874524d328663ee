"""The ending rules written once (``core.replay_facts``): the antichess stalemate, read the
same by the replay and by the PGN reader, and the endings' words, the same in ``games`` and
in the report."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import get_args

from lichess_elo.core.games import Game, Side
from lichess_elo.core.replay import replay_game
from lichess_elo.core.replay_facts import ENDING_WORDS, Ending, stalemate_status
from lichess_elo.core.report.summary import ENDING_LABELS as REPORT_LABELS
from lichess_elo.output.games import ENDING_LABELS as GAMES_LABELS
from lichess_elo.sources.pgn import read_pgn

#: White a2 against Black a4: after 1. a3 Black's pawn is blocked and Black has no move,
#: a stalemate.
BLOCKED = "8/8/8/8/p7/8/P7/8 w - - 0 1"


def _pgn(variant: str) -> str:
    return f"""[Event "Rated {variant} game"]
[Site "https://lichess.org/abcdefgh"]
[UTCDate "2024.01.01"]
[UTCTime "00:00:00"]
[White "a"]
[Black "b"]
[Result "{"0-1" if variant == "Antichess" else "1/2-1/2"}"]
[Variant "{variant}"]
[TimeControl "180+0"]
[FEN "{BLOCKED}"]
[SetUp "1"]
[Termination "Normal"]

1. a3 *
"""


def test_stalemate_status() -> None:
    assert stalemate_status("antichess") == "variantEnd"
    assert stalemate_status("chess") == "stalemate"  # python-chess's name of standard
    assert stalemate_status("standard") == "stalemate"
    assert stalemate_status(None) == "stalemate"


def test_the_replay_and_the_pgn_reader_read_an_antichess_stalemate_alike() -> None:
    game = Game(
        id="abcdefgh",
        rated=True,
        variant="antichess",
        speed="blitz",
        perf="antichess",
        created_at=datetime(2024, 1, 1, tzinfo=UTC),
        status="variantEnd",
        white=Side(),
        black=Side(),
        winner="black",  # the stalemated side wins antichess
        moves=("a3",),
        initial_fen=BLOCKED,
    )
    facts = replay_game(game)
    assert facts.valid and facts.stalemate and facts.variant_end and facts.status_agrees
    (read,) = read_pgn(_pgn("Antichess"))
    assert read.status == "variantEnd"
    (standard,) = read_pgn(_pgn("From Position"))
    assert standard.status == "stalemate"


def test_every_ending_is_worded_once_for_both_views() -> None:
    assert tuple(ENDING_WORDS) == get_args(Ending)
    # the words as the games table and the report printed them before they were shared
    assert GAMES_LABELS == {
        "lost_on_time_ahead": "lost on time, ahead",
        "won_on_time_behind": "won on time, behind",
        "resigned_not_behind": "resigned, not behind",
        "won_by_timeout": "opponent left",
        "lost_by_timeout": "left the game",
        "decided_quickly": "within 10 plies",
    }
    assert REPORT_LABELS == {
        "lost_on_time_ahead": "losses on time while 3+ points of material ahead",
        "won_on_time_behind": "wins on time while 3+ points of material behind",
        "resigned_not_behind": "resignations while not behind in material",
        "won_by_timeout": "wins by the opponent leaving the game",
        "lost_by_timeout": "losses by leaving the game",
        "decided_quickly": "games decided within 10 plies",
    }
